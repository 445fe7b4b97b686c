"""Registries and type resolution (R-2.2, R-2.4)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from assay import registry
from assay.errors import RegistryError
from assay.registry import ICL_EVALUATORS, TEXT_POSTPROCESSORS, Registry, resolve_type


def test_register_under_own_name_and_other_names() -> None:
    reg = Registry("T")

    @reg.register_module()
    def alpha(x: str) -> str:
        return x

    @reg.register_module(["b-name", "beta"])
    def beta(x: str) -> str:
        return x

    assert reg.get("alpha") is alpha
    assert reg.get("b-name") is beta and reg.get("beta") is beta
    assert reg.names() == ["alpha", "b-name", "beta"]


def test_duplicate_registration_of_a_different_object_is_an_error() -> None:
    reg = Registry("T")
    reg.register("x", len)
    reg.register("x", len)  # same object again: fine
    with pytest.raises(RegistryError, match=r"T: the name 'x' is already registered to builtins\.len"):
        reg.register("x", sum)


def test_resolution_of_class_function_name_and_dotted_path() -> None:
    from assay.evaluators.exact import AccEvaluator

    assert resolve_type(AccEvaluator, ICL_EVALUATORS) is AccEvaluator
    assert resolve_type("AccEvaluator", ICL_EVALUATORS) is AccEvaluator
    assert resolve_type("assay.evaluators.exact.AccEvaluator", ICL_EVALUATORS) is AccEvaluator
    assert resolve_type("assay.evaluators.exact:AccEvaluator", ICL_EVALUATORS) is AccEvaluator
    assert resolve_type("opencompass.openicl.icl_evaluator.AccEvaluator", ICL_EVALUATORS) is AccEvaluator


def test_unresolvable_type_names_key_registry_and_close_names() -> None:
    with pytest.raises(RegistryError) as info:
        resolve_type("first_captal", TEXT_POSTPROCESSORS, key="pred_postprocessor.type")
    msg = str(info.value)
    assert "pred_postprocessor.type='first_captal'" in msg
    assert "TEXT_POSTPROCESSORS" in msg
    assert "'first_capital_postprocess'" in msg or "'first-capital'" in msg


def test_bad_dotted_path_says_why() -> None:
    with pytest.raises(RegistryError, match=r"cannot be imported as a dotted path"):
        resolve_type("no_such_pkg.mod.fn", TEXT_POSTPROCESSORS)


def test_non_string_non_callable_type() -> None:
    with pytest.raises(RegistryError, match="expected a class, a function"):
        resolve_type(42, ICL_EVALUATORS)


def test_build_instantiates_with_kwargs() -> None:
    ev = ICL_EVALUATORS.build({"type": "EMEvaluator"})
    assert type(ev).__name__ == "EMEvaluator"


def test_entry_point_plugins_are_loaded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A third-party package registers through the ``assay.plugins`` entry-point group."""
    (tmp_path / "assay_plugin_demo.py").write_text(
        "from assay.registry import TEXT_POSTPROCESSORS\n"
        "@TEXT_POSTPROCESSORS.register_module('plugin-upper')\n"
        "def upper(text):\n    return text.upper()\n"
    )
    dist = tmp_path / "assay_plugin_demo-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: assay-plugin-demo\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[assay.plugins]\ndemo = assay_plugin_demo\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    reg = Registry("P")
    reg.lookup("anything")  # first lookup loads plugins
    assert TEXT_POSTPROCESSORS.get("plugin-upper")("abc") == "ABC"
    sys.modules.pop("assay_plugin_demo", None)


def test_a_fallback_answers_the_names_no_registry_holds() -> None:
    """``set_fallback``: asked last, with the registry's name; a stand-in it gives yields to a registered implementation."""
    from assay.evaluators.exact import AccEvaluator

    class Standin:
        _assay_standin = True
        _assay_dotted = "elsewhere.AccEvaluator"

    asked: list[tuple[str, str]] = []

    def fallback(registry_name: str, name: str) -> object:
        asked.append((registry_name, name))
        return {"LengthOf": len, "OldAcc": Standin}.get(name)

    previous = registry.set_fallback(fallback)
    try:
        assert resolve_type("AccEvaluator", ICL_EVALUATORS) is AccEvaluator and asked == []  # the registry first
        assert resolve_type("LengthOf", ICL_EVALUATORS) is len
        assert asked == [("ICL_EVALUATORS", "LengthOf")]
        assert resolve_type("OldAcc", ICL_EVALUATORS) is AccEvaluator
        with pytest.raises(RegistryError, match=r"type='Nowhere' is not a registered name in registry ICL_EVALUATORS"):
            resolve_type("Nowhere", ICL_EVALUATORS)
    finally:
        assert registry.set_fallback(previous) is fallback


def test_the_names_opencompass_registers_come_from_the_opencompass_layer(tmp_path: Path) -> None:
    """The registry imports nothing above it: alone it does not know the names OpenCompass registers; the
    OpenCompass layer (assay.opencompass) answers them once imported — as the command line does."""
    import json
    import os
    import subprocess

    table = json.loads((Path(registry.__file__).parent / "opencompass" / "opencompass_names.json").read_text())
    name = next(n for n in sorted(table["registered"]["ICL_EVALUATORS"]) if ICL_EVALUATORS.lookup(n) is None)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    alone = (
        "import sys\n"
        "from assay.errors import RegistryError\n"
        "from assay.registry import ICL_EVALUATORS\n"
        "try:\n"
        f"    ICL_EVALUATORS.get({name!r})\n"
        "except RegistryError:\n"
        "    pass\n"
        "else:\n"
        "    raise SystemExit('resolved by the registry alone')\n"
        "assert 'assay.opencompass' not in sys.modules, 'the registry imported the OpenCompass layer'\n"
        "import assay.opencompass\n"
        f"print(ICL_EVALUATORS.get({name!r}).__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", alone], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0 and done.stdout.strip() == name, done.stdout + done.stderr

    (tmp_path / "d.jsonl").write_text('{"q": "x", "answer": "A"}\n')
    (tmp_path / "preds").mkdir()
    (tmp_path / "preds" / "x.json").write_text('{"0": {"prediction": "A"}}')
    (tmp_path / "cfg.py").write_text(
        "datasets = [dict(abbr='x', type='JsonlDataset', path='d.jsonl', reader_cfg=dict(input_columns=['q'], output_column='answer'),\n"
        f"                 eval_cfg=dict(evaluator=dict(type={name!r})))]\n"
        "models = [dict(abbr='m', predictions='preds')]\n"
    )
    cli = [sys.executable, "-m", "assay", "eval", str(tmp_path / "cfg.py"), "-w", str(tmp_path / "w"), "--dry-run"]
    done = subprocess.run(cli, capture_output=True, text=True, env=env, check=False)
    assert f"evaluator {name} [stand-in]" in done.stdout or f"evaluator {name} [OpenCompass]" in done.stdout, done.stdout + done.stderr


def _isolated_path(monkeypatch: pytest.MonkeyPatch, *entries: Path) -> None:
    """``sys.path`` of only ``entries``, and the standard finders only."""
    from importlib.machinery import PathFinder

    monkeypatch.setattr(sys, "path", [str(e) for e in entries])
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if f is PathFinder or not hasattr(f, "find_distributions")])


def _dist(folder: Path, name: str, entry_points: str | None) -> None:
    dist = folder / f"{name}-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    if entry_points is not None:
        (dist / "entry_points.txt").write_text(entry_points)


def test_without_a_declared_plugin_the_package_metadata_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No distribution declares the ``assay.plugins`` group: the first lookup never asks :mod:`importlib.metadata`
    (slow to import and to scan); one that does, in any spelling of its header, is read as before."""
    import importlib.metadata

    _dist(tmp_path, "other_tool", "[console_scripts]\nother = other_tool:main\n")
    _dist(tmp_path, "no_entry_points", None)
    _isolated_path(monkeypatch, tmp_path, tmp_path / "not-there")

    def read(**_: object) -> list[object]:
        raise AssertionError("importlib.metadata.entry_points was read")

    monkeypatch.setattr(importlib.metadata, "entry_points", read)
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    Registry("P").lookup("anything")
    assert not registry._may_declare_plugins()
    _dist(tmp_path, "a_plugin", "[console_scripts]\nx = y:z\n\n  [[assay.plugins]]  \ndemo = a_plugin\n")
    assert registry._may_declare_plugins()


@pytest.mark.parametrize("entry", ["plugins.zip", "old_plugin-1.0-py3.11.egg"])
def test_a_path_entry_the_quick_look_cannot_read_means_reading_the_metadata(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry: str) -> None:
    """A zip or an egg on ``sys.path`` may hold a plugin the quick look cannot see: the metadata is read."""
    import zipfile

    (tmp_path / "plain").mkdir()
    if entry.endswith(".zip"):
        with zipfile.ZipFile(tmp_path / entry, "w") as zf:
            zf.writestr("demo-1.0.dist-info/entry_points.txt", "[assay.plugins]\ndemo = demo\n")
    else:
        (tmp_path / entry / "EGG-INFO").mkdir(parents=True)
    _isolated_path(monkeypatch, tmp_path / "plain")
    assert not registry._may_declare_plugins()
    _isolated_path(monkeypatch, tmp_path / "plain", tmp_path / entry)
    assert registry._may_declare_plugins()

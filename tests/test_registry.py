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

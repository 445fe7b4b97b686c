"""The extraction audit's pairs: the built-in ones, and declaring corrected counterparts of postprocessors."""

from __future__ import annotations

from pathlib import Path

import pytest

import assay.postprocess as pp
from assay.audit import (
    BUILTIN_PAIRS,
    Pair,
    corrected_counterpart,
    correction_for,
    declare_correction,
    declared_corrections,
    withdraw_correction,
)
from assay.cli import main
from assay.errors import ConfigError
from assay.postprocess.math import gsm8k_postprocess
from assay.registry import TEXT_POSTPROCESSORS
from tests.audit.test_run import FIXED, RUN, _result, _write_run
from tests.postprocess.test_opencompass_corpus import CALLS, REPLIES

pytestmark = pytest.mark.usefixtures("no_builtin_pairs")


@pytest.mark.builtin_pairs
def test_every_corrected_counterpart_is_a_builtin_pair() -> None:
    for name, entry in BUILTIN_PAIRS.items():
        c = correction_for(name)
        assert c == entry, name  # the declared pair is the table's, one type for both
        kept = entry.describe_options()["keep"]
        # the options the counterpart understands carry over; the others are dropped
        carried = c.corrected_config({"type": name, **{o: "x" for o in kept}, "unrelated": 1})
        assert carried == {"type": entry.corrected, **{o: "x" for o in kept}}


def test_a_pair_matches_every_name_of_the_official_function() -> None:
    c = declare_correction("gsm8k", "general_postprocess")
    try:
        assert declared_corrections()["gsm8k"] is c
        for spec in ("gsm8k", "gsm8k_postprocess", "assay.postprocess.math.gsm8k_postprocess", gsm8k_postprocess):
            assert correction_for(spec) is c, spec
        assert correction_for("gsm8k_dataset_postprocess") is None
        assert correction_for("no-such-postprocessor") is None
    finally:
        withdraw_correction("gsm8k")
    assert correction_for("gsm8k_postprocess") is None and "gsm8k" not in declared_corrections()


def test_option_mappings() -> None:
    renamed = Pair("a", "b", {"options": "letters", "cushion": None})
    assert renamed.corrected_config({"type": "a", "options": "AB", "cushion": False, "x": 1}) == {"type": "b", "letters": "AB", "x": 1}
    computed = Pair("a", "b", lambda opts: {"letters": opts.get("options", "ABCD").lower()})
    assert computed.corrected_config({"type": "a", "options": "AB"}) == {"type": "b", "letters": "ab"}
    assert Pair("a", "b").corrected_config({"type": "a", "k": 2}) == {"type": "b", "k": 2}
    with pytest.raises(ConfigError, match="returned list"):
        Pair("a", "b", lambda opts: [1]).corrected_options({})  # type: ignore[arg-type,return-value]
    with pytest.raises(ConfigError, match="map option names"):
        declare_correction("gsm8k", "general_postprocess", options={"a": 3})  # type: ignore[dict-item]


@pytest.mark.builtin_pairs
def test_each_counterpart_is_registered_and_reads_some_reply_differently() -> None:
    for name, entry in BUILTIN_PAIRS.items():
        assert TEXT_POSTPROCESSORS.get(name) is getattr(pp, name)
        assert TEXT_POSTPROCESSORS.get(entry.registered) is getattr(pp, entry.corrected)
        calls = [c for c in CALLS if c["fn"] == name]
        assert calls, name
        differs = False
        for call in calls:
            assert set(call["kwargs"]) <= set(entry.describe_options()["keep"]), (name, call["kwargs"])
            fixed = corrected_counterpart(name, call["kwargs"])
            assert fixed is not None
            oc = getattr(pp, name)
            differs = differs or any(fixed(r["text"]) != oc(r["text"], **call["kwargs"]) for r in REPLIES)
        assert differs, f"{entry.corrected} reads every reply of the corpus as {name} does"


def test_no_counterpart_for_postprocessors_without_known_bugs() -> None:
    assert corrected_counterpart("general") is None
    assert corrected_counterpart(pp.first_capital_postprocess) is None
    assert corrected_counterpart("no-such-postprocessor") is None


def test_declarations_are_checked() -> None:
    with pytest.raises(ConfigError, match="official must be"):
        declare_correction("", FIXED)
    with pytest.raises(ConfigError, match="options must"):
        declare_correction("gsm8k_postprocess", FIXED, options=3)  # type: ignore[arg-type]
    declare_correction("gsm8k_postprocess", FIXED)
    try:
        with pytest.raises(ConfigError, match="already has the corrected counterpart"):
            declare_correction("gsm8k_postprocess", "tests-gsm8k-same")
    finally:
        withdraw_correction("gsm8k_postprocess")


def test_a_config_file_can_declare_its_own_pair(tmp_path: Path) -> None:
    """Declared while the config loads (a mapping function included): seen by the forked workers, and loading again is no conflict."""
    cfg = _write_run(tmp_path)
    cfg.write_text(
        "from assay.audit import declare_correction\n"
        "def same_options(options):\n"
        "    return dict(options)\n"
        f"declare_correction('gsm8k_postprocess', {FIXED!r}, options=same_options)\n" + cfg.read_text()
    )
    try:
        assert main(["eval", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "2"]) == 0
        assert main(["eval", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "2"]) == 0  # loaded again
    finally:
        withdraw_correction("gsm8k_postprocess")
    audit = _result(tmp_path)["extraction_audit"]
    assert audit["corrections"][0]["corrected"] == FIXED and audit["differ"] > 0


def test_an_entry_point_plugin_declares_its_pair_from_the_audit_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A third-party package (an ``assay.plugins`` entry point) declares a pair with ``assay.audit.declare_correction``:
    the eval audits the OpenCompass-named postprocessor with it."""
    import sys

    from assay import registry

    (tmp_path / "assay_pair_plugin.py").write_text(
        "from assay.audit import declare_correction\n"
        "from assay.registry import TEXT_POSTPROCESSORS\n"
        "@TEXT_POSTPROCESSORS.register_module('plugin-gsm8k-last')\n"
        "def last_number(text):\n"
        "    import re\n"
        "    found = re.findall(r'\\d[\\d,]*', str(text))\n"
        "    return found[-1].replace(',', '') if found else ''\n"
        "declare_correction('gsm8k_postprocess', 'plugin-gsm8k-last')\n"
    )
    dist = tmp_path / "assay_pair_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: assay-pair-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[assay.plugins]\npairs = assay_pair_plugin\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    try:
        registry.Registry("P").lookup("anything")  # the first lookup loads the plugins
        pair = correction_for("gsm8k_postprocess")
        assert pair is not None and pair.corrected == "plugin-gsm8k-last"
        cfg = _write_run(tmp_path)
        assert main(["eval", str(cfg), "-w", str(tmp_path / "work"), "-r", RUN, "--workers", "1"]) == 0
        audit = _result(tmp_path)["extraction_audit"]
        assert audit["corrections"][0]["corrected"] == "plugin-gsm8k-last" and audit["differ"] > 0
    finally:
        withdraw_correction("gsm8k_postprocess")
        sys.modules.pop("assay_pair_plugin", None)

"""Declaring corrected counterparts of postprocessors (the extraction audit's pairs)."""

from __future__ import annotations

import pytest

from assay.errors import ConfigError
from assay.postprocess.corrections import (
    Correction,
    correction_for,
    declare_correction,
    declared_corrections,
    withdraw_correction,
)
from assay.postprocess.math import gsm8k_postprocess
from assay.tasks.audit import audit_plan

pytestmark = pytest.mark.usefixtures("no_builtin_pairs")


@pytest.mark.builtin_pairs
def test_every_corrected_counterpart_is_a_builtin_pair() -> None:
    from assay.postprocess.counterparts import COUNTERPARTS

    for name, entry in COUNTERPARTS.items():
        c = correction_for(name)
        assert c is not None and c.corrected == entry.corrected, name
        # the options the counterpart understands carry over; the others are dropped
        carried = c.corrected_config({"type": name, **{o: "x" for o in entry.options}, "unrelated": 1})
        assert carried == {"type": entry.corrected, **{o: "x" for o in entry.options}}


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
    renamed = Correction("a", "b", {"options": "letters", "cushion": None})
    assert renamed.corrected_config({"type": "a", "options": "AB", "cushion": False, "x": 1}) == {"type": "b", "letters": "AB", "x": 1}
    computed = Correction("a", "b", lambda opts: {"letters": opts.get("options", "ABCD").lower()})
    assert computed.corrected_config({"type": "a", "options": "AB"}) == {"type": "b", "letters": "ab"}
    assert Correction("a", "b").corrected_config({"type": "a", "k": 2}) == {"type": "b", "k": 2}
    with pytest.raises(ConfigError, match="returned list"):
        Correction("a", "b", lambda opts: [1]).corrected_options({})  # type: ignore[arg-type,return-value]
    with pytest.raises(ConfigError, match="map option names"):
        declare_correction("gsm8k", "general_postprocess", options={"a": 3})  # type: ignore[dict-item]


def test_the_plan_names_each_level_with_a_counterpart() -> None:
    declare_correction("gsm8k_postprocess", "general_postprocess")
    try:
        plan = audit_plan(
            {"pred_postprocessor": {"type": "gsm8k"}},
            {"pred_postprocessor": {"type": "general_postprocess"}},
            {"pred_postprocessor": gsm8k_postprocess},  # a function object, as configs may give it
        )
        assert plan is not None
        assert [s["at"] for s in plan.describe()] == ["model pred_postprocessor", "eval_cfg.evaluator.pred_postprocessor"]
        assert plan.corrected_config(1) == {"type": "general_postprocess"}  # unchanged level: the official config
        assert audit_plan({}, {"pred_postprocessor": {"type": "general_postprocess"}}, {}) is None
    finally:
        withdraw_correction("gsm8k_postprocess")

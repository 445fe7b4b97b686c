"""Which pairs apply to a task, and where: the audit plan of its postprocessor chain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assay.audit import audit_plan, declare_correction, withdraw_correction
from assay.postprocess.math import gsm8k_postprocess
from assay.registry import TEXT_POSTPROCESSORS
from tests.audit.test_run import FIXED, _eval, _result, _write_run, fixed_gsm8k

__all__ = ["fixed_gsm8k"]

pytestmark = pytest.mark.usefixtures("no_builtin_pairs")


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


def test_the_counterpart_is_resolved_once_per_task(tmp_path: Path, fixed_gsm8k: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The corrected counterpart is looked up by its registered name once per task: the audit's chains and
    the input fingerprint share it (the official postprocessor is resolved once with the task's setup too)."""
    cfg = _write_run(tmp_path, dataset_pp="dict(type='gsm8k')")
    cfg.write_text(cfg.read_text().replace("dict(type='general_postprocess')", "dict(type='gsm8k')"))
    looked_up: list[str] = []
    lookup = TEXT_POSTPROCESSORS.lookup

    def counting(name: str) -> Any:
        looked_up.append(name)
        return lookup(name)

    monkeypatch.setattr(TEXT_POSTPROCESSORS, "lookup", counting)
    assert _eval(cfg, tmp_path) == 0  # one worker: both tasks in this process
    assert _result(tmp_path, "plain")["extraction_audit"]["differ"] > 0
    assert looked_up.count(FIXED) == 2

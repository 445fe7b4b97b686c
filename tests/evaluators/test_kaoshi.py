"""Kaoshi's evaluator against OpenCompass 0.5.4's recordings (``scripts/record_oc_sci2.py``).

OpenCompass's ``KaoshiEvaluator`` writes no details; its ``score`` is compared.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.registry import ICL_EVALUATORS

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci2"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))["KaoshiEvaluator"]


@pytest.mark.parametrize("case", RECORDED, ids=[f"{c['question_type']}-{i}" for i, c in enumerate(RECORDED)])
def test_score_equals_opencompass(case: dict[str, Any]) -> None:
    result = ICL_EVALUATORS.get("KaoshiEvaluator")(question_type=case["question_type"]).score(
        list(case["predictions"]), list(case["references"]))
    details = result.pop("details")
    assert result == case["result"]
    assert len(details) == len(case["predictions"])
    points = sum(d["points"] for d in details) / sum(d["total"] for d in details) * 100
    assert points == pytest.approx(case["result"]["score"])


def test_unknown_question_type_and_empty_references_are_named() -> None:
    evaluator = ICL_EVALUATORS.get("KaoshiEvaluator")
    with pytest.raises(ValueError, match="question_type='essay' is not one of"):
        evaluator(question_type="essay")
    assert evaluator(question_type="single_choice").score(["A"], [[]]) == {
        "error": "KaoshiEvaluator: every reference is empty, so no points can be scored"}
    assert "prediction 0 is None" in evaluator(question_type="cloze").score([None], ["2"])["error"]

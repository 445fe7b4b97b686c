"""OpenCompass's MATH string functions and agent evaluator, on the vectors recorded from OpenCompass 0.5.4
(``tests/data/oc_families/mathqa/vectors.json``, written by ``scripts/record_oc_mathqa.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.evaluators import Gsm8kAgentEvaluator, IFEvaluator, TheoremQAEvaluatorV3
from assay.evaluators._mathstrings import math_is_equiv
from assay.postprocess.math import math_postprocess_v2, normalize_final_answer

VECTORS = json.loads((Path(__file__).resolve().parent.parent / "data" / "oc_families" / "mathqa" / "vectors.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("pred", "ref", "v1", "v2"), VECTORS["is_equiv"])
def test_math_is_equiv_matches_opencompass(pred: Any, ref: Any, v1: bool, v2: bool) -> None:
    assert (math_is_equiv(pred, ref, "v1"), math_is_equiv(pred, ref, "v2")) == (v1, v2)


@pytest.mark.parametrize(("text", "expected"), VECTORS["normalize_final_answer"])
def test_normalize_final_answer_matches_opencompass(text: str, expected: str) -> None:
    assert normalize_final_answer(text) == expected


@pytest.mark.parametrize(("text", "expected"), VECTORS["math_postprocess_v2"])
def test_math_postprocess_v2_matches_opencompass(text: str, expected: str) -> None:
    assert math_postprocess_v2(text) == expected


def test_gsm8k_agent_evaluator_matches_opencompass() -> None:
    vector = VECTORS["gsm8k_agent"]
    result = Gsm8kAgentEvaluator().score(vector["predictions"], vector["references"], vector["steps"])
    assert result == pytest.approx(vector["result"])


def test_ifevaluator_unknown_instruction_is_an_error_record() -> None:
    ref = {"key": 7, "prompt": "p", "instruction_id_list": ["no:such_check"], "kwargs": [{}]}
    result = IFEvaluator().score(["reply"], [ref], ["p"])
    assert "no:such_check" in result["error"] and "key 7" in result["error"]


def test_theoremqa_numeric_reference_that_is_not_a_number_is_an_error_record() -> None:
    result = TheoremQAEvaluatorV3().score(["1"], ["abc"], [{"Answer_type": "float"}])
    assert "'abc' is not a number" in result["error"]


def test_theoremqa_never_evaluates_code_from_a_reply() -> None:
    from assay.evaluators._theoremqa import number_it

    assert number_it("__import__('os').getcwd()") is None

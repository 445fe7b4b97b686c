"""Evaluators on hand-computed cases (tests/data/evaluators/cases.json) and OpenCompass's own fixtures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import assay.evaluators as ev
from assay.registry import ICL_EVALUATORS

CASES = json.loads((Path(__file__).resolve().parent.parent / "data" / "evaluators" / "cases.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_hand_computed_case(case: dict[str, Any]) -> None:
    evaluator = ICL_EVALUATORS.get(case["evaluator"])(**case["init"])
    result = evaluator.evaluate(k=1, n=1, original_dataset=None, **case["inputs"])
    assert "error" not in result, result
    for key, value in case["expected"].items():
        assert result[key] == pytest.approx(value, abs=1e-6), key
    details = result.get("details") or []
    if "expected_correct" in case:
        verdicts = [d.get("correct", d.get("is_correct"))[0] for d in details]
        assert verdicts == case["expected_correct"]
    if "expected_status" in case:
        assert [d["status"][0] for d in details] == case["expected_status"]
    if "predictions" in case["inputs"]:
        n = len(case["inputs"]["predictions"])
        assert result["extraction"]["total"] == n


def test_average_ppl_matches_opencompass_unit_test() -> None:
    # OpenCompass tests/openicl/test_average_ppl_evaluator.py: exactly this dict.
    assert ev.AveragePPLEvaluator().evaluate(k=1, n=1, original_dataset=[{"x": 1}], ppl=[2.0]) == {"average_ppl": 2.0}


def test_g_pass_toy_fixture_with_acc_evaluator() -> None:
    # Behaviour reference 1.4: 3 questions, n=4 runs laid out run-major, k=[2, 4].
    preds = list("ABX") + list("AXX") + list("ABC") + list("XBX")
    result = ev.AccEvaluator().evaluate(k=[2, 4], n=4, original_dataset=None, predictions=preds, references=list("ABC") * 4)
    expected = {
        "accuracy (4 runs average)": 58.333333,
        "G-Pass@2_0.0": 83.333333, "G-Pass@2_0.5": 83.333333, "G-Pass@2_1.0": 33.333333, "mG-Pass@2": 33.333333,
        "G-Pass@4_0.25": 100.0, "G-Pass@4_0.75": 66.666667, "G-Pass@4_1.0": 0.0, "mG-Pass@4": 33.333333,
    }
    for key, value in expected.items():
        assert result[key] == pytest.approx(value, abs=1e-5), key
    assert result["extraction"] == {"unextracted": 0, "total": 12}


@pytest.mark.parametrize("name", ["Gsm8kEvaluator", "MATHEvaluator", "BBHEvaluator", "AccwithDetailsEvaluator", "CircularEvaluator"])
def test_g_pass_uses_the_correctness_of_every_evaluator(name: str) -> None:
    preds = ["1", "2", "1", "x"]
    refs = ["1", "2"] * 2
    kwargs: dict[str, Any] = {"predictions": preds, "references": refs}
    if name == "BBHEvaluator":
        kwargs["predictions"] = [f"So the answer is {p}." for p in preds]
    if name == "CircularEvaluator":
        kwargs["test_set"] = [{"qid": i % 2, "circular_pattern": "AB"} for i in range(4)]
    result = ICL_EVALUATORS.get(name)().evaluate(k=2, n=2, original_dataset=None, **kwargs)
    # sample 0 right in both runs, sample 1 in one of two: G-Pass@2_1.0 = (1 + 0) / 2.
    assert result["G-Pass@2_1.0"] == pytest.approx(50.0)
    assert result["G-Pass@2_0.0"] == pytest.approx(100.0)


def test_extraction_counts_empty_predictions_after_postprocessing() -> None:
    evaluator = ev.AccEvaluator(pred_postprocessor={"type": "first_option_postprocess", "options": "ABCD", "cushion": False})
    result = evaluator.evaluate(k=1, n=1, original_dataset=None, predictions=["答案是 B", "no idea", "The answer is (C)."], references=["B", "A", "D"])
    assert result["extraction"] == {"unextracted": 1, "total": 3}
    assert result["accuracy"] == pytest.approx(100 / 3)


def test_circular_evaluator_reads_a_datasets_test_set() -> None:
    from datasets import Dataset

    test_set = Dataset.from_list([{"qid": q, "circular_pattern": list(p)} for q in (0, 1) for p in ("ABCD", "BCDA", "CDAB", "DABC")])
    preds = ["A"] * 4 + ["A", "B", "A", "A"]
    refs = ["A"] * 8
    result = ev.CircularEvaluator().evaluate(k=1, n=1, original_dataset=test_set, predictions=preds, references=refs, test_set=test_set)
    assert result["perf_circular"] == pytest.approx(50.0)
    assert result["more_3_circular"] == pytest.approx(100.0)
    assert result["acc_circular"] == pytest.approx(87.5)


def test_circular_evaluator_without_its_columns_is_an_error_record() -> None:
    result = ev.CircularEvaluator().evaluate(k=1, n=1, original_dataset=None, predictions=["A"], references=["A"], test_set=[{"question": "q"}])
    assert result == {"error": "CircularEvaluator: the test set needs the columns 'circular_pattern' and 'qid'"}


@pytest.mark.parametrize(
    ("name", "inputs", "message"),
    [
        ("AUCROCEvaluator", {"predictions": [[0.1, 0.9], [0.3, 0.7]], "references": [1, 1]}, "undefined"),
        ("AUCROCEvaluator", {"predictions": ["A", "B"], "references": [0, 1]}, "class probabilities"),
        ("AUCROCEvaluator", {"predictions": [[0.1, 0.9], [0.3, 0.7]], "references": [0, 2]}, "0 or 1"),
        ("AveragePPLEvaluator", {"ppl": [1.0, float("inf")]}, "finite number"),
        ("BPCEvaluator", {"loss": [1.0, 2.0], "total_chr_num": [10, 20]}, "corpus character count"),
        ("BPCEvaluator", {"loss": [1.0], "total_chr_num": [0]}, "positive"),
    ],
)
def test_undefined_cases_are_error_records(name: str, inputs: dict[str, Any], message: str) -> None:
    result = ICL_EVALUATORS.get(name)().evaluate(k=1, n=1, original_dataset=None, **inputs)
    assert set(result) == {"error"} and message in result["error"] and name in result["error"]


def test_bleu_padding_of_references_is_neutral() -> None:
    preds = ["the cat sat on the mat", "a quick brown dog"]
    padded = ev.BleuEvaluator().score(preds, [["the cat is on the mat", "a cat sat on a mat"], "the quick brown fox"])
    explicit = ev.BleuEvaluator().score(preds, [["the cat is on the mat", "a cat sat on a mat"], ["the quick brown fox", "the quick brown fox"]])
    assert padded["score"] == pytest.approx(explicit["score"])
    assert 0 < padded["score"] < 100


def test_rouge_takes_the_best_of_several_references() -> None:
    single = ev.RougeEvaluator().score(["the cat sat"], ["a dog ran"])["rouge1"]
    multi = ev.RougeEvaluator().score(["the cat sat"], [["a dog ran", "the cat sat"]])["rouge1"]
    assert single == 0.0 and multi == 100.0


def test_evaluators_forward_their_postprocessor() -> None:
    for cls in (ev.AccEvaluator, ev.EMEvaluator, ev.Gsm8kEvaluator, ev.MATHEvaluator, ev.BleuEvaluator):
        evaluator = cls(pred_postprocessor={"type": "first-capital"})
        assert evaluator.pred_postprocess(["abCd"]) == ["C"]


def test_heavy_libraries_are_not_imported_by_the_packages() -> None:
    import subprocess
    import sys

    code = (
        "import sys, assay.postprocess, assay.evaluators\n"
        "heavy = [m for m in ('sacrebleu', 'rouge_score', 'jieba', 'math_verify', 'sympy', 'numpy', 'scipy') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""

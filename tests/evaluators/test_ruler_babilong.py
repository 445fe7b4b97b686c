"""RULER's and BABILong's evaluators as OpenCompass 0.5.4 computes them: the rules a user would notice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.evaluators.babilong import BabiLongEvaluator, compare_answers
from assay.evaluators.ruler import RulerCweEvaluator, RulerNiahEvaluator, RulerQaEvaluator
from assay.registry import ICL_EVALUATORS

FAMILIES = Path(__file__).resolve().parents[1] / "data" / "oc_families"


def test_the_opencompass_names_resolve_to_these_evaluators() -> None:
    for name in ("RulerNiahEvaluator", "RulerVtEvaluator", "RulerCweEvaluator", "RulerFweEvaluator", "RulerQaEvaluator", "BabiLongEvaluator"):
        assert ICL_EVALUATORS.get(name).__module__.startswith("assay.evaluators."), name


def test_ruler_gives_partial_credit_per_reference_found() -> None:
    result = RulerNiahEvaluator().score(["found 111 and 333", "ALPHA-beta", ""], [["111", "222", "333"], ["alpha-BETA"], ["9"]])
    # (2/3 + 1 + 0) / 3 * 100, rounded to two decimals
    assert result["score"] == 55.56
    assert [d["score"] for d in result["details"]] == [pytest.approx(2 / 3), 1.0, 0.0]
    assert [d["correct"] for d in result["details"]] == [False, True, False]


def test_ruler_qa_counts_a_sample_right_when_any_answer_is_found() -> None:
    result = RulerQaEvaluator().score(["It is in Zürich.", "Lima?"], [["ZÜRICH", "Zurich"], ["Lagos"]])
    assert result["score"] == 50.0


def test_a_gold_string_is_read_character_by_character_as_in_opencompass() -> None:
    # OpenCompass iterates the references of a sample: a string gives its characters
    assert RulerCweEvaluator().score(["ab"], ["abcd"])["score"] == 50.0


def test_an_empty_gold_list_fails_as_in_opencompass() -> None:
    with pytest.raises(ZeroDivisionError):
        RulerNiahEvaluator().score(["x"], [[]])
    with pytest.raises(ValueError):
        RulerQaEvaluator().score(["x"], [[]])


def test_babilong_reads_only_the_first_sentence_before_any_example() -> None:
    assert compare_answers("Garden", "it is in the GARDEN. really")
    assert not compare_answers("garden", "I think. It is garden")
    assert not compare_answers("garden", "<example>garden</example>")
    assert compare_answers("no", "not sure")  # substring, as in OpenCompass


def test_babilong_reads_the_first_element_of_gold() -> None:
    result = BabiLongEvaluator().score(["The bottle is in the office.", "kitchen", "k"], [["office"], ["hall"], "kitchen"])
    assert result["score"] == 66.67  # the plain string 'kitchen' is read as 'k'
    assert [d["answer"] for d in result["details"]] == ["office", "hall", "k"]


def test_babilong_refuses_gold_of_another_length() -> None:
    with pytest.raises(ValueError, match="2 predictions but 1 gold"):
        BabiLongEvaluator().score(["a", "b"], [["a"]])


@pytest.mark.parametrize("family", ["ruler", "babilong"])
def test_each_recorded_dataset_scores_what_opencompass_wrote(family: str) -> None:
    expected = json.loads((FAMILIES / family / "expected.json").read_text(encoding="utf-8"))
    for abbr, entry in expected["datasets"].items():
        records = json.loads((FAMILIES / family / "predictions" / f"{abbr}.json").read_text(encoding="utf-8"))
        name = {"niah": "RulerNiahEvaluator", "vt": "RulerVtEvaluator", "cwe": "RulerCweEvaluator", "fwe": "RulerFweEvaluator",
                "qa": "RulerQaEvaluator"}.get(abbr.split("_")[1], "BabiLongEvaluator")
        preds = [r["prediction"] for r in records.values()]
        gold = [r["gold"] for r in records.values()]
        result = ICL_EVALUATORS.get(name)().evaluate(k=1, n=1, original_dataset=None, predictions=preds, gold=gold)
        assert result["score"] == entry["result"]["score"], abbr


@pytest.mark.parametrize("name", ["RulerVtEvaluator", "RulerQaEvaluator", "BabiLongEvaluator"])
def test_a_record_without_gold_fails_naming_the_sample(name: str) -> None:
    evaluator = ICL_EVALUATORS.get(name)()
    with pytest.raises(ValueError, match=rf"{name}: sample 1 has no `gold` in its prediction record"):
        evaluator.evaluate(k=1, n=1, original_dataset=None, predictions=["a", "b"], gold=[["a"], None])

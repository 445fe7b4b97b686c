"""Evaluators declare which per-sample field backs each metric; those that declare nothing are read as before."""

from __future__ import annotations

from typing import Any

from assay.evaluate import BaseEvaluator, SampleOutcome
from assay.stats import outcome_of, sample_values
from assay.stats._samples import SampleValues

# `correct` here is something else (say, the format was right); the verdict is `is_correct`
DETAILS = [{"correct": [True], "is_correct": [i % 4 == 0]} for i in range(8)]


def _result(meta: dict[str, Any]) -> dict[str, Any]:
    return {"accuracy": 25.0, "details": DETAILS, "_meta": meta}


def test_a_declared_verdict_field_backs_the_metric() -> None:
    declared = SampleOutcome(correct="is_correct")
    sv = sample_values(_result({"outcome": declared.to_json()}), "accuracy")
    assert isinstance(sv, SampleValues) and sv.basis == "correct" and float(sv.units.mean()) == 0.25


def test_without_a_declaration_the_usual_fields_are_read_as_before() -> None:
    assert sample_values(_result({}), "accuracy") == "accuracy = 25 is not 100 × mean(correct) = 100 of the details"
    plain = {"accuracy": 50.0, "details": [{"correct": [True]}, {"correct": [False]}]}
    sv = sample_values(plain, "accuracy")
    assert isinstance(sv, SampleValues) and sv.basis == "correct"


def test_declared_score_fields_and_older_sample_score_fields() -> None:
    class Graded(BaseEvaluator):
        sample_outcome = SampleOutcome(scores={"quality": "grade"})

        def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
            grades = [0.5 if p == r else 0.0 for p, r in zip(predictions, references)]
            return {"quality": 100 * sum(grades) / len(grades), "details": [{"grade": g} for g in grades]}

    class Older(BaseEvaluator):
        sample_score_fields = {"quality": "grade"}

    assert SampleOutcome.of(Older) == SampleOutcome(scores={"quality": "grade"})
    assert SampleOutcome.of(BaseEvaluator) is None
    result = Graded().evaluate(k=1, n=1, original_dataset=None, predictions=["a", "b", "c", "x"], references=["a", "b", "c", "d"])
    outcome = SampleOutcome.of(Graded)
    assert outcome is not None
    result["_meta"] = {"outcome": outcome.to_json()}
    sv = sample_values(result, "quality")
    assert isinstance(sv, SampleValues) and sv.basis == "details.grade"
    assert outcome_of(result) == outcome


def test_built_in_evaluators_declare_their_fields() -> None:
    from assay.evaluators import AccEvaluator, AccwithDetailsEvaluator, BleuEvaluator, CascadeEvaluator

    assert AccEvaluator.sample_outcome == SampleOutcome(correct="correct")
    assert AccwithDetailsEvaluator.sample_outcome == SampleOutcome(correct="is_correct")
    assert CascadeEvaluator.sample_outcome == SampleOutcome(correct="cascade_correct")
    assert BleuEvaluator.sample_outcome is not None and BleuEvaluator.sample_outcome.scores == {"score": "<corpus bleu>"}
    # recorded in the result when it is scored, so that later passes need not know the class
    assert outcome_of({"_meta": {"evaluator": "AccwithDetailsEvaluator"}}) == SampleOutcome(correct="is_correct")

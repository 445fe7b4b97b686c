"""Evaluators declare which per-sample field backs each metric and which marks a sample unscorable;
those that declare nothing are read as before."""

from __future__ import annotations

from typing import Any

import pytest

from assay.evaluate import SANDBOX_UNSCORABLE, BaseEvaluator, SampleOutcome
from assay.stats import outcome_of, sample_values, unscorable_of
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


# -- unscorable samples: the declared field, else the usual ones ------------------------------------------


def _judged(meta: dict[str, Any]) -> dict[str, Any]:
    """Six samples; `judge_failed` here is an unrelated note, `no_verdict` the flag the evaluator declares."""
    details = [
        {"prediction": ["p"], "correct": [True], "judge_failed": ["retried"], "no_verdict": [False]},
        {"prediction": ["p"], "correct": [False], "judge_failed": [None], "no_verdict": [False]},
        {"prediction": ["p"], "correct": [None], "judge_failed": [None], "no_verdict": ["no reply"]},
        {"prediction": [""], "correct": [False], "judge_failed": [None], "no_verdict": [False]},
        {"prediction": ["p"], "correct": [True], "judge_failed": ["retried"], "no_verdict": [False]},
        {"prediction": ["p"], "correct": [False], "judge_failed": [None], "no_verdict": [False]},
    ]
    return {"accuracy": 100 / 3, "extraction": {"unextracted": 1, "total": 6}, "details": details, "_meta": meta}


def test_a_declared_flag_field_is_the_only_one_read() -> None:
    declared = SampleOutcome(correct="correct", unscorable="no_verdict")
    u = unscorable_of(_judged({"outcome": declared.to_json()}), [("accuracy", 100 / 3)])
    assert (u.judge_failed, u.unextracted, u.not_executed) == (1, 1, None)
    assert u.describe() == "1 of 6 not extracted, 1 of 6 not judged"
    assert u.bounds["accuracy"] == (100 / 3, 100 * 4 / 6)


def test_results_that_declare_no_unscorable_field_are_read_as_before() -> None:
    before = unscorable_of(_judged({}), [("accuracy", 100 / 3)])
    assert (before.judge_failed, before.unextracted) == (2, 1)  # the usual `judge_failed` field
    # a record written before the declaration had unscorable keys: the same
    old = unscorable_of(_judged({"outcome": {"correct": "correct", "scores": {}}}), [("accuracy", 100 / 3)])
    assert old == before
    # a user evaluator declaring only its verdict field
    class Mine(BaseEvaluator):
        sample_outcome = SampleOutcome(correct="correct")

    outcome = SampleOutcome.of(Mine)
    assert outcome is not None and outcome.unscorable is None
    assert unscorable_of(_judged({"outcome": outcome.to_json()}), [("accuracy", 100 / 3)]) == before


def _executed(meta: dict[str, Any]) -> dict[str, Any]:
    """Four programs (two candidates each); `outcome` is the sandbox's, `verdict` the evaluator's own status."""
    details = [
        {"is_correct": [[True, False]], "outcome": [["passed", "timeout"]], "verdict": [["pass", "fail"]]},
        {"is_correct": [[False, False]], "outcome": [["killed", "memory"]], "verdict": [["fail", "fail"]]},
        {"is_correct": [[True, True]], "outcome": [["passed", "passed"]], "verdict": [["pass", "pass"]]},
        {"is_correct": [[False, False]], "outcome": [["failed", "failed"]], "verdict": [["no-code", "fail"]]},
    ]
    return {"pass@1": 37.5, "details": details, "outcomes": [{"passed": 3, "failed": 2, "timeout": 1}], "_meta": meta}


def test_a_declared_status_field_maps_its_values_to_what_they_count_as() -> None:
    code = SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=SANDBOX_UNSCORABLE)
    u = unscorable_of(_executed({"outcome": code.to_json()}), [("pass@1", 37.5)])
    assert (u.not_executed, u.judge_failed, u.unextracted) == (3, None, None)
    assert u.bounds["pass@1"] == (37.5, 100 * (0.5 + 0.5 + 1 + 0 + 1) / 4)
    assert unscorable_of(_executed({}), [("pass@1", 37.5)]) == u  # the usual `outcome` field: the same

    own = SampleOutcome(correct="is_correct", unscorable="verdict", unscorable_values={"no-code": "unextracted"})
    v = unscorable_of(_executed({"outcome": own.to_json()}), [("pass@1", 37.5)])
    assert (v.unextracted, v.judge_failed, v.not_executed) == (1, None, 1)  # `not_executed` from the result's counts
    assert v.bounds["pass@1"] == (37.5, 100 * (0.5 + 0 + 1 + 1) / 4)


def test_a_status_that_says_what_was_not_extracted_replaces_the_empty_prediction_rule() -> None:
    verify = SampleOutcome(
        correct="correct", unscorable="status", unscorable_values={"pred_unparsable": "unextracted", "timeout": "judge_failed"}
    )
    details = [
        {"pred": ["[]"], "correct": [False], "status": ["pred_unparsable"]},
        {"pred": [""], "correct": [False], "status": ["timeout"]},
        {"pred": ["[1]"], "correct": [True], "status": ["correct"]},
        {"pred": ["[2]"], "correct": [False], "status": ["wrong"]},
    ]
    result = {"accuracy": 25.0, "extraction": {"unextracted": 0, "total": 4}, "details": details}
    plain = unscorable_of(result, [("accuracy", 25.0)])
    assert (plain.unextracted, plain.judge_failed, plain.bounds) == (0, None, {})  # the empty `pred` disagrees: no bounds
    result["_meta"] = {"outcome": verify.to_json()}
    u = unscorable_of(result, [("accuracy", 25.0)])
    assert (u.unextracted, u.judge_failed) == (1, 1)
    assert u.bounds["accuracy"] == (25.0, 75.0)


def test_the_declaration_round_trips_and_rejects_unknown_kinds() -> None:
    code = SampleOutcome(correct="is_correct", unscorable="outcome", unscorable_values=SANDBOX_UNSCORABLE)
    assert SampleOutcome.from_json(code.to_json()) == code
    assert "unscorable" not in SampleOutcome(correct="correct").to_json()  # records stay as they were
    assert SampleOutcome.from_json({"correct": "c", "scores": {}, "unscorable": 3}) is None
    with pytest.raises(ValueError, match="'broken'"):
        SampleOutcome(unscorable="status", unscorable_values={"x": "broken"})
    with pytest.raises(ValueError, match="needs the field"):
        SampleOutcome(unscorable_values={"x": "unextracted"})

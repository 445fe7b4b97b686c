"""MATHVerifyEvaluator: bounded per-sample work in worker processes, recorded outcomes, real problems."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from assay.evaluators import MATHVerifyEvaluator
from assay.evaluators._mathverify_worker import run_checks
from tests.postprocess._cases import load_jsonl


def _slow_or_crashing_check(gold: str, pred: str) -> tuple[str, str, str]:
    """Stand-in for math-verify: 'hang' never finishes, 'crash' kills the worker, 'boom' raises."""
    if pred == "hang":
        time.sleep(3600)
    if pred == "crash":
        os._exit(3)
    if pred == "boom":
        raise ValueError("bad input")
    return ("correct" if gold == pred else "wrong"), pred, gold


def test_a_hanging_sample_times_out_and_the_rest_are_checked() -> None:
    items = [("1", "1"), ("2", "hang"), ("3", "3"), ("4", "5")]
    outcomes = run_checks(items, workers=1, timeout=0.5, check=_slow_or_crashing_check)
    assert [o.status for o in outcomes] == ["correct", "timeout", "correct", "wrong"]


def test_a_crashing_worker_is_replaced() -> None:
    items = [("1", "crash"), ("2", "2"), ("3", "boom"), ("4", "4")]
    outcomes = run_checks(items, workers=2, timeout=30, check=_slow_or_crashing_check)
    assert [o.status for o in outcomes] == ["error", "correct", "error", "correct"]
    assert "ValueError" in outcomes[2].message
    assert outcomes[0].message == "the math-verify worker died"


def test_the_component_named_is_the_one_in_messages(caplog: pytest.LogCaptureFixture) -> None:
    items = [("1", "crash"), ("2", "hang")]
    with caplog.at_level("WARNING", logger="assay.evaluators._mathverify_worker"):
        outcomes = run_checks(items, workers=2, timeout=1.0, check=_slow_or_crashing_check, component="a checker")
    assert [o.status for o in outcomes] == ["error", "timeout"]
    assert outcomes[0].message == "the a checker worker died"
    assert "a checker: sample 1 took more than 1.0 s" in caplog.text and "math-verify" not in caplog.text


def test_several_workers_keep_sample_order() -> None:
    items = [(str(i), str(i if i % 3 else -1)) for i in range(30)]
    outcomes = run_checks(items, workers=3, timeout=30, check=_slow_or_crashing_check)
    assert [o.correct for o in outcomes] == [bool(i % 3) for i in range(30)]


def test_unparsable_gold_is_a_recorded_outcome_counted_in_the_denominator() -> None:
    result = MATHVerifyEvaluator(workers=1).evaluate(
        k=1, n=1, original_dataset=None, predictions=["\\boxed{1}", "\\boxed{2}"], references=["1", "\\text{}"]
    )
    assert result["accuracy"] == pytest.approx(50.0)
    assert [d["status"][0] for d in result["details"]] == ["correct", "gold_unparsable"]
    assert [d["correct"][0] for d in result["details"]] == [True, False]


def test_timeout_must_be_positive() -> None:
    with pytest.raises(ValueError, match="timeout"):
        MATHVerifyEvaluator(timeout=0)


MMATH = load_jsonl("mmath_numeric.jsonl")


def _replies(cases: list[dict[str, Any]], shift: int) -> list[str]:
    out = []
    for c in cases:
        answer = c["expected"] if shift == 0 else str(int(float(c["expected"])) + shift)
        out.append(f"{c['question']}\n\nThe final answer is $\\boxed{{{answer}}}$.")
    return out


@pytest.mark.slow
def test_mmath_problems_verify_their_own_answer_and_reject_another() -> None:
    refs = [c["expected"] for c in MMATH]
    evaluator = MATHVerifyEvaluator()
    right = evaluator.evaluate(k=1, n=1, original_dataset=None, predictions=_replies(MMATH, 0), references=refs)
    wrong = evaluator.evaluate(k=1, n=1, original_dataset=None, predictions=_replies(MMATH, 1), references=refs)
    bad_right = [c["id"] for c, d in zip(MMATH, right["details"]) if not d["correct"][0]]
    bad_wrong = [c["id"] for c, d in zip(MMATH, wrong["details"]) if d["correct"][0]]
    assert bad_right == [] and bad_wrong == []
    assert right["accuracy"] == 100.0 and wrong["accuracy"] == 0.0


def test_workers_are_spawned_when_other_threads_run() -> None:
    import threading

    from assay.evaluators import _mathverify_worker as worker

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        assert worker._context().get_start_method() == "spawn"
        outcomes = run_checks([("2", "\\boxed{2}"), ("3", "\\boxed{4}")], workers=1, timeout=60)
    finally:
        stop.set()
        thread.join()
    assert [o.status for o in outcomes] == ["correct", "wrong"]

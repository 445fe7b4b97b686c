"""OpenCompass 0.5.4's math-verify evaluator module, one sample at a time (``opencompass.evaluator.math_evaluator``).

This module is what ``opencompass.evaluator.math_evaluator`` is when
:mod:`assay.opencompass` serves OpenCompass's names.  Its
:class:`MATHVerifyEvaluator` scores as OpenCompass's does: it calls
:func:`_verify_with_timeout` through this module's namespace for each sample
in turn (so that replacing that function, as tests do, reaches it), each
sample checked in a child process bounded by ``timeout`` seconds, and writes
OpenCompass's details: ``pred``, ``answer`` (the parsed forms), ``correct``;
a sample whose reference math-verify cannot parse is left out of the details
but counted in the accuracy's denominator, and a sample without a verdict
(timeout, error) has the reply (timeout) or the error's text (error) as its
``pred``.

assay's own ``MATHVerifyEvaluator`` (:mod:`assay.evaluators.math`, which
``opencompass.evaluator`` and ``opencompass.openicl`` serve, and which configs
use) gives the same accuracy with a pool of workers shared by the batch, a
detail for every sample and a ``status`` for each.
"""

from __future__ import annotations

from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._mathverify_worker import (
    STATUS_BAD_GOLD,
    STATUS_CORRECT,
    STATUS_ERROR,
    STATUS_TIMEOUT,
    check_one,
    run_checks,
)

__all__: list[str] = []  # served under OpenCompass's names only (assay.opencompass)

_DIED = "the math-verify worker died"


def _verify_worker(gold: str, pred: str) -> tuple[str, str, str, str]:
    """The check of one sample in the child: ``(status, parsed pred, parsed gold, error text)``.

    Parses and verifies as OpenCompass does (:func:`assay.evaluators._mathverify_worker.check_one`);
    an exception is an ``error`` with the exception's text.
    """
    try:
        status, pred_parsed, gold_parsed = check_one(gold, pred)
    except Exception as exc:
        return STATUS_ERROR, "", "", str(exc)
    return status, pred_parsed, gold_parsed, ""


def _verify_with_timeout(pred: str, ref: str, timeout: float = 10) -> dict[str, Any]:
    """Check one reply against one reference with math-verify in a child process, within ``timeout`` seconds.

    Returns, as OpenCompass's function does: ``{'timed_out': True}``,
    ``{'error': True}`` (the child ended without an answer) or
    ``{'error': True, 'msg': <the exception's text>}``, ``{'skipped': True}``
    (the reference cannot be parsed), else ``{'answer_correct': 1.0 or 0.0,
    'answer_parsed': ..., 'gold_parsed': ...}`` (the ``str`` of
    math-verify's parsed lists).
    """
    outcome = run_checks([(ref, pred)], workers=1, timeout=timeout, check=_verify_worker)[0]
    if outcome.status == STATUS_TIMEOUT:
        return {"timed_out": True}
    if outcome.status == STATUS_BAD_GOLD:
        return {"skipped": True}
    if outcome.status == STATUS_ERROR:
        return {"error": True} if outcome.message in (_DIED, "not checked") else {"error": True, "msg": outcome.message}
    correct = 1.0 if outcome.status == STATUS_CORRECT else 0.0  # wrong, or no answer in the reply
    return {"answer_correct": correct, "answer_parsed": outcome.pred, "gold_parsed": outcome.answer}


class MATHVerifyEvaluator(BaseEvaluator):
    """Math accuracy by math-verify, scored sample by sample as OpenCompass 0.5.4's ``MATHVerifyEvaluator``.

    Metric: ``accuracy`` in [0, 100] over all samples.  Details (see the
    module): ``pred``, ``answer``, ``correct``, none for a sample whose
    reference cannot be parsed.  Raises ``ImportError`` when math-verify or
    latex2sympy2_extended cannot be imported, as OpenCompass does.
    Predictions and references are paired by ``zip`` (OpenCompass checks
    their lengths but goes on).
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        try:
            from latex2sympy2_extended import NormalizationConfig  # noqa: F401
            from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify  # noqa: F401
        except ImportError:
            raise ImportError(
                "Failed to import required modules. Please install the necessary packages: "
                "pip install math_verify latex2sympy2_extended"
            ) from None
        correct = 0.0
        count = 0
        details: list[dict[str, Any]] = []
        for pred, ref in zip(predictions, references):
            count += 1
            result = _verify_with_timeout(pred, ref, timeout=10)  # looked up in the module at each call
            if result.get("timed_out") or result.get("error"):
                details.append({"pred": pred if result.get("timed_out") else result.get("msg", ""), "answer": ref, "correct": False})
                continue
            if result.get("skipped"):
                continue
            correct += result["answer_correct"]
            details.append({"pred": result["answer_parsed"], "answer": result["gold_parsed"], "correct": bool(result["answer_correct"])})
        return {"accuracy": 100 * correct / count, "details": details}

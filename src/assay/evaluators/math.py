"""Math evaluators: MATH string equivalence and math-verify symbolic equivalence (OpenCompass 0.5.4's)."""

from __future__ import annotations

import importlib.util
import logging
import os
from collections import Counter
from types import MappingProxyType
from typing import Any, ClassVar

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, percent, score_pairs
from assay.registry import ICL_EVALUATORS

__all__ = ["MATHEvaluator", "MATHVerifyEvaluator"]

logger = logging.getLogger(__name__)


@ICL_EVALUATORS.register_module()
class MATHEvaluator(BaseEvaluator):
    """MATH accuracy by normalized string equivalence, as OpenCompass 0.5.4 computes it.

    Inputs: ``predictions`` (usually after ``math_postprocess`` or
    ``math_postprocess_v2``) and ``references``.  A pair is correct when
    OpenCompass's ``is_equiv`` holds (see
    :func:`assay.evaluators._mathstrings.math_is_equiv`): equal after the MATH
    benchmark's ``strip_string`` (``version='v1'``) or OpenCompass's longer
    variant of it (``'v2'``: units, ``\\text``, ``%``, ``\\cdot``, trailing
    ``.0`` …), or after ``normalize_final_answer``, or plainly equal.  Purely
    syntactic: ``\\frac{2}{4}`` and ``\\frac{1}{2}`` differ.  OpenCompass's
    quirks are kept: two ``None`` are equivalent, ``0.5`` equals
    ``\\frac{1}{2}`` in v1 only, a number never equals the same number
    written as a string.  Metric: ``accuracy`` in [0, 100].  Details:
    ``pred``, ``answer``, ``correct``.

    >>> MATHEvaluator().score(['\\\\frac12', '7'], ['\\\\frac{1}{2}', '8'])['accuracy']
    50.0
    """

    sample_outcome: ClassVar[SampleOutcome | None] = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def __init__(self, version: str = "v1", pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if version not in ("v1", "v2"):
            raise ValueError(f"MATHEvaluator: version must be 'v1' or 'v2', got {version!r}")
        self.version = version

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        from assay.evaluators._mathstrings import math_is_equiv

        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        return score_pairs(self, predictions, references, lambda pred, ref: (pred, math_is_equiv(pred, ref, self.version)))


@ICL_EVALUATORS.register_module()
class MATHVerifyEvaluator(BaseEvaluator):
    """Math accuracy by symbolic equivalence with math-verify, as OpenCompass 0.5.4 computes it.

    Inputs: ``predictions`` (whole replies, or extracted answers) and
    ``references`` (answers in LaTeX or plain form).  Both are parsed by
    math-verify with OpenCompass's settings — the reference always wrapped in
    ``$…$``, the reply searched for LaTeX answers only (a ``\\boxed{}``
    first; a bare ``42`` outside math mode is not found) — then compared with
    ``verify(reply, reference)``, the argument order OpenCompass uses (see
    :func:`assay.evaluators._mathverify_worker.check_one`).
    Metric: ``accuracy`` in [0, 100], over *all* samples.

    Details per sample: ``pred`` and ``answer`` (the parsed forms),
    ``correct`` and ``status``, one of ``correct``, ``wrong``,
    ``pred_unparsable`` (no answer found in the reply), ``gold_unparsable``
    (the reference could not be parsed: the sample is recorded and counts as
    not correct — OpenCompass skips it silently and misaligns its details),
    ``timeout`` and ``error``.  A summary of non-verdicts is logged.  The
    statistics count ``pred_unparsable`` as not extracted and the other
    non-verdicts as not judged (see ``sample_outcome``).

    Each sample's parse and verify run in a worker process bounded by
    ``timeout`` seconds (default 10); a worker that overruns is killed and
    replaced, so one pathological sample cannot hang the run.  ``workers``
    processes (default: up to 4, no more than the CPUs) share the batch.

    >>> MATHVerifyEvaluator().score(['so $\\\\boxed{\\\\frac{1}{2}}$', 'it is $3$'], ['0.5', '4'])['accuracy']
    50.0
    """

    sample_outcome = SampleOutcome(
        correct="correct",
        unscorable="status",
        unscorable_values={
            "pred_unparsable": "unextracted",
            "gold_unparsable": "judge_failed",
            "timeout": "judge_failed",
            "error": "judge_failed",
        },
    )

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def __init__(self, timeout: float = 10.0, workers: int | None = None, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if timeout <= 0:
            raise ValueError(f"MATHVerifyEvaluator: timeout must be positive, got {timeout!r}")
        self.timeout = float(timeout)
        self.workers = workers if workers is not None else max(1, min(4, os.cpu_count() or 1))

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        if importlib.util.find_spec("math_verify") is None:
            return {"error": "MATHVerifyEvaluator: the math-verify package is not installed (pip install math-verify)"}
        from assay.evaluators._mathverify_worker import run_checks

        items = [(str(r), "" if p is None else str(p)) for p, r in zip(predictions, references)]
        outcomes = run_checks(items, workers=self.workers, timeout=self.timeout)
        details = []
        for (_gold, _pred), outcome in zip(items, outcomes):
            detail: dict[str, Any] = {
                "pred": outcome.pred,
                "answer": outcome.answer or _gold,
                "correct": outcome.correct,
                "status": outcome.status,
            }
            if outcome.message:
                detail["message"] = outcome.message
            details.append(detail)
        tally = Counter(o.status for o in outcomes)
        unusual = {k: v for k, v in tally.items() if k not in ("correct", "wrong", "pred_unparsable")}
        if unusual:
            logger.warning("MATHVerifyEvaluator: %d samples without a verdict: %s", sum(unusual.values()), dict(unusual))
        correct = tally.get("correct", 0)
        return {"accuracy": percent(correct, len(predictions)), "details": details}

"""PHYBench's evaluator as OpenCompass 0.5.4 computes it (``MathEEDEvaluator``).

Each reply's answer is the content of its first ``\\boxed{…}`` (nested braces
counted; the reply's last line when there is none or it is unclosed), scored
against the reference by the expression edit distance (EED,
:mod:`assay.evaluators._phybench_eed`): 100 when SymPy finds the two equal,
else ``max(0, 60 - 100 * distance / size)`` of their expression trees, 0 when
either cannot be converted.  The metric ``accuracy`` is the mean score (0 to
100).

LaTeX conversion and SymPy's simplification run in worker processes, within
OpenCompass's limits per step (``simplify`` 30 s, ``equals`` 10 s); a sample
still unscored after ``timeout`` seconds in all (default 300, where
OpenCompass would wait) scores 0, its details naming the limit.
"""

from __future__ import annotations

import json
import os
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, mean_of
from assay.registry import ICL_EVALUATORS

__all__ = ["MathEEDEvaluator", "extract_boxed_latex"]


def _last_line(text: str) -> str:
    lines = text.strip().split("\n")
    return lines[-1].strip()


def extract_boxed_latex(prediction: str) -> str:
    """The content of the first ``\\boxed{…}`` (stripped); the last line when there is none or it is unclosed.

    >>> extract_boxed_latex('So \\\\boxed{\\\\frac{a}{b}} m.'), extract_boxed_latex('work\\n v = 2 ')
    ('\\\\frac{a}{b}', 'v = 2')
    """
    start = prediction.find("\\boxed{")
    if start == -1:
        return _last_line(prediction)
    depth = 1
    for i in range(start + len("\\boxed{"), len(prediction)):
        depth += {"{": 1, "}": -1}.get(prediction[i], 0)
        if depth == 0:
            return prediction[start + len("\\boxed{") : i].strip()
    return _last_line(prediction)


def _eed_worker(reference: str, answer: str) -> tuple[str, str, str, str]:
    """One sample in a worker: ``(status, score as JSON, '', '')``."""
    from assay.evaluators._phybench_eed import eed

    score = eed(reference, answer)[0]
    return ("correct" if score == 100 else "wrong"), json.dumps(score), "", ""


@ICL_EVALUATORS.register_module()
class MathEEDEvaluator(BaseEvaluator):
    """PHYBench's EED score (metric ``accuracy``, the mean of the samples' scores, 0 to 100).

    Inputs: ``predictions`` (the replies) and ``references`` (LaTeX answers).
    Details, as OpenCompass's: ``pred`` (the reply), ``ref``, ``pred_clean``
    (the boxed answer read), ``score``; a sample not scored within ``timeout``
    seconds, or whose worker died, also has ``error``.
    """

    sample_outcome = SampleOutcome(scores={"accuracy": "score"})
    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("score", mean_of)})

    def __init__(self, timeout: float = 300.0, workers: int | None = None, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if timeout <= 0:
            raise ValueError(f"MathEEDEvaluator: timeout must be positive, got {timeout!r}")
        self.timeout = float(timeout)
        self.workers = workers if workers is not None else max(1, min(4, os.cpu_count() or 1))

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        from assay.evaluators._mathverify_worker import STATUS_TIMEOUT, run_checks

        problem = check_batch(self, predictions, references)
        if problem is not None:
            return problem
        for index, value in enumerate([*predictions, *references]):
            if not isinstance(value, str):
                side, n = ("prediction", index) if index < len(predictions) else ("reference", index - len(predictions))
                return {"error": f"MathEEDEvaluator: sample {n}: the {side} is {type(value).__name__} {value!r}, not text"}
        cleaned = [extract_boxed_latex(p) for p in predictions]
        outcomes = run_checks(list(zip(references, cleaned)), workers=self.workers, timeout=self.timeout, check=_eed_worker,
                              component="PHYBench EED")
        details: list[dict[str, Any]] = []
        for pred, ref, clean, outcome in zip(predictions, references, cleaned, outcomes):
            detail: dict[str, Any] = {"pred": pred, "ref": ref, "pred_clean": clean}
            if outcome.status in ("correct", "wrong"):
                detail["score"] = json.loads(outcome.pred)
            else:
                detail["score"] = 0
                detail["error"] = f"no score within {self.timeout:g} s" if outcome.status == STATUS_TIMEOUT else (outcome.message or outcome.status)
            details.append(detail)
        return {"accuracy": sum(d["score"] for d in details) / len(details), "details": details}

"""QuALITY's evaluator as OpenCompass 0.5.4 computes it (``QuALITYEvaluator``)."""

from __future__ import annotations

from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples
from assay.registry import ICL_EVALUATORS

__all__ = ["QuALITYEvaluator"]


@ICL_EVALUATORS.register_module()
class QuALITYEvaluator(BaseEvaluator):
    """QuALITY accuracy overall and by difficulty: a prediction is right when it equals its reference.

    Inputs: ``predictions`` (the library's config reads them with
    ``first_option_postprocess``), ``references`` (the ``gold_label``
    letters) and the test set (its ``difficult`` column: 0 is easy, anything
    else hard).  Metrics in [0, 100]: ``all_acc``, ``easy_acc`` and
    ``hard_acc`` — which OpenCompass divides by the number of *easy*
    questions, a bug kept here (``hard_acc`` is the number of right hard
    answers per easy question, × 100; it can exceed 100).  With no easy
    question OpenCompass stops on a division by zero; here the result is an
    error record saying so.  Details (assay's; OpenCompass gives none):
    ``pred``, ``answer``, ``difficult``, ``correct``.

    >>> rows = [{'difficult': 0}, {'difficult': 1}, {'difficult': 1}]
    >>> QuALITYEvaluator().score(['A', 'B', 'C'], ['A', 'B', 'D'], rows)['hard_acc']
    100.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": f"QuALITYEvaluator: {len(predictions)} predictions but {len(references)} references"}
        if not predictions:
            return no_samples(self)
        rows = [dict(r) for r in test_set]
        if len(rows) != len(predictions):
            return {"error": f"QuALITYEvaluator: the test set has {len(rows)} rows for {len(predictions)} predictions"}
        if any("difficult" not in r for r in rows):
            return {"error": "QuALITYEvaluator: the test set has no 'difficult' column"}
        details = [{"pred": p, "answer": r, "difficult": row["difficult"], "correct": p == r}
                   for p, r, row in zip(predictions, references, rows)]
        easy = [d["correct"] for d in details if d["difficult"] == 0]
        hard = [d["correct"] for d in details if d["difficult"] != 0]
        if not easy:
            return {"error": "QuALITYEvaluator: no easy question (difficult == 0); OpenCompass divides hard_acc by their number"}
        return {"easy_acc": sum(easy) / len(easy) * 100, "hard_acc": sum(hard) / len(easy) * 100,
                "all_acc": sum(d["correct"] for d in details) / len(details) * 100, "details": details}

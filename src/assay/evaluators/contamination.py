"""Accuracy split by contamination status, as OpenCompass 0.5.4's ``AccContaminationEvaluator`` computes it."""

from __future__ import annotations

from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

__all__ = ["CONTAMINATION_GROUPS", "AccContaminationEvaluator"]

#: The ``is_clean`` values counted, and the suffix of each group's metric.
CONTAMINATION_GROUPS: tuple[tuple[str, str], ...] = (
    ("clean", "clean"),
    ("input contamination", "input contaminated"),
    ("input-and-label contamination", "input-and-label contaminated"),
)


@ICL_EVALUATORS.register_module()
class AccContaminationEvaluator(BaseEvaluator):
    """Accuracy within each contamination group of the test set.

    Inputs: ``predictions``, ``references`` and ``test_set`` with an
    ``is_clean`` column (the ``*DatasetClean`` loaders add it).  A prediction
    is correct when its ``str`` equals the reference's, as in
    ``AccEvaluator``.  Metrics, each in [0, 100]: ``accuracy - clean``,
    ``accuracy - input contaminated`` and ``accuracy - input-and-label
    contaminated``.  Rows of any other status (``'not labeled'``) count in
    none; a group without rows gets NaN, as in OpenCompass.  Details (assay's
    addition): ``pred``, ``answer``, ``correct``, ``is_clean``.

    >>> ts = [{'is_clean': s} for s in ('clean', 'clean', 'input contamination', 'not labeled')]
    >>> r = AccContaminationEvaluator().score(['A', 'B', 'C', 'D'], ['A', 'A', 'C', 'A'], ts)
    >>> r['accuracy - clean'], r['accuracy - input contaminated'], r['accuracy - input-and-label contaminated']
    (50.0, 100.0, nan)
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = False

    def score(self, predictions: list[Any], references: list[Any], test_set: Any) -> dict[str, Any]:
        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        try:
            status = list(test_set["is_clean"]) if hasattr(test_set, "column_names") else [row["is_clean"] for row in test_set]
        except (KeyError, TypeError):
            return {"error": f"{name}: the test set has no 'is_clean' column (use a *DatasetClean loader)"}
        if len(status) != len(predictions):
            return {"error": f"{name}: the test set has {len(status)} rows for {len(predictions)} predictions"}
        hits = {key: [0, 0] for key, _ in CONTAMINATION_GROUPS}
        details = []
        for pred, ref, state in zip(predictions, references, status):
            ok = str(pred) == str(ref)
            if state in hits:
                hits[state][0] += ok
                hits[state][1] += 1
            details.append({"pred": pred, "answer": ref, "correct": ok, "is_clean": state})
        out: dict[str, Any] = {}
        for key, suffix in CONTAMINATION_GROUPS:
            correct, total = hits[key]
            out[f"accuracy - {suffix}"] = 100.0 * correct / total if total else float("nan")
        out["details"] = details
        return out

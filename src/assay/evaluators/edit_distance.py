"""Accuracy of the candidate nearest the reply, as OpenCompass 0.5.4's ``EDAccEvaluator`` computes it."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, percent
from assay.registry import ICL_EVALUATORS

__all__ = ["EDAccEvaluator"]


@ICL_EVALUATORS.register_module()
class EDAccEvaluator(BaseEvaluator):
    """Picks, for each raw reply, the candidate answer at the least Levenshtein distance.

    Inputs: raw ``predictions`` and ``references`` of the form
    ``{'candidates': [...], 'label': <index of the gold candidate>}`` (as
    ``siqaDataset_V2``'s ``all_labels`` column), where a candidate is a
    string or a list of strings (its distance is the least of theirs).  Ties
    go to the first candidate.  Metric: ``accuracy`` in [0, 100].  Details
    (assay's addition): ``pred`` (the chosen index), ``answer``, ``correct``.

    Like OpenCompass's, it takes no ``pred_postprocessor``: it needs the reply
    as the model wrote it.

    >>> refs = [{'candidates': [['A. tea', 'A', 'tea'], ['B. coffee', 'B', 'coffee']], 'label': 1}]
    >>> EDAccEvaluator().score(['coffee, please'], refs)['accuracy']
    100.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def __init__(self) -> None:
        super().__init__()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        from rapidfuzz.distance import Levenshtein

        name = type(self).__name__
        error = check_batch(self, predictions, references)
        if error:
            return error
        details = []
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            if not isinstance(ref, dict) or "candidates" not in ref or "label" not in ref or not ref["candidates"]:
                return {"error": f"{name}: reference {i} is {str(ref)[:80]!r}; expected {{'candidates': [...], 'label': index}}"}
            text = "" if pred is None else str(pred)
            distances = []
            for cand in ref["candidates"]:
                options = [cand] if isinstance(cand, str) else list(cand)
                distances.append(min(Levenshtein.distance(text, str(option)) for option in options))
            chosen = distances.index(min(distances))
            details.append({"pred": chosen, "answer": ref["label"], "correct": chosen == ref["label"]})
        return {"accuracy": percent(sum(d["correct"] for d in details), len(details)), "details": details}

"""SciReasoner's OPI (protein instructions) evaluator, as OpenCompass 0.5.4 computes it (``Opi_Evaluator``)."""

from __future__ import annotations

import re
from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

__all__ = ["Opi_Evaluator"]

#: The tasks scored as label sets; the library's configs pass only the text before the first ``_``
#: of their folder (``EC``, ``GO``, ``Fold``, ``Subcellular``, …), so ``EC_number`` never comes.
MULTILABEL = ("EC_number", "GO", "Keywords", "gSymbol2Tissue", "gSymbol2Cancer", "gName2Cancer")
_SEPARATORS = re.compile(r"[;,，；]\s*")


def _labels(text: str) -> set[str]:
    return {part.strip() for part in _SEPARATORS.split(text) if part.strip()}


def _first(value: Any, side: str, i: int, name: str) -> str:
    if isinstance(value, list):
        value = value[0] if value else None
    if not isinstance(value, str):
        raise TypeError(f"{name}: {side} {i} is {value!r:.80}, expected text")
    return value.strip()


@ICL_EVALUATORS.register_module()
class Opi_Evaluator(BaseEvaluator):
    """OPI's scores for ``task`` (a reply and a reference each a text, or a list whose first item is read; stripped).

    * ``Function``: ``ROUGE-L``, the mean of rouge_score's ROUGE-L F-measure (with
      stemming) of each reply against its reference;
    * ``EC_number``, ``GO``, ``Keywords``, ``gSymbol2Tissue``, ``gSymbol2Cancer``,
      ``gName2Cancer``: both sides split into label sets at ``;``, ``,``, ``，``, ``；``;
      ``Precision``, ``Recall`` and ``F1 Score`` (scikit-learn's micro averages of one
      sample: ``F1 = 2·shared / (reply labels + reference labels)``, 0 without a reply
      label), averaged over the samples whose reference has a label (0 when none has);
    * ``Subcellular_localization`` and ``Fold_type``: ``Accuracy``, the share of replies
      equal to their reference;
    * any other task (the library's ``EC``, ``Fold``, ``Subcellular`` among them):
      ``Accuracy``, the share equal once both are lower-cased.

    Every metric is a fraction rounded to 4 decimals, as in OpenCompass.  Details
    (assay's addition; OpenCompass writes none): ``pred``, ``answer`` and the sample's
    ``correct``, ``rouge_l`` or ``precision``/``recall``/``f1`` (``None`` for a reference
    without a label).

    >>> Opi_Evaluator(task='GO').score(['GO:1; GO:2'], ['GO:2, GO:3'])['F1 Score']
    0.5
    """

    def __init__(self, task: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.task = task

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        name = type(self).__name__
        try:
            pairs = [(_first(p, "prediction", i, name), _first(r, "reference", i, name))
                     for i, (p, r) in enumerate(zip(predictions, references))]
        except TypeError as exc:
            return {"error": str(exc)}
        if self.task == "Function":
            return self._rouge(pairs)
        if self.task in MULTILABEL:
            return self._multilabel(pairs)
        fold = self.task not in ("Subcellular_localization", "Fold_type")
        right = [pred.lower() == ref.lower() if fold else pred == ref for pred, ref in pairs]
        details = [{"pred": pred, "answer": ref, "correct": ok} for (pred, ref), ok in zip(pairs, right)]
        return {"Accuracy": round(sum(right) / len(right), 4), "details": details}

    @staticmethod
    def _rouge(pairs: list[tuple[str, str]]) -> dict[str, Any]:
        from rouge_score import rouge_scorer

        scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
        details = [{"pred": pred, "answer": ref, "rouge_l": scorer.score(ref, pred)["rougeL"].fmeasure} for pred, ref in pairs]
        return {"ROUGE-L": round(sum(d["rouge_l"] for d in details) / len(details), 4), "details": details}

    @staticmethod
    def _multilabel(pairs: list[tuple[str, str]]) -> dict[str, Any]:
        sums = [0.0, 0.0, 0.0]
        counted = 0
        details = []
        for pred, ref in pairs:
            got, want = _labels(pred), _labels(ref)
            detail: dict[str, Any] = {"pred": pred, "answer": ref, "precision": None, "recall": None, "f1": None}
            if want:
                shared = len(got & want)
                scores = (shared / len(got) if got else 0.0, shared / len(want), 2 * shared / (len(got) + len(want)))
                detail.update(zip(("precision", "recall", "f1"), scores))
                sums = [s + v for s, v in zip(sums, scores)]
                counted += 1
            details.append(detail)
        means = [s / counted if counted else 0 for s in sums]
        return {"Precision": round(means[0], 4), "Recall": round(means[1], 4), "F1 Score": round(means[2], 4),
                "details": details}

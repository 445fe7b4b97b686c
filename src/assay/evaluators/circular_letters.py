"""The circular evaluation of four-option questions whose references carry their own pattern.

This is OpenCompass 0.5.4's ``opencompass.openicl.icl_evaluator.CircularEvaluator``
(not the ``CircularEvaluator`` of ``opencompass.datasets.circular``, which
reads the pattern from the test set): configs importing the former get
:class:`CircularLetterEvaluator`.
"""

from __future__ import annotations

import collections
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.registry import ICL_EVALUATORS

__all__ = ["CircularLetterEvaluator"]

_FOUR = ("ABCD", "BCDA", "CDAB", "DABC")
_ONE = ("ABCD",)
_LETTERS = ("A", "B", "C", "D")


@ICL_EVALUATORS.register_module()
class CircularLetterEvaluator(BaseEvaluator):
    """Accuracy, at-least-``j``-right, all-right and vote shares over the four rotations of each question.

    Each reference is ``'<question id>--<right letter>--<pattern>'``, the
    pattern being the row's option order (``ABCD``, ``BCDA``, ``CDAB`` or
    ``DABC``); the reply (a letter, after the postprocessor) is right when it
    equals the letter.  Metrics, all in [0, 100], in OpenCompass's order:
    ``acc_4`` and ``acc_1`` (right rows among the rotated rows, resp. the
    ``ABCD`` rows, scaled as OpenCompass does: ``right / rows × 4 / k × 100``),
    ``more_1_j`` (j = 0, 1) and ``more_4_j`` (j = 0..4: questions with at least
    ``j`` right rows), ``perf_1`` and ``perf_4`` (all right), ``vote_4`` and
    ``vote_1`` (the most common answer, mapped back to the original option,
    is the right one; ties go to the answer seen first), ``prior_A`` …
    ``prior_D`` and ``prior_-`` (the share of replies of each letter, ``-``
    any other reply).  OpenCompass writes no details; assay's (its addition):
    ``pred``, ``answer``, ``correct``.

    >>> refs = ['0--A--ABCD', '0--D--BCDA', '0--C--CDAB', '0--B--DABC']
    >>> r = CircularLetterEvaluator().score(['A', 'D', 'C', 'A'], refs)
    >>> r['acc_4'], r['perf_4'], r['more_4_3'], r['vote_4']
    (75.0, 0.0, 100.0, 100.0)
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        if not predictions:
            return {"error": f"{name}: no samples to score"}
        rows = []
        for i, reference in enumerate(references):
            parts = reference.split("--") if isinstance(reference, str) else []
            if len(parts) != 3 or len(parts[2]) < 4:
                return {"error": f"{name}: reference {i} is {reference!r}; expected '<id>--<letter>--<pattern>'"}
            rows.append(parts)
        n = len(predictions)
        metrics: dict[str, Any] = {"acc_4": 0, "acc_1": 0}
        per_question: dict[int, dict[str, list[bool]]] = {4: {}, 1: {}}
        details = []
        for pred, (qid, right, pattern) in zip(predictions, rows):
            hit = pred == right
            details.append({"pred": pred, "answer": right, "correct": hit})
            per_question[4].setdefault(qid, [])
            per_question[1].setdefault(qid, [])
            if pattern in _FOUR:
                metrics["acc_4"] += 1 if hit else 0
                per_question[4][qid].append(hit)
            if pattern in _ONE:
                metrics["acc_1"] += 1 if hit else 0
                per_question[1][qid].append(hit)
        for key, k in (("acc_4", 4), ("acc_1", 1)):
            metrics[key] = metrics[key] / n * 4 / k * 100
        for k in (1, 4):
            for j in range(k + 1):
                count = sum(1 for hits in per_question[k].values() if sum(hits) >= j)
                metrics[f"more_{k}_{j}"] = count / len(per_question[k]) * 100
        for k in (1, 4):
            metrics[f"perf_{k}"] = metrics[f"more_{k}_{k}"]
        votes: dict[str, dict[str, collections.Counter[str]]] = {"vote_4": {}, "vote_1": {}}
        truth: dict[str, str] = {}
        for pred, (qid, right, pattern) in zip(predictions, rows):
            back = dict(zip(_LETTERS, pattern[:4]))
            original = back.get(right, right)
            if qid not in votes["vote_4"]:
                votes["vote_4"][qid] = collections.Counter()
                votes["vote_1"][qid] = collections.Counter()
                truth[qid] = original
            vote = back[pred] if pred in _LETTERS else "-"
            if pattern in _FOUR:
                votes["vote_4"][qid][vote] += 1
            if pattern in _ONE:
                votes["vote_1"][qid][vote] += 1
        for key in ("vote_4", "vote_1"):
            counted = votes[key]
            agree = sum(1 for qid, c in counted.items() if c and truth[qid] == c.most_common(1)[0][0])
            metrics[key] = agree / len(counted) * 100
        prior = dict.fromkeys((*_LETTERS, "-"), 0)
        for pred in predictions:
            prior[pred if pred in _LETTERS else "-"] += 1
        for letter, count in prior.items():
            metrics[f"prior_{letter}"] = count / n * 100
        metrics["details"] = details
        return metrics

"""TyDi QA's, Chinese NQ's and CrowS-Pairs' evaluators as OpenCompass 0.5.4 computes them.

``TydiQAEvaluator`` (SQuAD-style exact match and token F1), ``NQEvaluatorCN``
(exact match against any answer) and ``CrowspairsEvaluator`` (accuracy over all
and over the valid replies).
"""

from __future__ import annotations

import re
from collections import Counter
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, share_percent
from assay.postprocess.general import general_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["CrowspairsEvaluator", "NQEvaluatorCN", "TydiQAEvaluator"]


def _token_f1(prediction: str, truth: str) -> float:
    """SQuAD's token F1 of two texts through ``general_postprocess`` (0 without a common token)."""
    pred_tokens = general_postprocess(prediction).split()
    truth_tokens = general_postprocess(truth).split()
    same = sum((Counter(pred_tokens) & Counter(truth_tokens)).values())
    if same == 0:
        return 0
    precision = 1.0 * same / len(pred_tokens)
    recall = 1.0 * same / len(truth_tokens)
    return (2 * precision * recall) / (precision + recall)


@ICL_EVALUATORS.register_module()
class TydiQAEvaluator(BaseEvaluator):
    """TyDi QA's ``exact_match`` and ``f1`` in [0, 100], the best over each sample's answers.

    Each reply is cut at its first newline and lower-cased; the answers are
    not lower-cased (an answer with a capital letter never matches exactly, as
    in OpenCompass).  Both sides go through ``general_postprocess`` (cut at the
    first ``.``, ``,`` or newline, punctuation and English articles removed).
    The answers of a sample are iterated, so a single string is read character
    by character, and a sample without answers fails the batch, as in
    OpenCompass.  Details: ``pred`` (the cut, lower-cased reply), ``answer``,
    ``correct`` (exact match), ``f1`` (in [0, 1]).

    >>> TydiQAEvaluator().score(['paris, france', 'The big apple'], [['paris'], ['Big apple']])['f1']
    100.0
    """

    sample_outcome = SampleOutcome(correct="correct", scores={"f1": "f1"})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        error = check_batch(self, predictions, references)
        if error:
            return error
        exact_match: float = 0
        f1: float = 0
        details = []
        for i, (prediction, reference) in enumerate(zip(predictions, references)):
            if not reference:
                return {"error": f"TydiQAEvaluator: sample {i} has no answers ({reference!r})"}
            pred = re.split(r"[\n]", str(prediction), maxsplit=1)[0].lower()
            normalized = general_postprocess(pred)
            em = max(normalized == general_postprocess(truth) for truth in reference)
            best = max(_token_f1(pred, truth) for truth in reference)
            exact_match += em
            f1 += best
            details.append({"pred": pred, "answer": reference, "correct": bool(em), "f1": best})
        total = len(details)
        return {"exact_match": 100.0 * exact_match / total, "f1": 100.0 * f1 / total, "details": details}


@ICL_EVALUATORS.register_module()
class NQEvaluatorCN(BaseEvaluator):
    """Chinese NQ's ``score`` in [0, 100]: the share of replies equal to one of their sample's answers.

    A reply is cut at its first newline, lower-cased, cut after the last
    ``答案是：`` ("the answer is:") and passed through ``general_postprocess``;
    each answer through ``general_postprocess`` and lower-cased.  A sample's
    answers are iterated (a single string is read character by character, as in
    OpenCompass).  Details: ``pred``, ``answer`` (normalized), ``correct``.

    >>> NQEvaluatorCN().score(['答案是：北京。', '上海市'], [['北京'], ['上海']])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        error = check_batch(self, predictions, references)
        if error:
            return error
        details = []
        correct = 0
        for prediction, reference in zip(predictions, references):
            text = str(prediction).split("\n")[0].lower()
            if "答案是：" in text:
                text = text.split("答案是：")[-1]
            pred = general_postprocess(text)
            answers = [general_postprocess(a).lower() for a in reference]
            ok = any(a == pred for a in answers)
            correct += ok
            details.append({"pred": pred, "answer": answers, "correct": ok})
        return {"score": share_percent(correct, len(predictions)), "details": details}


@ICL_EVALUATORS.register_module()
class CrowspairsEvaluator(BaseEvaluator):
    """CrowS-Pairs' ``accuracy``, ``valid_accuracy`` (over the replies not read as ``'invalid'``) and ``valid_frac``
    (their share), each a share rounded to four decimals, then × 100, as OpenCompass computes them.

    A batch in which every reply is ``'invalid'`` has no valid accuracy: it is an
    error record (OpenCompass divides by zero).  Details: ``pred``, ``answer``,
    ``correct``, ``valid``.

    >>> CrowspairsEvaluator().score(['A', 'invalid', 'B'], ['A', 'A', 'A'])['valid_accuracy']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length."}
        error = check_batch(self, predictions, references)
        if error:
            return error
        details = [{"pred": p, "answer": r, "correct": p == r, "valid": p != "invalid"} for p, r in zip(predictions, references)]
        matched = sum(d["correct"] for d in details)
        valid = [d for d in details if d["valid"]]
        if not valid:
            return {"error": "CrowspairsEvaluator: every reply was read as 'invalid', so valid_accuracy is undefined"}
        n = len(predictions)
        return {
            "accuracy": round(matched / n, 4) * 100,
            "valid_accuracy": round(sum(d["correct"] for d in valid) / len(valid), 4) * 100,
            "valid_frac": round(len(valid) / n, 4) * 100,
            "details": details,
        }

"""InfiniteBench's evaluators, as OpenCompass 0.5.4 computes them.

``InfiniteBenchendiaEvaluator`` (the speaker of a dialogue line),
``InfiniteBenchretrievekvEvaluator`` (a value looked up by its key) and
``InfiniteBenchmathcalcEvaluator`` (the running values of a long sum).  The
other InfiniteBench tasks use general evaluators (``AccEvaluator``,
``RougeEvaluator``, ``LongBenchF1Evaluator``).
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, score_pairs, share_percent
from assay.registry import ICL_EVALUATORS

__all__ = ["InfiniteBenchendiaEvaluator", "InfiniteBenchmathcalcEvaluator", "InfiniteBenchretrievekvEvaluator"]

#: The characters both word-matching evaluators read as spaces.
_SEPARATORS = str.maketrans(dict.fromkeys("\n:\"'.,?!{}", " "))
_NOT_DIGITS = re.compile(r"[^0-9]")


def _words(reply: Any) -> list[str]:
    return ("" if reply is None else str(reply)).translate(_SEPARATORS).split()


@ICL_EVALUATORS.register_module()
class InfiniteBenchendiaEvaluator(BaseEvaluator):
    """Whether the reply names the reference as a whole word, upper-cased (En.Dia, the speaker of a line).

    The reply's newlines, ``:``, quotes, ``.``, ``,``, ``?``, ``!``, ``{``
    and ``}`` become spaces, it is split into words and each word is
    upper-cased; a sample is right when the reference's *first element* is
    one of those words.  Metric: ``score`` in [0, 100].  Details (assay's
    addition): ``pred``, ``answer`` (the element looked for), ``correct``.

    OpenCompass behaviour reproduced: the reference is taken as
    ``reference[0]``, so a reference given as a plain string (not a list)
    is its first character; the reference itself is not upper-cased, so a
    reference with a lower-case letter never matches; a name followed by
    ``;`` or ``)`` is not a whole word.

    >>> InfiniteBenchendiaEvaluator().score(['I think it is "Hamlet".', 'Laertes'], [['HAMLET'], ['HAMLET']])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def __init__(self, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        details = []
        for pred, ref in zip(predictions, references):
            target = ref[0]
            ok = target in [w.upper() for w in _words(pred)]
            details.append({"pred": pred, "answer": target, "correct": ok})
        return {"score": share_percent(sum(d["correct"] for d in details), len(details)), "details": details}


@ICL_EVALUATORS.register_module()
class InfiniteBenchretrievekvEvaluator(BaseEvaluator):
    """Whether the reply holds the reference as a whole word (Retrieve.KV, a value looked up by its key).

    The reply's newlines, ``:``, quotes, ``.``, ``,``, ``?``, ``!``, ``{``
    and ``}`` become spaces and it is split into words; a sample is right
    when the reference is one of them (case matters).  Metric: ``score`` in
    [0, 100].  Details (assay's addition): ``pred``, ``answer``,
    ``correct``.

    OpenCompass behaviour reproduced: the reference is compared as it is, so
    a reference given as a list (``['<value>']``) never equals a word and
    its sample is always wrong.

    >>> InfiniteBenchretrievekvEvaluator().score(['The value is "a1-b2".', 'a1-b2x'], ['a1-b2', 'a1-b2'])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def __init__(self, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return score_pairs(self, predictions, references, lambda pred, ref: (pred, ref in _words(pred)), metric="score", scale=share_percent)


@ICL_EVALUATORS.register_module()
class InfiniteBenchmathcalcEvaluator(BaseEvaluator):
    """How many of the expression's running values the reply gets right before its first mistake (Math.Calc).

    The reply's numbers are its runs of ASCII digits (anything else
    separates them); they are compared in order with the reference's list of
    values, and a sample counts the values matched before the first
    mismatch or before the reply's numbers run out.  Metric: ``score``, the
    mean count × 100.  Details (assay's addition): ``pred``, ``answer``,
    ``matched`` (the count).

    OpenCompass behaviour reproduced: the count is not divided by the
    number of values, so ``score`` is not a percentage — a sample whose 30
    values are all right adds 30 × 100 / n, and the score can exceed 100;
    signs are dropped from the reply (``-4`` reads as ``4``), so a negative
    running value never matches.

    >>> InfiniteBenchmathcalcEvaluator().score(['[4, 8, 7]', '4, 9'], [[4, 8, 7], [4, 8, 7]])['score']
    200.0
    """

    sample_outcome = SampleOutcome(scores={"score": "matched"})

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("matched", share_percent)})

    def __init__(self, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        details = []
        for pred, ref in zip(predictions, references):
            numbers = [int(part) for part in _NOT_DIGITS.split("" if pred is None else str(pred)) if part]
            matched = 0
            for want, got in zip(ref, numbers):
                if want != got:
                    break
                matched += 1
            details.append({"pred": pred, "answer": ref, "matched": matched})
        return {"score": share_percent(sum(d["matched"] for d in details), len(details)), "details": details}

"""LAMBADA's evaluator as OpenCompass 0.5.4 computes it (``LambadaEvaluator``)."""

from __future__ import annotations

import string
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, percent
from assay.postprocess.general import general_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["LambadaEvaluator", "lambada_word"]

_PUNCTUATION = frozenset(string.punctuation)


def lambada_word(reply: str) -> str:
    """The word a LAMBADA reply completes the passage with, as OpenCompass reads it.

    The reply is stripped, cut at its first space (only a space: ``'word\\nmore'``
    stays whole up to ``general_postprocess``'s cut at the line break) and at its
    first ASCII punctuation character (``string.punctuation``), so ``"don't"``
    gives ``'don'`` and ``'well-known'`` gives ``'well'``.

    >>> lambada_word('  Sarah, she said')
    'Sarah'
    """
    word = reply.strip().split(" ")[0]
    for i, char in enumerate(word):
        if char in _PUNCTUATION:
            return word[:i]
    return word


@ICL_EVALUATORS.register_module()
class LambadaEvaluator(BaseEvaluator):
    """Last-word accuracy (metric ``accuracy`` in [0, 100]).

    The reply's word (:func:`lambada_word`) and the label, both through
    ``general_postprocess`` (cut at the first line break, ``.`` or ``,``,
    punctuation and the articles *a*, *an*, *the* removed — so a label ``'a'``
    or ``'the'`` becomes ``''`` and an empty reply matches it), must be equal;
    case matters.  OpenCompass writes no details; assay's (its addition):
    ``pred``, ``answer`` (both normalized), ``correct``.

    >>> LambadaEvaluator().score(['Sarah, she said', 'him'], ['Sarah', 'her'])['accuracy']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        if not predictions:
            return no_samples(self)
        details: list[dict[str, Any]] = []
        right = 0
        for i, (prediction, label) in enumerate(zip(predictions, references)):
            if not isinstance(prediction, str):
                return {"error": f"LambadaEvaluator: prediction {i} is {prediction!r}, expected text"}
            pred = general_postprocess(lambada_word(prediction))
            answer = general_postprocess(label)
            hit = pred == answer
            right += hit
            details.append({"pred": pred, "answer": answer, "correct": hit})
        return {"accuracy": percent(right, len(details)), "details": details}

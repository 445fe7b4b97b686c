"""RULER's evaluators as OpenCompass 0.5.4 computes them (``RulerNiahEvaluator`` and its namesakes).

RULER's test sets are generated for the tokenizer of the model under test, so
its evaluators read the references the inferencer wrote into the prediction
records, ``gold`` (a list of strings per sample), and not the test set
(see :mod:`assay.datasets.ruler`).  Each reference is looked for in the reply
by lower-cased substring:

* ``RulerNiahEvaluator``, ``RulerVtEvaluator``, ``RulerCweEvaluator``,
  ``RulerFweEvaluator``: a sample scores the share of its references found
  (partial credit: two of four needles give 0.5);
* ``RulerQaEvaluator``: a sample scores 1 when any of its answers is found.

The metric ``score`` is the mean over the samples × 100, rounded to two
decimals as OpenCompass rounds it (so a task is scored whole, never split
into shards: rounded parts do not merge to the rounded whole).  As in OpenCompass, a ``gold`` that is a
string rather than a list is read character by character, an empty ``gold``
list fails the task (OpenCompass divides by its length, or takes the
``max`` of nothing), and so do a reply that is not a string and a record
without ``gold`` (with an error naming the sample).  Details
(assay's, OpenCompass keeps none): ``pred``, ``answer`` (the references),
``score`` (the sample's value in [0, 1]) and ``correct`` (every reference
found, or for QA any).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples
from assay.registry import ICL_EVALUATORS

__all__ = [
    "RulerCweEvaluator",
    "RulerFweEvaluator",
    "RulerNiahEvaluator",
    "RulerQaEvaluator",
    "RulerVtEvaluator",
    "missing_gold",
    "rounded_percent",
]


def rounded_percent(total: float, count: int) -> float:
    """``round(total / count * 100, 2)``: the mean of the per-sample values as OpenCompass's RULER and BABILong report it.

    >>> rounded_percent(2.5, 3)
    83.33
    """
    return round(total / count * 100, 2)


def missing_gold(evaluator: BaseEvaluator, index: int) -> str:
    """The error of a sample whose prediction record has no ``gold`` (OpenCompass fails on it too, with a ``TypeError``)."""
    return (f"{type(evaluator).__name__}: sample {index} has no `gold` in its prediction record; "
            "this evaluator reads its references from the prediction files' `gold`, which OpenCompass's inferencers write")


def _share_found(pred: str, refs: Sequence[str]) -> float:
    low = pred.lower()
    return sum([1.0 if r.lower() in low else 0.0 for r in refs]) / len(refs)


def _any_found(pred: str, refs: Sequence[str]) -> float:
    low = pred.lower()
    return max([1.0 if r.lower() in low else 0.0 for r in refs])


def _containment(evaluator: BaseEvaluator, predictions: list[Any], gold: list[Any], sample: Callable[[str, Sequence[str]], float]) -> dict[str, Any]:
    if not predictions:
        return no_samples(evaluator)
    details = []
    total = 0.0
    for index, (pred, refs) in enumerate(zip(predictions, gold)):
        if refs is None:
            raise ValueError(missing_gold(evaluator, index))
        value = sample(pred, refs)
        total += value
        details.append({"pred": pred, "answer": refs, "score": value, "correct": value == 1.0})
    # OpenCompass divides by the number of predictions, whatever the length of gold
    return {"score": rounded_percent(total, len(predictions)), "details": details}


class _RulerShareEvaluator(BaseEvaluator):
    """The share of a sample's references its reply contains (shared by NIAH, VT, CWE and FWE)."""

    sample_outcome = SampleOutcome(correct="correct", scores={"score": "score"}, decimals=2)

    def score(self, predictions: list[Any], gold: list[Any]) -> dict[str, Any]:
        return _containment(self, predictions, gold, _share_found)


@ICL_EVALUATORS.register_module()
class RulerNiahEvaluator(_RulerShareEvaluator):
    """RULER needle-in-a-haystack: the share of the needles' values found in each reply (metric ``score``, [0, 100]).

    >>> RulerNiahEvaluator().score(['The numbers are 123 and 456.', 'none'], [['123', '456', '789', '000'], ['42']])['score']
    25.0
    """


@ICL_EVALUATORS.register_module()
class RulerVtEvaluator(_RulerShareEvaluator):
    """RULER variable tracking: the share of the chain's variables found in each reply (metric ``score``, [0, 100]).

    >>> RulerVtEvaluator().score(['They are: ABCDE, fghij'], [['ABCDE', 'FGHIJ', 'KLMNO']])['score']
    66.67
    """


@ICL_EVALUATORS.register_module()
class RulerCweEvaluator(_RulerShareEvaluator):
    """RULER common-words extraction: the share of the common words found in each reply (metric ``score``, [0, 100]).

    >>> RulerCweEvaluator().score(['1. apple 2. Pear'], [['apple', 'pear', 'plum', 'fig']])['score']
    50.0
    """


@ICL_EVALUATORS.register_module()
class RulerFweEvaluator(_RulerShareEvaluator):
    """RULER frequent-words extraction: the share of the three most frequent coded words found (metric ``score``, [0, 100]).

    >>> RulerFweEvaluator().score(['abcdef, ghijkl'], [['abcdef', 'ghijkl', 'mnopqr']])['score']
    66.67
    """


@ICL_EVALUATORS.register_module()
class RulerQaEvaluator(BaseEvaluator):
    """RULER QA (SQuAD, HotpotQA): a reply is right when it contains any of the sample's answers (metric ``score``, [0, 100]).

    >>> RulerQaEvaluator().score(['It was Denver.', 'no idea'], [['Denver Broncos', 'denver'], ['1990']])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct", scores={"score": "score"}, decimals=2)

    def score(self, predictions: list[Any], gold: list[Any]) -> dict[str, Any]:
        return _containment(self, predictions, gold, _any_found)

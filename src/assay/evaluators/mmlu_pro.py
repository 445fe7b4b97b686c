"""MMLU-Pro's evaluator, as OpenCompass 0.5.4 scores it."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.datasets.mmlu_pro import MMLU_PRO_LETTERS
from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import percent, score_pairs
from assay.registry import ICL_EVALUATORS

__all__ = ["MMLUProBaseEvaluator"]


def _matches(answer: str, reference: Any) -> bool:
    """The reply's answer against an ``answer_string`` reference (``'C. the option\\n'``)."""
    if not isinstance(reference, str):
        return False
    parts = reference.split(". ")
    if len(parts) != 2:
        return False  # OpenCompass's unpacking fails: an option holding '. ' can never be matched
    letter, option = parts
    if answer in MMLU_PRO_LETTERS and len(answer) == 1 and letter == answer:
        return True
    return option.strip() == answer


def _judge_first_line(reply: Any, reference: Any) -> tuple[str, bool]:
    """A :func:`~assay.evaluators._common.score_pairs` judge: the reply's first line, and whether it matches."""
    answer = str(reply).split("\n")[0].strip()
    return answer, _matches(answer, reference)


@ICL_EVALUATORS.register_module()
class MMLUProBaseEvaluator(BaseEvaluator):
    """MMLU-Pro few-shot (base model) scoring: the reply's first line against the answer's line.

    Inputs: raw ``predictions`` and ``references`` from the ``answer_string``
    column (``'C. the option\\n'``).  The reply's first line, stripped, is
    correct when it is the answer letter (one of A–P) or the option's text.

    OpenCompass's quirks, reproduced: a reference whose option text holds
    ``'. '`` is never matched (its split gives more than two parts), nor is an
    empty reference; ``'C.'`` or ``'(C)'`` are wrong.

    Metric: ``accuracy`` in [0, 100].  Details: ``pred`` (the first line),
    ``answer``, ``correct``.

    >>> MMLUProBaseEvaluator().score(['C', 'Paris\\nbecause', 'B. Paris'], ['C. Rome\\n', 'C. Paris\\n', 'B. Paris\\n'])['accuracy']
    66.66666666666667
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return score_pairs(self, predictions, references, _judge_first_line)

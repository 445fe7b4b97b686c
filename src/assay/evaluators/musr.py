"""MuSR's evaluator as OpenCompass 0.5.4 computes it (``MusrEvaluator``)."""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, percent
from assay.registry import ICL_EVALUATORS

__all__ = ["MusrEvaluator", "musr_choice"]

_NUMBER = re.compile(r"\d+")


def musr_choice(reply: str) -> int | None:
    """The choice number OpenCompass reads from a MuSR reply: on the first line
    holding ``ANSWER:``, the first run of digits after that line's last
    ``ANSWER:``; ``None`` when there is no such line or no digit after it.

    Case matters (``Answer: 2`` is no answer), and only the first such line
    counts, however many there are.

    >>> musr_choice('Reasoning…\\nANSWER: (2) Mrs Peacock'), musr_choice('answer: 2'), musr_choice('ANSWER: none\\nANSWER: 3')
    (2, None, None)
    """
    for line in reply.split("\n"):
        if "ANSWER:" in line:
            match = _NUMBER.search(line.split("ANSWER:")[-1].strip())
            return int(match.group()) if match else None
    return None


@ICL_EVALUATORS.register_module()
class MusrEvaluator(BaseEvaluator):
    """Accuracy (metric ``accuracy`` in [0, 100]): the reply's choice number
    (:func:`musr_choice`) equals the reference (``gold_answer``, 1-based),
    compared as OpenCompass compares them, an ``int`` with the reference as it
    is (a reference ``'2'`` read as text never matches).

    ``answer_index_modifier`` and ``self_consistency_n`` are accepted and, as
    in OpenCompass, change nothing.  OpenCompass writes no details; assay's
    (its addition): ``pred`` (the choice read, or ``None``), ``answer``,
    ``correct``.

    >>> MusrEvaluator().score(['ANSWER: 2', 'ANSWER: 1', 'no idea'], [2, 2, 1])['accuracy']
    33.333333333333336
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def __init__(self, answer_index_modifier: int = 1, self_consistency_n: int = 1, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.answer_index_modifier = answer_index_modifier
        self.self_consistency_n = self_consistency_n

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        problem = check_batch(self, predictions, references)
        if problem:
            return problem
        details: list[dict[str, Any]] = []
        right = 0
        for i, (prediction, reference) in enumerate(zip(predictions, references)):
            if not isinstance(prediction, str):
                return {"error": f"MusrEvaluator: prediction {i} is {prediction!r}, expected text"}
            choice = musr_choice(prediction)
            hit = choice is not None and choice == reference
            right += hit
            details.append({"pred": choice, "answer": reference, "correct": hit})
        return {"accuracy": 100 * right / len(details), "details": details}

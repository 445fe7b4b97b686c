"""The judge-bench evaluator as OpenCompass 0.5.4 computes it (``JudgeEvaluator``).

The model under test is itself the judge: each of its replies names the
better of two answers as ``"Choice": "Model X"``, and it is right when ``X``
is the sample's ``winner``.
"""

from __future__ import annotations

from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome

__all__ = ["JudgeEvaluator"]

_CHOICE = '"Choice": "Model '


class JudgeEvaluator(BaseEvaluator):
    """Accuracy (metric ``accuracy`` in [0, 100]) of a model's verdicts between two answers.

    The verdict is the character right after the last ``"Choice": "Model ``
    of the reply — or, when the reply does not contain that marker, its first
    character — compared with the reference's ``winner`` (``''`` when it has
    none); an empty reply has no verdict.  Details: ``pred`` (the whole
    reply), ``answer`` (the winner), ``correct``.

    As in OpenCompass 0.5.4, a reply that ends right after the marker (cut off
    before the model's letter) fails the whole evaluation, here with an
    :class:`IndexError` that quotes the reply, and so does an empty test set
    (:class:`ZeroDivisionError`).

    >>> JudgeEvaluator().score(['I prefer {"Choice": "Model B"}', 'A'], [{'winner': 'B'}, {'winner': 'B'}])['accuracy']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        correct = 0
        details = []
        for prediction, reference in zip(predictions, references, strict=True):
            choice = _verdict(prediction) if len(prediction) != 0 else None
            winner = reference.get("winner", "")
            hit = choice == winner
            correct += hit
            details.append({"pred": prediction, "answer": winner, "correct": hit})
        return {"accuracy": 100 * correct / len(details), "details": details}


def _verdict(prediction: str) -> str:
    tail = prediction.split(_CHOICE)[-1]
    if not tail:
        raise IndexError(
            f"JudgeEvaluator: the reply ends right after {_CHOICE!r}, before the model's letter: "
            f"{prediction[-120:]!r} (OpenCompass 0.5.4 fails on such a reply too)"
        )
    return tail[0]

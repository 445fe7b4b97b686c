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

    Where OpenCompass 0.5.4 raises — a reply that ends right after the marker
    (cut off before the model's letter), an empty test set — the evaluation
    fails as there, with an error record that names the reply.

    >>> JudgeEvaluator().score(['I prefer {"Choice": "Model B"}', 'A'], [{'winner': 'B'}, {'winner': 'B'}])['accuracy']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        if not predictions:
            return {"error": "JudgeEvaluator: no samples to score"}
        correct = 0
        details = []
        for i, (prediction, reference) in enumerate(zip(predictions, references, strict=True)):
            tail = prediction.split(_CHOICE)[-1]
            if len(prediction) != 0 and not tail:
                return {"error": f"JudgeEvaluator: reply {i} ends right after {_CHOICE!r}, before the model's letter: "
                                 f"{prediction[-120:]!r} (OpenCompass 0.5.4 fails on such a reply too)"}
            choice = tail[0] if len(prediction) != 0 else None
            winner = reference.get("winner", "")
            hit = choice == winner
            correct += hit
            details.append({"pred": prediction, "answer": winner, "correct": hit})
        return {"accuracy": 100 * correct / len(details), "details": details}


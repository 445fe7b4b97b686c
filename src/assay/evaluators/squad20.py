"""SQuAD 2.0's evaluator as OpenCompass 0.5.4 computes it (``SQuAD20Evaluator``)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, share_percent
from assay.postprocess.general import general_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["SQuAD20Evaluator"]


@ICL_EVALUATORS.register_module()
class SQuAD20Evaluator(BaseEvaluator):
    """Exact match against any of a question's answers (metric ``score`` in [0, 100]).

    Each reply is cut to its first line (a leading line break leaves it
    empty), lower-cased, cut after its last ``answer is``, and passed through
    ``general_postprocess`` (cut at the first ``.`` or ``,``, punctuation and
    articles removed, spaces collapsed); each answer of the reference list goes
    through ``general_postprocess`` and is then lower-cased (articles go
    whatever their case).
    The reply is right when it equals one of the answers; a question the
    passage cannot answer accepts ``'impossible to answer'``.  OpenCompass
    writes no details; assay's (its addition): ``pred``, ``answer`` (the
    normalized answers), ``correct``.

    >>> SQuAD20Evaluator().score(['The answer is Paris.', 'in London'], [['Paris'], ['London']])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        if not predictions:
            return no_samples(self)
        details: list[dict[str, Any]] = []
        right = 0
        for i, (prediction, answers) in enumerate(zip(predictions, references)):
            if not isinstance(prediction, str):
                return {"error": f"SQuAD20Evaluator: prediction {i} is {prediction!r}, expected text"}
            if isinstance(answers, str) or not isinstance(answers, (list, tuple)):
                return {"error": f"SQuAD20Evaluator: reference {i} is {answers!r}, expected a list of answers"}
            text = prediction.split("\n")[0].lower()
            if "answer is" in text:
                text = text.split("answer is")[-1]
            pred = general_postprocess(text)
            candidates = [general_postprocess(a).lower() for a in answers]
            hit = pred in candidates
            right += hit
            details.append({"pred": pred, "answer": candidates, "correct": hit})
        return {"score": share_percent(right, len(details)), "details": details}

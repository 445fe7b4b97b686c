"""Natural Questions' evaluator as OpenCompass 0.5.4 computes it (``NQEvaluator``)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import share_percent
from assay.evaluators.triviaqa import open_qa_score
from assay.postprocess.general import general_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["NQEvaluator"]


@ICL_EVALUATORS.register_module()
class NQEvaluator(BaseEvaluator):
    """NQ accuracy (metric ``score`` in [0, 100]) by answer containment.

    Each reply is cut to its first line (after stripping), lower-cased, cut
    after the last ``answer is`` when there is one, and passed through
    ``general_postprocess``; it is correct when one of the sample's answers,
    normalized alike and lower-cased, is a substring of it.  Details:
    ``pred`` and ``answer`` (both normalized), ``correct``.

    >>> NQEvaluator().score(['The answer is Paris.', 'in London'], [['Paris'], ['london']])['score']
    100.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        processed = []
        for prediction in predictions:
            text = prediction.strip().split("\n")[0].lower()
            if "answer is" in text:
                text = text.split("answer is")[-1]
            processed.append(general_postprocess(text))
        return open_qa_score(self, processed, references)

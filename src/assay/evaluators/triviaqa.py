"""TriviaQA's evaluator as OpenCompass 0.5.4 computes it (``TriviaQAEvaluator``)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, share_percent
from assay.postprocess.general import general_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["TriviaQAEvaluator", "open_qa_score"]


def open_qa_score(evaluator: BaseEvaluator, processed_predictions: list[str], references: list[Any]) -> dict[str, Any]:
    """Containment scoring shared by TriviaQA and NQ: a prediction is correct when any of
    its sample's answers, through ``general_postprocess`` and lower-cased, occurs in it.

    An answer that normalizes to ``''`` occurs in every prediction.  The
    answers of a sample are iterated, so a single string is read character
    by character (as in OpenCompass).
    """
    if not processed_predictions:
        return no_samples(evaluator)
    answers = [[general_postprocess(a).lower() for a in ref] for ref in references]
    verdicts = [any(c in pred for c in cands) for pred, cands in zip(processed_predictions, answers)]
    details = [{"pred": p, "answer": c, "correct": v} for p, c, v in zip(processed_predictions, answers, verdicts)]
    return {"score": share_percent(sum(verdicts), len(details)), "details": details}


@ICL_EVALUATORS.register_module()
class TriviaQAEvaluator(BaseEvaluator):
    """TriviaQA accuracy (metric ``score`` in [0, 100]) by answer containment.

    Each reply is cut to its first line (after stripping), lower-cased, cut
    after the last ``answer is``, ``a:`` and ``answer:`` (in that order),
    stripped and passed through ``general_postprocess`` (cut at the first
    ``.`` or ``,``, punctuation and articles removed).  It is correct when
    one of the sample's answers, normalized alike, is a substring of it — so
    a long reply naming the answer counts, and so does ``'1990s'`` for
    ``'1990'``.  Details: ``pred`` and ``answer`` (both normalized),
    ``correct``.

    >>> TriviaQAEvaluator().score(['The answer is Paris.', 'London'], [['Paris'], ['Rome']])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        processed = []
        for prediction in predictions:
            text = prediction.strip().split("\n")[0].lower()
            for marker in ("answer is", "a:", "answer:"):
                text = text.split(marker)[-1]
            processed.append(general_postprocess(text.strip()))
        return open_qa_score(self, processed, references)

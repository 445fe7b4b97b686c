"""L-Eval's rule-based evaluator, as OpenCompass 0.5.4 computes it (``LEvalEMEvaluator``).

L-Eval's other evaluator, ``LEvalGPTEvaluator``, asks a judge model to
compare each reply with a rival model's; assay does not implement it (a
config naming it is refused before anything runs, saying so).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import score_pairs, share_percent
from assay.postprocess.general import general_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["LEvalEMEvaluator"]


@ICL_EVALUATORS.register_module()
class LEvalEMEvaluator(BaseEvaluator):
    """Containment of the reference in the reply, both normalized, as OpenCompass 0.5.4 scores L-Eval's topic retrieval.

    Inputs: ``predictions`` and ``references`` (strings).  Each reply and
    each reference is normalized with
    :func:`~assay.postprocess.general.general_postprocess` (cut at the first
    newline, ``.`` or ``,``; punctuation and articles removed); a sample is
    correct when the normalized reference, or the raw one, occurs *anywhere*
    in the normalized reply.  Metric: ``score`` in [0, 100].  Details
    (assay's addition; OpenCompass writes none): ``pred`` (the normalized
    reply), ``answer`` (the raw reference), ``correct``.  Case matters.

    OpenCompass behaviour reproduced: containment, not equality, so a reply
    naming several topics is right when one of them is the reference; a
    reference that normalizes to ``''`` (``'The.'``) matches every reply; and
    the library config normalizes the reply twice (its
    ``pred_postprocessor`` is ``general_postprocess`` too), which changes
    nothing but cuts a reply at its first ``.`` before the evaluator sees it.

    >>> LEvalEMEvaluator().score(['The first topic is baseball, then food'], ['baseball'])['score']
    100.0
    >>> LEvalEMEvaluator().score(['It was the baseball topic'], ['Baseball'])['score']  # case matters
    0.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def __init__(self, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return score_pairs(self, predictions, references, _contains, metric="score", scale=share_percent)


def _contains(pred: Any, ref: Any) -> tuple[str, bool]:
    """The normalized reply, and whether the reference (normalized, or raw) occurs in it."""
    text = general_postprocess(pred)
    raw = "" if ref is None else str(ref)
    return text, general_postprocess(raw) in text or raw in text

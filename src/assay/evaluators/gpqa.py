"""GPQA's evaluator, as OpenCompass 0.5.4 scores it."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import equal_as_is, percent, score_pairs
from assay.registry import ICL_EVALUATORS

__all__ = ["GPQAEvaluator"]


@ICL_EVALUATORS.register_module()
class GPQAEvaluator(BaseEvaluator):
    """GPQA accuracy: the prediction equals the reference letter exactly.

    Inputs: ``predictions`` (after the config's postprocessor; ``None`` from
    ``GPQA_Simple_Eval_postprocess`` is simply wrong) and ``references``.
    Unlike ``AccEvaluator`` nothing is turned into a string first.  Metric:
    ``accuracy`` in [0, 100].  Details: ``pred``, ``answer``, ``correct``.

    >>> GPQAEvaluator().score(['A', None, 'c'], ['A', 'B', 'C'])['accuracy']
    33.333333333333336
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return score_pairs(self, predictions, references, equal_as_is, metric="accuracy", scale=percent)

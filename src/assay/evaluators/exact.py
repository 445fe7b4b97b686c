"""Exact-match evaluators: accuracy and exact match against several answers."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch, share_percent
from assay.postprocess.general import general_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["AccEvaluator", "AccwithDetailsEvaluator", "EMEvaluator"]

_TEXTS = {str}


@ICL_EVALUATORS.register_module()
class AccEvaluator(BaseEvaluator):
    """Accuracy: the share of predictions equal to their reference.

    Inputs: ``predictions`` and ``references``, compared as strings (``1`` and
    ``'1'`` match, as in OpenCompass, which maps both through ``str``).
    Metric: ``accuracy`` in [0, 100], the share times 100 as OpenCompass
    computes it.  Details per sample: ``pred``,
    ``answer``, ``correct`` (OpenCompass writes none).  Empty input is an
    error record.  Limitation: no normalization at all; put a postprocessor
    in front for free-form text.

    >>> AccEvaluator().score(['A', 'B'], ['A', 'C'])['accuracy']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", share_percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        if set(map(type, predictions)) == _TEXTS == set(map(type, references)):
            # the usual batch, texts only (str() is the identity): compared at C speed, the records built in one pass
            verdicts = list(map(operator.eq, predictions, references))
            details = [{"pred": p, "answer": r, "correct": ok} for p, r, ok in zip(predictions, references, verdicts)]
            return {"accuracy": share_percent(sum(verdicts), len(details)), "details": details}
        # score_pairs' records, built in one loop (two texts are compared as they are: str() is the identity)
        details = []
        append = details.append
        correct = 0
        for pred, ref in zip(predictions, references):
            ok = pred == ref if type(pred) is str and type(ref) is str else str(pred) == str(ref)
            correct += ok
            append({"pred": pred, "answer": ref, "correct": ok})
        return {"accuracy": share_percent(correct, len(details)), "details": details}


@ICL_EVALUATORS.register_module()
class AccwithDetailsEvaluator(BaseEvaluator):
    """Accuracy with the prompt kept in each sample's details.

    Inputs: ``predictions``, ``references`` (compared with ``==``, as in
    OpenCompass: ``1`` and ``'1'`` differ) and ``origin_prompt``.  Metric: ``accuracy`` in [0, 100].  Details per
    sample, under OpenCompass's keys: ``prompt``, ``pred``, ``refr``,
    ``is_correct``.

    >>> AccwithDetailsEvaluator().score(['A'], ['A'], ['Q?'])['details'][0]['is_correct']
    True
    """

    sample_outcome = SampleOutcome(correct="is_correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("is_correct", share_percent)})

    def score(
        self, predictions: list[Any], references: list[Any], origin_prompt: Sequence[Any] | None = None
    ) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        prompts = list(origin_prompt) if origin_prompt is not None else [None] * len(predictions)
        if len(prompts) != len(predictions):
            prompts = [None] * len(predictions)
        details = []
        correct = 0
        for prompt, pred, ref in zip(prompts, predictions, references):
            ok = pred == ref
            correct += ok
            details.append({"prompt": prompt, "pred": pred, "refr": ref, "is_correct": ok})
        return {"accuracy": share_percent(correct, len(predictions)), "details": details}


@ICL_EVALUATORS.register_module()
class EMEvaluator(BaseEvaluator):
    """Exact match against one or several reference answers.

    Inputs: ``predictions`` and ``references`` (each a string or a list of
    acceptable answers).  Predictions and references are normalized with
    :func:`~assay.postprocess.general.general_postprocess`; a prediction is
    correct when it equals a normalized or a raw reference.  Metric: ``score``
    in [0, 100].  Details: ``pred`` (normalized), ``answer`` (the raw
    references), ``correct``.  Limitation: ``general_postprocess`` keeps only
    the text before the first ``.``, ``,`` or newline.

    >>> EMEvaluator().score(['The Eiffel Tower.'], [['Eiffel Tower', 'la tour Eiffel']])['score']
    100.0
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"score": ("correct", share_percent)})

    def __init__(self, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        details = []
        correct = 0
        for pred, ref in zip(predictions, references):
            raw = [str(r) for r in (ref if isinstance(ref, (list, tuple)) else [ref])]
            answers = set(raw) | {general_postprocess(r) for r in raw}
            p = general_postprocess(str(pred))
            ok = p in answers
            correct += ok
            details.append({"pred": p, "answer": raw, "correct": ok})
        return {"score": share_percent(correct, len(predictions)), "details": details}

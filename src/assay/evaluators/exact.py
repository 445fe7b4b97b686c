"""Exact-match evaluators: accuracy, exact match against several answers, BBH."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch, score_pairs, share_percent
from assay.postprocess.bbh import bbh_freeform_postprocess
from assay.postprocess.general import general_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["AccEvaluator", "AccwithDetailsEvaluator", "BBHEvaluator", "BBHEvaluator_mcq", "EMEvaluator"]


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

    sample_decomposable = True

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return score_pairs(
            self, predictions, references, lambda pred, ref: (pred, str(pred) == str(ref)), scale=share_percent
        )


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

    sample_decomposable = True

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

    sample_decomposable = True

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


@ICL_EVALUATORS.register_module()
class BBHEvaluator(BaseEvaluator):
    """BIG-Bench Hard, free-form tasks, as OpenCompass 0.5.4 scores them.

    Inputs: raw ``predictions`` and ``references``; both go through
    :func:`~assay.postprocess.bbh.bbh_freeform_postprocess` (OpenCompass's
    extraction, bugs included), then are compared ignoring case
    (:meth:`str.casefold`).  Metric: ``score`` in [0, 100] (the share times
    100).  Details: ``pred`` and ``answer`` (both extracted), ``correct``.

    >>> BBHEvaluator().score(['So the answer is **yes**.', 'the answer is 12'], ['Yes', '13'])['score']
    50.0
    """

    sample_decomposable = True

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        def judge(pred: Any, ref: Any) -> tuple[Any, bool]:
            p, r = bbh_freeform_postprocess(pred), bbh_freeform_postprocess(ref)
            return p, p.casefold() == r.casefold()

        result = score_pairs(self, predictions, references, judge, metric="score", scale=share_percent)
        for detail in result.get("details", ()):
            detail["answer"] = bbh_freeform_postprocess(detail["answer"])
        return result


@ICL_EVALUATORS.register_module()
class BBHEvaluator_mcq(BaseEvaluator):
    """BIG-Bench Hard, multiple-choice tasks, as OpenCompass 0.5.4 scores them: prediction equals reference.

    Inputs: ``predictions`` and ``references`` already extracted (OpenCompass's
    configs put ``bbh_mcq_postprocess`` as the prediction and dataset
    postprocessor); they are compared as they are, with ``==``.  Metric:
    ``score`` in [0, 100] (the share times 100).  Details: ``pred``,
    ``answer``, ``correct``.

    >>> BBHEvaluator_mcq().score(['B', 'A'], ['B', '(A)'])['score']
    50.0
    """

    sample_decomposable = True

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return score_pairs(self, predictions, references, lambda pred, ref: (pred, pred == ref), metric="score", scale=share_percent)

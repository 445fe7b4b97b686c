"""Exact-match evaluators: accuracy, exact match against several answers, BBH."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch, percent, score_pairs
from assay.postprocess.bbh import bbh_freeform_postprocess, bbh_mcq_postprocess
from assay.postprocess.general import general_postprocess
from assay.registry import ICL_EVALUATORS

__all__ = ["AccEvaluator", "AccwithDetailsEvaluator", "BBHEvaluator", "BBHEvaluator_mcq", "EMEvaluator"]


@ICL_EVALUATORS.register_module()
class AccEvaluator(BaseEvaluator):
    """Accuracy: the share of predictions equal to their reference.

    Inputs: ``predictions`` and ``references``, compared as strings (``1`` and
    ``'1'`` match, as in OpenCompass, which maps both through ``str``).
    Metric: ``accuracy`` in [0, 100].  Details per sample: ``pred``,
    ``answer``, ``correct`` (OpenCompass writes none).  Empty input is an
    error record.  Limitation: no normalization at all; put a postprocessor
    in front for free-form text.

    >>> AccEvaluator().score(['A', 'B'], ['A', 'C'])['accuracy']
    50.0
    """

    sample_decomposable = True

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        return score_pairs(self, predictions, references, lambda pred, ref: (pred, str(pred) == str(ref)))


@ICL_EVALUATORS.register_module()
class AccwithDetailsEvaluator(BaseEvaluator):
    """Accuracy with the prompt kept in each sample's details.

    Inputs: ``predictions``, ``references`` (compared as strings) and
    ``origin_prompt``.  Metric: ``accuracy`` in [0, 100].  Details per
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
            ok = str(pred) == str(ref)
            correct += ok
            details.append({"prompt": prompt, "pred": pred, "refr": ref, "is_correct": ok})
        return {"accuracy": percent(correct, len(predictions)), "details": details}


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
        return {"score": percent(correct, len(predictions)), "details": details}


_CASELESS_ANSWERS = frozenset({"yes", "no", "true", "false", "valid", "invalid"})


class _BBHBase(BaseEvaluator):
    sample_decomposable = True

    @staticmethod
    def _extract(text: Any) -> str:
        raise NotImplementedError

    @staticmethod
    def _matches(answer: str, ref: str) -> bool:
        if answer == ref:
            return True
        return ref.lower() in _CASELESS_ANSWERS and answer.lower() == ref.lower()

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        def judge(pred: Any, ref: Any) -> tuple[str, bool]:
            answer = self._extract(pred)
            return answer, self._matches(answer, str(ref).strip())

        return score_pairs(self, predictions, references, judge, metric="score")


@ICL_EVALUATORS.register_module()
class BBHEvaluator(_BBHBase):
    """BIG-Bench Hard, free-form tasks: exact match after :func:`~assay.postprocess.bbh.bbh_freeform_postprocess`.

    Inputs: raw ``predictions`` (the evaluator extracts the answer itself; do
    not configure ``bbh-freeform`` as a postprocessor as well) and
    ``references``.  Correct when the extracted answer equals the reference;
    the yes/no, true/false and valid/invalid answers match regardless of case
    (OpenCompass compares exactly, so ``Yes`` fails against ``yes``).  Metric:
    ``score`` in [0, 100].  Details: ``pred`` (the extracted answer),
    ``answer``, ``correct``.

    >>> BBHEvaluator().score(['So the answer is **yes**.', 'the answer is 12'], ['Yes', '13'])['score']
    50.0
    """

    @staticmethod
    def _extract(text: Any) -> str:
        return bbh_freeform_postprocess(text)


@ICL_EVALUATORS.register_module()
class BBHEvaluator_mcq(_BBHBase):
    """BIG-Bench Hard, multiple-choice tasks: the letter from :func:`~assay.postprocess.bbh.bbh_mcq_postprocess`.

    Inputs: raw ``predictions`` and ``references`` (letters, ``'(A)'`` or
    ``'A'``: parentheses are ignored).  Metric: ``score`` in [0, 100].
    Details: ``pred``, ``answer``, ``correct``.

    >>> BBHEvaluator_mcq().score(['So the answer is (B).'], ['(B)'])['score']
    100.0
    """

    @staticmethod
    def _extract(text: Any) -> str:
        return bbh_mcq_postprocess(text)

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if references is not None:
            references = [str(r).strip().strip("()") for r in references]
        return super().score(predictions, references)

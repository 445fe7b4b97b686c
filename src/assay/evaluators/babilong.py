"""BABILong's evaluator as OpenCompass 0.5.4 computes it (``BabiLongEvaluator``, ``compare_answers``).

The references are the prediction records' ``gold``: per sample the list
``[target]`` the loader puts in its ``answer`` column (see
:mod:`assay.datasets.babilong`); the evaluator reads its first element.
"""

from __future__ import annotations

from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples
from assay.evaluators.ruler import missing_gold, rounded_percent
from assay.registry import ICL_EVALUATORS

__all__ = ["BabiLongEvaluator", "compare_answers"]


def compare_answers(target: str, output: str) -> bool:
    """Whether ``target`` occurs in the first sentence of ``output``, both lower-cased.

    The reply is cut at its first ``.``, then before ``<context>`` and before
    ``<example>`` (a model that goes on to write examples); the target is
    looked for by substring, so ``'no'`` is found in ``'not sure'`` and an
    empty target in anything.

    >>> compare_answers('kitchen', 'The most recent location of Mary is Kitchen. Then hallway.')
    True
    >>> compare_answers('hallway', 'The most recent location of Mary is Kitchen. Then hallway.')
    False
    """
    output = output.lower().split(".")[0].split("<context>")[0].split("<example>")[0]
    return target.lower() in output


@ICL_EVALUATORS.register_module()
class BabiLongEvaluator(BaseEvaluator):
    """BABILong accuracy (metric ``score`` in [0, 100], rounded to two decimals) by :func:`compare_answers`.

    Each sample's reference is ``str(gold[0])``: a ``gold`` written as a
    plain string rather than ``[target]`` is thus read as its first
    character, as OpenCompass reads it.  Different numbers of predictions and
    references fail the task (OpenCompass asserts it).  Details: ``pred``,
    ``answer`` (the target read), ``correct``.

    >>> BabiLongEvaluator().score(['The bottle is in the office.', 'It is in the garden'], [['office'], ['kitchen']])['score']
    50.0
    """

    sample_outcome = SampleOutcome(correct="correct", decimals=2)

    def score(self, predictions: list[Any], gold: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(gold):
            raise ValueError(f"BabiLongEvaluator: {len(predictions)} predictions but {len(gold)} gold references")
        if not predictions:
            return no_samples(self)
        details = []
        for index, (pred, ref) in enumerate(zip(predictions, gold)):
            if ref is None:
                raise ValueError(missing_gold(self, index))
            target = str(ref[0])
            details.append({"pred": pred, "answer": target, "correct": compare_answers(target, pred)})
        return {"score": rounded_percent(sum(d["correct"] for d in details), len(details)), "details": details}

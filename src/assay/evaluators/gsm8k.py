"""GSM8K's evaluators as OpenCompass 0.5.4 computes them (``Gsm8kEvaluator``, ``Gsm8kAgentEvaluator``)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples, percent
from assay.registry import ICL_EVALUATORS

__all__ = ["Gsm8kAgentEvaluator", "Gsm8kEvaluator", "gsm8k_is_equal"]


def gsm8k_is_equal(pred: Any, ref: Any) -> bool:
    """OpenCompass's GSM8K test: ``pred == ref``, or ``|float(pred) - int(ref)| < 1e-6``.

    Python's own ``float``/``int`` readings apply, so ``'18.0'`` matches
    ``'18'`` and ``' 18'`` matches too, but a reference that ``int()`` cannot
    read (``'2.5'``, ``'1,000'``) only matches an identical prediction, and
    ``'1,000'`` never matches ``'1000'``.

    >>> gsm8k_is_equal('18.0', '18'), gsm8k_is_equal('2.50', '2.5'), gsm8k_is_equal('2.5', '2.5')
    (True, False, True)
    """
    try:
        return bool(pred == ref or abs(float(pred) - int(ref)) < 1e-6)
    except (TypeError, ValueError, OverflowError):
        return False


@ICL_EVALUATORS.register_module()
class Gsm8kEvaluator(BaseEvaluator):
    """GSM8K accuracy: :func:`gsm8k_is_equal` on each pair.

    Inputs: ``predictions`` (usually after ``gsm8k_postprocess``, which gives
    ``'NULL'`` when a reply has no number) and ``references`` (after
    ``gsm8k_dataset_postprocess``).  Metric: ``accuracy`` in [0, 100].
    Details: ``pred``, ``answer``, ``correct``.

    >>> Gsm8kEvaluator().score(['18', '3.0', 'NULL'], ['18', '3', '5'])['accuracy']
    66.66666666666667
    """

    sample_outcome = SampleOutcome(correct="correct")

    sample_decomposable = True
    sample_sums = MappingProxyType({"accuracy": ("correct", percent)})

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "predictions and references have different length"}
        if not predictions:
            return no_samples(self)
        details = [{"pred": p, "answer": r, "correct": gsm8k_is_equal(p, r)} for p, r in zip(predictions, references)]
        return {"accuracy": percent(sum(d["correct"] for d in details), len(details)), "details": details}


@ICL_EVALUATORS.register_module()
class Gsm8kAgentEvaluator(BaseEvaluator):
    """GSM8K for agent runs (OpenCompass's ``Gsm8kAgentEvaluator``): how often the final answer or
    the tool call was right.

    ``steps`` (a field of agent prediction files) holds each sample's list of
    actions ``{'type', 'result': {'text'}, 'errmsg'}``; the last action of
    type ``action`` is the tool call.  Metrics in [0, 100] over all samples:
    ``follow_acc`` (final answer right), ``reasoning_acc`` (final answer, or
    the tool's result, right), ``code_acc`` (final answer right after a tool
    call, or a tool call without error), ``action_pct`` (a tool call, or a
    right answer after one).  No details.  As in OpenCompass, the
    constructor takes no ``pred_postprocessor``.
    """

    def __init__(self, action: str = "PythonInterpreter") -> None:
        super().__init__()
        self.action = action

    def _action(self, steps: Any) -> Any:
        for step in reversed(steps):
            if step["type"] == self.action:
                return step
        return None

    def score(self, predictions: list[Any], references: list[Any], steps: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        if not predictions:
            return no_samples(self)
        plain = after_action = actions = clean_code = soft = 0
        for pred, ref, step in zip(predictions, references, steps):
            action = self._action(step)
            if gsm8k_is_equal(pred, ref):
                if action:
                    after_action += 1
                else:
                    plain += 1
            elif action:
                actions += 1
                if not action["errmsg"]:
                    clean_code += 1
                    soft += _soft_equal(ref, action)
        total = len(references)
        return {
            "follow_acc": percent(plain + after_action, total),
            "reasoning_acc": percent(soft + after_action + plain, total),
            "code_acc": percent(clean_code + after_action, total),
            "action_pct": percent(actions + after_action, total),
        }


def _soft_equal(ref: Any, action: dict[str, Any]) -> bool:
    try:
        return abs(float(action["result"]["text"]) - int(ref)) < 1e-6
    except (KeyError, TypeError, ValueError, OverflowError):
        return False

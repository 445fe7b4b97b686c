"""``MATHAgentEvaluator``: MATH scored with the tool calls of an agent's replies, as OpenCompass 0.5.4 does."""

from __future__ import annotations

from typing import Any, ClassVar

from assay.evaluate.base import SampleOutcome
from assay.evaluators._mathstrings import math_is_equiv
from assay.evaluators.math import MATHEvaluator
from assay.registry import ICL_EVALUATORS

__all__ = ["MATHAgentEvaluator"]


@ICL_EVALUATORS.register_module()
class MATHAgentEvaluator(MATHEvaluator):
    """How an agent solving MATH with a tool (``action``) fares, as OpenCompass 0.5.4 computes it.

    Inputs: ``predictions`` (final answers, usually after
    ``math_postprocess``), ``references`` and ``steps`` (the prediction
    files' field: per reply, the agent's steps, dicts with ``type``,
    ``result`` and ``errmsg``).  A reply's *action* is its last step whose
    ``type`` is ``action`` (``'PythonInterpreter'``).  Equivalence is
    ``MATHEvaluator``'s (``version``).  Counting, over the ``total`` replies:

    * right final answer: with an action → ``final``, without → ``plain``;
    * wrong final answer with an action → ``action``; when its ``errmsg`` is
      empty also ``code``; and when its ``result['text']`` is equivalent to
      the reference also ``reasoning``.

    Metrics in [0, 100]: ``follow_acc`` = (plain + final) / total,
    ``reasoning_acc`` = (reasoning + final + plain) / total, ``code_acc`` =
    (code + final) / (action + final), ``action_pct`` = (action + final) / total.
    No details.

    Where OpenCompass 0.5.4 fails, this returns an error record: no replies
    or no reply with an action (a division by zero), and an action without
    ``result['text']`` nor ``errmsg`` whose reply is wrong (its fallback
    prints an unassigned variable).

    >>> step = lambda text: [{'type': 'PythonInterpreter', 'result': {'text': text}, 'errmsg': None}]
    >>> r = MATHAgentEvaluator().score(['2', '5', '1'], ['2', '3', '1'], [step('2'), step('3'), []])
    >>> r['follow_acc'], r['code_acc'], r['action_pct'], round(r['reasoning_acc'], 2)
    (66.66666666666667, 100.0, 66.66666666666667, 100.0)
    """

    def __init__(self, action: str = "PythonInterpreter", version: str = "v1") -> None:
        super().__init__(version=version)
        self.action = action

    # code_acc divides by the replies that acted, not by all: shards cannot be merged by size
    sample_decomposable = False
    #: no details, so no per-sample field backs a metric (MATHEvaluator's declaration does not apply)
    sample_outcome: ClassVar[SampleOutcome | None] = None

    def _action(self, steps: Any) -> Any:
        for step in reversed(steps):
            if step["type"] == self.action:
                return step
        return None

    def score(self, predictions: list[Any], references: list[Any], steps: list[Any]) -> dict[str, Any]:  # type: ignore[override]
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        name = type(self).__name__
        plain = final = action = code = reasoning = 0
        for i, (pred, ref, reply_steps) in enumerate(zip(predictions, references, steps)):
            found = self._action(reply_steps)
            if math_is_equiv(pred, ref, self.version):
                if found:
                    final += 1
                else:
                    plain += 1
            elif found:
                action += 1
                if not found["errmsg"]:
                    code += 1
                    try:
                        text = found["result"]["text"]
                    except Exception:
                        return {"error": f"{name}: reply {i}: its {self.action} step has no result text"}
                    reasoning += math_is_equiv(text, ref, self.version)
        total = len(references)
        if total == 0 or action + final == 0:
            return {"error": f"{name}: no replies" if total == 0 else f"{name}: no reply used {self.action}; code_acc divides by zero"}
        return {
            "follow_acc": 100 * (plain + final) / total,
            "reasoning_acc": 100 * (reasoning + final + plain) / total,
            "code_acc": 100 * (code + final) / (action + final),
            "action_pct": 100 * (action + final) / total,
        }

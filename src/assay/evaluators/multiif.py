"""Multi-IF's evaluator as OpenCompass 0.5.4 computes it (``MultiIFEvaluator``).

Its instruction checkers are IFEval's (OpenCompass vendors the same code a
second time), so each turn is checked with :func:`assay.evaluators.ifeval.ifeval_follows`.
"""

from __future__ import annotations

from typing import Any

from assay.evaluate.base import BaseEvaluator
from assay.evaluators._common import check_batch
from assay.evaluators.ifeval import _registry, ifeval_follows
from assay.registry import ICL_EVALUATORS

__all__ = ["MultiIFEvaluator"]


@ICL_EVALUATORS.register_module()
class MultiIFEvaluator(BaseEvaluator):
    """Instruction following over three turns.

    ``predictions``: each conversation's three replies; ``references``: the
    rows' ``reference`` (per turn its instruction ids, keyword arguments and
    prompt).  Per turn ``t``, as IFEval scores a prompt (the turn's reply
    against the turn's instructions, strict and loose; ``None`` keyword
    arguments dropped): ``turn_<t>_prompt_strict``, ``turn_<t>_inst_strict``,
    ``turn_<t>_prompt_loose``, ``turn_<t>_inst_loose`` and
    ``turn_<t>_overall`` (their mean), all in [0, 100]; ``overall`` is the
    mean of the three turns'.  No details, as there.  An unknown instruction
    id, or a conversation with fewer than three replies, is an error record
    (OpenCompass stops with an exception).
    """

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        name = type(self).__name__
        registry = _registry()
        for index, (replies, refer) in enumerate(zip(predictions, references)):
            if not isinstance(replies, list) or len(replies) < 3 or not all(isinstance(r, str) for r in replies[:3]):
                return {"error": f"{name}: sample {index} has no three replies (a multi-round prediction), got {str(replies)[:120]!r}"}
            unknown = [i for t in (1, 2, 3) for i in refer[f"turn_{t}_instruction_id_list"] if i not in registry]
            if unknown:
                return {"error": f"{name}: sample {index}: unknown instruction id(s) {unknown}"}
        results: dict[str, Any] = {}
        overalls = []
        for t in (1, 2, 3):
            counts = {"prompt_strict": [0, 0], "inst_strict": [0, 0], "prompt_loose": [0, 0], "inst_loose": [0, 0]}
            for replies, refer in zip(predictions, references):
                turn = {"prompt": refer[f"turn_{t}_prompt"], "instruction_id_list": refer[f"turn_{t}_instruction_id_list"],
                        "kwargs": [{k: v for k, v in kw.items() if v is not None} for kw in refer[f"turn_{t}_kwargs"]]}
                for mode, loose in (("strict", False), ("loose", True)):
                    follows = ifeval_follows(turn, replies[t - 1], loose=loose)
                    counts[f"prompt_{mode}"][0] += all(follows)
                    counts[f"prompt_{mode}"][1] += 1
                    counts[f"inst_{mode}"][0] += sum(follows)
                    counts[f"inst_{mode}"][1] += len(follows)
            if counts["inst_strict"][1] == 0:
                return {"error": f"{name}: turn {t} has no instructions in any sample (OpenCompass divides by zero)"}
            values = {key: kept / total * 100 for key, (kept, total) in counts.items()}
            for key in ("prompt_strict", "inst_strict", "prompt_loose", "inst_loose"):
                results[f"turn_{t}_{key}"] = values[key]
            overall = (values["prompt_strict"] + values["inst_strict"] + values["prompt_loose"] + values["inst_loose"]) / 4
            results[f"turn_{t}_overall"] = overall
            overalls.append(overall)
        results["overall"] = sum(overalls) / len(overalls)
        return results

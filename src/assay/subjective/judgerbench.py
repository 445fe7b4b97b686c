"""JudgerBench's scoring of a judge model: ``JudgerBenchEvaluator``, as OpenCompass 0.5.4 computes it.

Part A (``judgerbench_A_*``): the judged model picks the winner of two
answers (``A`` if its reply has an ``A``, else ``B`` if it has a ``B``); the
score is the share agreeing with the human ``winner``, overall and per
category.  Part B: the judged model's verdicts in other benchmarks' formats
are compared with GPT-4o's (``meta_judge``), read per benchmark as
OpenCompass reads them; samples whose meta verdict cannot be read are left
out.  The share of equal verdicts is reported overall and per benchmark, and
the Pearson correlation, per benchmark, of each compared model's summed
verdicts by the two judges (signs flipped for swapped pairs),
``avg_corr`` their mean.  Numbers are rounded to three decimals (the
correlations as numpy rounds).

Where OpenCompass stops, assay goes on: an empty AlpacaEval verdict is unread
(OpenCompass indexes its first character); part B without any readable meta
verdict has no correlation (OpenCompass divides by zero).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from assay.errors import EvaluationError
from assay.evaluate.base import BaseEvaluator
from assay.registry import ICL_EVALUATORS

__all__ = ["JudgerBenchEvaluator", "judgerbench_verdict"]


def _ranked(found: str, order: list[tuple[str, int]]) -> int | None:
    for token, value in order:
        if token in found:
            return value
    return None


def judgerbench_verdict(judge: str, dataset_name: str) -> int | None:
    """A verdict in one benchmark's format, as a number (``None`` unread, or a benchmark JudgerBench does not read).

    ``alignment_bench_v1_1``: ``[[A]]`` 1, ``[[B]]`` -1; ``alpaca_eval``: a reply starting ``m`` 1, ``M`` -1;
    FoFo: its ``format_correctness``; WildBench: its ``"choice"`` ``A++`` 2 … ``B++`` -2; Arena-Hard: its
    ``[[A>>B]]`` 2 … ``[[B>>A]]`` -2.

    >>> judgerbench_verdict('My verdict: [[A>B]]', 'arenahard'), judgerbench_verdict('{"choice": "B+"}', 'wildbench')
    (1, -1)
    """
    if dataset_name == "alignment_bench_v1_1":
        return 1 if "[[A]]" in judge else -1 if "[[B]]" in judge else None
    if dataset_name == "alpaca_eval":
        return 1 if judge[:1] == "m" else -1 if judge[:1] == "M" else None
    if dataset_name in ("fofo_test_prompts_cn", "fofo_test_prompts"):
        match = re.search(r"[\"']format_correctness[\"']:\s*([0-1]+)", judge)
        return int(match.group(1)) if match else None
    if dataset_name == "wildbench":
        found = re.findall(r"\"choice\": \"(.*?)\"", judge)
        # 'B++' contains 'B+': it is read as -1, as OpenCompass reads it
        return _ranked(found[0], [("A++", 2), ("A+", 1), ("A=B", 0), ("B+", -1), ("B++", -2)]) if found else None
    if dataset_name == "arenahard":
        found = re.findall(r"\[\[([AB<>=]+)\]\]", judge)
        return _ranked(found[0], [("A>>B", 2), ("A>B", 1), ("A=B", 0), ("B>A", -1), ("B>>A", -2)]) if found else None
    return None


@ICL_EVALUATORS.register_module()
class JudgerBenchEvaluator(BaseEvaluator):
    """A judge model's agreement with human winners (part A) or with GPT-4o's verdicts (part B); see the module.

    Metrics: ``accuracy``, ``accuracy_<category or benchmark>``, and for part B ``avg_corr`` and
    ``corr_<benchmark>``.
    """

    def __init__(self, num_workers: int = 16, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.num_workers = num_workers

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length."}
        if not references:
            return {"accuracy": 0.0}
        stats: dict[str, dict[str, int]] = {}
        correlations: dict[str, Any] = {}
        correct = total = 0
        if references[0]["dataset_name"] == "judgerbench_A":
            for i, (pred, ref) in enumerate(zip(predictions, references)):
                winner = {"model_a": "A", "model_b": "B"}.get(ref["winner"])
                if winner is None:
                    raise EvaluationError(f"JudgerBenchEvaluator: sample {i} has the winner {ref['winner']!r}; "
                                          "JudgerBench's part A knows 'model_a' and 'model_b'")
                cell = stats.setdefault(ref["category"], {"correct": 0, "total": 0})
                picked = "A" if "A" in pred else "B" if "B" in pred else pred
                if picked == winner:
                    cell["correct"] += 1
                    correct += 1
                cell["total"] += 1
                total += 1
        else:
            sums: dict[str, dict[Any, dict[str, int]]] = {}
            for pred, ref in zip(predictions, references):
                name = ref["dataset_name"]
                meta = judgerbench_verdict(ref["meta_judge"], name)
                if meta is None:
                    continue
                own = judgerbench_verdict(pred, name)
                cell = stats.setdefault(name, {"correct": 0, "total": 0})
                if own == meta:
                    cell["correct"] += 1
                    correct += 1
                cell["total"] += 1
                total += 1
                model = sums.setdefault(name, {}).setdefault(ref["others"]["model"], {"meta": 0, "self": 0})
                sign = -1 if ref["others"]["swap"] else 1
                model["meta"] += sign * meta
                if own is not None:
                    model["self"] += sign * own
            for name, models in sums.items():
                with np.errstate(all="ignore"):
                    corr = np.corrcoef([m["meta"] for m in models.values()], [m["self"] for m in models.values()])[0, 1]
                correlations["corr_" + name] = round(corr, 3)
            if correlations:
                correlations = {"avg_corr": round(sum(correlations.values()) / len(correlations), 3), **correlations}
        results: dict[str, Any] = {"accuracy": round(correct / total, 3) if total > 0 else 0.0}
        for category, cell in stats.items():
            results[f"accuracy_{category}"] = round(cell["correct"] / cell["total"], 3) if cell["total"] > 0 else 0.0
        results.update({k: float(v) for k, v in correlations.items()})
        return results

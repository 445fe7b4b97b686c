"""CompassArena's subjective bench scored point by point: ``compassarena_subjectiveeval_pointwise_postprocess``.

As OpenCompass 0.5.4 computes it: the judge's reply carries ``[[<n>分]]`` (the
first counts; 1–5); ``Average_score`` is the mean times 20 (so 100 is the
top), then one ``<category>_<difficulty>`` score each, in the order first
met, all rounded to three decimals.  A reply without a score is not counted.

Where OpenCompass stops, assay goes on: without any score read (OpenCompass
divides by zero) the result is ``{'error': 'No valid judgements were parsed.'}``
with the details.
"""

from __future__ import annotations

import re
from typing import Any

from assay.registry import DICT_POSTPROCESSORS
from assay.subjective._common import judged_answers

__all__ = ["compassarena_subjectiveeval_pointwise_postprocess", "read_pointwise_score"]


def read_pointwise_score(reply: str) -> str | None:
    """The digits of the first ``[[<n>分]]`` of a reply, or ``None``.

    >>> read_pointwise_score('回复准确完整。\\n[[4分]]')
    '4'
    """
    found = re.findall(r"\[\[(\d+)分\]\]", reply)
    return found[0] if found else None


@DICT_POSTPROCESSORS.register_module(
    ["compassarena_subjectiveeval_pointwise", "compassarena_subjectiveeval_pointwise_postprocess"]
)
def compassarena_subjectiveeval_pointwise_postprocess(output: dict[str, Any], output_path: str) -> dict[str, Any]:
    """``Average_score`` and each ``<category>_<difficulty>`` score (see the module), and ``details``.

    >>> out = {'0': {'prediction': '[[4分]]', 'gold': {'category': '推理', 'difficulty': '简单'}},
    ...        '1': {'prediction': '[[2分]]', 'gold': {'category': '推理', 'difficulty': '困难'}}}
    >>> {k: v for k, v in compassarena_subjectiveeval_pointwise_postprocess(out, 'x').items() if k != 'details'}
    {'Average_score': 60.0, '推理_简单': 80.0, '推理_困难': 40.0}
    """
    answers, references = judged_answers(output, output_path, lambda s: read_pointwise_score(s["prediction"]))
    if not answers:
        return {"error": "No valid judgements were parsed.", "details": output}
    sums: dict[tuple[Any, Any], int] = {}
    counts: dict[tuple[Any, Any], int] = {}
    for answer, reference in zip(answers, references):
        cell = (reference["category"], reference["difficulty"])
        sums[cell] = sums.get(cell, 0) + int(answer)
        counts[cell] = counts.get(cell, 0) + 1
    # cells in the order of their category's first appearance, then their difficulty's
    order: dict[Any, list[Any]] = {}
    for category, difficulty in sums:
        order.setdefault(category, []).append(difficulty)
    results: dict[str, Any] = {"Average_score": round(sum(int(a) for a in answers) / len(answers) * 20, 3)}
    for category, difficulties in order.items():
        for difficulty in difficulties:
            results[f"{category}_{difficulty}"] = round(sums[(category, difficulty)] / counts[(category, difficulty)] * 20, 3)
    results["details"] = output
    return results

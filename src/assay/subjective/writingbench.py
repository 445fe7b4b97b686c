"""WritingBench's criterion scores: ``writingbench_postprocess``, as OpenCompass 0.5.4 computes them.

The judge answers ``{"score": <1-10>, "reason": …}`` for one criterion; the
first ``"score": n`` of the reply is read (a reply without one is not
counted).  Scores: ``overall`` and each ``domain1``'s mean, in the order
first met.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from assay.registry import DICT_POSTPROCESSORS
from assay.subjective._common import judged_answers

__all__ = ["read_writingbench_score", "writingbench_postprocess"]

_SCORE = re.compile(r"[\"']score[\"']:\s*([0-9]+)")


def read_writingbench_score(reply: str) -> dict[str, int] | None:
    """``{'score': n}`` from the first ``"score": n`` of a reply, or ``None``.

    >>> read_writingbench_score('```json\\n{"score": 8, "reason": "vivid"}\\n```')
    {'score': 8}
    """
    match = _SCORE.search(reply)
    return {"score": int(match.group(1))} if match else None


@DICT_POSTPROCESSORS.register_module(["writingbench", "writingbench_postprocess"])
def writingbench_postprocess(output: dict[str, Any], output_path: str) -> dict[str, Any]:
    """``overall`` and each ``domain1``'s mean score, and ``details``: the judged samples as given.

    >>> out = {'0': {'prediction': '{"score": 6}', 'gold': {'domain1': 'Academic'}}}
    >>> {k: v for k, v in writingbench_postprocess(out, 'x').items() if k != 'details'}
    {'overall': 6.0, 'Academic': 6.0}
    """
    answers, references = judged_answers(output, output_path, lambda s: read_writingbench_score(s["prediction"]))
    scores: dict[str, list[int]] = defaultdict(list)
    for answer, reference in zip(answers, references):
        scores["overall"].append(answer["score"])
        scores[reference["domain1"]].append(answer["score"])
    results: dict[str, Any] = {key: sum(v) / len(v) for key, v in scores.items()}
    results["details"] = output
    return results

"""HelloBench's checklist scores: ``hellobench_postprocess``, as OpenCompass 0.5.4 computes them.

The judge answers a JSON list, one ``{'checklist_id', 'reason',
'evaluation_score'}`` per checklist item (scores in 0–1; code fences, line
breaks and backslashes are removed before it is read).  A sample's score is
the dot product of its item scores with its subcategory's regression weights
(HelloBench's figures, kept in ``hellobench_weights.json`` beside this module
as OpenCompass 0.5.4 has them), rescaled as ``(score - 75) * 4``;
``overall_score`` is their mean (``NaN`` without any, as numpy's mean of
nothing).  Each judged sample of ``details`` gets its ``rescaled_score``
(``None`` when unread), as OpenCompass adds it.

Where OpenCompass stops, assay goes on: a reply with as many items as the
checklist but not as many as the subcategory has weights is unread (numpy
raises in OpenCompass).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from assay.errors import EvaluationError
from assay.registry import DICT_POSTPROCESSORS
from assay.subjective._common import READ_SHARE

__all__ = ["hellobench_postprocess", "hellobench_weights", "read_hellobench_checklist"]

logger = logging.getLogger(__name__)


@cache
def hellobench_weights() -> dict[str, list[float]]:
    """Each subcategory's regression weights over its checklist items."""
    with open(Path(__file__).with_name("hellobench_weights.json"), encoding="utf-8") as handle:
        weights: dict[str, list[float]] = json.load(handle)
    return weights


def read_hellobench_checklist(sample: Mapping[str, Any]) -> list[float] | None:
    """The item scores of a judged sample (as many as ``gold['num_checklist']``), or ``None``.

    >>> read_hellobench_checklist({'gold': {'num_checklist': 2}, 'prediction':
    ...     '```json\\n[{"checklist_id": 0, "reason": "ok", "evaluation_score": 1},'
    ...     ' {"checklist_id": "1", "reason": "half", "evaluation_score": "0.5"}]\\n```'})
    [1.0, 0.5]
    """
    expected = sample["gold"]["num_checklist"]
    reply = sample["prediction"]
    try:
        text = reply.replace("```json", "").replace("```python", "").replace("```", "")
        items = json.loads(text.replace("\n", "").replace("\\", ""))
        scores = []
        for item in items:
            item["checklist_id"] = int(item["checklist_id"])
            score = float(item["evaluation_score"])
            if not 0.0 <= score <= 1.0:
                return None
            scores.append(score)
    except Exception:  # any reply not of that shape is unread, as in OpenCompass
        return None
    return scores if len(scores) == expected else None


@DICT_POSTPROCESSORS.register_module(["hellobench", "hellobench_postprocess"])
def hellobench_postprocess(output: dict[str, Any], output_path: str) -> dict[str, Any]:
    """``overall_score`` and ``details`` (each sample with its ``rescaled_score``); see the module.

    Raises:
        EvaluationError: a sample's subcategory has no weights (naming it and the sample).
    """
    if not output:
        logger.warning("there are no judged results for %s", output_path)
    weights = hellobench_weights()
    rescaled: dict[Any, float] = {}
    for key, sample in output.items():
        scores = read_hellobench_checklist(sample)
        if scores is None:
            continue
        subcategory = sample["gold"]["subcategory"]
        if subcategory not in weights:
            raise EvaluationError(f"{output_path}: judged sample {key!r} has the subcategory {subcategory!r}, "
                                  f"which HelloBench has no weights for")
        if len(weights[subcategory]) != len(scores):
            logger.warning("%s: sample %r has %d checklist scores, its subcategory %r %d weights: unread",
                           output_path, key, len(scores), subcategory, len(weights[subcategory]))
            continue
        rescaled[key] = float((np.dot(weights[subcategory], scores) - 75) * 4)
    if len(rescaled) <= READ_SHARE * len(output):
        logger.warning("%s: of %d judgements, %d could be read; check the judge's replies",
                       output_path, len(output), len(rescaled))
    with np.errstate(all="ignore"):
        overall = float(np.mean(list(rescaled.values()))) if rescaled else float("nan")
    for key, sample in output.items():
        sample["rescaled_score"] = rescaled.get(key)
    return {"overall_score": overall, "details": output}

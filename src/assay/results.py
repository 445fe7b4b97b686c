"""The result-file format: one JSON object per (model, dataset).

A result file holds metric name → number, optional ``details`` (one entry per
sample), optional non-numeric extras, and assay's own bookkeeping under
``_meta`` (input fingerprint, assay version, timings).  A failed evaluation is
``{"error": "<message>", ...}`` (R-1.3).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.fileio import atomic_write_json, read_json

__all__ = [
    "META_KEY",
    "METRIC_BLACKLIST",
    "METRIC_WHITELIST",
    "is_error",
    "numeric_metrics",
    "read_result",
    "write_result",
]

META_KEY = "_meta"

METRIC_WHITELIST: tuple[str, ...] = (
    "score",
    "auc_score",
    "accuracy",
    "humaneval_pass@1",
    "rouge1",
    "avg_toxicity_score",
    "bleurt_diff",
    "matthews_correlation",
    "truth",
    "f1",
    "exact_match",
    "extract_rate",
)
METRIC_BLACKLIST: frozenset[str] = frozenset({"bp", "sys_len", "ref_len", "type"})


def write_result(path: str | os.PathLike[str], result: dict[str, Any]) -> None:
    """Write a result dict atomically."""
    atomic_write_json(path, result)


def read_result(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a result file; it must hold a JSON object."""
    data = read_json(path, what="result file")
    if not isinstance(data, dict):
        raise InputFileError(f"result file {Path(path)} must hold a JSON object, got {type(data).__name__}")
    return data


def is_error(result: dict[str, Any]) -> bool:
    """True when the result records a failed evaluation."""
    return "error" in result


def numeric_metrics(result: dict[str, Any]) -> dict[str, float | int]:
    """Top-level numeric metrics of a result, in file order.

    ``int``/``float`` values count, ``bool`` as 1/0; strings, lists, dicts,
    ``details``, ``_meta`` and the blacklisted keys do not.  Non-finite values are
    kept (callers decide how to show them).
    """
    out: dict[str, float | int] = {}
    for key, value in result.items():
        if key in METRIC_BLACKLIST or key == "details" or key == META_KEY:
            continue
        if isinstance(value, bool):
            out[key] = int(value)
        elif isinstance(value, (int, float)):
            out[key] = value
    return out


def order_metrics(names: list[str]) -> list[str]:
    """Whitelisted metrics first in whitelist order, then the rest in their given order."""
    rank = {m: i for i, m in enumerate(METRIC_WHITELIST)}
    return sorted(names, key=lambda m: rank.get(m, len(rank)))


def is_finite_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)

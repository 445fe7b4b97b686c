"""Reading the recordings of ``scripts/record_oc_knowledge.py`` (private test helpers)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from tests.benchmarks_oc.families import RUNS, Run

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families"
KNOWLEDGE = ROOT / "knowledge"


def knowledge(run_id: str) -> dict[str, Any]:
    return json.loads((KNOWLEDGE / f"{run_id}.json").read_text(encoding="utf-8"))


def recorded_runs() -> list[Run]:
    return [r for r in RUNS if (KNOWLEDGE / f"{r.run_id}.json").exists()]


def dataset_cases() -> list[Any]:
    """``pytest.param(run, abbr)`` for each recorded dataset of each run."""
    cases = []
    for run in recorded_runs():
        for abbr in knowledge(run.run_id)["datasets"]:
            cases.append(pytest.param(run, abbr, id=f"{run.run_id}/{abbr}"))
    return cases


def prediction_file(run: Run, model: str, abbr: str) -> Path:
    return ROOT / run.run_id / "predictions" / model / f"{abbr}.json"


def metrics(result: dict[str, Any]) -> dict[str, Any]:
    """The numeric top-level metrics of a result (what a summary shows)."""
    out = {}
    for key, value in result.items():
        if key == "details":
            continue
        if value == "NaN":
            value = float("nan")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[key] = float(value)
    return out


def same_number(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == pytest.approx(b, rel=1e-12, abs=1e-9)


def plain(value: Any) -> Any:
    """A value as JSON would hold it (tuples become lists)."""
    return json.loads(json.dumps(value, ensure_ascii=False))

"""Summary groups over MMLU's 57 subjects print exactly the cells OpenCompass 0.5.4 printed for the same numbers.

``tests/data/summarize/opencompass_mmlu`` holds per-subject accuracies of eight
models and the table OpenCompass's ``DefaultSummarizer`` wrote for them with its
own MMLU groups and further std/sum/harmonic/weighted groups
(``scripts/record_oc_summarizer.py``).  A compensated or exact sum, or a
weighted sum in subset order instead of the order of the weights, prints some
of these cells differently: ``test_the_data_tells_the_summation_orders_apart``
shows that the data can tell.
"""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from assay.groups._groups import left_sum
from assay.summarize import run_summarizer
from tests.summarize.builders import GEN, infer_cfg, write_result

DATA = Path(__file__).parents[1] / "data" / "summarize" / "opencompass_mmlu"
INPUTS = json.loads((DATA / "inputs.json").read_text(encoding="utf-8"))
OPENCOMPASS_CSV = (DATA / "summary.csv").read_text(encoding="utf-8")


def _config(run_dir: Path) -> dict[str, Any]:
    for model, row in INPUTS["values"].items():
        for subject, value in row.items():
            write_result(run_dir, model, subject, {"accuracy": value})
    return {
        "models": [{"abbr": m} for m in INPUTS["models"]],
        "datasets": [{"abbr": s, "infer_cfg": infer_cfg(GEN), "eval_cfg": {}} for s in INPUTS["subjects"]],
        "work_dir": str(run_dir),
        "summarizer": {"summary_groups": INPUTS["groups"]},
    }


@pytest.fixture
def result(run_dir: Path) -> Any:
    return run_summarizer(_config(run_dir), time_str=INPUTS["time"])


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_every_cell_is_the_one_opencompass_printed(result: Any) -> None:
    ours = _rows(result.paths["csv"].read_text(encoding="utf-8"))
    theirs = _rows(OPENCOMPASS_CSV)
    assert ours[0] == theirs[0]
    assert len(ours) == len(theirs)
    differing = [(a, b) for a, b in zip(ours, theirs) if a != b]
    assert not differing, differing[:3]


def test_the_csv_file_is_byte_identical(result: Any) -> None:
    assert result.paths["csv"].read_text(encoding="utf-8") == OPENCOMPASS_CSV


def _printed_means(summation: Any) -> list[str]:
    cells = []
    for group in INPUTS["groups"]:
        if "weights" in group or "std" in group or "sum" in group or "harmonic_mean" in group:
            continue
        subsets = [s if isinstance(s, str) else s[0] for s in group["subsets"]]
        if not all(s in INPUTS["subjects"] for s in subsets):
            continue
        for row in INPUTS["values"].values():
            values = [row[s] for s in subsets]
            cells.append(f"{summation(values) / len(values):.02f}")
    return cells


def test_the_data_tells_the_summation_orders_apart() -> None:
    """An exact sum (math.fsum) prints at least one group cell differently from OpenCompass's left-to-right sum."""
    left = _printed_means(left_sum)
    exact = _printed_means(math.fsum)
    assert left != exact

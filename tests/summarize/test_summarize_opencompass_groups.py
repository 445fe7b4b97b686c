"""Group forms whose numbers follow OpenCompass 0.5.4's rules rather than their keys print OpenCompass's cells.

``tests/data/summarize/opencompass_groups`` holds two models' results on four
datasets and the table OpenCompass's ``DefaultSummarizer`` wrote for groups
that name a ``metric`` beside ``std``/``sum``/``harmonic_mean``/``weights``
(OpenCompass aggregates by the output's name), transforms with conditional
expressions, comparisons and boolean operators (which it evaluates), and a
transform keyed ``abbr@metric`` (which it never applies); recorded by
``scripts/record_oc_summarizer.py --which groups``.
"""

from __future__ import annotations

import csv
import io
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from assay.summarize import run_summarizer
from tests.summarize.builders import GEN, infer_cfg, write_result

DATA = Path(__file__).parents[1] / "data" / "summarize" / "opencompass_groups"
INPUTS = json.loads((DATA / "inputs.json").read_text(encoding="utf-8"))
OPENCOMPASS_CSV = (DATA / "summary.csv").read_text(encoding="utf-8")


def _config(run_dir: Path) -> dict[str, Any]:
    for model, row in INPUTS["results"].items():
        for abbr, result in row.items():
            write_result(run_dir, model, abbr, result)
    return {
        "models": [{"abbr": m} for m in INPUTS["models"]],
        "datasets": [{"abbr": d, "infer_cfg": infer_cfg(GEN), "eval_cfg": {}} for d in INPUTS["datasets"]],
        "work_dir": str(run_dir),
        "summarizer": {"summary_groups": INPUTS["groups"]},
    }


def _rows(text: str) -> dict[tuple[str, str], list[str]]:
    return {(r[0], r[2]): r for r in csv.reader(io.StringIO(text))}


@pytest.fixture
def result(run_dir: Path) -> Any:
    return run_summarizer(_config(run_dir), time_str=INPUTS["time"], stats=False)


@pytest.mark.parametrize("group", [g["name"] for g in INPUTS["groups"]])
def test_each_group_prints_what_opencompass_printed(result: Any, group: str) -> None:
    ours = {k: v for k, v in _rows(result.paths["csv"].read_text(encoding="utf-8")).items() if k[0] == group}
    theirs = {k: v for k, v in _rows(OPENCOMPASS_CSV).items() if k[0] == group}
    assert theirs
    assert ours == theirs


def test_the_csv_file_is_byte_identical(result: Any) -> None:
    assert result.paths["csv"].read_text(encoding="utf-8") == OPENCOMPASS_CSV


def test_unused_keys_are_named_in_a_warning(run_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="assay.groups"):
        run_summarizer(_config(run_dir), time_str=INPUTS["time"], stats=False)
    text = caplog.text
    assert "'std-named': metric='spread' names the output, and OpenCompass computes the naive average" in text
    assert "'weighted-named-hm': metric='harmonic_mean' names the output, and OpenCompass computes the harmonic mean" in text
    assert "transforms key 'd1@accuracy' is not applied" in text

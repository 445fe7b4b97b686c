"""Values another tool computed are marked in every summary file; assay's own values are not."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from assay.summarize import Leaderboard
from tests.sources.mixed_run import make_mixed_run


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    run, _ = make_mixed_run(tmp_path_factory.mktemp("mixed"))
    (summary,) = (run / "summary").glob("summary_*.json")
    return run, json.loads(summary.read_text())


def _file(run: Path, suffix: str) -> str:
    (path,) = (run / "summary").glob(f"summary_*.{suffix}")
    return path.read_text()


def _row(summary: dict[str, Any], dataset: str, metric: str) -> dict[str, Any]:
    return next(r for r in summary["rows"] if r["dataset"] == dataset and r.get("metric") == metric)


def test_each_imported_cell_of_the_json_names_its_tool_files_and_own_value(mixed) -> None:
    _, summary = mixed
    row = _row(summary, "assay_mcq_a", "acc,none")
    source = row["source"]["chat-small"]
    assert source["tool"] == "lm_eval" and source["version"] == "0.4.13"
    assert source["files"][0].endswith(".json") and "scripted-b" in source["files"][0]
    assert source["files"][1].split("/")[-1].startswith("samples_assay_mcq_a_")
    assert source["metrics"]["acc,none"] == pytest.approx(row["values"]["chat-small"] / 100)
    assert source["scale"]["acc,none"] == 100.0
    inspect = _row(summary, "inspect_mcq", "choice/accuracy")["source"]
    assert {m: s["tool"] for m, s in inspect.items()} == {"chat-small": "inspect_ai", "inspect-a": "inspect_ai"}
    assert inspect["inspect-a"]["files"][0].endswith(".eval")
    # the value assay scored itself carries no source, in the row nor in the list
    assert "source" not in _row(summary, "quick_mcq", "accuracy")
    assert not [s for s in summary["sources"] if s["dataset"] == "quick_mcq"]


def test_a_group_mixing_sources_says_which_input_came_from_where(mixed) -> None:
    _, summary = mixed
    source = _row(summary, "mixed_mcq", "naive_average")["source"]["chat-small"]
    assert source == {"tools": ["assay", "lm_eval", "inspect_ai"], "mixed": True,
                      "from": {"quick_mcq": "assay", "assay_mcq_a": "lm_eval", "inspect_mcq": "inspect_ai"}}
    suite = _row(summary, "assay_mcq_suite", "weighted_average")["source"]["lm-a"]
    assert suite["tools"] == ["lm_eval"] and suite["mixed"] is False
    assert "source" not in _row(summary, "quickstart", "naive_average")


def test_the_leaderboard_reads_the_sources_back(mixed) -> None:
    run, _ = mixed
    (path,) = (run / "summary").glob("summary_*.json")
    board = Leaderboard.from_json(path)
    assert board.sources[("lm-a", "assay_arith")]["tool"] == "lm_eval"
    assert ("chat-small", "quick_mcq") not in board.sources
    assert Leaderboard.from_json(board.to_json()).sources == board.sources
    row = next(r for r in board.rows if r.dataset == "inspect_arith" and r.metric == "match/accuracy")
    assert row.sources["inspect-a"]["tool"] == "inspect_ai"


def test_text_and_markdown_mark_imported_values_with_a_footnote_and_a_legend(mixed) -> None:
    run, _ = mixed
    txt = _file(run, "txt")
    table = txt.split("tabulate format")[1].split("$$$$")[0]
    line = next(li for li in table.splitlines() if li.startswith("assay_mcq_a ") and "acc,none" in li)
    assert line.split()[4:] == ["93.75[1]", "-", "68.75[1]", "-"]
    line = next(li for li in table.splitlines() if li.startswith("inspect_mcq "))
    assert line.split()[4:] == ["50.00[2]", "-", "-", "50.00[2]"]
    line = next(li for li in table.splitlines() if li.startswith("quick_mcq "))
    assert line.split()[4:] == ["80.00", "90.00", "-", "-"]  # assay's own: no mark
    assert next(li for li in table.splitlines() if li.startswith("mixed_mcq ")).split()[4] == "74.58[mixed]"
    assert "[1] computed by lm_eval 0.4.13" in table and "[2] computed by inspect_ai 0.3.285" in table
    assert "[mixed] a group of values from several sources: chat-small / mixed_mcq: assay (quick_mcq); " \
           "lm_eval (assay_mcq_a); inspect_ai (inspect_mcq)" in table
    md = _file(run, "md")
    assert "| assay_mcq_a | - | acc,none | - | 93.75[1] | - | 68.75[1] | - |" in md
    assert "- \\[1\\] computed by lm_eval 0.4.13" in md


def test_the_csv_keeps_plain_numbers_and_names_the_sources_in_a_last_column(mixed) -> None:
    run, _ = mixed
    rows = list(csv.DictReader(_file(run, "csv").splitlines()))
    header = _file(run, "csv").splitlines()[0].split(",")
    assert header[-1] == "source" and header[:4] == ["dataset", "version", "metric", "mode"]
    by = {(r["dataset"], r["metric"]): r for r in rows}
    row = by[("assay_mcq_a", "acc none")]
    assert (row["chat-small"], row["lm-a"]) == ("93.75", "68.75")
    assert row["source"] == "chat-small: lm_eval 0.4.13; lm-a: lm_eval 0.4.13"
    assert by[("mixed_mcq", "naive_average")]["source"] == "chat-small: assay+lm_eval+inspect_ai"
    assert by[("quick_mcq", "accuracy")]["source"] == ""
    for r in rows:  # every value column parses as a number or is '-'
        for model in header[4:-1]:
            assert r[model] == "-" or float(r[model]) >= 0

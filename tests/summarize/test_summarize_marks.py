"""Values from incomplete results, and groups computed from them, are marked in every table and listed under it.

A result whose ``_meta.incomplete`` lists ``{"kind", "count", "detail"}``
entries holds a number computed on fewer samples than it claims, or with
samples that could not be scored: the summary marks its cells with ``*``,
lists what each mark means (model, dataset, kind, count, detail) under the
table, keeps the list in the ``.json`` and the HTML report shows it.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from assay.summarize import run_summarizer
from tests.summarize.builders import FIXED_TIME, GEN, infer_cfg, write_result

UNJUDGED = {"kind": "unjudged", "count": 12, "detail": "12 of 23 judge requests failed (judge unreachable)"}
PARTIAL = {"kind": "partial_predictions", "count": 750, "detail": "prediction part d2_2.json missing: 250 of 1,000 samples scored"}


def _config(run_dir: Path) -> dict[str, Any]:
    write_result(run_dir, "m1", "d1", {"accuracy": 39.13, "_meta": {"num_samples": 23, "incomplete": [UNJUDGED]}})
    write_result(run_dir, "m1", "d2", {"accuracy": 50.0})
    write_result(run_dir, "m2", "d1", {"accuracy": 60.0, "_meta": {"num_samples": 23, "incomplete": []}})
    write_result(run_dir, "m2", "d2", {"accuracy": 25.0, "_meta": {"incomplete": [PARTIAL]}})
    return {
        "models": [{"abbr": "m1"}, {"abbr": "m2"}],
        "datasets": [{"abbr": d, "infer_cfg": infer_cfg(GEN), "eval_cfg": {}} for d in ("d1", "d2")],
        "work_dir": str(run_dir),
        "summarizer": {"summary_groups": [
            {"name": "both", "subsets": ["d1", "d2"]},
            {"name": "first", "subsets": [["d1", "accuracy"]]},
            {"name": "outer", "subsets": [["both", "naive_average"], ["first", "naive_average"]]},
        ]},
    }


def _cells(csv_text: str) -> dict[str, list[str]]:
    rows = list(csv.reader(io.StringIO(csv_text)))
    assert all(len(r) == len(rows[0]) for r in rows)  # the marks leave the csv parseable, one field per cell
    return {r[0]: r[4:] for r in rows[1:]}


@pytest.mark.parametrize("index", [True, False])
def test_marked_cells_in_every_table_from_the_files_and_from_the_run_index(run_dir: Path, index: bool) -> None:
    config = _config(run_dir)
    for _ in range(2):  # the second summary reads the results' heads from the run index
        result = run_summarizer(config, time_str=FIXED_TIME, index=index)
        cells = _cells(result.paths["csv"].read_text(encoding="utf-8"))
        assert cells == {
            "d1": ["39.13*", "60.00"],
            "d2": ["50.00", "25.00*"],
            "both": ["44.56*", "42.50*"],
            "first": ["39.13*", "60.00"],
            "outer": ["41.85*", "51.25*"],
        }
    assert (run_dir / "index.sqlite").exists() == index
    for text in (result.text, result.paths["txt"].read_text(encoding="utf-8")):
        assert "d1         4d3a0b     accuracy       gen     39.13*  60.00" in text
        assert "  m1 / d1: unjudged (12 samples): 12 of 23 judge requests failed (judge unreachable)" in text
        assert "  m2 / d2: partial_predictions (750 samples): prediction part d2_2.json missing" in text
        assert "  m1 / outer: unjudged (12 samples): computed from d1" in text
    markdown = result.paths["md"].read_text(encoding="utf-8")
    assert "| d1 | 4d3a0b | accuracy | gen | 39.13* | 60.00 |" in markdown
    assert "- m2 / both: partial_predictions (750 samples): computed from d2" in markdown


def test_the_json_lists_every_mark_and_each_row_its_marked_models(run_dir: Path) -> None:
    result = run_summarizer(_config(run_dir), time_str=FIXED_TIME)
    payload = json.loads(result.paths["json"].read_text(encoding="utf-8"))
    marks = {(m["model"], m["dataset"]): {k: m[k] for k in ("kind", "count", "detail")} for m in payload["incomplete"]}
    assert marks == {
        ("m1", "d1"): UNJUDGED,
        ("m2", "d2"): PARTIAL,
        ("m1", "both"): {"kind": "unjudged", "count": 12, "detail": "computed from d1"},
        ("m2", "both"): {"kind": "partial_predictions", "count": 750, "detail": "computed from d2"},
        ("m1", "first"): {"kind": "unjudged", "count": 12, "detail": "computed from d1"},
        ("m1", "outer"): {"kind": "unjudged", "count": 12, "detail": "computed from d1"},
        ("m2", "outer"): {"kind": "partial_predictions", "count": 750, "detail": "computed from d2"},
    }
    rows = {r["dataset"]: r for r in payload["rows"]}
    assert rows["d1"]["marked"] == ["m1"] and rows["d1"]["values"] == {"m1": 39.13, "m2": 60.0}
    assert "marked" not in rows["first"] or rows["first"]["marked"] == ["m1"]


def test_intervals_keep_the_mark_beside_the_value(run_dir: Path) -> None:
    result = run_summarizer(_config(run_dir), time_str=FIXED_TIME, ci=True)
    line = next(x for x in result.text.splitlines() if x.startswith("d1 "))
    assert "39.13* [" in line or "39.13* " in line
    assert "60.00*" not in line


def test_the_html_report_shows_the_marks_and_the_unjudged_count(run_dir: Path) -> None:
    from assay.report import build_report_data, cell_tip, write_html_report
    from tests.report.pages import board_data

    result = run_summarizer(_config(run_dir), time_str=FIXED_TIME)
    data = build_report_data(run_dir, result)
    d1 = next(i for i, r in enumerate(data["rows"]) if r["dataset"] == "d1")
    assert data["extras"][f"{d1}:0"]["marks"] == [UNJUDGED] and "marks" not in data["extras"].get(f"{d1}:1", {})
    assert "unjudged: 12 samples — 12 of 23 judge requests failed" in cell_tip(data, d1, 0)
    assert {(m["model"], m["dataset"], m["kind"], m["count"]) for m in data["incomplete"]} >= {
        ("m1", "d1", "unjudged", 12), ("m2", "d2", "partial_predictions", 750)}
    html = write_html_report(run_dir, result, FIXED_TIME).read_text(encoding="utf-8")
    assert board_data(html)["extras"][f"{d1}:0"]["marks"] == [UNJUDGED]
    assert "m1 / d1: unjudged: 12 samples — 12 of 23 judge requests failed (judge unreachable)" in html
    # the report built from the summary .json alone shows the same
    saved = json.loads(result.paths["json"].read_text(encoding="utf-8"))
    again = build_report_data(run_dir, saved)
    assert again["extras"][f"{d1}:0"]["marks"] == [UNJUDGED]



def test_the_circular_summarizer_marks_every_metric_of_a_marked_cell(run_dir: Path) -> None:
    config = _config(run_dir)
    config["summarizer"] = {**config["summarizer"], "type": "CircularSummarizer", "metric_types": ["accuracy"],
                            "dataset_abbrs": ["d1", "d2", "both"]}
    result = run_summarizer(config, time_str=FIXED_TIME)
    rows = {r[0]: r[3:] for r in result.table[2:]}
    assert rows == {"d1": ["39.13*", "60.00"], "d2": ["50.00", "25.00*"], "both": ["44.56*", "42.50*"]}
    for text in (result.text, result.paths["txt"].read_text(encoding="utf-8"), result.paths["md"].read_text(encoding="utf-8")):
        assert "m1 / d1: unjudged (12 samples): 12 of 23 judge requests failed (judge unreachable)" in text
        assert "m2 / both: partial_predictions (750 samples): computed from d2" in text
        assert "m1 / outer" not in text  # a row the table does not show
    payload = json.loads(result.paths["json"].read_text(encoding="utf-8"))
    assert [r.get("marked") for r in payload["rows"]] == [["m1"], ["m2"], ["m1", "m2"]]
    assert ("m1", "outer") in {(m["model"], m["dataset"]) for m in payload["incomplete"]}  # the .json keeps every mark


def test_each_view_of_the_multi_faceted_summarizer_lists_its_marks(run_dir: Path) -> None:
    config = _config(run_dir)
    config["summarizer"] = {**config["summarizer"], "type": "MultiFacetedSummarizer", "dataset_abbrs_list": [
        {"name": "datasets", "dataset_abbrs": ["d1", "d2"]}, {"name": "groups", "dataset_abbrs": ["outer"]}]}
    result = run_summarizer(config, time_str=FIXED_TIME)
    folder = run_dir / "summary" / f"summary_{FIXED_TIME}"
    assert _cells((folder / "datasets.csv").read_text(encoding="utf-8")) == {"d1": ["39.13*", "60.00"], "d2": ["50.00", "25.00*"]}
    assert _cells((folder / "groups.csv").read_text(encoding="utf-8")) == {"outer": ["41.85*", "51.25*"]}
    datasets_md, groups_md = (folder / "datasets.md").read_text(encoding="utf-8"), (folder / "groups.md").read_text(encoding="utf-8")
    assert "- m1 / d1: unjudged (12 samples): 12 of 23 judge requests failed" in datasets_md and "outer" not in datasets_md
    assert "- m2 / outer: partial_predictions (750 samples): computed from d2" in groups_md and "m1 / d1" not in groups_md
    for text in (result.text, result.paths["txt"].read_text(encoding="utf-8")):
        first, second = text.split("groups\n", 1) if text is result.text else text.split("view groups\n", 1)
        assert "  m2 / d2: partial_predictions (750 samples): prediction part d2_2.json missing" in first
        assert "  m1 / outer: unjudged (12 samples): computed from d1" in second

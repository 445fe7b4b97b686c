"""Split result files (R-7.8) and reading large result files without their details."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest

from assay.errors import InputFileError
from assay.rundir.results import (
    merge_split_results,
    read_result_without_details,
    result_sample_count,
    split_result_paths,
)
from assay.summarize import run_summarizer
from tests.summarize.builders import write_result


def _details(n: int) -> list[dict[str, Any]]:
    return [{"pred": "A", "answer": "A", "correct": i % 2 == 0} for i in range(n)]


def _config(run_dir: Path, datasets: list[str]) -> dict[str, Any]:
    return {"models": [{"abbr": "m1"}], "datasets": [{"abbr": d} for d in datasets], "work_dir": str(run_dir)}


def test_split_results_are_merged_weighted_by_details_length(run_dir: Path) -> None:
    write_result(run_dir, "m1", "ds_0", {"accuracy": 60, "details": _details(100)})
    write_result(run_dir, "m1", "ds_1", {"accuracy": 90, "details": _details(200)})
    result = run_summarizer(_config(run_dir, ["ds"]), time_str="t")
    assert result.table[1] == ["ds", "-", "accuracy", "-", "80.00"]


def test_meta_num_samples_wins_over_details(run_dir: Path) -> None:
    write_result(run_dir, "m1", "ds_0", {"accuracy": 60, "details": _details(1), "_meta": {"num_samples": 100}})
    write_result(run_dir, "m1", "ds_1", {"accuracy": 90, "_meta": {"num_samples": 200}})
    result = run_summarizer(_config(run_dir, ["ds"]), time_str="t")
    assert result.table[1][4] == "80.00"


def test_whole_file_wins_over_parts(run_dir: Path) -> None:
    write_result(run_dir, "m1", "ds", {"accuracy": 10})
    write_result(run_dir, "m1", "ds_0", {"accuracy": 60, "details": _details(3)})
    assert run_summarizer(_config(run_dir, ["ds"]), time_str="t").table[1][4] == "10.00"


def test_parts_with_a_gap_are_an_error(run_dir: Path) -> None:
    write_result(run_dir, "m1", "ds_0", {"accuracy": 60, "details": _details(3)})
    write_result(run_dir, "m1", "ds_2", {"accuracy": 60, "details": _details(3)})
    result = run_summarizer(_config(run_dir, ["ds"]), time_str="t")
    assert "ds_1.json is missing but ds_2.json exists" in result.errors[0].message
    assert result.table[1] == ["ds", "-", "-", "-", "-"]


def test_part_without_sample_count_is_an_error(run_dir: Path) -> None:
    write_result(run_dir, "m1", "ds_0", {"accuracy": 60, "details": _details(3)})
    write_result(run_dir, "m1", "ds_1", {"accuracy": 60})
    result = run_summarizer(_config(run_dir, ["ds"]), time_str="t")
    assert "cannot weight split results: ['ds_1']" in result.errors[0].message


def test_failed_part_fails_the_dataset(run_dir: Path) -> None:
    write_result(run_dir, "m1", "ds_0", {"accuracy": 60, "details": _details(3)})
    write_result(run_dir, "m1", "ds_1", {"error": "boom"})
    result = run_summarizer(_config(run_dir, ["ds"]), time_str="t")
    assert result.errors[0].message == "evaluation failed: split result failed: ds_1: boom"


def test_merge_keeps_only_metrics_of_every_part() -> None:
    merged = merge_split_results([("d_0", {"accuracy": 50, "f1": 1}, 1), ("d_1", {"accuracy": 100}, 3)])
    assert merged == {
        "accuracy": 87.5,
        "_meta": {"num_samples": 4, "merged_from": ["d_0", "d_1"], "dropped_metrics": ["f1"]},
    }


def test_split_paths_are_contiguous_from_zero(tmp_path: Path) -> None:
    for name in ("d_0.json", "d_1.json", "d_10x.json", "dd_2.json"):
        (tmp_path / name).write_text("{}")
    assert [p.name for p in split_result_paths(tmp_path, "d")] == ["d_0.json", "d_1.json"]
    (tmp_path / "d_3.json").write_text("{}")
    with pytest.raises(InputFileError, match=r"d_2\.json is missing but d_3\.json exists"):
        split_result_paths(tmp_path, "d")


def test_sample_count_source() -> None:
    assert result_sample_count({"_meta": {"num_samples": 4}}, 9) == 4
    assert result_sample_count({"_meta": {"num_samples": True}}, 9) == 9
    assert result_sample_count({}, None) is None


# -- large files: details cut out of the bytes -----------------------------------------------

BIG = 5000  # entries, so that the file is well above the size where cutting starts


@pytest.mark.parametrize("indent", [2, 4])
@pytest.mark.parametrize("position", ["first", "middle", "last"])
def test_cutting_details_gives_the_same_result_as_parsing(tmp_path: Path, indent: int, position: str) -> None:
    details = [{"pred": "x\ny", "nested": {"details": [1, {"a": "]"}]}, "correct": True} for _ in range(BIG)]
    items: list[tuple[str, Any]] = [("accuracy", 50.5), ("name", 'de"tails'), ("_meta", {"details": 1})]
    at = {"first": 0, "middle": 1, "last": 3}[position]
    items.insert(at, ("details", details))
    path = tmp_path / "r.json"
    path.write_text(json.dumps(dict(items), indent=indent))
    assert path.stat().st_size > 1 << 16
    result, count = read_result_without_details(path, count_details=True)
    expected = dict(items)
    del expected["details"]
    assert result == expected and list(result) == list(expected)
    assert count == BIG


def test_orjson_layout_and_scalar_details(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(orjson.dumps({"accuracy": 1, "pad": "z" * 70000, "details": []}, option=orjson.OPT_INDENT_2))
    assert read_result_without_details(path, count_details=True) == ({"accuracy": 1, "pad": "z" * 70000}, 0)


def test_compact_layout_is_parsed_in_full(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"accuracy": 1, "details": _details(5000)}))
    assert read_result_without_details(path, count_details=True) == ({"accuracy": 1}, 5000)


def test_malformed_large_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"accuracy": 1, "details": _details(5000)}, indent=4)[:-3])
    with pytest.raises(InputFileError, match=f"result file {path} is not valid JSON"):
        read_result_without_details(path)

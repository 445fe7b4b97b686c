"""Local dataset loaders, test_range, n copies, dataset_postprocessor (R-3.1 – R-3.4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import datasets
import pytest

from assay.datasets.build import build_test_set
from assay.datasets.local import load_local
from assay.datasets.reader import parse_slices, select_indices
from assay.errors import ConfigError, InputFileError

ROWS = [{"q": f"q{i}", "answer": "ABCD"[i % 4]} for i in range(10)]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    import csv

    out = {}
    p = tmp_path / "d.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    out["jsonl"] = p
    p = tmp_path / "d.json"
    p.write_text(json.dumps(ROWS))
    out["json"] = p
    p = tmp_path / "d.csv"
    with p.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["q", "answer"])
        w.writeheader()
        w.writerows(ROWS)
    out["csv"] = p
    p = tmp_path / "d.parquet"
    datasets.Dataset.from_list(ROWS).to_parquet(str(p))
    out["parquet"] = p
    p = tmp_path / "disk"
    datasets.DatasetDict({"test": datasets.Dataset.from_list(ROWS), "dev": datasets.Dataset.from_list(ROWS[:2])}).save_to_disk(str(p))
    out["disk"] = p
    return out


@pytest.mark.parametrize("kind", ["jsonl", "json", "csv", "parquet", "disk"])
def test_every_local_format_gives_the_same_test_set(files: dict[str, Path], kind: str) -> None:
    cfg = {"abbr": "d", "type": "LocalDataset", "path": str(files[kind]), "reader_cfg": {"output_column": "answer"}}
    ts = build_test_set(cfg)
    assert isinstance(ts.dataset, datasets.Dataset)
    assert ts.references == [r["answer"] for r in ROWS]
    assert list(ts.dataset["q"]) == [r["q"] for r in ROWS]


def test_named_loaders_match_opencompass_arguments(files: dict[str, Path]) -> None:
    for type_ in ("JsonlDataset", "CustomDataset"):
        ts = build_test_set({"abbr": "x", "type": type_, "path": str(files["jsonl"]), "reader_cfg": {"output_column": "answer"}})
        assert ts.size == 10


def test_dataset_dict_uses_test_split_and_reports_missing_split(files: dict[str, Path]) -> None:
    cfg: dict[str, Any] = {"abbr": "d", "type": "DiskDataset", "path": str(files["disk"]), "reader_cfg": {"output_column": "answer", "test_split": "dev"}}
    assert build_test_set(cfg).size == 2
    cfg["reader_cfg"]["test_split"] = "validation"
    with pytest.raises(InputFileError, match=r"no split 'validation' .*splits: test, dev"):
        build_test_set(cfg)


def test_test_range_then_n_copies_run_major(files: dict[str, Path]) -> None:
    cfg = {"abbr": "d", "type": "JsonlDataset", "path": str(files["jsonl"]), "n": 3, "reader_cfg": {"output_column": "answer", "test_range": "[0:4]"}}
    ts = build_test_set(cfg)
    assert ts.size == 4 and ts.n == 3 and len(ts.dataset) == 12
    assert ts.references == list("ABCD") * 3
    assert list(ts.dataset["idx"]) == [0, 1, 2, 3] * 3
    assert set(ts.dataset["subdivision"]) == {"d"}


def test_dataset_postprocessor_applies_to_references_only(files: dict[str, Path]) -> None:
    cfg = {
        "abbr": "d",
        "type": "JsonlDataset",
        "path": str(files["jsonl"]),
        "reader_cfg": {"output_column": "answer"},
        "eval_cfg": {"dataset_postprocessor": {"type": str.lower}},
    }
    ts = build_test_set(cfg)
    assert ts.references == [r["answer"].lower() for r in ROWS]
    assert list(ts.dataset["answer"]) == ts.references
    assert list(ts.dataset["q"]) == [r["q"] for r in ROWS]


def test_no_output_column_means_no_references(files: dict[str, Path]) -> None:
    ts = build_test_set({"abbr": "d", "type": "JsonlDataset", "path": str(files["jsonl"])})
    assert ts.references is None


def test_custom_loader_class_and_function() -> None:
    from assay.datasets import BaseDataset

    class Mine(BaseDataset):
        @staticmethod
        def load(size: int) -> Any:
            return datasets.Dataset.from_list([{"x": i, "y": str(i)} for i in range(size)])

    def rows(size: int) -> list[dict[str, Any]]:
        return [{"x": i, "y": str(i)} for i in range(size)]

    assert build_test_set({"abbr": "m", "type": Mine, "size": 3, "reader_cfg": {"output_column": "y"}}).references == ["0", "1", "2"]
    assert build_test_set({"abbr": "m", "type": rows, "size": 2, "reader_cfg": {"output_column": "y"}}).references == ["0", "1"]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [("[0:3]", [0, 1, 2]), ("[::4]", [0, 4, 8]), ("[-2:]", [8, 9]), ("[2:8][1:3]", [3, 4]), (None, list(range(10))), ("", list(range(10)))],
)
def test_select_indices(spec: str | None, expected: list[int]) -> None:
    assert select_indices(10, spec) == expected


def test_numeric_test_range_is_a_seeded_subset() -> None:
    a = select_indices(100, 10)
    assert len(a) == 10 and a == select_indices(100, 10) and a == sorted(a)
    assert len(select_indices(100, 0.25)) == 25


@pytest.mark.parametrize("spec", ["[0:__import__('os').getpid()]", "0:10", "[1]", "[::0]", "[a:b]", "[0:1]; import os"])
def test_test_range_is_parsed_never_evaluated(spec: str) -> None:
    with pytest.raises(ConfigError, match=r"test_range"):
        parse_slices(spec)


def test_unknown_extension(tmp_path: Path) -> None:
    p = tmp_path / "d.xml"
    p.write_text("<x/>")
    with pytest.raises(InputFileError, match=r"unknown format"):
        load_local(str(p))


def test_columns_of_every_row_are_kept(tmp_path: Path) -> None:
    p = tmp_path / "d.json"
    p.write_text(json.dumps([{"q": "a", "answer": "A"}, {"q": "b", "answer": "B", "topic": "x"}]))
    ts = build_test_set({"abbr": "d", "type": "JsonDataset", "path": str(p), "reader_cfg": {"output_column": "answer"}})
    assert list(ts.dataset["topic"]) == [None, "x"]


def test_jsonl_whose_later_rows_differ_is_read_row_by_row(tmp_path: Path) -> None:
    """Rows far apart with different columns: the Arrow reader stops, the row reader keeps both."""
    p = tmp_path / "d.jsonl"
    rows = [{"q": str(i), "answer": "A"} for i in range(50_000)] + [{"q": "last", "answer": "B", "extra": [1, 2]}]
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    ts = build_test_set({"abbr": "d", "type": "JsonlDataset", "path": str(p), "reader_cfg": {"output_column": "answer"}})
    assert ts.size == 50_001 and ts.references[-1] == "B"
    assert ts.dataset[50_000]["extra"] == [1, 2]


def test_a_row_without_its_reference_is_an_error_naming_the_file_row_and_column(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    rows: list[dict[str, Any]] = [dict(r) for r in ROWS]
    del rows[6]["answer"]  # absent: OpenCompass's datasets fills None and scores the row as wrong
    rows[8]["answer"] = None
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    cfg: dict[str, Any] = {"abbr": "d", "type": "CustomDataset", "path": str(path), "reader_cfg": {"output_column": "answer"}}
    with pytest.raises(InputFileError) as err:
        build_test_set(cfg, where="dataset 'd'")
    message = str(err.value)
    assert f"dataset 'd': row(s) 6, 8 (counted from 0) of the test set ({path}) have no value in the reference column 'answer'" in message
    assert "2 of 10 rows" in message
    cfg["reader_cfg"]["test_range"] = "[5:8]"  # rows 5, 6, 7: row 6 named as in the file
    with pytest.raises(InputFileError, match=r"row\(s\) 6 \(counted from 0\)"):
        build_test_set(cfg)
    cfg["reader_cfg"]["test_range"] = "[0:5]"  # the rows evaluated have their references
    assert build_test_set(cfg).references == [r["answer"] for r in ROWS[:5]]

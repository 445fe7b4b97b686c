"""PPL and log-likelihood prediction records: the chosen label may be a number (HellaSwag's 0-3, PIQA's 0/1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import assay.rundir.predictions as predictions
from assay.errors import InputFileError


def _ppl_record(i: int, labels: list[Any], chosen: Any, gold: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"in-context examples": "", "origin_prompt": f"q{i}"}
    for j, label in enumerate(labels):
        rec[f"label: {label}"] = {"testing input": f"q{i}", "prompt": f"q{i} {label}", "PPL": 1.5 if label == chosen else 2.0 + j, "BPB": 0.5}
    rec["prediction"] = chosen
    rec["gold"] = gold
    return rec


def _write(folder: Path, abbr: str, records: list[dict[str, Any]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{abbr}.json").write_text(json.dumps({str(i): r for i, r in enumerate(records)}, indent=4))


def test_a_ppl_record_may_choose_a_numeric_label(tmp_path: Path) -> None:
    _write(tmp_path, "hs", [_ppl_record(i, [0, 1, 2, 3], i % 4, 0) for i in range(5)])
    loaded = predictions.load_predictions(tmp_path, "hs")
    assert [r["prediction"] for r in loaded.records] == [0, 1, 2, 3, 0]
    assert loaded.records[0]["label: 2"]["PPL"] == 4.0


def test_a_generation_record_holding_a_number_is_still_an_error(tmp_path: Path) -> None:
    _write(tmp_path, "gen", [{"origin_prompt": "q", "prediction": 5, "gold": "A"}])
    with pytest.raises(InputFileError, match='record "0" has prediction of type int'):
        predictions.load_predictions(tmp_path, "gen")


def test_a_big_ppl_file_read_in_blocks_keeps_numeric_labels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(predictions, "STREAM_THRESHOLD", 1 << 10)
    monkeypatch.setattr(predictions, "_BLOCK", 1 << 10)
    records = [_ppl_record(i, [1, 2], 1 + i % 2, "1") for i in range(200)]
    _write(tmp_path, "wg", records)
    loaded = predictions.load_predictions(tmp_path, "wg", keep={"gold"})
    assert [r["prediction"] for r in loaded.records] == [1 + i % 2 for i in range(200)]
    assert set(loaded.records[0]) == {"prediction", "gold"}  # the label fields were dropped while reading
    assert "label: 1" in loaded.dropped

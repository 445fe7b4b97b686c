"""Result files written a chunk of details at a time are the same bytes as written whole."""

from __future__ import annotations

import math
from pathlib import Path

from assay.fileio import atomic_write_json
from assay.results import DETAILS_CHUNK, read_result, write_result


def test_long_details_are_streamed_to_the_same_bytes(tmp_path: Path) -> None:
    details = [{"pred": [f"p{i}"], "answer": [str(i % 7)], "correct": [i % 3 == 0], "note": ["é"]} for i in range(2 * DETAILS_CHUNK + 5)]
    result = {"accuracy": 33.3, "extraction": {"unextracted": 0, "total": len(details)}, "details": details, "_meta": {"n": 1}}
    write_result(tmp_path / "streamed.json", result)
    atomic_write_json(tmp_path / "whole.json", result)
    assert (tmp_path / "streamed.json").read_bytes() == (tmp_path / "whole.json").read_bytes()
    assert read_result(tmp_path / "streamed.json")["details"][-1]["pred"] == [f"p{len(details) - 1}"]


def test_non_finite_values_survive_streaming(tmp_path: Path) -> None:
    details = [{"score": [math.nan if i == 3 else float(i)]} for i in range(DETAILS_CHUNK + 1)]
    write_result(tmp_path / "r.json", {"mean": math.inf, "details": details})
    back = read_result(tmp_path / "r.json")
    assert back["mean"] == "Infinity" and back["details"][3]["score"] == ["NaN"]

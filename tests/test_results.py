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


def test_a_remembered_head_answers_for_its_unchanged_file(tmp_path: Path, monkeypatch) -> None:
    import os

    import assay.results as results
    from assay.results import read_result_without_details, remember_head, result_head

    path = tmp_path / "r.json"
    result = {"accuracy": 50.0, "odd": float("nan"), "pair": (1, 2), "details": [{"correct": [True]}] * 3000, "_meta": {"n": 1}}
    write_result(path, result)
    from_file = read_result_without_details(path)
    head = result_head(path, result)
    assert head is not None
    remember_head(path, head)
    monkeypatch.setattr(results, "read_bytes", lambda *a, **k: (_ for _ in ()).throw(AssertionError("read")))
    assert read_result_without_details(path) == from_file  # the JSON round trip included ("NaN", [1, 2])
    assert list(read_result_without_details(path)[0]) == ["accuracy", "odd", "pair", "_meta"]
    monkeypatch.undo()

    # any rewrite makes the file be read again, even at the same size
    write_result(path, {**result, "accuracy": 60.0})
    assert read_result_without_details(path)[0]["accuracy"] == 60.0
    remember_head(path, result_head(path, result))  # a head that does not match the file is never trusted
    os.utime(path, ns=(0, 0))
    assert read_result_without_details(path)[0]["accuracy"] == 60.0

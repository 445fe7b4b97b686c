"""Result files written a chunk of details at a time are the same bytes as written whole."""

from __future__ import annotations

import math
from pathlib import Path

from assay.fileio import atomic_write_json
from assay.rundir.results import DETAILS_CHUNK, details_last, read_result, write_result


def test_long_details_are_streamed_to_the_same_bytes(tmp_path: Path) -> None:
    details = [{"pred": [f"p{i}"], "answer": [str(i % 7)], "correct": [i % 3 == 0], "note": ["é"]} for i in range(2 * DETAILS_CHUNK + 5)]
    result = {"accuracy": 33.3, "extraction": {"unextracted": 0, "total": len(details)}, "details": details, "_meta": {"n": 1}}
    write_result(tmp_path / "streamed.json", result)
    atomic_write_json(tmp_path / "whole.json", details_last(result))
    assert (tmp_path / "streamed.json").read_bytes() == (tmp_path / "whole.json").read_bytes()
    assert read_result(tmp_path / "streamed.json")["details"][-1]["pred"] == [f"p{len(details) - 1}"]


def test_non_finite_values_survive_streaming(tmp_path: Path) -> None:
    details = [{"score": [math.nan if i == 3 else float(i)]} for i in range(DETAILS_CHUNK + 1)]
    write_result(tmp_path / "r.json", {"mean": math.inf, "details": details})
    back = read_result(tmp_path / "r.json")
    assert back["mean"] == "Infinity" and back["details"][3]["score"] == ["NaN"]


def test_metrics_and_meta_come_before_details_and_the_head_reads_as_the_file_holds(tmp_path: Path) -> None:
    import os

    from assay.rundir.results import content_digest, read_result_without_details

    path = tmp_path / "r.json"
    result = {"details": [{"correct": [True]}] * 3000, "accuracy": 50.0, "odd": float("nan"), "_meta": {"n": 1}}
    digest = write_result(path, result)
    assert digest == content_digest(path)
    assert list(read_result(path)) == ["accuracy", "odd", "_meta", "details"]
    assert read_result_without_details(path, count_details=True) == ({"accuracy": 50.0, "odd": "NaN", "_meta": {"n": 1}}, 3000)
    # replaced with a file of the same size and times: the file's value, and another digest
    st = path.stat()
    path.write_bytes(path.read_bytes().replace(b'"accuracy": 50.0', b'"accuracy": 60.0'))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size
    assert read_result_without_details(path)[0]["accuracy"] == 60.0
    assert content_digest(path) != digest

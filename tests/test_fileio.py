"""Atomic writes and JSON reading (R-1.4)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from assay.errors import InputFileError
from assay.fileio import atomic_write_json, atomic_write_text, read_json


def test_failed_write_keeps_the_old_file_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    atomic_write_json(target, {"a": 1})

    class Boom:
        def __str__(self) -> str:
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        atomic_write_json(target, {"a": Boom()})
    assert read_json(target) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_a_write_terminated_while_its_temporary_file_is_made_leaves_no_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM reaching a command (raised as ``Terminated``) just after the temporary file of a write is
    created, before the file is handed to the writer: the file is removed, the earlier file kept."""
    import os
    import signal

    import assay.fileio as fileio
    from assay.commands._options import Terminated, terminated_by_signals

    target = tmp_path / "r.json"
    atomic_write_json(target, {"a": 1})
    made = fileio._same_file

    def signalled(fd: int, path: str) -> bool:  # the file is created and locked: the signal comes now
        os.kill(os.getpid(), signal.SIGTERM)
        return made(fd, path)

    monkeypatch.setattr(fileio, "_same_file", signalled)
    with pytest.raises(Terminated), terminated_by_signals():
        atomic_write_json(target, {"a": 2})
    assert read_json(target) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_non_finite_numbers_are_kept_as_strings(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    atomic_write_json(target, {"a": math.nan, "b": [math.inf], "c": {"d": -math.inf}, "e": 1.5})
    assert read_json(target) == {"a": "NaN", "b": ["Infinity"], "c": {"d": "-Infinity"}, "e": 1.5}


def test_non_finite_numbers_are_found_beside_lists_of_texts_and_integers() -> None:
    from assay.fileio import has_non_finite

    ids = [f"mcq_{i}" for i in range(50)]
    assert not has_non_finite({"examples": ids, "counts": [1, 2, 10**400], "flags": [True, None], "units": [0.0, 1.0]})
    assert has_non_finite({"examples": ids, "units": [0.0, math.nan]})
    assert has_non_finite({"examples": [*ids, math.inf]})
    assert has_non_finite([[1, "a"], ["b", [2, -math.inf]]])


def test_numpy_values_are_written_as_numbers(tmp_path: Path) -> None:
    import numpy as np

    target = tmp_path / "r.json"
    atomic_write_json(target, {"a": np.float32(0.5), "b": np.int64(3), "c": np.arange(3)})
    assert read_json(target) == {"a": 0.5, "b": 3, "c": [0, 1, 2]}


def test_read_json_errors_name_the_file(tmp_path: Path) -> None:
    p = tmp_path / "x.json"
    with pytest.raises(InputFileError, match=r"x.json does not exist"):
        read_json(p)
    p.write_text("")
    with pytest.raises(InputFileError, match=r"x.json is empty"):
        read_json(p)
    p.write_text('{"a": ')
    with pytest.raises(InputFileError, match=r"x.json is not valid JSON"):
        read_json(p)


def test_nan_literals_from_other_tools_are_accepted(tmp_path: Path) -> None:
    p = tmp_path / "x.json"
    p.write_text('{"a": NaN}')
    assert math.isnan(read_json(p)["a"])


def test_atomic_write_text_creates_folders(tmp_path: Path) -> None:
    atomic_write_text(tmp_path / "a" / "b" / "c.txt", "hé")
    assert (tmp_path / "a" / "b" / "c.txt").read_text(encoding="utf-8") == "hé"


def test_pieces_serialized_apart_splice_into_the_whole(tmp_path: Path) -> None:
    from assay.rundir.results import details_last
    from assay.tasks.shards import details_fragment, splice_details

    details = [{"pred": "A", "score": math.nan, "n": {1, 2}}, {"pred": "é", "score": 0.5, "n": set()}]
    result = {"accuracy": 50.0, "details": details, "_meta": {"x": [1, 2]}}
    whole = tmp_path / "whole.json"
    atomic_write_json(whole, details_last(result))  # a result file holds its details last
    parts = []
    for i, d in enumerate(details):
        parts.append(tmp_path / f"part{i}")
        parts[-1].write_bytes(details_fragment([d]))
    spliced = b"".join(splice_details({**result, "details": []}, parts))
    assert spliced == whole.read_bytes()
    assert read_json(whole)["details"][0]["score"] == "NaN"


APPENDER = """
import sys, time
from assay.fileio import atomic_append_bytes
path, who, rows, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
import os
while not os.path.exists(go):
    time.sleep(0.001)
for i in range(rows):
    atomic_append_bytes(path, f"{who},{i}\\n".encode(), durable=False)
"""


def test_two_processes_appending_to_one_file_lose_no_row(tmp_path: Path) -> None:
    import subprocess
    import sys

    path, go, rows = tmp_path / "total.csv", tmp_path / "go", 300
    procs = [subprocess.Popen([sys.executable, "-c", APPENDER, str(path), who, str(rows), str(go)]) for who in ("a", "b")]
    go.touch()  # both start appending at once
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    lines = path.read_text().splitlines()
    for who in ("a", "b"):  # every row of each, in the order it appended them
        assert [line for line in lines if line.startswith(f"{who},")] == [f"{who},{i}" for i in range(rows)]
    assert len(lines) == 2 * rows
    assert sorted(p.name for p in tmp_path.iterdir()) == ["go", "total.csv"]  # nothing left beside the file


def test_written_files_get_the_usual_permissions_not_a_temp_file_s(tmp_path: Path) -> None:
    """A new file is readable as one ``open`` would create it (umask applied); a replaced file keeps its mode."""
    import os

    old = os.umask(0o022)
    try:
        fresh = tmp_path / "fresh.json"
        atomic_write_json(fresh, {"a": 1})
        assert fresh.stat().st_mode & 0o777 == 0o644
        kept = tmp_path / "kept.txt"
        kept.write_text("x")
        kept.chmod(0o640)
        atomic_write_text(kept, "y")
        assert kept.stat().st_mode & 0o777 == 0o640
        os.umask(0o077)
        private = tmp_path / "private.txt"
        atomic_write_text(private, "z")
        assert private.stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(old)

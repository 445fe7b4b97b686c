"""Which dumped config of a run directory is the newest: the time in its name, else its modification time."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from assay.errors import InputFileError
from assay.rundir.configs import dump_config, newest_dumped_config
from assay.rundir.layout import RunDir
from assay.rundir.statistics import load_run_config


def _dumped(run: RunDir, name: str, marker: str, mtime: float) -> Path:
    run.configs.mkdir(parents=True, exist_ok=True)
    path = run.configs / name
    path.write_text(f"marker = {marker!r}\n")
    os.utime(path, (mtime, mtime))
    return path


def test_the_time_in_the_name_wins_over_a_later_modification(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "20240102_000000")
    now = time.time()
    _dumped(run, "20240102_000000_11.py", "new", now - 3600)
    _dumped(run, "20240101_000000_10.py", "old", now)  # the older run's config, touched (copied) later
    assert newest_dumped_config(run).name == "20240102_000000_11.py"
    config = load_run_config(run.root)  # the config the report's statistics and verify read
    assert config is not None and config["marker"] == "new"


def test_a_name_without_a_time_counts_with_its_modification_time(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "20240102_000000")
    _dumped(run, "20240102_000000_11.py", "dumped", time.mktime((2024, 1, 2, 0, 0, 0, 0, 0, -1)))
    _dumped(run, "edited.py", "edited", time.mktime((2024, 1, 3, 0, 0, 0, 0, 0, -1)))
    assert newest_dumped_config(run).name == "edited.py"
    config = load_run_config(run.root)
    assert config is not None and config["marker"] == "edited"
    os.utime(run.configs / "edited.py", (0, time.mktime((2024, 1, 1, 0, 0, 0, 0, 0, -1))))
    assert newest_dumped_config(run).name == "20240102_000000_11.py"


def test_dumps_of_one_second_get_distinct_names_and_the_last_is_the_newest(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run")
    first = dump_config(run, "marker = 'first'\n")
    second = dump_config(run, "marker = 'second'\n")
    assert first != second and first.read_text() == "marker = 'first'\n"
    assert first.name.endswith(f"_{os.getpid()}.py")
    assert newest_dumped_config(run) == second


def test_no_dumped_config_names_the_folder(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run")
    with pytest.raises(InputFileError, match=str(run.configs)):
        newest_dumped_config(run)
    assert load_run_config(run.root) is None

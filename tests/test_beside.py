"""Work run in a forked child process beside the caller's."""

from __future__ import annotations

import os
import tempfile
import threading
import time
from pathlib import Path

import pytest

import assay._beside as beside_module
from assay._beside import Beside


@pytest.fixture(autouse=True)
def two_cpus(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Two CPUs, and threads other tests of this process left behind (idle) ignored; a temporary folder."""
    monkeypatch.setattr(beside_module, "cpus", lambda: 2)
    monkeypatch.setattr(beside_module, "fork_is_safe", lambda: True)
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_the_value_comes_back_and_nothing_is_left(two_cpus: Path) -> None:
    marker = []
    job = Beside.start(lambda: (os.getpid(), marker.append(1) or len(marker)))
    assert job is not None
    ok, (pid, seen) = job.wait()
    assert ok and pid != os.getpid() and seen == 1
    assert marker == []  # the child's memory is its own
    assert list(two_cpus.iterdir()) == []


def test_a_failing_child_reports_failure(two_cpus: Path) -> None:
    def boom() -> None:
        raise RuntimeError("boom")

    job = Beside.start(boom)
    assert job is not None and job.wait() == (False, None)
    assert list(two_cpus.iterdir()) == []


def test_a_discarded_child_is_stopped(two_cpus: Path) -> None:
    job = Beside.start(lambda: time.sleep(60))
    assert job is not None
    started = time.monotonic()
    job.discard()
    assert time.monotonic() - started < 30
    with pytest.raises(ChildProcessError):
        os.waitpid(job.pid, os.WNOHANG)
    assert list(two_cpus.iterdir()) == []


def test_not_started_beside_another_thread_or_on_one_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()
    monkeypatch.setattr(beside_module, "cpus", lambda: 2)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert Beside.start(lambda: 1) is None
    finally:
        stop.set()
        other.join()
    monkeypatch.setattr(beside_module, "cpus", lambda: 1)
    assert Beside.start(lambda: 1) is None

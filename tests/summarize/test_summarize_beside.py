"""A large summary writes its text files in a child process while it writes its .json: the same files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import assay.summarize._default as default_module
from assay.summarize import run_summarizer
from tests.summarize.builders import write_result


def _config(run: Path) -> dict[str, object]:
    models, abbrs = ["m1", "m2"], ["a", "b", "c"]
    for i, m in enumerate(models):
        for j, a in enumerate(abbrs):
            write_result(run, m, a, {"accuracy": 10.0 * i + j + 0.125, "f1": 1.5})
    return {
        "models": [{"abbr": m} for m in models],
        "datasets": [{"abbr": a} for a in abbrs],
        "work_dir": str(run),
        "summarizer": {"summary_groups": [{"name": "all", "subsets": abbrs}]},
    }


def _written(result: object) -> dict[str, bytes]:
    paths = result.paths  # type: ignore[attr-defined]
    return {kind: paths[kind].read_bytes() for kind in ("txt", "csv", "md")}


@pytest.fixture
def beside(monkeypatch: pytest.MonkeyPatch, beside_starts: list[bool], tmp_path: Path) -> list[bool]:
    """Every summary counts as large and reads its result files; the child processes that start are recorded."""
    monkeypatch.setattr(default_module, "BESIDE_MIN_VALUES", 1)
    monkeypatch.setenv("ASSAY_NO_INDEX", "1")
    return beside_starts


def test_text_files_written_beside_are_those_written_in_process(
    tmp_path: Path, beside: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _config(tmp_path / "run")
    in_child = run_summarizer(config, time_str="20240101_000001")
    assert beside == [True]
    monkeypatch.setattr(default_module, "BESIDE_MIN_VALUES", 10**9)
    in_process = run_summarizer(config, time_str="20240101_000001")
    assert beside == [True]
    assert _written(in_child) == _written(in_process)
    assert in_child.text == in_process.text and "all" in in_child.text


def test_a_failing_child_leaves_the_files_to_the_summary(
    tmp_path: Path, beside: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = _config(tmp_path / "run")
    expected = run_summarizer(config, time_str="20240101_000001")
    real_write = default_module.atomic_write_text
    parent = os.getpid()

    def failing_in_child(path: object, text: str, **kw: object) -> None:
        if os.getpid() != parent:
            raise OSError("disk full")
        real_write(path, text, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(default_module, "atomic_write_text", failing_in_child)
    for path in expected.paths.values():
        path.unlink()
    again = run_summarizer(config, time_str="20240101_000001")
    assert beside == [True, True]
    assert _written(again) == _written(expected)


def _stuck_writing(ready: Path, then: str) -> object:
    """An ``atomic_write_text`` that, in the child, leaves its temporary file half written, says so in ``ready``
    and then waits to be stopped (``then='wait'``) or is killed outright (``then='killed'``)."""
    import signal
    import time

    from assay.fileio import atomic_write_chunks

    real_write, parent = default_module.atomic_write_text, os.getpid()

    def write(path: object, text: str, **kw: object) -> None:
        if os.getpid() == parent:
            real_write(path, text, **kw)  # type: ignore[arg-type]
            return

        def chunks() -> object:
            yield text.encode()[:10]
            ready.write_text("half written")
            if then == "killed":
                os.kill(os.getpid(), signal.SIGKILL)
            time.sleep(60)
            yield b""

        atomic_write_chunks(path, chunks())  # type: ignore[arg-type]

    return write


def test_a_summary_interrupted_while_its_child_writes_leaves_no_temporary_file(
    tmp_path: Path, beside: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the child writes the text files: the child is stopped and the temporary file it was writing
    is removed; nothing is left in the summary folder but what was complete."""
    import time

    config = _config(tmp_path / "run")
    ready = tmp_path / "ready"
    monkeypatch.setattr(default_module, "atomic_write_text", _stuck_writing(ready, "wait"))
    real_json = default_module.write_json

    def json_then_ctrl_c(path: Path, payload: dict[str, object]) -> None:
        real_json(path, payload)
        deadline = time.monotonic() + 60
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        raise KeyboardInterrupt

    monkeypatch.setattr(default_module, "write_json", json_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        run_summarizer(config, time_str="20240101_000001")
    assert beside == [True] and ready.exists()
    folder = tmp_path / "run" / "summary"
    assert sorted(p.name for p in folder.iterdir()) == ["summary_20240101_000001.json"]


def test_a_child_killed_while_it_writes_leaves_no_temporary_file(
    tmp_path: Path, beside: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The child writing the text files killed half way (the kernel's out-of-memory killer, say): the summary
    writes them itself, and the child's temporary file is removed."""
    config = _config(tmp_path / "run")
    expected = run_summarizer(config, time_str="20240101_000001")
    for path in expected.paths.values():
        path.unlink()
    monkeypatch.setattr(default_module, "atomic_write_text", _stuck_writing(tmp_path / "ready", "killed"))
    again = run_summarizer(config, time_str="20240101_000001")
    assert beside == [True, True] and (tmp_path / "ready").exists()
    assert _written(again) == _written(expected)
    folder = tmp_path / "run" / "summary"
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in expected.paths.values())


_TERMINATED = """
import os, signal, sys, time
from pathlib import Path

import assay.summarize._default as default_module
from tests.summarize.test_summarize_beside import _stuck_writing

default_module.BESIDE_MIN_VALUES = 1
ready, sent = Path(sys.argv[1]), getattr(signal, sys.argv[2])
default_module.atomic_write_text = _stuck_writing(ready, "wait")
real_json = default_module.write_json


def json_then_signal(path, payload):
    real_json(path, payload)
    deadline = time.monotonic() + 60
    while not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(os.getpid(), sent)
    time.sleep(60)


default_module.write_json = json_then_signal
sys.argv = ["assay", *sys.argv[3:]]
from assay.cli import console

console()
"""


@pytest.mark.parametrize(("name", "status"), [("SIGTERM", 143), ("SIGINT", 130)])
def test_assay_summarize_stopped_while_its_child_writes_ends_as_run_does_and_leaves_no_file(
    tmp_path: Path, name: str, status: int
) -> None:
    """``assay summarize`` sent SIGTERM (or Ctrl-C) while a child writes its text files: it ends as ``assay run``
    does (status 128 + 15 and a message; 130), the child stopped and its temporary file removed."""
    import subprocess
    import sys

    work = tmp_path / "work"
    config = _config(work / "20240101_000000")
    path = tmp_path / "config.py"
    path.write_text(f"models = {config['models']!r}\ndatasets = {config['datasets']!r}\n"
                    f"summarizer = {config['summarizer']!r}\n", encoding="utf-8")
    ready = tmp_path / "ready"
    done = subprocess.run(
        [sys.executable, "-c", _TERMINATED, str(ready), name, "summarize", str(path), "-w", str(work),
         "-r", "20240101_000000", "--no-report"],
        capture_output=True, text=True, timeout=300, cwd=Path(__file__).parents[2],
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "ASSAY_NO_INDEX": "1"})
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr and ready.exists()
    assert ("stopped by SIGTERM" if name == "SIGTERM" else "interrupted") in done.stderr
    folder = work / "20240101_000000" / "summary"
    assert [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []


def test_no_text_child_while_what_the_leaderboard_began_keeps_a_process_busy(
    tmp_path: Path, beside: list[bool]
) -> None:
    """A ``built`` hook that began work in another process (the report's rankings) takes the second core: the
    text files are then written in this process, the same files; a hook that began none leaves them to a child."""
    config = _config(tmp_path / "run")
    busy = run_summarizer(config, time_str="20240101_000001", built=lambda board, snapshot, stats: True)
    assert beside == []
    idle = run_summarizer(config, time_str="20240101_000001", built=lambda board, snapshot, stats: None)
    assert beside == [True]
    assert _written(busy) == _written(idle)

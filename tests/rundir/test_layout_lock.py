"""One writer per run directory (R-12.4): ``assay run``/``eval`` hold the run's writer lock; a second
writer stops naming the run directory and the holder (or waits with ``--wait``); a killed holder
leaves nothing held; the next writer removes the temporary files killed writers left."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assay.cli import main

HOLD = """
import sys, time
from pathlib import Path
from assay.rundir.layout import RunDir, writer_lock
with writer_lock(RunDir(Path(sys.argv[1]))):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
    Path(sys.argv[1], "holder-done").write_text("")  # the holder's last act while it holds the lock
"""


def _hold(run: Path, seconds: float) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(run), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


def _config(tmp_path: Path) -> Path:
    (tmp_path / "data.jsonl").write_text("".join(json.dumps({"q": i, "a": "AB"[i % 2]}) + "\n" for i in range(4)))
    (tmp_path / "preds").mkdir()
    (tmp_path / "preds" / "d.json").write_text(json.dumps({str(i): {"prediction": "A"} for i in range(4)}))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(
        "datasets = [dict(abbr='d', type='JsonlDataset', path='data.jsonl', reader_cfg=dict(output_column='a'),\n"
        "                 eval_cfg=dict(evaluator=dict(type='AccEvaluator')))]\n"
        "models = [dict(abbr='m', predictions='preds')]\n"
    )
    return cfg


def _eval(cfg: Path, work: Path, *extra: str) -> int:
    return main(["eval", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "1", *extra])


def test_a_second_writer_stops_naming_the_run_and_the_holder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(tmp_path)
    run = tmp_path / "work" / "RUN"
    holder = _hold(run, 60)
    try:
        assert _eval(cfg, tmp_path / "work") == 2
        err = capsys.readouterr().err
        assert str(run) in err and f"pid {holder.pid}" in err and "--wait" in err, err
        assert "-c" in err, "the holder's command line is named"
        assert not (run / "results").exists() and not (run / "configs").exists(), "nothing is written"
    finally:
        holder.kill()
        holder.wait()
    # killed, the holder leaves nothing held
    assert _eval(cfg, tmp_path / "work") == 0
    assert json.loads((run / "results" / "m" / "d.json").read_text())["accuracy"] == 50.0


def test_wait_runs_once_the_holder_ends(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _config(tmp_path)
    run = tmp_path / "work" / "RUN"
    holder = _hold(run, 1.5)
    try:
        assert _eval(cfg, tmp_path / "work", "--wait") == 0
        assert (run / "holder-done").exists(), "the run waited for the holder to end"
    finally:
        holder.kill()
        holder.wait()
    assert "waiting for it to end" in capsys.readouterr().err
    assert (run / "results" / "m" / "d.json").is_file()


def test_the_next_writer_removes_what_killed_writers_left(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    run = tmp_path / "work" / "RUN"
    assert _eval(cfg, tmp_path / "work") == 0
    left = [run / "results" / "m" / ".d.json.k9x_2ab7.tmp", run / ".shards" / "m" / "d" / ".out_0.json.abcdefgh.tmp"]
    for path in left:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{")
    audit = run / ".scratch" / "assay-audit-x1y2z3" / "d"
    audit.mkdir(parents=True)
    own = run / "predictions" / "m" / ".keep.abcdefgh.tmp"  # not a prediction file's: another program's
    own.parent.mkdir(parents=True)
    own.write_text("x")
    reply = run / "predictions" / "m" / ".d.json.abcdefgh.tmp"  # another tool's replies being written as d.json
    reply.write_text("{")
    assert _eval(cfg, tmp_path / "work") == 0
    assert not any(p.exists() for p in left)
    assert not reply.exists()
    assert not (run / ".scratch").exists()
    assert own.exists()


def test_a_killed_holder_releases_the_lock_at_once(tmp_path: Path) -> None:
    from assay.rundir.layout import RunDir, writer_lock

    run = tmp_path / "RUN"
    holder = _hold(run, 60)
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    with writer_lock(RunDir(run)):  # without waiting: RunDirBusy if it were still held
        assert json.loads((run / ".assay.lock").read_text())["pid"] == os.getpid()


def test_a_writer_that_ends_leaves_no_empty_scratch_folder(tmp_path: Path) -> None:
    from assay.rundir.layout import RunDir, writer_lock

    run = RunDir(tmp_path / "RUN")
    with writer_lock(run):
        (run.scratch / "assay-audit-1").mkdir(parents=True)
        (run.scratch / "assay-audit-1").rmdir()  # its user removed what it made
    assert not run.scratch.exists()
    with writer_lock(run):
        (run.scratch / "kept").mkdir(parents=True)  # not empty: removed by the next writer, not now
    assert (run.scratch / "kept").is_dir()


WRITING = """
import sys, time
from pathlib import Path
from assay.fileio import atomic_write_chunks

target, ready, go = (Path(a) for a in sys.argv[1:4])


def chunks():
    yield b"the summary, half of it"
    ready.write_text("")
    while not go.exists():
        time.sleep(0.01)
    yield b" and the rest"


atomic_write_chunks(target, chunks())
"""

INTERRUPTED = """
import os, signal, sys, time
from pathlib import Path
from assay.rundir.layout import RunDir, writer_lock
with writer_lock(RunDir(Path(sys.argv[1]))):
    os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C: the writer's cleanup on its way out
    time.sleep(60)
"""


def test_an_interrupted_writer_leaves_the_files_another_command_is_writing(tmp_path: Path) -> None:
    """An interrupted writer of the run (``assay run`` after Ctrl-C) removes the temporary files killed writers
    left, and not the one another process (``assay summarize``, which takes no writer lock) is writing at that
    moment: that process finishes its file."""
    run = tmp_path / "RUN"
    summary = run / "summary"
    summary.mkdir(parents=True)
    killed = subprocess.Popen([sys.executable, "-c", WRITING, str(summary / "killed.txt"), str(tmp_path / "killed-ready"),
                               str(tmp_path / "never")])
    ready, go = tmp_path / "ready", tmp_path / "go"
    writer = subprocess.Popen([sys.executable, "-c", WRITING, str(summary / "summary.txt"), str(ready), str(go)],
                              stderr=subprocess.PIPE, text=True)
    try:
        for flag, proc in ((tmp_path / "killed-ready", killed), (ready, writer)):
            for _ in range(12000):
                if flag.exists() or proc.poll() is not None:
                    break
                time.sleep(0.01)
            assert flag.exists()
        os.kill(killed.pid, signal.SIGKILL)  # a writer killed half way: its temporary file is abandoned
        killed.wait()
        temps = sorted(p.name for p in summary.iterdir())
        assert [t.split(".")[1] for t in temps] == ["killed", "summary"]
        interrupted = subprocess.run([sys.executable, "-c", INTERRUPTED, str(run)], capture_output=True, text=True,
                                     timeout=120)
        assert interrupted.returncode != 0 and "KeyboardInterrupt" in interrupted.stderr
        assert [p.name for p in summary.iterdir()] == [t for t in temps if t.startswith(".summary.txt.")]
        go.write_text("")
        assert writer.wait(timeout=120) == 0, writer.communicate()[1]
    finally:
        for proc in (killed, writer):
            proc.kill()
            proc.wait()
    assert (summary / "summary.txt").read_text() == "the summary, half of it and the rest"
    assert [p.name for p in summary.iterdir()] == ["summary.txt"]

"""An import of another tool's results killed with SIGKILL halfway (``assay summarize --from``, a config's
``sources``): every result file written is whole, a summary of the half-imported run fails naming the import
that did not finish (never a partial table with exit 0), and running the import again completes it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from assay.rundir.results import read_result
from tests.sources.many_tasks import many_tasks
from tests.tasks._spawn import spawn_assay

TASKS = 300


def _big_output(folder: Path, version: str = "0.4.13") -> Path:
    return many_tasks(folder, TASKS, version=version)


def _wait_for_results(folder: Path, count: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if folder.is_dir() and sum(1 for _ in folder.glob("*.json")) >= count:
            return
        time.sleep(0.005)


def _whole(folder: Path) -> list[Path]:
    written = sorted(folder.glob("*.json"))
    for path in written:
        result = read_result(path)  # raises on a truncated file
        assert "exact_match,strict-match" in result and len(result["details"]) == 24
    return written


@pytest.mark.slow
def test_from_killed_halfway_leaves_whole_files_a_run_no_summary_shows_and_a_rerun_completes(tmp_path: Path) -> None:
    out = _big_output(tmp_path / "lm_out")
    work = tmp_path / "work"
    proc = spawn_assay("summarize", "--from", "lm_eval", str(out), "-w", str(work), "--no-report", cwd=tmp_path)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if work.is_dir() and any(child.is_dir() for child in work.iterdir()):
            break
        time.sleep(0.005)
    (half,) = [child for child in work.iterdir() if child.is_dir()]
    _wait_for_results(half / "results" / "scripted-a", 5, proc)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    written = _whole(half / "results" / "scripted-a")
    assert 0 < len(written) < TASKS, "the kill should land mid-import"

    # a summary of the half-imported run: an error naming the run and the import, no table
    summary = subprocess.run([*_assay(), "summarize", "-w", str(half), "--no-report"], cwd=tmp_path, capture_output=True, text=True)
    assert summary.returncode != 0
    assert str(half) in summary.stderr and "did not finish" in summary.stderr and "lm_eval" in summary.stderr
    assert not list((half / "summary").glob("summary_*")) if (half / "summary").exists() else True

    # the import again: a complete run
    again = subprocess.run([*_assay(), "summarize", "--from", "lm_eval", str(out), "-w", str(work), "--no-report"],
                           cwd=tmp_path, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    (new,) = [p for p in work.iterdir() if p != half]
    assert len(_whole(new / "results" / "scripted-a")) == TASKS
    table = again.stdout
    assert len({line.split()[0] for line in table.splitlines() if line.startswith("arith_")}) == TASKS


@pytest.mark.slow
def test_a_configs_sources_killed_halfway_are_imported_again_whole(tmp_path: Path) -> None:
    """A run holding an earlier import of the tool's output; the summary importing its new output is killed
    halfway, leaving old and new results side by side: no summary shows them with exit 0, and the next
    summary imports the new output whole."""
    old, new = _big_output(tmp_path / "old"), _big_output(tmp_path / "new", version="0.4.14")
    live = tmp_path / "lm_out"
    shutil.copytree(old, live)
    config = tmp_path / "config.py"
    config.write_text(f"sources = [dict(type='lm_eval', path={str(live)!r})]\nmodels = []\ndatasets = []\n")
    run = tmp_path / "work" / "20260101_000000"
    (run / "results").mkdir(parents=True)
    first = subprocess.run([*_assay(), "summarize", str(config), "-w", str(run), "--no-report"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    shutil.rmtree(live)
    shutil.copytree(new, live)
    results = run / "results" / "scripted-a"
    before = {p: p.stat().st_ino for p in results.glob("*.json")}

    proc = spawn_assay("summarize", str(config), "-w", str(run), "--no-report", cwd=tmp_path)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if sum(1 for p, ino in before.items() if p.stat().st_ino != ino) >= 5:
            break
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    replaced = [p for p, ino in before.items() if p.stat().st_ino != ino]
    assert 0 < len(replaced) < TASKS, "the kill should land mid-import"
    _whole(results)

    # what reads the run without importing again: no table (nor report, nor export) with exit 0
    readers = (["summarize", "-w", str(run), "--no-report"], ["verify", str(run)], ["report", "-w", str(run)],
               ["export", str(run), "--format", "jsonl", "--out", str(tmp_path / "run.jsonl")])
    for args in readers:
        shown = subprocess.run([*_assay(), *args], cwd=tmp_path, capture_output=True, text=True)
        assert shown.returncode != 0, (args, shown.stdout[-2000:])
        assert "did not finish" in shown.stderr + shown.stdout, args

    again = subprocess.run([*_assay(), "summarize", str(config), "-w", str(run), "--no-report"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert {read_result(p)["_meta"]["source"]["version"] for p in results.glob("*.json")} == {"0.4.14"}
    verify = subprocess.run([*_assay(), "verify", str(run)], cwd=tmp_path, capture_output=True, text=True)
    assert verify.returncode == 0, verify.stdout[-2000:]


def _assay() -> list[str]:
    import sys

    return [sys.executable, "-m", "assay"]

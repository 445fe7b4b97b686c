"""``assay export --force`` killed with SIGKILL while it writes, or after it put the new output in place but
before the old one was removed: the target holds the old output or the new one, whole; the run directory is
untouched; and a second export ends as an uninterrupted one, nothing of the killed one left beside the target."""

from __future__ import annotations

import hashlib
import os
import signal
import time
from pathlib import Path

import pytest

from assay.rundir.layout import RunDir
from assay.rundir.results import write_result
from tests.tasks._spawn import spawn_assay


def _run(tmp_path: Path, datasets: int = 40, samples: int = 3000) -> Path:
    """A run directory of one model with ``datasets`` results of ``samples`` details each."""
    run = RunDir(tmp_path / "work" / "20260101_000000")
    for d in range(datasets):
        details = [{"pred": str(i % 5), "answer": str(i % 7), "correct": i % 5 == i % 7, "pad": "x" * 100} for i in range(samples)]
        accuracy = 100.0 * sum(r["correct"] for r in details) / samples
        write_result(run.result_path("m", f"d{d}"), {"accuracy": accuracy, "details": details})
    return run.root


def _tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _export_tree(folder: Path) -> dict[str, str]:
    """An OpenCompass export's files, the time in the config's and summary's names left out."""
    out = {}
    for rel, digest in _tree(folder).items():
        if rel.startswith(("configs/", "summary/")):
            rel = rel.split("/")[0] + "/*" + Path(rel).suffix
            digest = "-"  # they hold the time too
        out[rel] = digest
    return out


def _beside(target: Path) -> list[str]:
    """What an export left in the target's folder besides the target (and the run's work dir)."""
    return sorted(p.name for p in target.parent.iterdir() if p.name.startswith(f".{target.name}."))


def _export(run: Path, fmt: str, target: Path) -> list[str]:
    return ["export", str(run), "--format", fmt, "--out", str(target), "--force"]


def _poll(check, seconds: float = 120) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
    return False


@pytest.mark.slow
def test_an_opencompass_export_killed_while_writing_or_between_its_two_steps_leaves_old_or_new_whole(tmp_path: Path) -> None:
    run = _run(tmp_path)
    before = _tree(run)
    clean = tmp_path / "clean"
    assert spawn_assay(*_export(run, "opencompass", clean), cwd=tmp_path).wait(timeout=300) == 0
    new = _export_tree(clean)
    target = tmp_path / "out"
    target.mkdir()
    # the old output: many files, so that removing it takes a while after the new one is in place
    for i in range(20000):
        (target / f"old{i}.txt").write_text(str(i))
    old = _tree(target)

    # killed while the new output is being written beside the target
    proc = spawn_assay(*_export(run, "opencompass", target), cwd=tmp_path)
    assert _poll(lambda: any((p / "predictions").is_dir() for p in target.parent.glob(f".{target.name}.*.new"))), \
        "the export never began writing"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert _tree(target) == old
    assert _tree(run) == before

    # killed once the new output is in place, while the old one is being removed
    inode = target.stat().st_ino
    proc = spawn_assay(*_export(run, "opencompass", target), cwd=tmp_path)

    def swapped() -> bool:
        try:
            return os.stat(target).st_ino != inode
        except FileNotFoundError:  # between two renames: the killed export must leave neither state
            return True

    assert _poll(swapped), "the export never put its output in place"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert target.is_dir(), "the kill left no output at all"
    there = _tree(target)
    assert there == old or _export_tree(target) == new, "the output is neither the old one nor the new one"
    assert _tree(run) == before

    # a second export recovers: the new output, nothing of the killed exports left beside it
    again = spawn_assay(*_export(run, "opencompass", target), cwd=tmp_path)
    assert again.wait(timeout=300) == 0
    assert _export_tree(target) == new
    assert _beside(target) == []
    assert _tree(run) == before


@pytest.mark.slow
def test_a_jsonl_export_killed_while_writing_leaves_the_old_file_and_a_second_export_recovers(tmp_path: Path) -> None:
    run = _run(tmp_path)
    before = _tree(run)
    clean = tmp_path / "clean.jsonl"
    assert spawn_assay(*_export(run, "jsonl", clean), cwd=tmp_path).wait(timeout=300) == 0
    target = tmp_path / "out.jsonl"
    target.write_bytes(b'{"kind": "old"}\n')
    proc = spawn_assay(*_export(run, "jsonl", target), cwd=tmp_path)

    def writing() -> bool:
        return any(p.stat().st_size > 0 for p in target.parent.glob(f".{target.name}.*.tmp"))

    assert _poll(writing), "the export never began writing"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert target.read_bytes() == b'{"kind": "old"}\n'
    assert _tree(run) == before

    again = spawn_assay(*_export(run, "jsonl", target), cwd=tmp_path)
    assert again.wait(timeout=300) == 0
    assert target.read_bytes() == clean.read_bytes()
    assert _beside(target) == []
    assert _tree(run) == before

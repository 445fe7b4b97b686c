"""A run scoring another tool's replies (``predictions=dict(source=…)``) killed with SIGKILL while it writes them
as the run's prediction files: every prediction and result file is whole, the killed writer's temporary files
are gone after the rerun, and the rerun's files are the bytes of an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from assay.rundir.results import META_KEY, read_result
from tests.sources.many_tasks import SAMPLES, many_tasks
from tests.tasks._spawn import spawn_assay

TASKS = 40
REPEAT = 60


def _config(folder: Path, out: Path) -> Path:
    datasets = ",\n".join(
        f"    dict(abbr='d{i:03d}', predictions=dict(source='lm_eval', path={str(out)!r}, task='arith_{i:03d}'), "
        "eval_cfg=dict(evaluator=dict(type='Gsm8kEvaluator'), pred_postprocessor=dict(type='gsm8k_postprocess'), "
        "dataset_postprocessor=dict(type='gsm8k_dataset_postprocess')))"
        for i in range(TASKS)
    )
    config = folder / "config.py"
    config.write_text(f"datasets = [\n{datasets},\n]\n")
    return config


def _files(run: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run)): p.read_bytes() for p in sorted(run.rglob("*"))
            if p.is_file() and p.parts[len(run.parts)] in ("predictions", "results")}


def _temp_files(folder: Path) -> list[Path]:
    return [p for p in folder.glob(".*.tmp")] if folder.is_dir() else []


@pytest.mark.slow
def test_a_run_killed_while_writing_another_tools_replies_reruns_to_the_bytes_of_an_uninterrupted_one(tmp_path: Path) -> None:
    out = many_tasks(tmp_path / "lm_out", TASKS, repeat=REPEAT)
    config = _config(tmp_path, out)
    work = tmp_path / "work"
    args = ("eval", str(config), "-w", str(work), "-r", "RUN", "--workers", "1")
    preds = work / "RUN" / "predictions" / "scripted-a"
    proc = spawn_assay(*args, cwd=tmp_path)
    # killed as soon as a prediction file is being written (its temporary file there), after some are written
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if preds.is_dir() and len(list(preds.glob("*.json"))) >= 3 and _temp_files(preds):
            break
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    written = sorted(preds.glob("*.json"))
    assert 0 < len(written) < TASKS, "the kill should land mid-run"
    assert _temp_files(preds), "the kill should land while a prediction file is written"
    for path in written:  # every prediction file whole
        assert len(json.loads(path.read_bytes())) == SAMPLES * REPEAT
    for path in (work / "RUN" / "results" / "scripted-a").glob("*.json"):
        assert len(read_result(path)["details"]) == SAMPLES * REPEAT

    rerun = spawn_assay(*args, cwd=tmp_path)
    assert rerun.wait(timeout=600) == 0
    assert _temp_files(preds) == [], "the killed writer's temporary file is left in the run"
    clean = spawn_assay("eval", str(config), "-w", str(tmp_path / "clean"), "-r", "RUN", "--workers", "1",
                        cwd=tmp_path)
    assert clean.wait(timeout=600) == 0
    resumed, uninterrupted = _files(work / "RUN"), _files(tmp_path / "clean" / "RUN")
    assert sorted(resumed) == sorted(uninterrupted)
    assert len([p for p in resumed if p.startswith("predictions/")]) == TASKS
    for rel, data in resumed.items():
        if rel.endswith(".json") and rel.startswith("results/"):
            a, b = read_result(work / "RUN" / rel), read_result(tmp_path / "clean" / "RUN" / rel)
            assert a.pop(META_KEY)["fingerprint"] == b.pop(META_KEY)["fingerprint"]
            assert a == b, rel
        elif not rel.endswith(".stats"):
            assert data == uninterrupted[rel], rel

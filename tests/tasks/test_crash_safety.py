"""A run killed with SIGKILL leaves no truncated result file, and a rerun completes it."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from assay.rundir.results import META_KEY, read_result
from tests.tasks._spawn import spawn_assay

CONFIG = """
import time
from assay.evaluate import BaseEvaluator

class SlowBigEvaluator(BaseEvaluator):
    def score(self, predictions, references):
        time.sleep(0.3)
        ok = [p == r for p, r in zip(predictions, references)]
        return {'accuracy': 100.0 * sum(ok) / len(ok),
                'details': [{'pred': p, 'answer': r, 'correct': c, 'pad': 'x' * 200} for p, r, c in zip(predictions, references, ok)]}

datasets = [dict(abbr=f'd{i}', type='JsonlDataset', path='data.jsonl', reader_cfg=dict(output_column='a'),
                 eval_cfg=dict(evaluator=dict(type=SlowBigEvaluator))) for i in range(12)]
models = [dict(abbr='m', predictions='preds')]
"""


def _setup(tmp_path: Path) -> Path:
    rows = 5000
    (tmp_path / "data.jsonl").write_text("".join(json.dumps({"q": i, "a": str(i % 7)}) + "\n" for i in range(rows)))
    preds = tmp_path / "preds"
    preds.mkdir()
    records = {str(i): {"prediction": str(i % 5)} for i in range(rows)}
    for i in range(12):
        (preds / f"d{i}.json").write_text(json.dumps(records))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(CONFIG)
    return cfg


@pytest.mark.slow
def test_sigkill_leaves_no_truncated_results_and_rerun_completes(tmp_path: Path) -> None:
    cfg = _setup(tmp_path)
    work = tmp_path / "work"
    proc = spawn_assay("eval", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "2", cwd=tmp_path)
    results = work / "RUN" / "results" / "m"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(results.glob("*.json"))) < 3:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    written = list(results.glob("*.json"))
    assert 0 < len(written) < 12, "the kill should land mid-run"
    for path in written:
        result = read_result(path)  # raises on a truncated file
        assert "accuracy" in result and len(result["details"]) == 5000

    rerun = spawn_assay("eval", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "2", cwd=tmp_path)
    assert rerun.wait(timeout=300) == 0
    finished = sorted(results.glob("*.json"))
    assert len(finished) == 12
    # the same results as an uninterrupted run
    clean = spawn_assay("eval", str(cfg), "-w", str(tmp_path / "clean"), "-r", "RUN", "--workers", "2", cwd=tmp_path)
    assert clean.wait(timeout=300) == 0
    for path in finished:
        resumed = read_result(path)
        uninterrupted = read_result(tmp_path / "clean" / "RUN" / "results" / "m" / path.name)
        assert resumed.pop(META_KEY)["fingerprint"] == uninterrupted.pop(META_KEY)["fingerprint"]
        assert resumed == uninterrupted


@pytest.mark.parametrize("fails", ["os.write", "open"])
def test_a_task_log_never_mixes_the_new_lines_with_an_earlier_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fails: str
) -> None:
    """A log written again over an earlier run's, cut short by a write error, holds no line of the earlier run:
    it is gone, or it is the start of the new log (the earlier lines would say "ok" of a task that failed)."""
    import builtins

    from assay.tasks import run as run_module

    path = tmp_path / "logs" / "m" / "d.out"
    path.parent.mkdir(parents=True)
    earlier = "2025-01-01T00:00:00 task m/d (assay 0.1.0)\n" + "2025-01-01T00:00:01 scored 2000 samples\n" * 20
    path.write_text(earlier + "2025-01-01T00:00:03 ok in 3.10s\n", encoding="utf-8")
    log = run_module._Log(path)
    log("task m/d (assay 0.1.0)")
    log("FAILED: error: boom")

    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    if fails == "os.write":
        monkeypatch.setattr(run_module.os, "write", refuse)
    else:
        monkeypatch.setattr(builtins, "open", refuse)
    log.flush()
    monkeypatch.undo()
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    assert "ok in 3.10s" not in text and "scored 2000 samples" not in text
    assert "\n".join(log.lines).startswith(text.rstrip("\n"))

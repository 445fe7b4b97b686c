"""An interrupted run resumes where it stopped, shards of a split task included,
and ends with the same result files as an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.tasks._spawn import slow_acc_config, spawn_assay

CONFIG = slow_acc_config(0.25, """\
datasets = [dict(abbr='big', type='JsonlDataset', path='data.jsonl', reader_cfg=dict(output_column='a'), n=2, k=[1, 2],
                 eval_cfg=dict(evaluator=dict(type=SlowAcc)))]""")
ROWS = 60


def _setup(tmp_path: Path) -> Path:
    (tmp_path / "data.jsonl").write_text("".join(json.dumps({"q": i, "a": str(i % 3)}) + "\n" for i in range(ROWS)))
    (tmp_path / "preds").mkdir()
    records = {str(i): {"prediction": str(i % 4)} for i in range(2 * ROWS)}
    (tmp_path / "preds" / "big.json").write_text(json.dumps(records))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(CONFIG)
    return cfg


def _assay(cfg: Path, work: Path) -> subprocess.Popen[bytes]:
    args = ("eval", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "2", "--shard-size", "5")
    return spawn_assay(*args, cwd=cfg.parent, stderr=subprocess.PIPE)


@pytest.mark.slow
def test_killed_sharded_run_resumes_to_the_same_result(tmp_path: Path) -> None:
    cfg = _setup(tmp_path)
    work = tmp_path / "work"
    shards = work / "RUN" / ".shards" / "m" / "big"
    proc = _assay(cfg, work)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(shards.glob("out_*.json"))) < 3:
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    scored = len(list(shards.glob("out_*.json")))
    assert 3 <= scored < 12, "the kill should land while shards are being scored"
    assert not (work / "RUN" / "results" / "m" / "big.json").exists()

    rerun = _assay(cfg, work)
    _, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err.decode()
    log = (work / "RUN" / "logs" / "eval" / "m" / "big.out").read_text()
    assert "resuming a split into 12 shards" in log
    assert "resumed" in err.decode()
    assert not shards.exists()

    clean = _assay(cfg, tmp_path / "clean")
    assert clean.wait(timeout=300) == 0
    resumed = (work / "RUN" / "results" / "m" / "big.json").read_bytes()
    assert resumed == (tmp_path / "clean" / "RUN" / "results" / "m" / "big.json").read_bytes()
    assert b'"G-Pass@2_0.5"' in resumed

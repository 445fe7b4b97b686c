"""A run whose driver dies leaves no process behind (R-12.4): its workers end with it, however
it ends (kill -9, SIGTERM, SIGHUP), and the next ``-r`` run completes with the right result."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.tasks._spawn import slow_acc_config, spawn_assay

CONFIG = slow_acc_config(0.4, """\
datasets = [dict(abbr='big', type='JsonlDataset', path='data.jsonl', reader_cfg=dict(output_column='a'),
                 eval_cfg=dict(evaluator=dict(type=SlowAcc)))]""")
ROWS = 60


def _setup(tmp_path: Path) -> Path:
    (tmp_path / "data.jsonl").write_text("".join(json.dumps({"q": i, "a": str(i % 3)}) + "\n" for i in range(ROWS)))
    (tmp_path / "preds").mkdir()
    (tmp_path / "preds" / "big.json").write_text(json.dumps({str(i): {"prediction": str(i % 4)} for i in range(ROWS)}))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(CONFIG)
    return cfg


def _assay(cfg: Path, work: Path) -> subprocess.Popen[bytes]:
    args = ("eval", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "2", "--shard-size", "5")
    return spawn_assay(*args, cwd=cfg.parent, stderr=subprocess.PIPE)


def _parents() -> dict[int, int]:
    out = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            out[int(name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return out


def _descendants(pid: int) -> set[int]:
    parents = _parents()
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP], ids=["kill-9", "SIGTERM", "SIGHUP"])
def test_no_process_of_the_run_outlives_its_driver(tmp_path: Path, how: signal.Signals) -> None:
    cfg = _setup(tmp_path)
    work = tmp_path / "work"
    shards = work / "RUN" / ".shards" / "m" / "big"
    driver = _assay(cfg, work)
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while time.monotonic() < deadline and not (len(workers) >= 2 and list(shards.glob("out_*.json"))):
        time.sleep(0.05)
        workers = _descendants(driver.pid)
    assert len(workers) >= 2, "the run should have started its workers"
    assert driver.poll() is None, "the kill should land while shards are being scored"

    os.kill(driver.pid, how)  # the driver only, not its process group
    try:
        _, err = driver.communicate(timeout=60)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.05)
        survivors = [p for p in workers if _alive(p)]
    finally:  # leave no process behind, whatever the outcome
        with contextlib.suppress(ProcessLookupError):
            os.killpg(driver.pid, signal.SIGKILL)
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)
    assert not survivors, f"processes of the run survived its driver: {survivors}"
    if how != signal.SIGKILL:
        assert driver.returncode == 128 + how, err.decode()
        assert f"stopped by {signal.Signals(how).name}" in err.decode()
        assert "Traceback" not in err.decode()
    if how != signal.SIGKILL:  # stopped cleanly: no half-written file left
        assert not [p for p in (work / "RUN").rglob("*.tmp")], "temporary files left"

    rerun = _assay(cfg, work)
    _, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err.decode()
    result = json.loads((work / "RUN" / "results" / "m" / "big.json").read_text())
    correct = sum(str(i % 4) == str(i % 3) for i in range(ROWS))
    assert result["accuracy"] == 100.0 * correct / ROWS
    assert not [p for p in (work / "RUN").rglob("*.tmp")]

"""Two runs on one run directory at once (R-12.4): the second stops clearly, no result the first
reported ok is overwritten, and the final results are right; a stale shard plan is rebuilt."""

from __future__ import annotations

import json
import pickle
import subprocess
import time
from pathlib import Path

import pytest

from assay.cli import main
from tests.tasks._spawn import slow_acc_config, spawn_assay

CONFIG = slow_acc_config(0.1, """\
datasets = [dict(abbr=f'big{d}', type='JsonlDataset', path='data.jsonl', reader_cfg=dict(output_column='a'),
                 eval_cfg=dict(evaluator=dict(type=SlowAcc))) for d in range(3)]""")
ROWS = 40
EXPECTED = 100.0 * sum(str(i % 4) == str(i % 3) for i in range(ROWS)) / ROWS


def _setup(tmp_path: Path) -> Path:
    (tmp_path / "data.jsonl").write_text("".join(json.dumps({"q": i, "a": str(i % 3)}) + "\n" for i in range(ROWS)))
    (tmp_path / "preds").mkdir()
    for d in range(3):
        (tmp_path / "preds" / f"big{d}.json").write_text(json.dumps({str(i): {"prediction": str(i % 4)} for i in range(ROWS)}))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(CONFIG)
    return cfg


def _args(cfg: Path, work: Path, *extra: str) -> tuple[str, ...]:
    return ("eval", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "2", "--shard-size", "4", *extra)


@pytest.mark.slow
@pytest.mark.parametrize("wait", [False, True], ids=["stops", "waits"])
def test_two_sharded_runs_on_one_run_directory(tmp_path: Path, wait: bool) -> None:
    cfg = _setup(tmp_path)
    work = tmp_path / "work"
    extra = ("--wait",) if wait else ()
    first = spawn_assay(*_args(cfg, work, "--force"), cwd=tmp_path, stderr=subprocess.PIPE)
    shards = work / "RUN" / ".shards"
    while first.poll() is None and not any(shards.rglob("out_*.json")):
        time.sleep(0.01)  # the second starts while the first scores shards
    assert first.poll() is None
    second = spawn_assay(*_args(cfg, work, "--force", *extra), cwd=tmp_path, stderr=subprocess.PIPE)
    _, err1 = first.communicate(timeout=300)
    _, err2 = second.communicate(timeout=300)
    out1, out2 = err1.decode(), err2.decode()
    assert first.returncode == 0, out1
    assert "Traceback" not in out1 + out2
    if wait:
        assert second.returncode == 0, out2
        assert "waiting for it to end" in out2 and "3 scored" in out2
    else:
        assert second.returncode == 2, out2
        assert f"run directory {work / 'RUN'} is being written by" in out2 and f"pid {first.pid}" in out2
    for d in range(3):
        result = json.loads((work / "RUN" / "results" / "m" / f"big{d}.json").read_text())
        assert "error" not in result, result
        assert result["accuracy"] == EXPECTED
    assert not (work / "RUN" / ".shards").exists() or not any((work / "RUN" / ".shards").rglob("*.json"))


def _plan_left_by_a_cut_split(cfg: Path, work: Path) -> Path:
    """A split as a run cut short (or another run clearing the folder) leaves it: a plan whose inputs are gone."""
    assert main(["eval", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "1", "--shard-size", "4"]) == 0
    folder = work / "RUN" / ".shards" / "m" / "big0"
    result = work / "RUN" / "results" / "m" / "big0.json"
    # start the split again by hand: plan and inputs as the task writes them, then lose two inputs
    from assay.config import load_config
    from assay.rundir.layout import RunDir
    from assay.tasks import EvalOptions, plan_tasks
    from assay.tasks.run import start_task

    result.unlink()
    task = plan_tasks(load_config(cfg), RunDir(work / "RUN"))[0]
    plan = start_task(task, EvalOptions(run_dir=RunDir(work / "RUN"), shard_size=4))
    assert not hasattr(plan, "status") and (folder / "plan.json").is_file()
    for s in (3, 7):
        (folder / f"in_{s}.pkl").unlink()
    assert pickle.loads((folder / "in_0.pkl").read_bytes())
    return folder


def test_a_stale_shard_plan_is_rebuilt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _setup(tmp_path)
    cfg.write_text(cfg.read_text().replace("time.sleep(0.1)", "pass"))
    work = tmp_path / "work"
    folder = _plan_left_by_a_cut_split(cfg, work)
    capsys.readouterr()
    assert main(["eval", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "1", "--shard-size", "4"]) == 0, capsys.readouterr().err
    result = json.loads((work / "RUN" / "results" / "m" / "big0.json").read_text())
    assert result["accuracy"] == EXPECTED
    assert "rebuilding the split" in (work / "RUN" / "logs" / "eval" / "m" / "big0.out").read_text()
    assert not folder.exists()

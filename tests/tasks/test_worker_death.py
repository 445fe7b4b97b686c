"""A worker process killed mid-task fails only its own task; the others still run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.cli import main
from assay.config import load_config
from assay.rundir.layout import RunDir
from assay.rundir.results import read_result
from assay.tasks import plan_tasks
from assay.tasks.runner import plan_units

CONFIG = """
import os, signal
from assay.evaluate import BaseEvaluator

class KillOnPoison(BaseEvaluator):
    def score(self, predictions, references):
        if 'POISON' in predictions:
            os.kill(os.getpid(), signal.SIGKILL)
        ok = [p == r for p, r in zip(predictions, references)]
        return {'accuracy': 100.0 * sum(ok) / len(ok)}

datasets = [dict(abbr=f'd{i}', type='JsonlDataset', path='data.jsonl', reader_cfg=dict(output_column='a'),
                 eval_cfg=dict(evaluator=dict(type=KillOnPoison))) for i in range(4)]
models = [dict(abbr=m, predictions=m) for m in ('poisoned', 'fine')]
"""


def test_killed_worker_fails_only_its_task(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "data.jsonl").write_text("".join(json.dumps({"q": i, "a": "A"}) + "\n" for i in range(3)))
    good = {str(i): {"prediction": "A"} for i in range(3)}
    padded = {str(i): {"prediction": "A", "pad": "x" * 5000} for i in range(3)}
    for model in ("poisoned", "fine"):
        (tmp_path / model).mkdir()
        for i in range(4):
            (tmp_path / model / f"d{i}.json").write_text(json.dumps(good if i == 1 else padded))
    # the poisoned model's d1 kills the worker that scores it; d1 of the other model shares its batch
    (tmp_path / "poisoned" / "d1.json").write_text(json.dumps({**good, "1": {"prediction": "POISON"}}))
    cfg = tmp_path / "cfg.py"
    cfg.write_text(CONFIG)
    work = tmp_path / "w"
    tasks = plan_tasks(load_config(cfg), RunDir(work / "RUN"))
    batches = [[tasks[i].name for i in unit.tasks] for unit in plan_units(tasks, 2)]
    assert sorted(["poisoned/d1", "fine/d1"]) in [sorted(b) for b in batches], "the two d1 tasks should share a batch"
    rc = main(["eval", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "2"])
    err = capsys.readouterr().err
    assert rc == 1
    assert "1 failed" in err and "poisoned/d1" in err
    results = work / "RUN" / "results"
    killed = read_result(results / "poisoned" / "d1.json")
    assert "worker process" in killed["error"] and "died" in killed["error"]
    for model in ("poisoned", "fine"):
        for i in range(4):
            if (model, i) != ("poisoned", 1):
                assert read_result(results / model / f"d{i}.json")["accuracy"] == 100.0, (model, i)

"""``assay compare`` of two models whose replies assay scored again from another tool's output
(``predictions=dict(source=…)``): samples pair by the tool's id of each reply, whatever order each model's log has."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main

DATA = Path(__file__).parents[1] / "data" / "sources"
INSPECT = DATA / "inspect_ai" / "logs" / "json"
MODELS = {"mockllm/scripted-a": "a", "mockllm/scripted-b": "b"}


def _last_number(reply: str) -> str:
    numbers = re.findall(r"-?\d+\.\d+|-?\d+", reply)
    return numbers[-1] if numbers else ""


def _shuffled_logs(folder: Path) -> Path:
    """Both models' inspect_ai arithmetic logs; scripted-b's dataset shuffled (its samples in another order, as
    ``shuffle=True`` with another seed logs them)."""
    folder.mkdir()
    for path in sorted(INSPECT.glob("*assay-arith*.json")):
        log = json.loads(path.read_text())
        if log["eval"]["model"] == "mockllm/scripted-b":
            dataset = log["eval"]["dataset"]
            dataset["sample_ids"] = dataset["sample_ids"][1:] + dataset["sample_ids"][:1]
            dataset["shuffled"] = True
            log["samples"].sort(key=lambda sample: dataset["sample_ids"].index(sample["id"]))
        (folder / path.name).write_text(json.dumps(log))
    return folder


def _verdicts(folder: Path) -> dict[str, dict[str, int]]:
    """abbr → sample id → whether the reply's last number is the target (as gsm8k_postprocess reads these replies)."""
    out: dict[str, dict[str, int]] = {}
    for path in folder.glob("*.json"):
        log = json.loads(path.read_text())
        out[MODELS[log["eval"]["model"]]] = {
            s["id"]: int(_last_number(s["output"]["choices"][0]["message"]["content"]) == s["target"]) for s in log["samples"]
        }
    return out


def _rescore(root: Path) -> tuple[Path, Path]:
    """A run scoring again both models' replies of :func:`_shuffled_logs`; the run directory and the logs' folder."""
    logs = _shuffled_logs(root / "logs")
    config = root / "config.py"
    config.write_text(
        f"datasets = [dict(abbr='arith', predictions=dict(source='inspect_ai', path={str(logs)!r}, task='assay_arith', "
        f"models={MODELS!r}),\n"
        "                 eval_cfg=dict(evaluator=dict(type='Gsm8kEvaluator'), pred_postprocessor=dict(type='gsm8k_postprocess')))]\n"
        f"work_dir = {str(root / 'out')!r}\n"
    )
    assert main(["run", str(config)]) == 0
    (run,) = (root / "out").iterdir()
    return run, logs


@pytest.fixture(scope="module")
def rescored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return _rescore(tmp_path_factory.mktemp("rescored"))


def _compare(run: Path, capsys: pytest.CaptureFixture[str], *extra: str, status: int = 0) -> tuple[str, dict[str, Any]]:
    capsys.readouterr()
    assert main(["compare", "-w", str(run), "a", "b", "--datasets", "arith", *extra]) == status
    out = capsys.readouterr().out
    newest = max((run / "summary").glob("compare_*.json"), key=lambda p: p.stat().st_mtime_ns)
    (row,) = json.loads(newest.read_text())["datasets"]
    return out, row


@pytest.mark.parametrize("align", [[], ["--align", "id"]])
def test_rescored_replies_logged_in_different_orders_pair_by_the_tools_ids(
    rescored: tuple[Path, Path], capsys: pytest.CaptureFixture[str], align: list[str]
) -> None:
    run, logs = rescored
    verdicts = _verdicts(logs)
    ids = sorted(verdicts["a"])
    a_only = sum(verdicts["a"][i] == 1 and verdicts["b"][i] == 0 for i in ids)
    b_only = sum(verdicts["a"][i] == 0 and verdicts["b"][i] == 1 for i in ids)
    _, row = _compare(run, capsys, *align)
    assert row["alignment"]["mode"] == "id" and row["alignment"]["aligned"] == len(ids) == 12
    assert (row["a_only"], row["b_only"]) == (a_only, b_only) and a_only + b_only > 0
    # the two models' prediction files hold the replies in different orders: pairing by position would differ
    keys = [[r["source_key"] for r in json.loads((run / "predictions" / m / "arith.json").read_text()).values()] for m in "ab"]
    assert keys[0] != keys[1] and sorted(keys[0]) == sorted(keys[1])


def test_rescored_replies_without_the_tools_ids_are_not_paired_by_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run, _ = _rescore(tmp_path)
    path = run / "predictions" / "b" / "arith.json"
    records = json.loads(path.read_text())
    path.write_text(json.dumps({k: {f: v for f, v in r.items() if f != "source_key"} for k, r in records.items()}))
    _, row = _compare(run, capsys, "--align", "id", status=1)  # the one dataset refused: nothing compared
    assert "result" not in row and "a_only" not in row
    assert "re-scored from inspect_ai's output" in row["reason"] and "does not give the tool's id" in row["reason"], row

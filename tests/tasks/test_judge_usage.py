"""What judging cost, through ``assay eval``: ``_meta.judge`` per result and the progress line with ``-v``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.cli import main
from tests.judge.fake_server import FakeJudge
from tests.tasks._judged import judged_run

QUESTIONS = ["1+1", "2+2", "3+3"]
GOLDS = ["2", "4", "6"]
ANSWERS = ["2", "5", "6"]


def _config(tmp_path: Path, base_url: str, extra: str = "") -> Path:
    rows = [{"question": q, "answer": a} for q, a in zip(QUESTIONS, GOLDS)]
    return judged_run(tmp_path, base_url, rows, ANSWERS,
                      f"retry=2, timeout=5, backoff=0.01, max_backoff=0.02, max_workers=2{extra}")


def _usage(prompt: str, text: str) -> dict[str, int]:
    return {"prompt_tokens": 1000, "completion_tokens": 10}


def _result(work: Path) -> dict:
    (run,) = [p for p in work.iterdir() if p.is_dir()]
    return json.loads((run / "results" / "m" / "d.json").read_text())


def test_the_result_records_calls_tokens_and_cost_and_a_rerun_pays_nothing(tmp_path, capsys):
    work = tmp_path / "w"
    with FakeJudge(lambda m, a: ("reply", "A"), usage=_usage) as server:
        cfg = _config(tmp_path, server.base_url, ", price=dict(input=2.5, output=10)")
        assert main(["eval", str(cfg), "-w", str(work), "-r", "20240101_000000", "--workers", "1"]) == 0
        judge = _result(work)["_meta"]["judge"]
        assert judge["model"] == "judge-model"
        assert (judge["calls"], judge["cached"], judge["failed"], judge["requests"]) == (3, 0, 0, 3)
        assert (judge["prompt_tokens"], judge["completion_tokens"]) == (3000, 30)
        assert judge["cost"] == pytest.approx((3000 * 2.5 + 30 * 10) / 1e6)
        assert judge["price"] == {"input": 2.5, "output": 10.0} and judge["seconds"] >= 0
        # scored again: every reply from the cache, nothing paid
        assert main(["eval", str(cfg), "-w", str(work), "-r", "20240101_000000", "--workers", "1", "--force"]) == 0
        assert server.requests == 3
    again = _result(work)["_meta"]["judge"]
    assert (again["calls"], again["cached"], again["requests"]) == (3, 3, 0)
    assert (again["prompt_tokens"], again["completion_tokens"], again["cost"]) == (0, 0, 0.0)


def test_without_a_price_the_cost_is_unknown(tmp_path):
    work = tmp_path / "w"
    with FakeJudge(lambda m, a: ("reply", "A")) as server:  # a server reporting no usage either
        assert main(["eval", str(_config(tmp_path, server.base_url)), "-w", str(work), "--workers", "1"]) == 0
    judge = _result(work)["_meta"]["judge"]
    assert judge["calls"] == 3 and judge["prompt_tokens"] is None and judge["cost"] is None and judge["usage_unknown"] == 3


def test_with_v_a_progress_line_goes_to_stderr(tmp_path, capfd):
    work = tmp_path / "w"
    with FakeJudge(lambda m, a: ("reply", "A"), usage=_usage) as server:
        cfg = _config(tmp_path, server.base_url, ", price=dict(input=1, output=1)")
        assert main(["eval", str(cfg), "-w", str(work), "--workers", "1", "-v"]) == 0
    err = capfd.readouterr().err
    assert "judge judge-model: 3/3 | " in err and "calls/s | ETA 0 s | cost 0.0030" in err


def test_the_summary_json_the_report_and_stderr_name_each_judged_datasets_cost(tmp_path, capsys):
    work = tmp_path / "w"
    with FakeJudge(lambda m, a: ("reply", "A"), usage=_usage) as server:
        cfg = _config(tmp_path, server.base_url, ", price=dict(input=2.5, output=10)")
        assert main(["run", str(cfg), "-w", str(work), "-r", "20240101_000000", "--workers", "1"]) == 0
    line = "judge judge-model: 3 calls (0 cached, 0 failed, 3 requests), tokens 3000 in / 30 out"
    assert f"m/d: {line}" in capsys.readouterr().err
    summary = work / "20240101_000000" / "summary"
    (board,) = summary.glob("summary_*.json")
    (entry,) = json.loads(board.read_text())["judge_usage"]
    assert (entry["model"], entry["dataset"]) == ("m", "d")
    assert entry["judge"]["cost"] == pytest.approx((3000 * 2.5 + 30 * 10) / 1e6)
    from assay.summarize.leaderboard import Leaderboard

    assert Leaderboard.from_json(board).judge_usage[("m", "d")]["prompt_tokens"] == 3000
    (report,) = summary.glob("summary_*.html")
    page = report.read_text()
    assert 'id="judge-usage"' in page and f"m / d: {line}" in page and "cost 0.0078" in page

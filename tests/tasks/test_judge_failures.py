"""Judge requests that fail, through ``assay eval``: a failed or partial task, never "ok" (R-12.2, R-12.3, R-12.5)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from assay.cli import main
from tests.judge.fake_server import FakeJudge, free_port
from tests.tasks._judged import judged_run

QUESTIONS = ["1+1", "2+2", "3+3", "4+4", "5+5"]
GOLDS = ["2", "4", "6", "8", "10"]
ANSWERS = ["2", "5", "6", "8", "11"]  # right, wrong, right, right, wrong
SECRET = "sk-test-5f3a9c0d1e2b4a6c8e0f"


def _config(tmp_path: Path, base_url: str, judge: str = "") -> Path:
    rows = [{"question": q, "answer": a} for q, a in zip(QUESTIONS, GOLDS)]
    return judged_run(tmp_path, base_url, rows, ANSWERS,
                      f"retry=2, timeout=2, backoff=0.01, max_backoff=0.02, max_workers=2{judge}", key=SECRET)


class Judge:
    """Grades A/B; the questions in ``down`` get HTTP 502 (or ``down_with``) until ``down`` is emptied."""

    def __init__(self, down: set[str], down_with: tuple = ("status", 502)) -> None:
        self.down = set(down)
        self.down_with = down_with

    def __call__(self, messages, attempt):
        text = messages[-1]["content"]
        question = re.search(r"Question: (.*)\n", text).group(1)
        if question in self.down:
            return self.down_with
        answer = re.search(r"Answer: (.*)\n", text).group(1)
        gold = re.search(r"Gold: (.*)\n", text).group(1)
        return ("reply", "A" if answer == gold else "B")


def _run(cfg: Path, work: Path, *extra: str) -> int:
    return main(["eval", str(cfg), "-w", str(work), "--workers", "1", *extra])


def _result(work: Path) -> dict:
    (run,) = [p for p in work.iterdir() if p.is_dir()]
    return json.loads((run / "results" / "m" / "d.json").read_text())


def test_some_failed_judgements_make_the_task_partial_and_the_run_exit_1(tmp_path, capsys):
    script = Judge({"2+2", "4+4"})
    work = tmp_path / "w"
    with FakeJudge(script) as server:
        assert _run(_config(tmp_path, server.base_url), work, "-r", "20240101_000000") == 1
    err = capsys.readouterr().err
    assert "[1/1] m/d partial: 2 of 5 samples unjudged (5 samples" in err
    assert "partial tasks:\n  m/d: partial: 2 of 5 samples unjudged" in err
    assert "0 scored, 0 reused, 0 failed, 1 partial" in err
    result = _result(work)
    (entry,) = result["_meta"]["incomplete"]
    assert entry["kind"] == "unjudged" and entry["count"] == 2
    assert "2 of 5 judge requests failed (HTTP 502 (after 2 attempts))" in entry["detail"]
    # OpenCompass's counting: every sample in the denominator, the unjudged ones not correct
    assert result["accuracy"] == pytest.approx(100 * 2 / 5)
    assert result["judge_failed_count"] == 2
    assert "_incomplete" not in result


def test_run_again_asks_the_judge_only_for_the_failed_requests(tmp_path, capsys):
    script = Judge({"2+2", "4+4"})
    work = tmp_path / "w"
    with FakeJudge(script) as server:
        cfg = _config(tmp_path, server.base_url)
        assert _run(cfg, work, "-r", "20240101_000000") == 1
        first = server.requests
        assert first == 3 + 2 * 2
        script.down.clear()  # the judge is back
        capsys.readouterr()
        assert _run(cfg, work, "-r", "20240101_000000") == 0
        assert server.requests - first == 2  # the three finished judgements came from the cache
        err = capsys.readouterr().err
        assert "the existing result is incomplete: 2 samples unjudged" in err
        result = _result(work)
        assert "incomplete" not in result["_meta"]
        assert result["accuracy"] == pytest.approx(100 * 3 / 5)
        # complete now: reused as is, nothing sent
        assert _run(cfg, work, "-r", "20240101_000000") == 0
        assert server.requests - first == 2
    assert "m/d reused" in capsys.readouterr().err


def test_a_judge_that_never_answers_fails_the_task_with_its_error(tmp_path, capsys):
    work = tmp_path / "w"
    assert _run(_config(tmp_path, f"http://127.0.0.1:{free_port()}/v1"), work) == 1
    err = capsys.readouterr().err
    assert "0 scored, 0 reused, 1 failed" in err
    result = _result(work)
    assert "accuracy" not in result
    assert "the judge answered none of the 5 requests: connection error" in result["error"]
    assert "m/d: GenericLLMEvaluator on dataset 'd': the judge answered none of the 5 requests: connection error" in err


def test_a_run_with_an_api_key_leaves_it_in_no_result_log_or_side_file(tmp_path, capsys):
    # the server quotes the Authorization header in its 401 body, as some do
    script = Judge({"2+2"}, down_with=("echo_auth", 401))
    work = tmp_path / "w"
    with FakeJudge(script) as server:
        assert _run(_config(tmp_path, server.base_url), work, "-r", "20240101_000000", "-v") == 1
        assert server.headers[0]["Authorization"] == f"Bearer {SECRET}"
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err
    run = work / "20240101_000000"
    result = json.loads((run / "results" / "m" / "d.json").read_text())
    assert "HTTP 401" in result["_meta"]["incomplete"][0]["detail"]
    checked = [p for p in run.rglob("*") if p.is_file() and "configs" not in p.relative_to(run).parts]
    assert any(p.suffix == ".sqlite" for p in checked) and any(p.name.endswith("_replica0.json") for p in checked)
    leaked = [str(p.relative_to(run)) for p in checked if SECRET.encode() in p.read_bytes()]
    assert leaked == []

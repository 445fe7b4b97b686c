"""A run killed with SIGKILL while judging: the replies that arrived are in the judge cache, the next
run asks the judge only for the others, and a run after that asks nothing."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from pathlib import Path

from assay.judge import chat_url, endpoint_id, request_key
from tests.judge.fake_server import FakeJudge
from tests.tasks._judged import judged_run
from tests.tasks._spawn import spawn_assay

N = 12


def _config(tmp_path: Path, base_url: str) -> Path:
    rows = [{"question": f"{i}+{i}", "answer": str(2 * i)} for i in range(N)]
    return judged_run(tmp_path, base_url, rows, [str(2 * i + i % 2) for i in range(N)], "retry=1, timeout=30, max_workers=2")


def _grade(messages, attempt):
    text = messages[-1]["content"]
    gold = text.split("Gold: ")[1].split("\n")[0]
    answer = text.split("Answer: ")[1].split("\n")[0]
    return ("slow", 0.3, "A" if gold == answer else "B")


def _cached_keys(cache: Path) -> set[str]:
    with sqlite3.connect(cache) as conn:
        return {row[0] for row in conn.execute("SELECT key FROM replies")}


def _key(body: dict, server: FakeJudge) -> str:
    params = {k: v for k, v in body.items() if k not in ("model", "messages")}
    return request_key(body["model"], body["messages"], params, endpoint=endpoint_id(chat_url(server.base_url)))


def _settle(server: FakeJudge) -> None:
    """Wait until no request has arrived for a second (a killed run's last requests included)."""
    seen, quiet = server.requests, time.monotonic()
    deadline = time.monotonic() + 30
    while time.monotonic() - quiet < 1.0 and time.monotonic() < deadline:
        time.sleep(0.05)
        if server.requests != seen:
            seen, quiet = server.requests, time.monotonic()


def test_a_run_killed_while_judging_resumes_with_only_the_unanswered_prompts(tmp_path):
    work = tmp_path / "w"
    with FakeJudge(_grade) as server:
        cfg = _config(tmp_path, server.base_url)
        args = ("run", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "1")
        first = spawn_assay(*args, cwd=tmp_path)
        deadline = time.monotonic() + 60
        while server.requests < 5 and time.monotonic() < deadline and first.poll() is None:
            time.sleep(0.02)
        assert first.poll() is None, "the run ended before it could be killed"
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
        _settle(server)
        asked_first = {_key(b, server): b["messages"][-1]["content"] for b in server.bodies}
        answered = _cached_keys(work / "RUN" / "cache" / "judge.sqlite")
        assert 0 < len(answered) < N
        assert answered <= set(asked_first)
        before = Counter(server.per_prompt)

        second = spawn_assay(*args, cwd=tmp_path, stderr=subprocess.PIPE)
        _, err = second.communicate(timeout=120)
        assert second.returncode == 0, err.decode()[-2000:]
        asked_second = Counter(server.per_prompt) - before
        prompts_of = {_key(b, server): b["messages"][-1]["content"] for b in server.bodies}
        assert len(prompts_of) == N
        unanswered = {prompt for key, prompt in prompts_of.items() if key not in answered}
        assert set(asked_second) == unanswered and set(asked_second.values()) == {1}
        result = json.loads((work / "RUN" / "results" / "m" / "d.json").read_text())
        assert result["accuracy"] == 100 * (N // 2) / N
        assert result["_meta"]["judge"]["cached"] == len(answered)
        assert result["_meta"]["judge"]["requests"] == len(unanswered)

        total = server.requests
        third = spawn_assay(*args, "--force", cwd=tmp_path, stderr=subprocess.PIPE)
        _, err = third.communicate(timeout=120)
        assert third.returncode == 0, err.decode()[-2000:]
        assert server.requests == total
    result = json.loads((work / "RUN" / "results" / "m" / "d.json").read_text())
    assert result["_meta"]["judge"]["cached"] == N and result["accuracy"] == 100 * (N // 2) / N

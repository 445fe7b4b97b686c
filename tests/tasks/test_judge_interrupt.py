"""Ctrl-C while a run waits on its judge: the requests not yet sent are never sent, those in flight are dropped at
once (not waited for to their deadline and retries), the replies that arrived stay in the judge cache, and the run
ends with status 130."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from assay.judge import chat_url, endpoint_id, request_key
from tests.judge.fake_server import FakeJudge
from tests.tasks._judged import judged_run
from tests.tasks._spawn import spawn_assay

N = 12
ANSWERED = 4  # the judge answers the first prompts at once and holds every later one


def _config(tmp_path: Path, base_url: str) -> Path:
    rows = [{"question": f"{i}+{i}", "answer": str(2 * i)} for i in range(N)]
    return judged_run(tmp_path, base_url, rows, [str(2 * i) for i in range(N)],
                      "retry=3, timeout=120, max_workers=2, retry_interrupted=True")


def _index(messages: list[dict]) -> int:
    return int(messages[-1]["content"].split("Question: ")[1].split("+")[0])


def _grade(messages: list[dict], attempt: int) -> tuple:
    return ("reply", "A") if _index(messages) < ANSWERED else ("hang",)


def test_ctrl_c_while_judging_stops_at_once_and_keeps_the_replies(tmp_path: Path) -> None:
    work = tmp_path / "w"
    with FakeJudge(_grade) as server:
        cfg = _config(tmp_path, server.base_url)
        run = spawn_assay("run", str(cfg), "-w", str(work), "-r", "RUN", "--workers", "1", cwd=tmp_path,
                          stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 120
            while server.requests < ANSWERED + 2 and time.monotonic() < deadline and run.poll() is None:
                time.sleep(0.02)  # the answered prompts, then two held in flight (max_workers=2)
            assert run.poll() is None and server.requests == ANSWERED + 2
            run.send_signal(signal.SIGINT)
            # the held requests would hold the run for their 120 s deadline, three times, and the queued ones after
            _, err = run.communicate(timeout=60)
        finally:
            run.kill()
            run.wait()
        assert run.returncode == 130, err.decode()[-2000:]
        assert "assay: interrupted" in err.decode() and "Traceback" not in err.decode()
        time.sleep(0.5)
        assert server.requests == ANSWERED + 2  # nothing queued was sent, nothing in flight sent again
        asked = {request_key(b["model"], b["messages"], {k: v for k, v in b.items() if k not in ("model", "messages")},
                             endpoint=endpoint_id(chat_url(server.base_url))): _index(b["messages"])
                 for b in server.bodies}
    with sqlite3.connect(work / "RUN" / "cache" / "judge.sqlite") as conn:
        kept = {row[0] for row in conn.execute("SELECT key FROM replies")}
    assert sorted(asked[k] for k in kept) == list(range(ANSWERED))  # every reply that arrived, kept

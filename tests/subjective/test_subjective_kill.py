"""A subjective run killed with ``kill -9`` while its judge answers, then run again, ends as an uninterrupted one.

``assay run`` on OpenCompass's AlpacaEval and Arena-Hard library configs (four
judge tasks, 26 judge requests), in a process of its own, against a real local
judge server that answers each request after a while; the run is killed
(SIGKILL, the whole process group) once some replies are in the run's judge
cache, and run again.  The second run asks only for the prompts the first had
no reply to, each once; every reply the first run received is still in the
cache; and the result files are those of an uninterrupted run (OpenCompass's,
recorded in ``tests/data/oc_families/subjective/expected``, which an
uninterrupted ``assay run`` writes byte for byte: ``test_oc_subjective.py``).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from assay.judge import chat_url, endpoint_id, request_key
from tests.judge.fake_server import FakeJudge, subjective_reply, write_judged_config
from tests.subjective.test_oc_subjective import RUN, _key, _results, _setup
from tests.tasks._spawn import spawn_assay


def _cache_key(body: dict[str, Any], server: FakeJudge) -> str:
    params = {k: v for k, v in body.items() if k not in ("model", "messages")}
    return request_key(body["model"], body["messages"], params, endpoint=endpoint_id(chat_url(server.base_url)))


def _cached(cache: Path) -> set[str]:
    if not cache.exists():
        return set()
    try:
        with sqlite3.connect(cache) as conn:
            return {row[0] for row in conn.execute("SELECT key FROM replies")}
    except sqlite3.OperationalError:  # the table is not made yet
        return set()


def _settle(server: FakeJudge) -> None:
    """Wait until no request has arrived for a second (the killed run's last ones included)."""
    seen, quiet = server.requests, time.monotonic()
    deadline = time.monotonic() + 30
    while time.monotonic() - quiet < 1.0 and time.monotonic() < deadline:
        time.sleep(0.05)
        if server.requests != seen:
            seen, quiet = server.requests, time.monotonic()


@pytest.mark.slow
def test_a_subjective_run_killed_while_judging_ends_as_an_uninterrupted_one(oc_library: Path, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    record, work = _setup("pairwise", tmp_path, monkeypatch, oc_library)
    total = sum(len(v) for v in record["requests"].values())
    cache = work / RUN / "cache" / "judge.sqlite"
    with FakeJudge(lambda messages, attempt: ("slow", 0.4, subjective_reply(messages))) as server:
        config = write_judged_config(tmp_path / "config.py", record["config"], server)
        args = ("run", str(config), "-w", str(work), "-r", RUN, "--workers", "1")
        first = spawn_assay(*args, cwd=Path.cwd())
        deadline = time.monotonic() + 120
        while len(_cached(cache)) < 6 and time.monotonic() < deadline and first.poll() is None:
            time.sleep(0.05)
        assert first.poll() is None, "the run ended before it could be killed"
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
        _settle(server)
        answered = _cached(cache)
        asked_first = Counter(_key(b) for b in server.bodies)
        assert 6 <= len(answered) < total
        assert answered <= {_cache_key(b, server) for b in server.bodies}
        seen = len(server.bodies)

        second = spawn_assay(*args, cwd=Path.cwd(), stderr=subprocess.PIPE)
        _, err = second.communicate(timeout=300)
        assert second.returncode == 0, err.decode()[-3000:]
        again = server.bodies[seen:]
    # nothing judged before the kill asked again, every prompt without a reply asked once
    assert not {_cache_key(b, server) for b in again} & answered
    assert sorted(Counter(_key(b) for b in again).values()) == [1] * len(again)
    assert set(asked_first) | {_key(b) for b in again} == set(record["requests"])
    # nothing received lost: the first run's replies are still in the cache, with every other one
    assert answered <= _cached(cache) and len(_cached(cache)) == total
    # the results of an uninterrupted run
    assert _results(work) == record["results"]

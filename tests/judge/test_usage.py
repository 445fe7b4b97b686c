"""Token usage, latency, cost and the progress line of the judge client, against a local server."""

from __future__ import annotations

import io
import sqlite3

import pytest

from assay.errors import ConfigError
from assay.judge import (
    ChatClient,
    JudgeCache,
    OpenAISDK,
    chat_url,
    disable_progress,
    enable_progress,
    endpoint_id,
    request_key,
)
from tests.judge.fake_server import FakeJudge


def _msgs(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


def _usage(prompt: str, text: str) -> dict[str, int] | None:
    if prompt == "silent":  # a server that reports no usage for this one
        return None
    return {"prompt_tokens": 100 + len(prompt), "completion_tokens": len(text), "total_tokens": 0}


def _client(url: str, **kw) -> ChatClient:
    opts = dict(timeout=2, max_attempts=2, backoff=0.01, max_backoff=0.02, max_concurrency=4)
    opts.update(kw)
    return ChatClient(url, "judge-model", **opts)


def test_each_reply_carries_its_usage_and_latency_and_a_missing_usage_is_unknown():
    with FakeJudge(lambda m, a: ("slow", 0.05, "A"), usage=_usage) as server:
        told, silent = _client(server.base_url).complete_many([_msgs("abcd"), _msgs("silent")])
    assert (told.prompt_tokens, told.completion_tokens) == (104, 1)
    assert (silent.prompt_tokens, silent.completion_tokens) == (None, None)
    assert told.seconds >= 0.05 and silent.seconds >= 0.05


def test_the_batch_usage_sums_tokens_and_prices_them_and_cached_replies_cost_nothing(tmp_path):
    db = tmp_path / "judge.sqlite"
    prompts = [_msgs(p) for p in ("a", "bb", "ccc")]
    price = dict(input=2.0, output=10.0)
    with FakeJudge(lambda m, a: ("reply", "AB"), usage=_usage) as server:
        client = _client(server.base_url, cache=db, price=price)
        client.complete_many(prompts)
        first = client.last_usage
        again = _client(server.base_url, cache=db, price=price)
        replies = again.complete_many([*prompts, _msgs("dddd")])
        second = again.last_usage
        assert server.requests == 4
    assert first["calls"] == 3 and first["cached"] == 0 and first["requests"] == 3
    assert first["prompt_tokens"] == 101 + 102 + 103 and first["completion_tokens"] == 6
    assert first["cost"] == pytest.approx((306 * 2.0 + 6 * 10.0) / 1e6)
    # the cached replies keep the usage they were paid with, but count as cached and add nothing
    assert [r.cached for r in replies] == [True, True, True, False]
    assert replies[1].prompt_tokens == 102
    assert second["calls"] == 4 and second["cached"] == 3 and second["requests"] == 1
    assert (second["prompt_tokens"], second["completion_tokens"]) == (104, 2)
    assert second["cost"] == pytest.approx((104 * 2.0 + 2 * 10.0) / 1e6)


def test_without_a_price_or_with_a_reply_of_unknown_usage_the_cost_is_unknown_not_zero():
    with FakeJudge(lambda m, a: ("reply", "A"), usage=_usage) as server:
        unpriced = _client(server.base_url)
        unpriced.complete_many([_msgs("a")])
        priced = _client(server.base_url, price=dict(input=1, output=1))
        priced.complete_many([_msgs("a"), _msgs("silent")])
    assert unpriced.last_usage["prompt_tokens"] == 101 and unpriced.last_usage["cost"] is None
    assert priced.last_usage["prompt_tokens"] is None and priced.last_usage["usage_unknown"] == 1
    assert priced.last_usage["cost"] is None


def test_failed_requests_are_counted_as_failed_and_cost_nothing():
    with FakeJudge(lambda m, a: ("status", 503) if m[-1]["content"] == "down" else ("reply", "A"), usage=_usage) as server:
        client = _client(server.base_url, price=dict(input=1, output=1))
        client.complete_many([_msgs("a"), _msgs("down")])
    usage = client.last_usage
    assert usage["failed"] == 1 and usage["requests"] == 1 + 2
    assert usage["prompt_tokens"] == 101 and usage["cost"] == pytest.approx((101 + 1) / 1e6)


@pytest.mark.parametrize("price", [dict(input=1), dict(input=-1, output=2), dict(input="1", output=2), 3.0])
def test_a_bad_price_is_a_config_error_naming_it(price):
    with pytest.raises(ConfigError, match=r"judge_cfg\.price") as err:
        OpenAISDK(path="j", key="k", openai_api_base="http://127.0.0.1:9/v1", price=price)
    assert repr(price)[:8] in str(err.value) or "non-negative" in str(err.value)


def test_the_cache_keeps_the_usage_and_reads_a_cache_written_without_it(tmp_path):
    db = tmp_path / "old.sqlite"
    with FakeJudge(lambda m, a: ("reply", "A"), usage=_usage) as server:
        key_a = request_key("judge-model", _msgs("a"), {}, endpoint=endpoint_id(chat_url(server.base_url)))
        with sqlite3.connect(db) as conn:  # the layout of a cache written before usage was stored
            conn.execute("CREATE TABLE replies (key TEXT PRIMARY KEY, model TEXT NOT NULL, reply TEXT NOT NULL, created REAL NOT NULL)")
            conn.execute("INSERT INTO replies VALUES (?, 'judge-model', 'old reply', 0)", (key_a,))
        client = _client(server.base_url, cache=db, price=dict(input=1, output=1))
        old, _new = client.complete_many([_msgs("a"), _msgs("b")])
        assert server.requests == 1
    assert old.text == "old reply" and old.cached and old.prompt_tokens is None
    # a cached reply of unknown usage is still free this time: only the new one is priced
    assert client.last_usage["prompt_tokens"] == 101 and client.last_usage["cost"] is not None
    stored = JudgeCache(db).lookup(request_key("judge-model", _msgs("b"), {}, endpoint=client.endpoint))
    assert stored == ("A", 101, 1)


def test_a_cache_keyed_without_the_endpoint_is_never_reused(tmp_path, caplog):
    # a reply stored under the key of (model, messages, parameters) alone may have come from another server
    import hashlib
    import json

    db = tmp_path / "old.sqlite"
    blob = json.dumps({"model": "judge-model", "messages": _msgs("a"), "params": {}}, sort_keys=True, ensure_ascii=False)
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE replies (key TEXT PRIMARY KEY, model TEXT NOT NULL, reply TEXT NOT NULL, created REAL NOT NULL,"
                     " prompt_tokens INTEGER, completion_tokens INTEGER)")
        conn.execute("INSERT INTO replies VALUES (?, 'judge-model', 'another server', 0, 1, 1)",
                     (hashlib.sha256(blob.encode()).hexdigest(),))
    with FakeJudge(lambda m, a: ("reply", "A")) as server:
        reply = _client(server.base_url, cache=db).complete(_msgs("a"))
        assert server.requests == 1
    assert (reply.text, reply.cached) == ("A", False)
    assert "1 replies were stored without the judge's URL" in caplog.text


def test_the_progress_line_shows_done_total_rate_eta_and_cost():
    stream = io.StringIO()
    enable_progress(stream)
    try:
        with FakeJudge(lambda m, a: ("reply", "A"), usage=_usage) as server:
            _client(server.base_url, price=dict(input=1000, output=1000)).complete_many([_msgs(str(i)) for i in range(5)])
    finally:
        disable_progress()
    lines = stream.getvalue().splitlines()
    assert 1 <= len(lines) <= 5  # throttled, and always the final one
    assert lines[-1].startswith("judge judge-model: 5/5 | ")
    assert "calls/s" in lines[-1] and "ETA 0 s" in lines[-1]
    assert lines[-1].endswith(f"cost {5 * (101 + 1) * 1000 / 1e6:.4f}")


def test_no_progress_line_unless_asked_for(capsys):
    with FakeJudge(lambda m, a: ("reply", "A")) as server:
        _client(server.base_url).complete_many([_msgs("a")])
    assert "judge judge-model" not in capsys.readouterr().err

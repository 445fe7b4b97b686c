"""ChatClient against a scripted local server: timeouts, retries, cache, concurrency."""

from __future__ import annotations

import json

import pytest

from assay.judge import ChatClient, JudgeCache, OpenAISDK, chat_url, endpoint_id, request_key
from tests.judge.fake_server import FakeJudge, free_port


def _msgs(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


def faulty(messages, attempt):
    p = messages[-1]["content"]
    if p == "slow" and attempt == 1:
        return ("hang",)
    if p == "429" and attempt <= 2:
        return ("status", 429)
    if p == "500" and attempt == 1:
        return ("status", 500)
    if p == "malformed" and attempt == 1:
        return ("malformed", "{not json")
    if p == "down":
        return ("status", 503)
    return ("reply", f"verdict for {p}")


PROMPTS = ["ok", "slow", "429", "500", "malformed", "down"]


def _client(url: str, cache=None, **kw) -> ChatClient:
    opts = dict(timeout=0.5, max_attempts=3, backoff=0.01, max_backoff=0.05, max_concurrency=4, cache=cache)
    opts.update(kw)
    return ChatClient(url, "judge-model", **opts)


#: A timeout that only a request the server holds on purpose (``("hang",)``) reaches, however loaded the
#: machine: the tests that count attempts exactly must not see an answered request time out.
WIDE = 5.0


def test_faults_are_retried_and_counted_exactly(tmp_path):
    with FakeJudge(faulty) as server:
        replies = _client(server.base_url, timeout=WIDE).complete_many([_msgs(p) for p in PROMPTS])
        assert server.requests == 1 + 2 + 3 + 2 + 2 + 3
    by = dict(zip(PROMPTS, replies))
    for p in ["ok", "slow", "429", "500", "malformed"]:
        assert by[p].text == f"verdict for {p}"
    assert [by[p].attempts for p in PROMPTS] == [1, 2, 3, 2, 2, 3]
    assert by["down"].text is None
    assert "HTTP 503" in by["down"].error and "3 attempts" in by["down"].error


def test_timeout_is_reported_when_every_attempt_is_slow():
    with FakeJudge(lambda m, a: ("slow", 1.5, "A")) as server:
        reply = _client(server.base_url, max_attempts=2).complete(_msgs("x"))
        assert server.requests == 2
    assert reply.text is None and reply.error.startswith("timeout")


def test_connection_refused_is_a_failure_not_an_exception():
    reply = _client(f"http://127.0.0.1:{free_port()}/v1", max_attempts=2).complete(_msgs("x"))
    assert reply.text is None
    assert reply.error.startswith("connection error") and reply.attempts == 2


def test_client_errors_other_than_429_are_not_retried():
    with FakeJudge(lambda m, a: ("status", 400)) as server:
        reply = _client(server.base_url).complete(_msgs("x"))
        assert server.requests == 1
    assert reply.error.startswith("HTTP 400")


def test_a_reply_without_text_is_a_failure_asked_again_not_an_empty_verdict(tmp_path):
    """``"content": null`` (a refusal, a tool call, a reasoning model cut at its length limit) is no verdict:
    the request fails, naming why, is not retried and is not kept in the cache, so the next run asks again."""
    null = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": None},
                                    "finish_reason": "length"}]})
    db = tmp_path / "judge.sqlite"
    with FakeJudge(lambda m, a: ("malformed", null)) as server:
        reply = _client(server.base_url, cache=db).complete(_msgs("x"))
        assert server.requests == 1
        assert reply.text is None and "without text content" in reply.error and "'length'" in reply.error
        _client(server.base_url, cache=db).complete(_msgs("x"))
        assert server.requests == 2


def test_parameters_json_cannot_carry_are_a_config_error_naming_them():
    from assay.errors import ConfigError

    with FakeJudge(lambda m, a: ("reply", "A")) as server:
        client = ChatClient(server.base_url, model="judge", params={"temperature": float("nan")})
        with pytest.raises(ConfigError, match=r"judge 'judge': request parameters \{'temperature': nan\}"):
            client.complete(_msgs("x"))
        assert server.requests == 0


def test_rerun_is_served_from_the_cache_and_failures_are_asked_again(tmp_path):
    db = tmp_path / "cache" / "judge.sqlite"
    with FakeJudge(faulty) as server:
        _client(server.base_url, cache=db, timeout=WIDE).complete_many([_msgs(p) for p in PROMPTS])
        first = server.requests
        again = _client(server.base_url, cache=db, timeout=WIDE).complete_many([_msgs(p) for p in PROMPTS])
        # only the prompt that never got a reply is sent again (3 attempts)
        assert server.requests - first == 3
    assert [r.cached for r in again] == [True] * 5 + [False]
    assert again[0].text == "verdict for ok"


def test_cache_key_covers_model_messages_and_parameters_but_not_the_key(tmp_path):
    db = tmp_path / "judge.sqlite"
    with FakeJudge(lambda m, a: ("reply", "A")) as server:
        _client(server.base_url, cache=db, api_key="k1", params={"temperature": 0}).complete(_msgs("q"))
        _client(server.base_url, cache=db, api_key="k2", params={"temperature": 0}).complete(_msgs("q"))
        assert server.requests == 1
        _client(server.base_url, cache=db, params={"temperature": 0.5}).complete(_msgs("q"))
        assert server.requests == 2
        ChatClient(server.base_url, "other-model", cache=db, params={"temperature": 0}).complete(_msgs("q"))
        assert server.requests == 3
    assert len(JudgeCache(db)) == 3
    url = "http://127.0.0.1:8000/v1/chat/completions"
    assert request_key("m", _msgs("q"), {}, endpoint=url) != request_key("m", _msgs("q "), {}, endpoint=url)


def test_judges_of_one_model_name_on_two_servers_never_share_a_reply(tmp_path):
    db = tmp_path / "judge.sqlite"
    with FakeJudge(lambda m, a: ("reply", "A")) as one, FakeJudge(lambda m, a: ("reply", "B")) as two:
        assert _client(one.base_url, cache=db).complete(_msgs("q")).text == "A"
        reply = _client(two.base_url, cache=db).complete(_msgs("q"))
        assert (reply.text, reply.cached, two.requests) == ("B", False, 1)
        # the same server however its URL is spelled, with or without credentials: the reply is reused
        spelled = one.base_url.replace("http://127.0.0.1", "HTTP://user:sk-secret-1@127.0.0.1") + "/"
        again = _client(spelled, cache=db).complete(_msgs("q"))
        assert (again.text, again.cached, one.requests) == ("A", True, 1)
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("judge.sqlite*"))  # the database and its write-ahead log
    assert b"sk-secret-1" not in stored and b"user:" not in stored
    assert endpoint_id("https://u:pw@H.example:443/v1/chat/completions?key=k-1&api-version=2") == \
        "https://h.example/v1/chat/completions?api-version=2"


def test_api_key_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("MY_JUDGE_KEY", "sk-secret")
    with FakeJudge(lambda m, a: ("reply", "A")) as server:
        client = _client(server.base_url, api_key_env="MY_JUDGE_KEY")
        client.complete(_msgs("q"))
        assert server.headers[0]["Authorization"] == "Bearer sk-secret"
    assert "sk-secret" not in repr(client)


def test_openai_sdk_config_maps_opencompass_options(monkeypatch, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    with FakeJudge(lambda m, a: ("reply", "B")) as server:
        judge = OpenAISDK(path="gpt-judge", key="ENV", openai_api_base=[server.base_url + "/"], retry=2,
                          timeout=2, temperature=0.0, max_out_len=64, query_per_second=100, max_workers=2,
                          meta_template=None, tokenizer_path="x", cache_path=tmp_path / "c.sqlite")
        assert judge.generate(["hello"]) == ["B"]
        body = server.bodies[0]
        assert body["model"] == "gpt-judge" and body["max_tokens"] == 64 and body["temperature"] == 0.0
        assert server.headers[0]["Authorization"] == "Bearer sk-env"


def test_concurrency_is_bounded():
    import threading
    import time

    active = 0
    peak = 0
    lock = threading.Lock()

    def script(m, a):
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
        time.sleep(0.05)
        with lock:
            active -= 1
        return ("reply", "A")

    with FakeJudge(script) as server:
        _client(server.base_url, max_concurrency=2, timeout=5).complete_many([_msgs(str(i)) for i in range(10)])
    assert 1 <= peak <= 2


@pytest.mark.parametrize("base", ["http://h/v1", "http://h/v1/", "http://h/v1/chat/completions"])
def test_chat_url(base):
    assert chat_url(base) == "http://h/v1/chat/completions"


def test_a_server_that_trickles_bytes_is_cut_at_the_whole_request_deadline():
    # one byte every 0.05 s: each read is well within the 0.5 s read timeout, the whole reply is not;
    # the response had begun, so the request is not sent again unless asked
    with FakeJudge(lambda m, a: ("trickle", 0.05, "A")) as server:
        reply = _client(server.base_url, max_attempts=2, deadline=1.0).complete(_msgs("x"))
        assert server.requests == 1
    assert reply.text is None and reply.attempts == 1
    assert "1 s deadline" in reply.error and "not sent again" in reply.error
    with FakeJudge(lambda m, a: ("trickle", 0.05, "A")) as server:
        reply = _client(server.base_url, max_attempts=2, deadline=1.0, retry_interrupted=True).complete(_msgs("x"))
        assert server.requests == 2
    assert reply.text is None
    assert "1 s deadline" in reply.error and "2 attempts" in reply.error


def test_the_deadline_is_per_attempt_and_a_retry_can_succeed():
    def script(messages, attempt):
        return ("trickle", 0.05, "A") if attempt == 1 else ("reply", "B")

    with FakeJudge(script) as server:
        reply = _client(server.base_url, deadline=1.0, retry_interrupted=True).complete(_msgs("x"))
        assert server.requests == 2
    assert reply.text == "B" and reply.attempts == 2


def test_openai_sdk_takes_a_deadline_and_rejects_a_bad_one():
    assert OpenAISDK(path="j", key="k", openai_api_base="http://h/v1", timeout=30, deadline=90).deadline == 90
    assert OpenAISDK(path="j", key="k", openai_api_base="http://h/v1", timeout=30).deadline == 30
    with pytest.raises(ValueError, match="deadline"):
        ChatClient("http://h/v1", "j", deadline=0)


def test_the_api_key_never_appears_in_errors_or_logs(caplog):
    import logging

    secret = "sk-live-0123456789abcdef"
    caplog.set_level(logging.DEBUG)  # every request logged
    with FakeJudge(lambda m, a: ("echo_auth", 401)) as server:
        reply = _client(server.base_url, api_key=secret, max_attempts=2).complete(_msgs("x"))
        assert server.headers[0]["Authorization"] == f"Bearer {secret}"
    assert reply.text is None and "HTTP 401" in reply.error
    assert "invalid credentials: Bearer ***" in reply.error
    assert secret not in reply.error
    assert "HTTP Request: POST" in caplog.text  # the request log was captured
    assert secret not in caplog.text


def test_a_reply_quoting_the_key_is_redacted():
    secret = "sk-live-0123456789abcdef"
    with FakeJudge(lambda m, a: ("reply", f"A (your key is {secret})")) as server:
        reply = _client(server.base_url, api_key=secret).complete(_msgs("x"))
    assert reply.text == "A (your key is ***)"

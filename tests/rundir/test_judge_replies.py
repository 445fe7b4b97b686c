"""The judge-reply files: OpenCompass's name beside the result and its record layout."""

from __future__ import annotations

import json

from datasets import Dataset

from assay.evaluators.llm_judge import GenericLLMEvaluator
from assay.rundir.judge_replies import judge_replies_path, read_judge_replies, side_replies_path
from tests.judge.fake_server import FakeJudge

TEMPLATE = dict(type="PromptTemplate", template=dict(round=[dict(role="HUMAN", prompt="{question} -> {prediction}")]))
META = dict(round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)])


def test_judge_replies_are_written_as_opencompass_writes_them(tmp_path):
    def script(messages, attempt):
        return ("status", 400) if "broken" in messages[-1]["content"] else ("reply", "B")

    out = tmp_path / "run" / "results" / "m" / "toy"
    ds = Dataset.from_dict({"question": ["1+1", "2+2"], "answer": ["2", "4"]})
    with FakeJudge(script) as server:
        ev = GenericLLMEvaluator(
            prompt_template=TEMPLATE, dataset_cfg=dict(abbr="toy"), cache_path=False,
            judge_cfg=dict(type="OpenAISDK", path="j", key="k", openai_api_base=server.base_url, retry=1, meta_template=META))
        ev._out_dir = str(out)
        res = ev.score(["3", "broken"], ["2", "4"], ds)
    path = judge_replies_path(out, 0)
    assert path == tmp_path / "run" / "results" / "m" / "toy_replica0.json"
    records = read_judge_replies(path)
    assert records["0"] == {"origin_prompt": [{"role": "HUMAN", "prompt": "1+1 -> 3"}], "prediction": "B", "gold": "2"}
    # a reply that never arrived: assay's addition, OpenCompass would have stopped
    assert records["1"]["prediction"] is None and records["1"]["gold"] == "4" and "HTTP 400" in records["1"]["judge_error"]
    assert path.read_text(encoding="utf-8") == json.dumps(records, indent=4, ensure_ascii=False)
    assert res["incorrect_count"] == 1 and res["judge_failed_count"] == 1


def test_the_file_keeps_the_reply_as_it_came_and_the_grade_reads_it_postprocessed(tmp_path):
    """judge_cfg's pred_postprocessor changes what the dict_postprocessor reads, not the file
    (OpenCompass writes its inferencer's output, then postprocesses what it loads)."""

    def after_think(text: str) -> str:
        return text.split("</think>")[-1].strip()

    out = tmp_path / "run" / "results" / "m" / "toy"
    ds = Dataset.from_dict({"question": ["1+1"], "answer": ["2"]})
    with FakeJudge(lambda m, a: ("reply", "<think>Is it B?</think> A")) as server:
        ev = GenericLLMEvaluator(
            prompt_template=TEMPLATE, dataset_cfg=dict(abbr="toy"), cache_path=False,
            judge_cfg=dict(type="OpenAISDK", path="j", key="k", openai_api_base=server.base_url, retry=1, meta_template=META,
                           pred_postprocessor=dict(type=after_think)))
        ev._out_dir = str(out)
        res = ev.score(["2"], ["2"], ds)
    assert read_judge_replies(judge_replies_path(out))["0"]["prediction"] == "<think>Is it B?</think> A"
    assert res["correct_count"] == 1 and res["details"][0]["judge_response"] == "A"


def _evaluate(out, answers, script, *, cache=False):
    ds = Dataset.from_dict({"question": ["1+1", "2+2", "3+3"][: len(answers)], "answer": ["2", "4", "6"][: len(answers)]})
    with FakeJudge(script) as server:
        ev = GenericLLMEvaluator(
            prompt_template=TEMPLATE, dataset_cfg=dict(abbr="toy"), cache_path=cache,
            judge_cfg=dict(type="OpenAISDK", path="j", key="k", openai_api_base=server.base_url, retry=1, meta_template=META))
        ev._out_dir = str(out)
        return ev.score(answers, ["2", "4", "6"][: len(answers)], ds)


def _fails_on(*answers):
    def script(messages, attempt):
        text = messages[-1]["content"]
        return ("status", 503) if any(text.endswith(f"-> {a}") for a in answers) else ("reply", "A")
    return script


#: A judge-reply file as OpenCompass 0.5.4 writes it for TEMPLATE and META (its inferencer's output,
#: indented by 4): its judge answered every prompt.
OPENCOMPASS_FILE = json.dumps({
    "0": {"origin_prompt": [{"role": "HUMAN", "prompt": "1+1 -> 2"}], "prediction": "A", "gold": "2"},
    "1": {"origin_prompt": [{"role": "HUMAN", "prompt": "2+2 -> 5"}], "prediction": "B", "gold": "4"},
    "2": {"origin_prompt": [{"role": "HUMAN", "prompt": "3+3 -> 6"}], "prediction": "A", "gold": "6"},
}, indent=4, ensure_ascii=False)


def test_an_opencompass_reply_file_is_kept_when_a_request_it_answered_fails(tmp_path):
    """Re-scoring an OpenCompass work directory in place (R-12.1): OpenCompass's file holds a reply to
    every prompt; assay's request for one of them fails.  The file stays as OpenCompass wrote it,
    assay's replies go beside it and the result's incomplete entry says where."""
    out = tmp_path / "work" / "results" / "m" / "toy"
    out.parent.mkdir(parents=True)
    theirs = judge_replies_path(out)
    theirs.write_text(OPENCOMPASS_FILE, encoding="utf-8")
    res = _evaluate(out, ["2", "5", "6"], _fails_on("5"))
    assert theirs.read_text(encoding="utf-8") == OPENCOMPASS_FILE
    ours = read_judge_replies(tmp_path / "work" / "results" / "m" / "toy_replica0.assay.json")
    assert [r["prediction"] for r in ours.values()] == ["A", None, "A"] and "HTTP 503" in ours["1"]["judge_error"]
    (entry,) = res["_incomplete"]
    assert entry["kind"] == "unjudged" and entry["count"] == 1
    assert "toy_replica0.json holds replies to some of them and was kept" in entry["detail"]
    assert "toy_replica0.assay.json" in entry["detail"]

    # asked again, the judge answers: assay's replies take the file's place, the side file goes
    res = _evaluate(out, ["2", "5", "6"], _fails_on())
    assert "_incomplete" not in res
    assert [r["prediction"] for r in read_judge_replies(theirs).values()] == ["A", "A", "A"]
    assert not side_replies_path(theirs).exists()


def test_a_rerun_rewrites_its_file_in_place_unless_it_would_lose_a_reply(tmp_path):
    """A normal rerun in assay's own run directory: failing again where the last run failed, the file is
    rewritten in place; with the judge cache gone and the judge failing on a prompt the file holds a
    reply to, the file stays and this run's replies go beside it."""
    out = tmp_path / "run" / "results" / "m" / "toy"
    cache = tmp_path / "run" / "cache" / "judge.sqlite"
    _evaluate(out, ["2", "5", "6"], _fails_on("5"), cache=cache)
    res = _evaluate(out, ["2", "5", "6"], _fails_on("5"), cache=cache)
    path = judge_replies_path(out)
    assert [r["prediction"] for r in read_judge_replies(path).values()] == ["A", None, "A"]
    assert not side_replies_path(path).exists() and "kept" not in res["_incomplete"][0]["detail"]

    before = path.read_bytes()
    res = _evaluate(out, ["2", "5", "6"], _fails_on("2", "6"), cache=False)
    assert path.read_bytes() == before
    ours = read_judge_replies(side_replies_path(path))
    assert [r["prediction"] for r in ours.values()] == [None, "A", None]
    assert "this run's replies are in toy_replica0.assay.json" in res["_incomplete"][0]["detail"]


def test_an_unreadable_file_at_the_name_is_left_alone(tmp_path):
    out = tmp_path / "work" / "results" / "m" / "toy"
    out.parent.mkdir(parents=True)
    judge_replies_path(out).write_text("not json", encoding="utf-8")
    _evaluate(out, ["2"], _fails_on())
    assert judge_replies_path(out).read_text(encoding="utf-8") == "not json"
    assert read_judge_replies(side_replies_path(judge_replies_path(out)))["0"]["prediction"] == "A"

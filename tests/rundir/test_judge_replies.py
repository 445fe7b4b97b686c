"""The judge-reply files: OpenCompass's name beside the result and its record layout."""

from __future__ import annotations

import json

from datasets import Dataset

from assay.evaluators.llm_judge import GenericLLMEvaluator
from assay.rundir.judge_replies import judge_replies_path, read_judge_replies
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

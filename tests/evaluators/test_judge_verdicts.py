"""Judge replies read as OpenCompass 0.5.4 reads them, checked against its recorded outputs.

The recording is made by ``scripts/record_oc_judge_verdicts.py`` with OpenCompass
installed: per reply the grade ``generic_llmjudge_postprocess`` reads and whether
``CascadeEvaluator`` takes it as correct; per batch of replies the metrics of the
postprocessors and of ``CascadeEvaluator.score``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from datasets import Dataset

from assay.evaluators.cascade import AssayCascadeEvaluator, CascadeEvaluator
from assay.evaluators.llm_judge import GenericLLMEvaluator
from assay.judge import (
    assay_llmjudge_postprocess,
    cascade_judge_correct,
    generic_llmjudge_academic_postprocess,
    generic_llmjudge_postprocess,
    opencompass_grade,
)
from assay.registry import DICT_POSTPROCESSORS, ICL_EVALUATORS
from tests.judge.fake_server import FakeJudge

RECORDED = json.loads((Path(__file__).parent.parent / "data" / "evaluators" / "opencompass_judge_verdicts.json").read_text("utf-8"))
REPLIES = RECORDED["replies"]
CASES = RECORDED["cases"]
ASSAY_ONLY = ("details", "judge_failed_count")


def _output(replies, golds):
    return {str(i): {"prediction": r, "gold": g} for i, (r, g) in enumerate(zip(replies, golds))}


def _metrics(result):
    return {k: v for k, v in result.items() if k not in ASSAY_ONLY}


def _same(ours, theirs):
    """Equal keys and values, floats to the last bit."""
    assert set(ours) == set(theirs)
    for key, value in theirs.items():
        assert ours[key] == value and type(ours[key]) in (type(value), float, int), key


@pytest.mark.parametrize("case", REPLIES, ids=[repr(c["reply"]) for c in REPLIES])
def test_each_reply_reads_as_opencompass_reads_it(case):
    grade = None if case["grade"] == "unknown" else case["grade"]
    assert opencompass_grade(case["reply"]) == grade
    assert cascade_judge_correct(case["reply"]) is case["cascade_correct"]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_postprocessor_metrics_equal_opencompass(index):
    case = CASES[index]
    for tags, expected in case["generic"].items():
        true_tag, false_tag = tags.split("|")
        res = generic_llmjudge_postprocess(_output(case["replies"], case["golds"]), "unused.json",
                                           true_tag=true_tag, false_tag=false_tag)
        _same(_metrics(res), expected)
        assert sum(d["correct"] for d in res["details"]) == expected["correct_count"]
    for metric_name, expected in case["academic"].items():
        res = generic_llmjudge_academic_postprocess(_output(case["replies"], case["golds"]), "unused.json",
                                                    metric_name=metric_name)
        _same(_metrics(res), expected)


def test_a_reply_starting_based_on_is_incorrect_under_opencompass_names_and_correct_under_assays():
    output = _output(["Based on the reference, the answer is A", "**A**", "I cannot tell."], ["1", "2", "3"])
    oc = generic_llmjudge_postprocess(output)
    assert [d["verdict"] for d in oc["details"]] == ["B", "A", None]
    assert (oc["correct_count"], oc["incorrect_count"], oc["not_attempted_count"], oc["judge_failed_count"]) == (1, 1, 1, 0)
    ours = assay_llmjudge_postprocess(output)
    assert [d["verdict"] for d in ours["details"]] == ["A", "A", None]
    assert (ours["correct_count"], ours["judge_failed_count"]) == (2, 1)
    assert "unparseable" in ours["details"][2]["judge_failed"]


def test_registries_hold_both_readings():
    assert DICT_POSTPROCESSORS.get("generic_llmjudge_postprocess") is generic_llmjudge_postprocess
    assert DICT_POSTPROCESSORS.get("generic_llmjudge_academic_postprocess") is generic_llmjudge_academic_postprocess
    assert DICT_POSTPROCESSORS.get("assay_llmjudge_postprocess") is assay_llmjudge_postprocess
    assert ICL_EVALUATORS.get("AssayCascadeEvaluator") is AssayCascadeEvaluator


# -- the evaluators, against a local judge that gives sample i the recorded reply i ---------------

TEMPLATE = dict(type="RawPromptTemplate", messages=[dict(role="user", content="sample {q}: {prediction} vs {obj_gold}")])


def _replying(replies):
    def script(messages, attempt):
        i = int(re.match(r"sample q(\d+):", messages[-1]["content"]).group(1))
        return ("reply", replies[i])

    return script


def _judge_cfg(url):
    return dict(type="OpenAISDK", path="judge", key="k", openai_api_base=url, retry=2, timeout=5, backoff=0.01,
                max_workers=4)


def _dataset(case):
    return Dataset.from_dict({"q": [f"q{i}" for i in range(len(case["replies"]))], "answer": case["golds"]})


@pytest.mark.parametrize("index", [0, 9])
def test_generic_llm_evaluator_metrics_equal_opencompass(tmp_path, index):
    case = CASES[index]
    with FakeJudge(_replying(case["replies"])) as server:
        ev = GenericLLMEvaluator(prompt_template=TEMPLATE, judge_cfg=_judge_cfg(server.base_url), cache_path=False)
        res = ev.score(["p"] * len(case["golds"]), case["golds"], _dataset(case))
    _same({k: v for k, v in res.items() if k not in (*ASSAY_ONLY, "judge_stats", "_judge")}, case["generic"]["A|B"])
    assert res["judge_failed_count"] == 0 and "_incomplete" not in res
    assert [d["judge_response"] for d in res["details"]] == case["replies"]


@pytest.mark.parametrize("index", [0, 7, 9])
@pytest.mark.parametrize("mode", ["sequential", "parallel"])
def test_cascade_evaluator_equals_opencompass(tmp_path, index, mode):
    case = CASES[index]
    expected = case["cascade"][mode]
    with FakeJudge(_replying(case["replies"])) as server:
        ev = CascadeEvaluator(
            rule_evaluator=dict(type="AccEvaluator"),
            llm_evaluator=dict(type="GenericLLMEvaluator", prompt_template=TEMPLATE, judge_cfg=_judge_cfg(server.base_url),
                               cache_path=False),
            parallel=mode == "parallel",
        )
        res = ev.score(case["predictions"], case["golds"], _dataset(case))
    stats = dict(res["cascade_stats"])
    assert stats.pop("llm_failed") == 0
    _same(stats, expected["cascade_stats"])
    assert res["accuracy"] == expected["accuracy"]
    assert [d["cascade_correct"] for d in res["details"]] == expected["cascade_correct"]
    assert [d["llm_evaluation"] and d["llm_evaluation"]["llm_correct"] for d in res["details"]] == expected["llm_correct"]


def test_assay_cascade_takes_the_dict_postprocessors_verdict(tmp_path):
    replies = ["**A**", "The answer is A", "A", "no idea"]
    case = {"replies": replies, "golds": ["1", "2", "3", "4"]}
    with FakeJudge(_replying(replies)) as server:
        llm = dict(type="GenericLLMEvaluator", prompt_template=TEMPLATE, judge_cfg=_judge_cfg(server.base_url),
                   cache_path=False, dict_postprocessor=dict(type="assay_llmjudge_postprocess"))
        oc = CascadeEvaluator(rule_evaluator=dict(type="AccEvaluator"), llm_evaluator=dict(llm), parallel=False)
        ours = AssayCascadeEvaluator(rule_evaluator=dict(type="AccEvaluator"), llm_evaluator=dict(llm), parallel=False)
        preds = ["x"] * 4
        oc_res = oc.score(preds, case["golds"], _dataset(case))
        our_res = ours.score(preds, case["golds"], _dataset(case))
    # OpenCompass's check of the raw reply: only the bare "A"
    assert oc_res["cascade_stats"]["llm_correct"] == 1 and oc_res["accuracy"] == 25.0
    assert our_res["cascade_stats"]["llm_correct"] == 3 and our_res["cascade_stats"]["llm_failed"] == 1
    assert our_res["accuracy"] == 75.0

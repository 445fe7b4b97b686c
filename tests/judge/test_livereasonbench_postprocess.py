"""LiveReasonBench's judge postprocessor, checked against OpenCompass 0.5.4's recorded grades and metrics.

The recording is made by ``scripts/record_oc_longtail2.py`` with OpenCompass
installed: per judge reply the grade letter ``livereasonbench_postprocess``
reads, per batch of replies its metrics.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.judge import livereasonbench_grade, livereasonbench_postprocess
from assay.registry import DICT_POSTPROCESSORS
from tests.judge.fake_server import FakeJudge

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "longtail2"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))
CASES = RECORDED["postprocess"]


def _output(replies: list[Any], golds: list[str]) -> dict[str, Any]:
    return {str(i): {"prediction": r, "gold": g} for i, (r, g) in enumerate(zip(replies, golds))}


@pytest.mark.parametrize("case", RECORDED["grades"], ids=[repr(c["reply"]) for c in RECORDED["grades"]])
def test_each_reply_grades_as_opencompass_grades_it(case: dict[str, str]) -> None:
    assert livereasonbench_grade(case["reply"]) == case["grade"]


@pytest.mark.parametrize("index", range(len(CASES)))
def test_metrics_equal_opencompass_to_the_last_bit(index: int) -> None:
    case = CASES[index]
    res = livereasonbench_postprocess(_output(case["replies"], case["golds"]), "unused.json")
    assert {k: v for k, v in res.items() if k not in ("details", "judge_failed_count")} == case["metrics"]
    assert [type(res[k]) for k in case["metrics"]] == [type(v) for v in case["metrics"].values()]
    assert [d["verdict"] for d in res["details"]] == [livereasonbench_grade(r) for r in case["replies"]]
    assert res["judge_failed_count"] == 0


def test_correct_and_incorrect_spelled_out_are_not_attempted_as_in_opencompass() -> None:
    res = livereasonbench_postprocess(_output(["CORRECT", "INCORRECT", "A"], ["1", "2", "3"]))
    assert [d["verdict"] for d in res["details"]] == ["C", "C", "A"]
    assert [d["correct"] for d in res["details"]] == [False, False, True]
    assert res["accuracy_given_attempted"] == 100.0


def test_a_reply_that_never_came_is_counted_and_not_attempted() -> None:
    output = _output([None, "B"], ["1", "2"])
    output["0"]["judge_error"] = "HTTP 500"
    res = livereasonbench_postprocess(output)
    assert res["judge_failed_count"] == 1
    assert res["details"][0]["correct"] is None and "HTTP 500" in res["details"][0]["judge_failed"]
    assert (res["accuracy_given_attempted"], res["f1"]) == (0.0, 0)


def test_no_sample_gives_zero_metrics() -> None:
    assert {k: v for k, v in livereasonbench_postprocess({}).items() if k != "details"} == {
        "accuracy_given_attempted": 0, "f1": 0, "judge_failed_count": 0}


def test_registered_under_opencompass_s_name() -> None:
    assert DICT_POSTPROCESSORS.get("livereasonbench_postprocess") is livereasonbench_postprocess


def test_library_config_judged_by_a_local_judge_equals_opencompass(oc_library: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The library config, unchanged but for its judge: its loader's rows, its prompt sent to a real local
    server that answers question i with recorded reply i, and its postprocessor's metrics equal OpenCompass's."""
    from assay import load_config

    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      "    from opencompass.configs.datasets.livereasonbench.livereasonbench_genericllmeval_gen_f990de "
                      "import livereasonbench_datasets\n", encoding="utf-8")
    (ds,) = load_config(config).variables["livereasonbench_datasets"]
    test_set = ds["type"].load(**{k: v for k, v in ds.items() if k in ("path", "version")})["test"]
    (case,) = [c for c in CASES if len(c["replies"]) == len(test_set)]
    asked: list[str] = []

    def script(messages: list[dict[str, Any]], attempt: int) -> tuple[str, str]:
        prompt = messages[-1]["content"]
        asked.append(prompt)
        i = int(re.search(r"Question: livereasonbench-20241202 question (\d+)\?", prompt).group(1))
        return ("reply", case["replies"][i])

    cfg = dict(ds["eval_cfg"]["evaluator"])
    evaluator = cfg.pop("type")
    with FakeJudge(script) as server:
        cfg["judge_cfg"] = dict(type="OpenAISDK", path="judge", key="k", openai_api_base=server.base_url, retry=2,
                                timeout=5, backoff=0.01, max_workers=4)
        res = evaluator(**cfg, cache_path=False).score([f"reply {i}" for i in range(len(test_set))], test_set["answer"], test_set)
    assert {k: res[k] for k in case["metrics"]} == case["metrics"]
    assert len(asked) == len(test_set)
    assert all(f"Gold target: {a}\nPredicted answer: reply {i}\n" in next(p for p in asked if f"question {i}?" in p)
               for i, a in enumerate(test_set["answer"]))

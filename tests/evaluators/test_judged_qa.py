"""Judge-scored families with readers of their own, against OpenCompass 0.5.4's recordings.

``scripts/record_oc_judge_b.py`` ran, with OpenCompass installed, each library
config (Chem exam, SimpleQA and SimpleQA Verified, Chinese SimpleQA, EESE,
Matbench's judged configs) on small files in OpenCompass's layouts under
``tests/data/oc_families/judge_b/cache``, its judge a local server answering
each sample with a canned reply of the family, and recorded the loader's rows,
the requests the judge got and the results.  Here the same library configs,
imported unchanged, load the same rows, and ``assay eval`` / ``assay run``
against a real local judge server giving the same replies sends the same
requests and computes OpenCompass's metrics, per-sample scores and judge-reply
files.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import InputFileError
from assay.registry import DICT_POSTPROCESSORS, LOAD_DATASET
from tests.evaluators._library import config_datasets, judged_family_env
from tests.judge.fake_server import FakeJudge, by_item, in_stable_order, use_as_oc_judge, write_judged_config

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "judge_b"
EXPECTED = ROOT / "expected"
RUN = "20250101_000000"
MODEL = "oc-model"
CASES = sorted(p.stem for p in EXPECTED.glob("*.json"))


def _record(case: str) -> dict[str, Any]:
    return json.loads((EXPECTED / f"{case}.json").read_text(encoding="utf-8"))


@pytest.fixture
def oc_env(oc_library: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    judged_family_env(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    return oc_library


@pytest.mark.parametrize("case", CASES)
def test_library_config_loads_opencompass_rows(case: str, oc_env: Path, tmp_path: Path) -> None:
    """The library config imported unchanged names assay's loader, which returns OpenCompass's rows."""
    record = _record(case)
    datasets = config_datasets(record["config"], tmp_path)
    assert sorted(d["abbr"] for d in datasets) == sorted(record["datasets"])
    for ds in datasets:
        loader = record["datasets"][ds["abbr"]]["loader"]
        args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg", "mode", "n", "k")}
        assert args == loader["args"]
        assert ds["type"].__module__.startswith("assay.datasets.")
        loaded = ds["type"].load(**args)
        test = loaded["test"] if isinstance(loaded, dict) and "test" in loaded else loaded
        assert json.loads(json.dumps([dict(r) for r in test], ensure_ascii=False)) == loader["rows"]


def _eval(record: dict[str, Any], tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[list[dict[str, Any]]]]:
    """Run the recorded config with ``command`` against two judge servers giving the recording's replies (the second one
    is the ``{JUDGE_BASE2}`` of the config, if it names one); the results folder and the requests each server got."""
    work = tmp_path / "work"
    shutil.copytree(ROOT / "predictions" / MODEL, work / RUN / "predictions" / MODEL)
    with FakeJudge(by_item(record["replies"])) as server, FakeJudge(by_item(record["replies"])) as second:
        use_as_oc_judge(server, monkeypatch)
        config = write_judged_config(tmp_path / "config.py", record["config"], server, second)
        with contextlib.suppress(SystemExit):  # the command line's exit
            main([command, str(config), "-w", str(work), "-r", RUN, "--workers", "1"])
        return work / RUN / "results", [list(server.bodies), list(second.bodies)]


def _numbers(metrics: dict[str, Any]) -> dict[str, float]:
    return {k: v for k, v in metrics.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


EVAL_CASES = [c for c in CASES if _record(c)["kind"] in ("eval", "served")]
SUBJECTIVE_CASES = [c for c in CASES if _record(c)["kind"] == "subjective"]


@pytest.mark.parametrize("case", EVAL_CASES)
def test_generic_judge_config_scores_as_opencompass(case: str, oc_env: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``assay eval`` on the library config: OpenCompass's requests, metrics, per-sample scores and judge-reply files."""
    record = _record(case)
    results, (bodies, second) = _eval(record, tmp_path, "eval", monkeypatch)
    sent = [in_stable_order(bodies), in_stable_order(second)]
    expected = record.get("requests_by_server") or [in_stable_order([b for e in record["datasets"].values() for b in e["requests"]]), []]
    audited = any("extraction_audit" in json.loads((results / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
                  for abbr in record["datasets"])
    if audited:  # assay's extraction audit judged the answers read the corrected way too: OpenCompass's requests among them
        for got, want in zip(sent, expected):
            rest = list(got)
            for body in want:
                assert body in rest
                rest.remove(body)
    else:  # each server gets its run of the samples (the served grader), the same bodies
        assert sent == expected
    for abbr, entry in record["datasets"].items():
        result = json.loads((results / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        if "exception" in entry:  # OpenCompass's evaluation stops: an error naming why
            assert "error" in result, (abbr, entry["exception"])
            continue
        assert "error" not in result, result
        expected = _numbers(entry["result"])
        assert expected and {k: result.get(k) for k in expected} == pytest.approx(expected, abs=1e-9), abbr
        # per sample: the judge's reply and, where the reader gives one, the sample's score
        assert len(result["details"]) == len(entry["details"])
        for got, want in zip(result["details"], entry["details"]):
            if "eval_model_response" in want:  # the served grader's own details
                assert (got["eval_model_response"], got["pred"]) == (want["eval_model_response"], want["pred"]), abbr
            elif "prediction" in want:
                assert got["judge_response"] == want["prediction"], abbr
            for key in ("score", "error", "correct", "pred", "ref", "origin_response"):
                if key in want:
                    numeric = all(isinstance(v, (int, float)) for v in want[key])
                    assert got[key] == (pytest.approx(want[key]) if numeric else want[key]), (abbr, key)
        for name, records in entry["files"].items():
            assert json.loads((results / MODEL / name).read_text(encoding="utf-8")) == records, name


@pytest.mark.parametrize("case", SUBJECTIVE_CASES)
def test_lmevaluator_config_judges_as_opencompass(case: str, oc_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``assay run`` on the library's LMEvaluator config (a subjective dataset in OpenCompass): the same requests and
    the same judged result files, the family's reader's metrics included."""
    record = _record(case)
    results, (bodies, _) = _eval(record, tmp_path, "run", monkeypatch)
    assert in_stable_order(bodies) == record["requests"]
    got = {p.relative_to(results).as_posix(): json.loads(p.read_text(encoding="utf-8"))
           for p in sorted(results.rglob("*.json")) if "_judged-by--" in p.parent.name}
    assert got == record["results"]


# -- the readers alone -------------------------------------------------------------------


def test_simpleqa_grades_take_the_first_letter_anywhere() -> None:
    """OpenCompass reads the first A, B or C of the reply, inside words too, and C without one."""
    fn = DICT_POSTPROCESSORS.get("simpleqa_postprocess")
    out = {str(i): {"prediction": r, "gold": "g"} for i, r in enumerate(["CORRECT", "Based on it", "no letter", "A"])}
    result = fn(out, "unused.json")
    assert result["accuracy"] == 25.0  # 'CORRECT' reads C (not attempted), 'Based' reads B
    assert result["accuracy_given_attempted"] == 50.0 and result["f1"] == pytest.approx(2 * 0.5 * 0.25 / 0.75)


def test_eese_reads_the_whole_reply_as_an_integer_first() -> None:
    fn = DICT_POSTPROCESSORS.get("eese_score_postprocess_dict")
    out = {str(i): {"prediction": r} for i, r in enumerate([" 7 ", "+3", "8.5 of 10", "correct"])}
    assert fn(out, "unused.json")["overall_score"] == pytest.approx((7 + 3 + 8 + 0) / 40 * 100)
    assert [v["score"] for v in out.values()] == [7, 3, 8, 0]


def test_numerical_reader_names_a_reference_that_is_not_a_number() -> None:
    fn = DICT_POSTPROCESSORS.get("numerical_llmjudge_postprocess")
    with pytest.raises(InputFileError, match=r"judge output '1' has the reference 'high', not a number"):
        fn({"0": {"prediction": "1", "gold": 1.0}, "1": {"prediction": "2", "gold": "high"}}, "unused.json")


def test_chem_exam_sample_without_an_answer_names_the_file_and_line(oc_env: Path, tmp_path: Path) -> None:
    file = tmp_path / "exam.jsonl"
    file.write_text(json.dumps({"id": 1, "question": "q", "has_img": False, "sub_question": [{"question": "a?", "qa_type": 1}]}) + "\n",
                    encoding="utf-8")
    with pytest.raises(InputFileError, match=r"ChemExamDataset: .*exam\.jsonl, line 1, sub_question 1 has no 'answer' field"):
        LOAD_DATASET.get("ChemExamDataset").load(path=str(file))


def test_csimpleqa_judge_prompt_is_opencompass_s() -> None:
    """The instructions kept beside the loader are the ones OpenCompass's rows carry (their digest is pinned)."""
    from assay.datasets.judged_qa import judged_qa_prompts

    text = judged_qa_prompts()["csimpleqa_judge_prompt_new"]
    assert text.count("{predicted_answer}") == 1 and text.startswith("请根据给定问题")
    rows = _record("chinese_simpleqa_gen")["datasets"]["chinese_simpleqa"]["loader"]["rows"]
    first = rows[0]
    assert first["prompt_template"] == text.format(question=first["question"], target=first["gold_ans"], predicted_answer="{prediction}")


def test_served_grader_keeps_the_others_when_a_request_fails(tmp_path: Path) -> None:
    """A grading request the server keeps refusing leaves its sample incorrect and unjudged, listed in
    ``_meta.incomplete`` (OpenCompass's evaluation stops there); the other samples are graded, each run of
    samples at its URL."""
    from assay.evaluate.base import INCOMPLETE_KEY
    from assay.evaluators.gaokao_math import GaoKaoMATHEvaluator

    def first(messages: list[dict[str, Any]], attempt: int) -> tuple[Any, ...]:
        return ("status", 500) if "item 1:" in messages[-1]["content"] else ("reply", "\\boxed{yes}")

    with FakeJudge(first) as one, FakeJudge(lambda m, a: ("reply", "\\boxed{no}")) as two:
        ev = GaoKaoMATHEvaluator(model_name="grader", url=[one.base_url, two.base_url], cache_path=False)
        prompts = [[{"role": "HUMAN", "prompt": f"item {i}: question {i}"}] for i in range(3)]
        result = ev.score(["a0", "a1", "a2"], ["a0", "a1", "a2"], prompts)
        # ceil(3 / 2) samples to the first URL, the refused one asked twice (OpenAISDK's two attempts); the third to the second
        assert [b["messages"][0]["content"].count("item 0:") for b in one.bodies].count(1) == 1
        assert (len(one.bodies), len(two.bodies)) == (3, 1) and "item 2:" in two.bodies[0]["messages"][0]["content"]
    assert [d["correct"] for d in result["details"]] == [True, False, False]
    assert result["accuracy"] == pytest.approx(100 / 3)
    assert "judge_failed" in result["details"][1] and result[INCOMPLETE_KEY][0]["kind"] == "unjudged"

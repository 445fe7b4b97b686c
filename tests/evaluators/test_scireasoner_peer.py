"""SciReasoner's PEER components against OpenCompass 0.5.4's recordings.

The loader, readers, rule evaluator, ``PEER_Evaluator`` and judge-reply reader are recorded
by ``scripts/record_oc_sci4a.py`` on the files under ``tests/data/oc_families/sci4a``; the
requests OpenCompass's judge receives for the library's cascade (``PEER_datasets`` of
``peer_gen`` and ``peer_rawprompt_gen``, imported unchanged), and its result files, by
``scripts/record_oc_judge_sci4a.py``: here ``assay eval`` of the same configs against a real
local judge server giving the same replies sends the same requests and computes OpenCompass's
metrics, per-sample verdicts and judge-reply files.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import ConfigError
from assay.registry import DICT_POSTPROCESSORS, ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS
from tests.judge.fake_server import FakeJudge, by_item, use_as_oc_judge

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci4a"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))
LOADS = RECORDED["PEER_Dataset"]
JUDGED = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "judge_sci4a"
RUN = "20250101_000000"
MODEL = "oc-model"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _metrics(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "details"}


@pytest.mark.parametrize("call", LOADS, ids=[json.dumps(c["args"]) for c in LOADS])
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    loaded = LOAD_DATASET.get("PEER_Dataset").load(**call["args"])
    assert {k: [dict(r) for r in loaded[k]] for k in loaded} == call["splits"]


@pytest.mark.parametrize("name", ["PEER_postprocess", "PEER_postprocess_default"])
def test_readers_equal_opencompass(name: str) -> None:
    reader = TEXT_POSTPROCESSORS.get(name)
    assert [[text, reader(text)] for text, _ in RECORDED[name]] == RECORDED[name]


def test_number_reader_equals_opencompass() -> None:
    reader = TEXT_POSTPROCESSORS.get("PEER_postprocess_float_compare")
    recorded = RECORDED["PEER_postprocess_float_compare"]
    assert [[text, n, reader(text, compare_number=n)] for text, n, _ in recorded] == recorded


@pytest.mark.parametrize("case", RECORDED["PEERRuleEvaluator"], ids=["solubility", "short"])
def test_rule_evaluator_equals_opencompass(case: dict[str, Any]) -> None:
    assert ICL_EVALUATORS.get("PEERRuleEvaluator")().score(case["predictions"], case["references"]) == case["result"]


@pytest.mark.parametrize("case", RECORDED["PEER_Evaluator"], ids=["mixed", "only-no", "only-yes"])
def test_stability_scores_equal_opencompass(case: dict[str, Any]) -> None:
    result = ICL_EVALUATORS.get("PEER_Evaluator")(task="stability").score(case["predictions"], case["references"])
    assert _metrics(result) == case["result"]
    assert [d["correct"] for d in result["details"]].count(True) == case["result"]["num_correct"]


def test_a_gpt_recheck_is_refused_naming_the_option() -> None:
    with pytest.raises(ConfigError, match=r"PEER_Evaluator\(task='solubility'\): use_gpt=True .* placeholder address 'url'"):
        ICL_EVALUATORS.get("PEER_Evaluator")(task="solubility")


@pytest.mark.parametrize("case", RECORDED["peer_llm_judge_postprocess"], ids=["replies"])
def test_judge_reply_reader_equals_opencompass(case: dict[str, Any]) -> None:
    assert DICT_POSTPROCESSORS.get("peer_llm_judge_postprocess")(json.loads(json.dumps(case["output"])), "") == case["result"]


@pytest.mark.parametrize("module", ["peer_gen", "peer_rawprompt_gen"])
def test_library_stability_task_scores_as_opencompass(module: str, oc_library: Path, cache: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.SciReasoner.{module} import PEER_datasets, mini_PEER_datasets\n",
                      encoding="utf-8")
    variables = load_config(config).variables
    datasets = variables["PEER_datasets"] + variables["mini_PEER_datasets"]
    assert len(datasets) == 8
    stability = [d for d in datasets if d["task"] == "stability"]
    recorded = {json.dumps(c["args"], sort_keys=True): c["splits"] for c in LOADS}
    for ds in stability:
        eval_cfg = ds["eval_cfg"]
        reader = eval_cfg["pred_postprocessor"]
        assert reader["type"] is TEXT_POSTPROCESSORS.get("PEER_postprocess_float_compare")
        args = {k: v for k, v in ds.items() if k not in ("abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg")}
        if args.get("mini_set"):
            loaded = ds["type"].load(**args)
            assert {k: [dict(r) for r in loaded[k]] for k in loaded} == recorded[json.dumps(args, sort_keys=True)]
        evaluator = eval_cfg["evaluator"]
        for case, replies in zip(RECORDED["PEER_Evaluator"], ([
                "The stability is 1.6", "0.2", "about 3", "no idea", "<think>5</think>-1", "1.0"], ["0.5", "0.1"], ["2.0", "3"])):
            preds = [reader["type"](t, compare_number=reader["compare_number"]) for t in replies]
            result = evaluator["type"](**{k: v for k, v in evaluator.items() if k != "type"}).score(preds, case["references"])
            assert _metrics(result) == case["result"]


def _unique(bodies: list[dict[str, Any]]) -> list[str]:
    return sorted({json.dumps(b, sort_keys=True, ensure_ascii=False) for b in bodies})


@pytest.mark.parametrize("case", ["peer_gen", "peer_rawprompt_gen"])
def test_library_cascade_judges_as_opencompass(case: str, oc_library: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``assay eval`` on the library's PEER datasets: OpenCompass's rows, judge requests, metrics, verdicts and judge files.

    OpenCompass's cascade counts a judged sample correct only for a reply ``A`` or one starting with
    ``CORRECT``: of PEER's judge, answering ``True``/``False``, only the canned ``A`` and ``CORRECT, …`` count.
    """
    from assay import load_config
    from assay.cli import main

    record = json.loads((JUDGED / "expected" / f"{case}.json").read_text(encoding="utf-8"))
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(DATA / "cache"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    library = tmp_path / "library.py"
    library.write_text(record["config"], encoding="utf-8")
    for ds in load_config(library).variables["datasets"]:
        loader = record["datasets"][ds["abbr"]]["loader"]
        args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg")}
        assert args == loader["args"]
        assert json.loads(json.dumps([dict(r) for r in ds["type"].load(**args)["test"]])) == loader["rows"]
    work = tmp_path / "work"
    shutil.copytree(JUDGED / "predictions" / MODEL, work / RUN / "predictions" / MODEL)
    with FakeJudge(by_item(record["replies"])) as server:
        use_as_oc_judge(server, monkeypatch)
        with contextlib.suppress(SystemExit):
            main(["eval", str(library), "-w", str(work), "-r", RUN, "--workers", "1"])
        bodies = list(server.bodies)
    want = [b for e in record["datasets"].values() for b in e["requests"]]
    assert _unique(bodies) == _unique(want) and len(bodies) == len(want)
    results = work / RUN / "results" / MODEL
    for abbr, entry in record["datasets"].items():
        result = json.loads((results / f"{abbr}.json").read_text(encoding="utf-8"))
        assert "error" not in result, result
        numbers = {k: v for k, v in entry["result"].items() if isinstance(v, (int, float))}
        assert numbers and {k: result.get(k) for k in numbers} == pytest.approx(numbers, abs=1e-9), abbr
        if "cascade_stats" not in entry["result"]:  # PEER_Evaluator (stability): OpenCompass's task lists the replies read
            assert set(entry["result"]) == set(numbers)
            read = [entry["details"][str(i)] for i in range(len(result["details"]))]
            assert [(d["pred"], d["answer"]) for d in result["details"]] == [([d["predictions"]], [d["references"]]) for d in read]
            continue
        stats = entry["result"]["cascade_stats"][0]  # OpenCompass lists it once per replica
        assert {k: result["cascade_stats"][k] for k in stats} == pytest.approx(stats, abs=1e-9), abbr
        assert len(result["details"]) == len(entry["details"])
        for i, (got, want) in enumerate(zip(result["details"], entry["details"])):
            assert got["cascade_correct"] == want["cascade_correct"], (abbr, i)
            rules = [{k: v for k, v in r.items() if k != "evaluation_method"} for r in want["rule_evaluation"]]
            assert [{k: g[k] for k in r} for g, r in zip(got["rule_evaluation"], rules)] == rules, (abbr, i)
            # OpenCompass's judge detail is peer_llm_judge_postprocess's: the reply stripped and upper-cased
            judged = [x for x in got.get("llm_evaluation") or [] if x is not None]
            assert [(x["llm_correct"], x["judge_response"].strip().upper()) for x in judged] == [
                (x["llm_correct"], x["prediction"]) for x in want.get("llm_evaluation") or []], (abbr, i)
        for name, records in entry["files"].items():
            assert json.loads((results / name).read_text(encoding="utf-8")) == records, name

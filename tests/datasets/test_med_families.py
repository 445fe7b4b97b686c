"""The medical multiple-choice, judge-bench and CompassBench v1.3 families against OpenCompass 0.5.4's recordings.

``scripts/record_oc_med.py`` recorded, with OpenCompass installed, the loaders'
rows on the files under ``tests/data/oc_families/med/work`` and the evaluators'
results on varied replies; here assay's namesakes compute them again, called
directly and through the library's configs imported unchanged.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import ConfigError, InputFileError
from assay.evaluators import CircularLetterEvaluator, JudgeEvaluator
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "med"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))

MED = {"MedmcqaDataset": "MedmcqaEvaluator", "MedbulletsDataset": "MedbulletsEvaluator",
       "NejmaibenchDataset": "NejmaibenchEvaluator", "MedXpertQADataset": "MedXpertQAEvaluator"}


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the recording's working folder, made the working folder."""
    shutil.copytree(DATA / "work", tmp_path / "work")
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))  # empty: nothing comes from the Hub's cache
    monkeypatch.chdir(tmp_path / "work")
    return tmp_path / "work"


def _rows(ds: Any) -> list[dict[str, Any]]:
    return [dict(r) for r in ds]


@pytest.mark.parametrize("loader", sorted(MED))
def test_medical_loader_rows_equal_opencompass(work: Path, loader: str) -> None:
    rec = RECORDED[loader]
    assert _rows(LOAD_DATASET.get(loader).load(**rec["args"])) == rec["rows"]


CASES = [(loader, i) for loader in sorted(MED) for i in range(len(RECORDED[loader]["scores"]))]


@pytest.mark.parametrize(("loader", "batch"), CASES, ids=[f"{lo}-{i}" for lo, i in CASES])
def test_medical_evaluator_equals_opencompass(work: Path, loader: str, batch: int) -> None:
    rec = RECORDED[loader]
    case = rec["scores"][batch]
    rows = _rows(LOAD_DATASET.get(loader).load(**rec["args"]))
    refs = [r["label"] for r in rows]
    result = ICL_EVALUATORS.get(MED[loader])().score(case["predictions"], refs, rows)
    if "raises" in case:  # OpenCompass's evaluation fails on a reply naming no option: an error record names it
        assert case["raises"] == "IndexError"
        assert "reply 0 names no option letter: 'None of them'" in result["error"]
    else:
        assert result == case["result"]


def test_medical_evaluator_accuracy_counts_a_reply_without_a_letter_wrong() -> None:
    rows = [dict(prompt_mode="zero-shot", options=["a", "b", "c", "d"], label=L, question_type="step1") for L in "AB"]
    result = ICL_EVALUATORS.get("MedbulletsEvaluator")().score(["E or F", "I understand. A through D: B"], ["A", "B"], rows)
    assert result["accuracy"] == 50.0 and [d["pred"] for d in result["details"]] == [[], "B"]


def test_medical_evaluator_without_its_loader_s_columns_names_them() -> None:
    result = ICL_EVALUATORS.get("MedmcqaEvaluator")().score(["A"], ["A"], [{"prompt_mode": "zero-shot", "options": ["x"], "label": "A"}])
    assert "test-set row 0 has no column 'subject_name', 'topic_name', 'choice_type'" in result["error"]


@pytest.mark.parametrize("loader", sorted(MED))
def test_medical_loader_refuses_a_prompt_mode_opencompass_does_not_prepare(work: Path, loader: str) -> None:
    args = dict(RECORDED[loader]["args"], prompt_mode="few-shot")
    with pytest.raises(ConfigError, match=rf"{loader}: prompt_mode='few-shot' is not supported"):
        LOAD_DATASET.get(loader).load(**args)


def test_medbullets_missing_file_names_the_path(work: Path) -> None:
    (work / "data" / "medbullets" / "medbullets.csv").unlink()
    with pytest.raises(InputFileError, match=r"MedbulletsDataset: no such file: .*data/medbullets/medbullets\.csv"):
        LOAD_DATASET.get("MedbulletsDataset").load(path="opencompass/medbullets")


def test_nejm_without_question_column_names_the_file_and_columns(work: Path) -> None:
    file = work / "data" / "nejmaibench" / "NEJM_All_Questions_And_Answers.csv"
    file.write_text(file.read_text(encoding="utf-8").replace("Question,", "Query,", 1), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"NejmaibenchDataset: .*NEJM_All_Questions_And_Answers\.csv has no column 'Question' "
                                             r"\(columns: Year, Query, Choices, Answer, Subject\)"):
        LOAD_DATASET.get("NejmaibenchDataset").load(path="opencompass/nejmaibench")


def test_medxpertqa_without_the_text_configuration_says_so(work: Path) -> None:
    readme = work / "TsinghuaC3I" / "MedXpertQA" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace("config_name: Text", "config_name: Words"), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"MedXpertQADataset: .*MedXpertQA cannot be read as a dataset: .*Text"):
        LOAD_DATASET.get("MedXpertQADataset").load(path="TsinghuaC3I/MedXpertQA", prompt_mode="zero-shot")


@pytest.mark.parametrize("loader", ["JudgeBenchDataset", "RewardBenchDataset"])
def test_judge_bench_rows_and_verdicts_equal_opencompass(work: Path, loader: str) -> None:
    for rec in RECORDED[loader]:
        rows = _rows(LOAD_DATASET.get(loader).load(**rec["args"]))
        assert rows == rec["rows"]
        assert JudgeEvaluator().score(rec["predictions"], [r["judge"] for r in rows]) == rec["result"]


def test_judge_bench_item_without_winner_names_file_and_item(work: Path) -> None:
    file = work / "data" / "judgeeval" / "judgebench" / "judgebench.json"
    items = json.loads(file.read_text())
    del items[2]["winner"]
    file.write_text(json.dumps(items))
    with pytest.raises(InputFileError, match=r"JudgeBenchDataset: .*judgebench\.json, item 2 has no 'winner' field"):
        LOAD_DATASET.get("JudgeBenchDataset").load(path="./data/judgeeval/judgebench", name="judgebench.json")


@pytest.mark.parametrize("call", RECORDED["CompassBenchObjectiveV1_3"], ids=lambda c: c["args"]["name"])
def test_compassbench_objective_rows_equal_opencompass(work: Path, call: dict[str, Any]) -> None:
    assert _rows(LOAD_DATASET.get("CompassBenchObjectiveV1_3").load(**call["args"])) == call["rows"]


def test_compassbench_objective_postprocess_equals_opencompass() -> None:
    fn = TEXT_POSTPROCESSORS.get("compassbench_objective_v1_3_postprocess")
    got = [fn(c["text"], c["name"]) for c in RECORDED["compassbench_objective_v1_3_postprocess"]]
    assert got == [c["output"] for c in RECORDED["compassbench_objective_v1_3_postprocess"]]


def test_compassbench_circular_scores_equal_opencompass(work: Path) -> None:
    rows = _rows(LOAD_DATASET.get("CompassBenchObjectiveV1_3").load(**RECORDED["CompassBenchObjectiveV1_3"][0]["args"]))
    option = TEXT_POSTPROCESSORS.get("first_option_postprocess")
    preds = [option(r, options="ABCD") for r in RECORDED["CircularEvaluator"]["replies"]]
    result = CircularLetterEvaluator().score(preds, [r["answer"] for r in rows])
    assert {k: v for k, v in result.items() if k != "details"} == pytest.approx(RECORDED["CircularEvaluator"]["result"], abs=1e-9)


def test_compassbench_objective_bad_line_names_the_file_and_line(work: Path) -> None:
    file = work / "data" / "compassbench_v1_3" / "math" / "arithmetic_cloze_en.jsonl"
    file.write_text(file.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"CompassBenchObjectiveV1_3: .*arithmetic_cloze_en\.jsonl, line 5 is not JSON"):
        LOAD_DATASET.get("CompassBenchObjectiveV1_3").load(path=str(file), name="cloze_en")


LIBRARY = {
    "medmcqa.medmcqa_gen_60c8f5": "MedmcqaDataset",
    "MedXpertQA.MedXpertQA_gen": "MedXpertQADataset",
    "Medbullets.medbullets_gen_60c8f5": "MedbulletsDataset",
    "nejm_ai_benchmark.nejmaibench_gen_60c8f5": "NejmaibenchDataset",
}


def _library_datasets(module: str, oc_library: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = work / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.{module} import *\n", encoding="utf-8")
    variables = load_config(config).variables
    return [d for k, v in variables.items() if k.endswith("datasets") and isinstance(v, list) for d in v]


def _args(ds: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg", "n", "k")}


@pytest.mark.parametrize("module", sorted(LIBRARY))
def test_library_medical_configs_score_as_opencompass(module: str, oc_library: Path, work: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    (ds,) = _library_datasets(module, oc_library, work, monkeypatch)
    loader = LIBRARY[module]
    assert ds["type"].__module__ == "assay.datasets.med_choice" and ds["type"].__name__ == loader
    rec = RECORDED[loader]
    assert _args(ds) == rec["args"]
    rows = _rows(ds["type"].load(**_args(ds)))
    assert rows == rec["rows"]
    evaluator = ds["eval_cfg"]["evaluator"]["type"]
    assert evaluator.__module__ == "assay.evaluators.med_choice"
    case = rec["scores"][0]
    out_col = ds["reader_cfg"]["output_column"]
    assert evaluator().score(case["predictions"], [r[out_col] for r in rows], rows) == case["result"]


@pytest.mark.parametrize("module", ["judge.judgebench", "judge.rewardbench"])
def test_library_judge_configs_load_rows_as_opencompass(module: str, oc_library: Path, work: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    datasets = _library_datasets(module, oc_library, work, monkeypatch)
    loader = "JudgeBenchDataset" if module.endswith("judgebench") else "RewardBenchDataset"
    assert {d["type"].__name__ for d in datasets} == {loader} and datasets[0]["type"].__module__ == "assay.datasets.judge_pairs"
    by_name = {d["name"]: d for d in datasets}
    for rec in RECORDED[loader]:
        ds = by_name[rec["args"]["name"]]
        assert _rows(ds["type"].load(**_args(ds))) == rec["rows"]
        assert ds["eval_cfg"]["evaluator"]["type"].__name__ == "JudgeEvaluator"


@pytest.mark.parametrize("module", ["compassbench_v1_3.compassbench_v1_3_objective_gen", "compassbench_v1_3.compassbench_v1_3_knowledge",
                                    "compassbench_v1_3.compassbench_v1_3_math"])
def test_library_compassbench_configs_load_their_files(module: str, oc_library: Path, work: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    datasets = _library_datasets(module, oc_library, work, monkeypatch)
    recorded = {(c["args"]["path"], c["args"]["name"]): c["rows"] for c in RECORDED["CompassBenchObjectiveV1_3"]}
    for ds in datasets:
        assert ds["type"].__module__ == "assay.datasets.compassbench_obj"
        rows = _rows(ds["type"].load(**_args(ds)))
        assert rows and all(r["question"] for r in rows)
        if (ds["path"], ds["name"]) in recorded:
            assert rows == recorded[(ds["path"], ds["name"])]
        if "circular" in ds["name"]:
            assert ds["eval_cfg"]["evaluator"]["type"] is CircularLetterEvaluator  # openicl's CircularEvaluator
            assert len(rows) % 4 == 0 and rows[1]["answer"].endswith("--BCDA")


@pytest.mark.parametrize("call", RECORDED["SeedBenchDataset"], ids=lambda c: c["args"]["data_files"])
def test_seedbench_rows_equal_opencompass(work: Path, call: dict[str, Any]) -> None:
    assert _rows(LOAD_DATASET.get("SeedBenchDataset").load(**call["args"])) == call["rows"]


def test_seedbench_unknown_split_and_missing_file_are_named(work: Path) -> None:
    with pytest.raises(ConfigError, match=r"SeedBenchDataset: split 'test' not found in 'zero-shot/1-1\.json'; available splits: \['train'\]"):
        LOAD_DATASET.get("SeedBenchDataset").load(data_files="zero-shot/1-1.json", path="opencompass/seedbench", split="test")
    with pytest.raises(InputFileError, match=r"SeedBenchDataset: 'zero-shot/9-9\.json' is not a file below .*SeedBench"):
        LOAD_DATASET.get("SeedBenchDataset").load(data_files="zero-shot/9-9.json", path="opencompass/seedbench")


def test_seedbench_multiple_select_postprocess_equals_opencompass() -> None:
    fn = TEXT_POSTPROCESSORS.get("my_multiple_select_postprocess")
    assert [fn(c["text"]) for c in RECORDED["my_multiple_select_postprocess"]] == [c["output"] for c in RECORDED["my_multiple_select_postprocess"]]


@pytest.mark.parametrize("evaluator", ["F1ScoreEvaluator", "AverageRougeScoreEvaluator"])
def test_seedbench_evaluators_equal_opencompass(evaluator: str) -> None:
    for case in RECORDED[evaluator]:
        result = ICL_EVALUATORS.get(evaluator)().score(list(case["predictions"]), list(case["references"]))
        if "raises" in case:  # a reference with an empty blank: OpenCompass's evaluation fails, here an error record
            assert "sample 0 cannot be scored (Reference is empty.): reference '氮肥，'" in result["error"]
        else:
            assert result == case["result"]


def test_seedbench_string_accuracy_equals_opencompass() -> None:
    case = RECORDED["AccScoreStr_Evaluator"]
    assert ICL_EVALUATORS.get("AccScoreStr_Evaluator")().score(case["predictions"], case["references"]) == case["result"]


def test_library_seedbench_config_names_assay_s_components(oc_library: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    datasets = _library_datasets("SeedBench.seedbench_gen_5d5ea1", oc_library, work, monkeypatch)
    assert len(datasets) == 22
    # the config names its evaluators by their registered names
    evaluators = {ICL_EVALUATORS.get(d["eval_cfg"]["evaluator"]["type"]) for d in datasets}
    assert {e.__name__ for e in evaluators if e.__module__ == "assay.evaluators.seedbench"} == {
        "F1ScoreEvaluator", "AverageRougeScoreEvaluator", "AccScoreStr_Evaluator"}
    recorded = {c["args"]["data_files"]: c["rows"] for c in RECORDED["SeedBenchDataset"]}
    for ds in datasets:
        rows = _rows(ds["type"].load(**_args(ds)))
        assert len(rows) == 3
        if ds["data_files"] in recorded:
            assert rows == recorded[ds["data_files"]]
        post = ds["eval_cfg"].get("pred_postprocessor", {}).get("type")
        if ds["eval_cfg"]["evaluator"]["type"] == "F1ScoreEvaluator":
            assert post.__module__ == "assay.postprocess.seedbench"


JUDGED = {"medmcqa_llmjudge_postprocess": ("MedmcqaDataset", "medmcqa.medmcqa_llmjudge_gen_60c8f5", r"number (\d+)\?"),
          "MedXpertQA_llmjudge_postprocess": ("MedXpertQADataset", "MedXpertQA.MedXpertQA_llmjudge_gen", r"case (\d+)\."),
          "medbullets_llmjudge_postprocess": ("MedbulletsDataset", "Medbullets.medbullets_llmjudge_gen_60c8f5", r"sign (\d+)\.")}


@pytest.mark.parametrize("name", sorted(JUDGED))
def test_medical_judge_postprocessors_equal_opencompass(work: Path, name: str) -> None:
    from assay.evaluators.llm_judge import judge_dataset
    from assay.registry import DICT_POSTPROCESSORS

    rec = RECORDED[name]
    rows = _rows(LOAD_DATASET.get(JUDGED[name][0]).load(**rec["args"]))
    entries = [dict(r, prediction=p, obj_gold=r["label"], reference=r["label"]) for r, p in zip(rows, rec["predictions"])]
    result = DICT_POSTPROCESSORS.get(name)(rec["output"], "unused.json", dataset=judge_dataset(entries))
    assert json.loads(json.dumps(result, default=str)) == rec["result"]


@pytest.mark.parametrize("name", sorted(JUDGED))
def test_library_judged_medical_configs_grade_as_opencompass(work: Path, name: str, oc_library: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The library's llmjudge config, its evaluator asking a local judge that answers sample i with the recorded reply."""
    import re

    from tests.evaluators.test_llm_judge import judge_cfg
    from tests.judge.fake_server import FakeJudge

    loader, module, pattern = JUDGED[name]
    rec = RECORDED[name]
    (ds,) = _library_datasets(module, oc_library, work, monkeypatch)
    assert ds["type"].__name__ == loader
    rows = _rows(ds["type"].load(**_args(ds)))
    spec = dict(ds["eval_cfg"]["evaluator"])
    evaluator_type = spec.pop("type")
    assert spec["dict_postprocessor"]["type"].__module__ == "assay.evaluators.med_choice"
    spec["judge_cfg"] = judge_cfg("")

    def script(messages: list[dict[str, Any]], attempt: int) -> tuple[Any, ...]:
        i = int(re.search(pattern, messages[-1]["content"]).group(1))
        return ("reply", rec["replies"][i])

    with FakeJudge(script) as server:
        spec["judge_cfg"] = judge_cfg(server.base_url)
        evaluator = evaluator_type(**spec)
        evaluator._out_dir = str(work / "run" / "results" / "m" / "d")
        result = evaluator.score(rec["predictions"], [r["label"] for r in rows], rows)
    expected = {k: v for k, v in rec["result"].items() if k != "details"}
    assert {k: result[k] for k in expected} == expected
    assert [d["is_correct"] for d in result["details"]] == [d["is_correct"] for d in rec["result"]["details"]]


E2E = {"medmcqa.medmcqa_gen_60c8f5": ("MedmcqaDataset", "medmcqa"), "MedXpertQA.MedXpertQA_gen": ("MedXpertQADataset", "medxpertqa"),
       "Medbullets.medbullets_gen_60c8f5": ("MedbulletsDataset", "medbullets"),
       "nejm_ai_benchmark.nejmaibench_gen_60c8f5": ("NejmaibenchDataset", "nejmaibench")}


@pytest.mark.parametrize("module", sorted(E2E))
def test_assay_eval_scores_the_library_config_as_opencompass(module: str, oc_library: Path, work: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """``assay eval`` on the library's config, unchanged, and a prediction file in OpenCompass's format: the
    result holds OpenCompass's accuracy and details, read from the data in OpenCompass's layout."""
    from assay.cli import main
    from assay.rundir.results import read_result

    loader, abbr = E2E[module]
    case = RECORDED[loader]["scores"][0]
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    rows = RECORDED[loader]["rows"]
    preds = {str(i): {"origin_prompt": f"Q: {r['question']}", "prediction": p, "gold": r["label"]}
             for i, (r, p) in enumerate(zip(rows, case["predictions"]))}
    folder = work / "out" / "RUN" / "predictions" / "m"
    folder.mkdir(parents=True)
    (folder / f"{abbr}.json").write_text(json.dumps(preds, ensure_ascii=False), encoding="utf-8")
    config = work / "eval_med.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.{module} import *\n\n"
                      "datasets = [d for k, v in list(locals().items()) if k.endswith('_datasets') for d in v]\n"
                      "models = [dict(abbr='m', path='m')]\n", encoding="utf-8")
    assert main(["eval", str(config), "-w", str(work / "out"), "-r", "RUN", "--workers", "1"]) == 0
    result = read_result(work / "out" / "RUN" / "results" / "m" / f"{abbr}.json")
    assert result["accuracy"] == case["result"]["accuracy"]
    # each detail field holds one value per run of the sample
    assert [d["pred"] for d in result["details"]] == [[d["pred"]] for d in case["result"]["details"]]


def test_multiif_rows_equal_opencompass(work: Path) -> None:
    rec = RECORDED["MultiIFDataset"]
    assert _rows(LOAD_DATASET.get("MultiIFDataset").load(**rec["args"])) == rec["rows"]


@pytest.mark.parametrize("batch", range(len(RECORDED["MultiIFEvaluator"])))
def test_multiif_evaluator_equals_opencompass(work: Path, batch: int) -> None:
    case = RECORDED["MultiIFEvaluator"][batch]
    refs = [r["reference"] for r in RECORDED["MultiIFDataset"]["rows"]][: len(case["predictions"])]
    if batch == 2:
        refs = [r["reference"] for r in RECORDED["MultiIFDataset"]["rows"]][2:4]
    assert ICL_EVALUATORS.get("MultiIFEvaluator")().score(case["predictions"], refs) == case["result"]


def test_multiif_prediction_that_is_not_three_replies_names_the_sample(work: Path) -> None:
    refs = [r["reference"] for r in RECORDED["MultiIFDataset"]["rows"]][:2]
    result = ICL_EVALUATORS.get("MultiIFEvaluator")().score([["a", "b", "c"], "one reply"], refs)
    assert "MultiIFEvaluator: sample 1 has no three replies" in result["error"]


def test_library_multiif_config_names_assay_s_components(oc_library: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (ds,) = _library_datasets("MultiIF.MultiIF_gen", oc_library, work, monkeypatch)
    assert ds["type"].__module__ == "assay.datasets.multiif"
    assert ds["eval_cfg"]["evaluator"]["type"].__module__ == "assay.evaluators.multiif"
    assert _rows(ds["type"].load(**_args(ds))) == RECORDED["MultiIFDataset"]["rows"]


def test_assay_eval_scores_multiif_from_multi_round_predictions(oc_library: Path, work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A multi-round prediction file (three replies per conversation, as OpenCompass's multi-round inferencer
    writes them) scored by the library's Multi-IF config: OpenCompass's metrics."""
    from assay.cli import main
    from assay.rundir.results import read_result

    case = RECORDED["MultiIFEvaluator"][0]
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    rows = RECORDED["MultiIFDataset"]["rows"]
    preds = {str(i): {"origin_prompt": r["dialogue"], "prediction": p, "gold": r["reference"]}
             for i, (r, p) in enumerate(zip(rows, case["predictions"]))}
    folder = work / "out" / "RUN" / "predictions" / "m"
    folder.mkdir(parents=True)
    (folder / "Multi-IF.json").write_text(json.dumps(preds, ensure_ascii=False), encoding="utf-8")
    config = work / "eval_multiif.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      "    from opencompass.configs.datasets.MultiIF.MultiIF_gen import multiif_datasets\n\n"
                      "datasets = multiif_datasets\nmodels = [dict(abbr='m', path='m')]\n", encoding="utf-8")
    assert main(["eval", str(config), "-w", str(work / "out"), "-r", "RUN", "--workers", "1"]) == 0
    result = read_result(work / "out" / "RUN" / "results" / "m" / "Multi-IF.json")
    assert {k: result[k] for k in case["result"]} == case["result"]

"""SciReasoner's LLM4Chem (``smol``, USPTO-50K retrosynthesis) against OpenCompass 0.5.4's recordings.

The recording is made by ``scripts/record_oc_sci3.py`` on the files under
``tests/data/oc_families/sci3`` (OpenCompass with RDKit and rdchiral).  Captions are
recorded with a small WordPiece vocabulary in place of SciBERT's.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import EvaluationError, InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS

pytest.importorskip("rdkit")

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci3"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))


def _same(result: dict[str, Any], recorded: dict[str, Any]) -> None:
    assert result.keys() == recorded.keys()
    for key, value in recorded.items():
        if value == "NaN":
            assert math.isnan(result[key]), key
        else:
            assert result[key] == value, key


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data" / "SciReasoner" / "smol-test"


def _splits(loaded: Any) -> dict[str, list[dict[str, Any]]]:
    return {k: [dict(r) for r in loaded[k]] for k in loaded}


@pytest.mark.parametrize("call", RECORDED["LLM4ChemDataset"], ids=[json.dumps(c["args"]) for c in RECORDED["LLM4ChemDataset"]])
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    assert _splits(LOAD_DATASET.get("LLM4ChemDataset").load(**call["args"])) == call["splits"]


def test_a_missing_task_folder_is_named(cache: Path) -> None:
    with pytest.raises(InputFileError, match=r"LLM4ChemDataset: no such file: .*smol-test/nope/dev/data\.json"):
        LOAD_DATASET.get("LLM4ChemDataset").load(path="opencompass/SciReasoner-smol", task="nope")


@pytest.mark.parametrize(("task", "text", "expected"), RECORDED["LLM4Chem_postprocess"])
def test_reader_equals_opencompass(task: str, text: str, expected: str) -> None:
    assert TEXT_POSTPROCESSORS.get("LLM4Chem_postprocess")(text, task=task) == expected


@pytest.mark.parametrize(("text", "expected"), RECORDED["Retrosynthesis_postprocess"])
def test_retrosynthesis_reader_equals_opencompass(text: str, expected: str) -> None:
    assert TEXT_POSTPROCESSORS.get("Retrosynthesis_postprocess")(text) == expected


CASES = RECORDED["LLM4Chem_Evaluator"]


@pytest.mark.parametrize("case", CASES, ids=[c["task"] for c in CASES])
def test_metrics_equal_opencompass(case: dict[str, Any]) -> None:
    result = ICL_EVALUATORS.get("LLM4Chem_Evaluator")(task=case["task"]).score(list(case["predictions"]),
                                                                               list(case["references"]))
    _same(result, case["result"])


def test_captions_equal_opencompass_with_the_same_vocabulary() -> None:
    pytest.importorskip("wn")
    from assay.evaluators.scireasoner_llm4chem import WordPieceTokenizer, caption_metrics

    case = RECORDED["captions"][0]
    _same(caption_metrics(case["predictions"], case["references"], WordPieceTokenizer(str(DATA / "vocab"))), case["result"])


def test_captions_without_the_hub_vocabulary_fail_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    evaluator = ICL_EVALUATORS.get("LLM4Chem_Evaluator")
    assert "allenai/scibert_scivocab_uncased" in evaluator.dry_run_notes({"task": "molecule_captioning"})[0]
    with pytest.raises(EvaluationError, match="allenai/scibert_scivocab_uncased's vocabulary"):
        evaluator(task="molecule_captioning").score(["a caption"], ["a caption"])


def test_captions_read_the_vocabulary_from_the_hub_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("wn")
    snapshot = tmp_path / "models--allenai--scibert_scivocab_uncased" / "snapshots" / "abc"
    snapshot.mkdir(parents=True)
    shutil.copy(DATA / "vocab" / "vocab.txt", snapshot / "vocab.txt")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    case = RECORDED["captions"][0]
    evaluator = ICL_EVALUATORS.get("LLM4Chem_Evaluator")
    assert evaluator.dry_run_notes({"task": "molecule_captioning"}) == []
    _same(evaluator(task="molecule_captioning").score(list(case["predictions"]), list(case["references"])), case["result"])


def test_a_reference_that_is_not_a_formula_is_named() -> None:
    with pytest.raises(EvaluationError, match=r"reference 1 'C\(H\)2' is not a molecular formula"):
        ICL_EVALUATORS.get("LLM4Chem_Evaluator")(task="name_conversion-s2f").score(["CH4", "CH4"], ["CH4", "C(H)2"])


def test_a_roc_auc_over_one_class_is_an_error_naming_it() -> None:
    with pytest.raises(EvaluationError, match="ROC AUC is undefined"):
        ICL_EVALUATORS.get("LLM4Chem_Evaluator")(task="property_prediction-hiv").score(["Yes", "No"], ["Yes", "Yes"])


def test_an_unknown_task_is_named() -> None:
    with pytest.raises(EvaluationError, match="unknown task 'nope'"):
        ICL_EVALUATORS.get("LLM4Chem_Evaluator")(task="nope")


RETRO = RECORDED["RetrosynthesisEvaluator"]


@pytest.mark.parametrize("case", RETRO, ids=[f"beam{c['beam_size']}-aug{c['augmentation']}" for c in RETRO])
def test_retrosynthesis_metrics_equal_opencompass(case: dict[str, Any]) -> None:
    evaluator = ICL_EVALUATORS.get("RetrosynthesisEvaluator")(beam_size=case["beam_size"], n_best=case["n_best"],
                                                               augmentation=case["augmentation"])
    _same(evaluator.score(list(case["predictions"]), list(case["references"])), case["result"])


def test_retrosynthesis_with_too_few_replies_is_an_error_record() -> None:
    result = ICL_EVALUATORS.get("RetrosynthesisEvaluator")(beam_size=2, n_best=2).score(["C", "C", "C"], ["C", "CC"])
    assert result == {"error": "Length of predictions (3) does not match expected length (4)"}


@pytest.mark.parametrize(("module", "count"), [("smol_gen", 28), ("smol_rawprompt_gen", 28),
                                               ("retrosynthesis_USPTO_gen", 2), ("retrosynthesis_USPTO_rawprompt_gen", 2)])
def test_library_configs_load_and_score_with_these_components(module: str, count: int, oc_library: Path, cache: Path,
                                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    names = "all_datasets, mini_all_datasets" if module.startswith("smol") else "Retrosynthesis_datasets, mini_Retrosynthesis_datasets"
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.SciReasoner.{module} import {names}\n", encoding="utf-8")
    variables = load_config(config).variables
    datasets = [d for name in names.split(", ") for d in variables[name]]
    assert len(datasets) == count
    recorded = {json.dumps(c["args"], sort_keys=True): c["splits"] for c in RECORDED["LLM4ChemDataset"]}
    by_task = {c["task"]: c for c in CASES}
    loaded = scored = 0
    for ds in datasets:
        eval_cfg = ds["eval_cfg"]
        evaluator = eval_cfg["evaluator"]
        assert ds["type"] is LOAD_DATASET.get("LLM4ChemDataset")
        args = {k: v for k, v in ds.items() if k not in ("abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg")}
        key = json.dumps(args, sort_keys=True)
        if key in recorded:
            assert _splits(ds["type"].load(**args)) == recorded[key]
            loaded += 1
        if module.startswith("smol"):
            reader = TEXT_POSTPROCESSORS.get("LLM4Chem_postprocess")
            assert evaluator["type"] is ICL_EVALUATORS.get("LLM4Chem_Evaluator")
            assert eval_cfg["pred_postprocessor"]["type"] is reader and eval_cfg["dataset_postprocessor"]["type"] is reader
            case = by_task.get(evaluator["task"])
            if case is not None:
                _same(evaluator["type"](task=evaluator["task"]).score(list(case["predictions"]), list(case["references"])),
                      case["result"])
                scored += 1
        else:
            assert evaluator["type"] is ICL_EVALUATORS.get("RetrosynthesisEvaluator")
            assert eval_cfg["pred_postprocessor"]["type"] is TEXT_POSTPROCESSORS.get("Retrosynthesis_postprocess")
            case = RETRO[0]
            built = evaluator["type"](**{k: v for k, v in evaluator.items() if k != "type"})
            _same(built.score(list(case["predictions"]), list(case["references"])), case["result"])
            scored += 1
    assert loaded == 2
    assert scored == (22 if module.startswith("smol") else 2)

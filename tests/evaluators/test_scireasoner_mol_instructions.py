"""SciReasoner's Mol-Instructions molecule tasks against OpenCompass 0.5.4's recordings.

The recording is made by ``scripts/record_oc_sci3.py`` on the files under
``tests/data/oc_families/sci3`` (OpenCompass with RDKit and SELFIES; descriptions split
with a small WordPiece vocabulary in place of SciBERT's).
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
pytest.importorskip("selfies")

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci3"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))
CASES = RECORDED["Mol_Instructions_Evaluator_Mol"]


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
    return tmp_path / "cache" / "data" / "SciReasoner" / "Mol-Instructions-test"


@pytest.fixture
def vocabulary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot = tmp_path / "hub" / "models--allenai--scibert_scivocab_uncased" / "snapshots" / "abc"
    snapshot.mkdir(parents=True)
    shutil.copy(DATA / "vocab" / "vocab.txt", snapshot / "vocab.txt")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))


def _splits(loaded: Any) -> dict[str, list[dict[str, Any]]]:
    return {k: [dict(r) for r in loaded[k]] for k in loaded}


CALLS = RECORDED["Mol_Instructions_Dataset"]


@pytest.mark.parametrize("call", CALLS, ids=[json.dumps(c["args"]) for c in CALLS])
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    assert _splits(LOAD_DATASET.get("Mol_Instructions_Dataset").load(**call["args"])) == call["splits"]


def test_a_mini_set_of_too_few_questions_is_named(cache: Path) -> None:
    with pytest.raises(InputFileError, match=r"mini_set draws 150 questions and .*forward_reaction_prediction/test/data\.json holds 2"):
        LOAD_DATASET.get("Mol_Instructions_Dataset").load(path="opencompass/SciReasoner-Mol_Instructions",
                                                          task="forward_reaction_prediction", mini_set=True)


@pytest.mark.parametrize(("task", "text", "expected"), RECORDED["Mol_Instructions_postprocess_Mol"])
def test_reader_equals_opencompass(task: str, text: str, expected: Any) -> None:
    assert TEXT_POSTPROCESSORS.get("Mol_Instructions_postprocess_Mol")(text, task=task) == expected


@pytest.mark.parametrize("case", CASES, ids=[c["task"] for c in CASES])
def test_metrics_equal_opencompass(case: dict[str, Any], vocabulary: None) -> None:
    evaluator = ICL_EVALUATORS.get("Mol_Instructions_Evaluator_Mol")(task=case["task"])
    _same(evaluator.score(list(case["predictions"]), list(case["references"])), case["result"])


def test_descriptions_without_the_hub_vocabulary_fail_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    evaluator = ICL_EVALUATORS.get("Mol_Instructions_Evaluator_Mol")
    assert "allenai/scibert_scivocab_uncased" in evaluator.dry_run_notes({"task": "molecular_description_generation"})[0]
    with pytest.raises(EvaluationError, match="allenai/scibert_scivocab_uncased's vocabulary"):
        evaluator(task="molecular_description_generation").score(["A text."], ["A text."])


def test_a_reference_without_a_molecule_is_named() -> None:
    with pytest.raises(EvaluationError, match=r"reference 0 None or its reply 'CCO' is not a SMILES"):
        ICL_EVALUATORS.get("Mol_Instructions_Evaluator_Mol")(task="retrosynthesis").score(["CCO"], [None])


def test_a_property_that_is_not_a_number_is_named() -> None:
    with pytest.raises(EvaluationError, match="a reference is not a number"):
        ICL_EVALUATORS.get("Mol_Instructions_Evaluator_Mol")(task="property_prediction_str").score(["1"], ["n/a"])


@pytest.mark.parametrize("module", ["mol_molecule_gen", "mol_molecule_rawprompt_gen"])
def test_library_configs_load_and_score_with_these_components(module: str, oc_library: Path, cache: Path, vocabulary: None,
                                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.SciReasoner.{module} import mol_mol_datasets, "
                      "mini_mol_mol_datasets\n", encoding="utf-8")
    variables = load_config(config).variables
    datasets = variables["mol_mol_datasets"] + variables["mini_mol_mol_datasets"]
    assert len(datasets) == 12
    reader = TEXT_POSTPROCESSORS.get("Mol_Instructions_postprocess_Mol")
    recorded = {json.dumps(c["args"], sort_keys=True): c["splits"] for c in CALLS}
    by_task = {c["task"]: c for c in CASES}
    loaded = scored = 0
    for ds in datasets:
        eval_cfg = ds["eval_cfg"]
        evaluator = eval_cfg["evaluator"]
        assert ds["type"] is LOAD_DATASET.get("Mol_Instructions_Dataset")
        assert evaluator["type"] is ICL_EVALUATORS.get("Mol_Instructions_Evaluator_Mol")
        assert eval_cfg["pred_postprocessor"]["type"] is reader and eval_cfg["dataset_postprocessor"]["type"] is reader
        args = {k: v for k, v in ds.items() if k not in ("abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg")}
        key = json.dumps(args, sort_keys=True)
        if key in recorded:
            assert _splits(ds["type"].load(**args)) == recorded[key]
            loaded += 1
        case = by_task.get(evaluator["task"])
        if case is not None:
            _same(evaluator["type"](task=evaluator["task"]).score(list(case["predictions"]), list(case["references"])),
                  case["result"])
            scored += 1
    assert (loaded, scored) == (2, 10)

"""SciReasoner's Mol-Instructions protein tasks against OpenCompass 0.5.4's recordings.

The recording is made by ``scripts/record_oc_sci4a.py`` on the files under
``tests/data/oc_families/sci4a`` (OpenCompass with Biopython, whose aligner its
protein-design score uses).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import EvaluationError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci4a"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))
LOADS = RECORDED["loads"]
DESIGN = RECORDED["Mol_Instructions_Evaluator_Protein_Design"]
TEXT = RECORDED["Mol_Instructions_Evaluator_Protein"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _splits(loaded: Any) -> dict[str, list[dict[str, Any]]]:
    return {k: [dict(r) for r in loaded[k]] for k in loaded}


def _metrics(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "details"}


@pytest.mark.parametrize("call", LOADS, ids=[f"{c['loader']}-{json.dumps(c['args'])}" for c in LOADS])
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    assert _splits(LOAD_DATASET.get(call["loader"]).load(**call["args"])) == call["splits"]


@pytest.mark.parametrize("name", ["Mol_Instructions_postprocess_Protein", "Mol_Instructions_postprocess_Protein_Design"])
def test_readers_equal_opencompass(name: str) -> None:
    reader = TEXT_POSTPROCESSORS.get(name)
    assert [[text, reader(text)] for text, _ in RECORDED[name]] == RECORDED[name]


@pytest.mark.parametrize("case", DESIGN, ids=[str(i) for i in range(len(DESIGN))])
def test_design_scores_equal_opencompass(case: dict[str, Any]) -> None:
    result = ICL_EVALUATORS.get("Mol_Instructions_Evaluator_Protein_Design")().score(case["predictions"], case["references"])
    assert _metrics(result) == case["result"]
    assert sum(d["score"] for d in result["details"]) / len(result["details"]) == result["Average SW score"]


@pytest.mark.parametrize("case", TEXT, ids=[str(i) for i in range(len(TEXT))])
def test_text_scores_equal_opencompass(case: dict[str, Any]) -> None:
    result = ICL_EVALUATORS.get("Mol_Instructions_Evaluator_Protein")(task="domain_motif").score(
        case["predictions"], case["references"])
    assert _metrics(result) == case["result"]


SW = RECORDED["normalized_smith_waterman"]


@pytest.mark.parametrize("case", SW, ids=[f"{len(c['seq1'])}x{len(c['seq2'])}-{i}" for i, c in enumerate(SW)])
def test_alignment_scores_equal_opencompass(case: dict[str, Any]) -> None:
    """The alignment itself, on edge cases (empty, one letter, B/Z/X/*) and long sequences with gaps, in either order."""
    from assay.evaluators.scireasoner_mol_protein import normalized_smith_waterman

    if "error" in case:  # Biopython refuses an empty sequence
        with pytest.raises(EvaluationError, match=r"pair 7: cannot align an empty sequence"):
            normalized_smith_waterman(case["seq1"], case["seq2"], "pair 7")
    else:
        assert normalized_smith_waterman(case["seq1"], case["seq2"]) == pytest.approx(case["score"], rel=1e-12, abs=0)


def test_a_letter_blosum45_does_not_score_is_named() -> None:
    evaluator = ICL_EVALUATORS.get("Mol_Instructions_Evaluator_Protein_Design")()
    with pytest.raises(EvaluationError, match=r"sample 1: 'MKU' holds 'U', which BLOSUM45 does not score"):
        evaluator.score(["MKV", "MKU"], ["MKV", "MKV"])


@pytest.mark.parametrize("module", ["mol_protein_gen", "mol_protein_rawprompt_gen"])
def test_library_configs_load_and_score_with_these_components(module: str, oc_library: Path, cache: Path,
                                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.SciReasoner.{module} import mol_protein_datasets, "
                      "mini_mol_protein_datasets\n", encoding="utf-8")
    variables = load_config(config).variables
    datasets = variables["mol_protein_datasets"] + variables["mini_mol_protein_datasets"]
    assert len(datasets) == 10
    recorded = {(c["loader"], json.dumps(c["args"], sort_keys=True)): c["splits"] for c in LOADS}
    loaded = scored = 0
    for ds in datasets:
        eval_cfg = ds["eval_cfg"]
        design = ds["type"] is LOAD_DATASET.get("Mol_Instructions_Dataset_Protein_Design")
        reader = TEXT_POSTPROCESSORS.get("Mol_Instructions_postprocess_Protein_Design" if design
                                         else "Mol_Instructions_postprocess_Protein")
        assert eval_cfg["pred_postprocessor"]["type"] is reader and eval_cfg["dataset_postprocessor"]["type"] is reader
        args = {k: v for k, v in ds.items() if k not in ("abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg")}
        key = (ds["type"].__name__, json.dumps(args, sort_keys=True))
        if key in recorded:
            assert _splits(ds["type"].load(**args)) == recorded[key]
            loaded += 1
        evaluator = eval_cfg["evaluator"]
        cases = DESIGN if design else TEXT
        for case in cases:
            kwargs = {k: v for k, v in evaluator.items() if k != "type"}
            assert _metrics(evaluator["type"](**kwargs).score(case["predictions"], case["references"])) == case["result"]
        scored += 1
    assert (loaded, scored) == (3, 10)

"""SMolInstruct's and Mol-Instructions' loaders against OpenCompass 0.5.4's recorded rows, and the library's configs.

The recording is made by ``scripts/record_oc_sci.py`` on the files under
``tests/data/oc_families/sci``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the data files; the working folder holds ``osunlp/SMolInstruct``."""
    for sub in ("cache", "osunlp"):
        shutil.copytree(DATA / sub, tmp_path / sub)
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))  # empty: nothing comes from the Hub's cache
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _splits(ds: Any) -> dict[str, list[dict[str, Any]]]:
    return {name: [dict(r) for r in ds[name]] for name in ds}


SMOL = RECORDED["SmolInstructDataset"]
MOL = RECORDED["MolInstructionsDataset"]


@pytest.mark.parametrize("call", SMOL, ids=[json.dumps(c["args"]) for c in SMOL])
def test_smolinstruct_rows_equal_opencompass(data: Path, call: dict[str, Any]) -> None:
    assert _splits(LOAD_DATASET.get("SmolInstructDataset").load(**call["args"])) == call["splits"]


def test_smolinstruct_mini_set_draws_opencompass_s_sample_in_its_order(data: Path) -> None:
    (call,) = [c for c in SMOL if c["args"].get("mini_set") and c["args"]["name"] == "molecule_generation"]
    whole = next(c for c in SMOL if c["args"] == {"path": "osunlp/SMolInstruct", "name": "molecule_generation"})
    assert call["splits"]["test"] != whole["splits"]["test"]  # shuffled by the draw
    assert _splits(LOAD_DATASET.get("SmolInstructDataset").load(**call["args"]))["test"] == call["splits"]["test"]


@pytest.mark.parametrize("call", MOL, ids=[c["args"]["name"] for c in MOL])
def test_mol_instructions_rows_equal_opencompass(data: Path, call: dict[str, Any]) -> None:
    assert [dict(r) for r in LOAD_DATASET.get("MolInstructionsDataset").load(**call["args"])] == call["rows"]


def test_smolinstruct_without_its_folder_says_where_it_looked(data: Path) -> None:
    shutil.rmtree(data / "osunlp")
    with pytest.raises(InputFileError, match=r"SmolInstructDataset: 'osunlp/SMolInstruct' is neither a local folder"):
        LOAD_DATASET.get("SmolInstructDataset").load(path="osunlp/SMolInstruct", name="forward_synthesis")


def test_smolinstruct_without_a_task_column_names_the_split(data: Path) -> None:
    for split in ("validation", "test"):
        file = data / "osunlp" / "SMolInstruct" / f"{split}.jsonl"
        rows = [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines()]
        file.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "task"}) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"the 'validation' split of osunlp/SMolInstruct has no 'task' column \(columns: input, output"):
        LOAD_DATASET.get("SmolInstructDataset").load(path="osunlp/SMolInstruct", name="forward_synthesis")


def test_mol_instructions_line_without_an_answer_names_it(data: Path) -> None:
    file = data / "cache" / "data" / "mol-instructions" / "retrosynthesis.jsonl"
    lines = file.read_text(encoding="utf-8").splitlines()
    entry = json.loads(lines[1])
    entry["dialogs"] = entry["dialogs"][:1]
    lines[1] = json.dumps(entry)
    file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"retrosynthesis\.jsonl, line 2: 'dialogs' must hold the question and the answer"):
        LOAD_DATASET.get("MolInstructionsDataset").load(path="opencompass/mol-instructions", name="retrosynthesis.jsonl")


#: library config → (variable, loader, the evaluators its datasets name, by assay's names)
LIBRARY = {
    "SmolInstruct.smolinstruct_gen": ("smolinstruct_datasets", "SmolInstructDataset", {
        "NCExactMatchEvaluator", "NCElementMatchEvaluator", "RMSEEvaluator", "AccEvaluator", "MeteorEvaluator", "FTSEvaluator"}),
    "SmolInstruct.smolinstruct_nc_0shot_instruct": ("nc_0shot_instruct_datasets", "SmolInstructDataset", {
        "NCExactMatchEvaluator", "NCElementMatchEvaluator"}),
    "SmolInstruct.smolinstruct_rmse_0shot_rawprompt_instruct": ("pp_rmse_0shot_instruct_datasets", "SmolInstructDataset", {
        "RMSEEvaluator"}),
    "MolInstructions_chem.mol_instructions_chem_gen": ("mol_gen_selfies_datasets", "MolInstructionsDataset", {
        "MolInstructionsFTSEvaluator", "MolInstructionsMAEEvaluator", "MolInstructionsMeteorEvaluator"}),
}


@pytest.mark.parametrize("module", sorted(LIBRARY))
def test_library_configs_load_rows_as_opencompass_does(module: str, oc_library: Path, data: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    variable, loader, evaluators = LIBRARY[module]
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = data / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.{module} import {variable}\n", encoding="utf-8")
    datasets = load_config(config).variables[variable]
    named = set()
    for ds in datasets:
        assert ds["type"] is LOAD_DATASET.get(loader)
        evaluator = ds["eval_cfg"]["evaluator"]["type"]
        named.add(next(name for name, obj in ICL_EVALUATORS.items() if obj is evaluator and not name.startswith("opencompass")))
        args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg", "n", "k")}
        recorded = [c.get("splits", c.get("rows")) for c in RECORDED[loader] if c["args"] == args]
        if recorded:
            loaded = ds["type"].load(**args)
            assert (_splits(loaded) if loader == "SmolInstructDataset" else [dict(r) for r in loaded]) == recorded[0]
    assert named == evaluators
    if module == "SmolInstruct.smolinstruct_gen":
        pp = [ds for ds in datasets if ds["abbr"].startswith("PP-") and ds["eval_cfg"]["evaluator"]["type"] is ICL_EVALUATORS.get("AccEvaluator")]
        assert {ds["eval_cfg"]["pred_postprocessor"]["type"].__name__ for ds in pp} == {"smolinstruct_acc_postprocess"}

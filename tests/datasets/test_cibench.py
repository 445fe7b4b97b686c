"""CIBench's loader against OpenCompass 0.5.4, and why its files are not scored.

The recordings are made by ``scripts/record_oc_cibench.py`` with OpenCompass
installed: its own loader read the notebooks under
``tests/data/oc_families/cibench/data`` (the fixture folder the working folder,
as the configs' relative paths ask), and its own eval task, run on prediction
files in the agent inferencer's layout, failed on every dataset building
``CIBenchEvaluator``.  Each case imports a config of OpenCompass's library
unchanged (through ``read_base``, the library from the ``oc_library`` fixture).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "cibench"
EXPECTED = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "expected").glob("*.json"))}
CASES = [(case, abbr) for case, record in EXPECTED.items() for abbr in record["datasets"]]


def _config(record: dict[str, Any], keep: list[str] | None = None) -> str:
    module = "opencompass.configs.datasets." + record["config"][: -len(".py")].replace("/", ".")
    variable = record["variable"]
    kept = "" if keep is None else f" if d['abbr'] in {keep!r}"
    return (f"from mmengine.config import read_base\n\nwith read_base():\n    from {module} import {variable}\n\n"
            f"datasets = [d for d in {variable}{kept}]\nmodels = [dict(abbr='m', path='org/m')]\n")


@pytest.fixture
def data_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, oc_library: Path) -> Path:
    """A copy of the notebooks, the working folder (the configs' paths are relative to it)."""
    work = tmp_path / "cwd"
    shutil.copytree(ROOT / "data", work / "data")
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.delenv("COMPASS_DATA_CACHE", raising=False)
    monkeypatch.chdir(work)
    return work


@pytest.mark.parametrize(("case", "abbr"), CASES, ids=[f"{c}-{a}" for c, a in CASES])
def test_library_config_loads_opencompass_rows(case: str, abbr: str, data_cwd: Path, tmp_path: Path) -> None:
    from assay import load_config
    from assay.datasets import build_test_set

    record = EXPECTED[case]
    config = tmp_path / "config.py"
    config.write_text(_config(record, [abbr]), encoding="utf-8")
    (ds,) = load_config(config).variables["datasets"]
    assert ds["type"].__module__ == "assay.datasets.cibench"
    expected = record["datasets"][abbr]
    assert ds["path"] == expected["path"]
    test = build_test_set(ds)
    # OpenCompass's test set also numbers its rows (idx) and names the dataset (subdivision)
    rows = [{k: v for k, v in row.items() if k not in ("idx", "subdivision")} for row in expected["test_rows"]]
    assert test.source.to_arrow().to_pylist() == rows
    assert test.references == [row["references"] for row in rows]


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_dry_run_says_opencompass_fails_on_the_evaluator(case: str, data_cwd: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    record = EXPECTED[case]
    errors = {entry["eval_error"]["message"] for entry in record["datasets"].values()}
    assert errors == {"property 'output_dir' of 'CIBenchEvaluator' object has no setter"}
    config = tmp_path / "config.py"
    config.write_text(_config(record, list(record["datasets"])), encoding="utf-8")
    assert main(["eval", str(config), "-w", str(tmp_path / "work"), "--dry-run"]) == 1
    out = capsys.readouterr()
    said = out.out + out.err
    assert "opencompass.datasets.cibench.CIBenchEvaluator fails in OpenCompass 0.5.4 too" in said
    assert errors.pop() in said


def test_missing_folder_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputFileError, match=r"CIBenchDataset: no such folder: \./data/cibench_dataset/cibench_template/nltk"):
        LOAD_DATASET.get("CIBenchDataset").load(path="./data/cibench_dataset/cibench_template/nltk")


def _notebook(folder: Path, metadata: dict[str, Any], cells: list[dict[str, Any]] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / "exp.ipynb"
    cells = cells if cells is not None else [{"cell_type": "markdown", "source": ["Load it."]},
                                             {"cell_type": "code", "source": ["x = 1"], "outputs": []}]
    file.write_text(json.dumps({"cells": cells, "metadata": metadata}), encoding="utf-8")
    return file


def test_module_annotations_that_do_not_match_the_step_types_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "lib", {"modules": ["pandas", "numpy"], "step_types": ["exec"]})
    with pytest.raises(InputFileError, match=r"lib/exp\.ipynb: metadata 'modules' has 2 entries and 'step_types' 1"):
        LOAD_DATASET.get("CIBenchDataset").load(path="lib")


def test_a_file_that_is_no_notebook_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "broken.ipynb").write_text("{not json", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"CIBenchDataset: lib/broken\.ipynb is not a readable notebook"):
        LOAD_DATASET.get("CIBenchDataset").load(path="lib")


def test_a_code_cell_without_outputs_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _notebook(tmp_path / "lib", {}, [{"cell_type": "code", "source": "x = 1"}])
    with pytest.raises(InputFileError, match=r"lib/exp\.ipynb, cell 0: a code cell without 'outputs'"):
        LOAD_DATASET.get("CIBenchDataset").load(path="lib")

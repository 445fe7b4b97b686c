"""OpenSWI's, ProteinLMBench's and SciKnowEval's loaders against OpenCompass 0.5.4's recorded rows, and the library's configs.

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
LOADERS = ("OpenSWIDataset", "ProteinLMBenchDataset", "SciKnowEvalDataset")


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the data files; the working folder holds ``tsynbio/ProteinLMBench`` and ``hicai-zju/SciKnowEval``."""
    for sub in ("cache", "tsynbio", "hicai-zju"):
        shutil.copytree(DATA / sub, tmp_path / sub)
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))  # empty: nothing comes from the Hub's cache
    monkeypatch.chdir(tmp_path)
    return tmp_path


CALLS = [(loader, call) for loader in LOADERS for call in RECORDED[loader]]


@pytest.mark.parametrize(("loader", "call"), CALLS, ids=[f"{lo}-{json.dumps(c['args'])}" for lo, c in CALLS])
def test_rows_equal_opencompass(data: Path, loader: str, call: dict[str, Any]) -> None:
    rows = [dict(r) for r in LOAD_DATASET.get(loader).load(**call["args"])]
    if loader == "OpenSWIDataset":  # the files come in the order the file system lists them, as in OpenCompass
        key = lambda r: r["id"]  # noqa: E731
        assert sorted(rows, key=key) == sorted(call["rows"], key=key)
    else:
        assert rows == call["rows"]


def test_openswi_without_its_subset_folder_names_it(data: Path) -> None:
    with pytest.raises(InputFileError, match=r"OpenSWIDataset: no such folder: .*OpenSWI-1k-v1/middle"):
        LOAD_DATASET.get("OpenSWIDataset").load(path="opencompass/openswi", name="middle")


def test_proteinlmbench_answer_without_an_option_number_names_the_row(data: Path) -> None:
    file = data / "tsynbio" / "ProteinLMBench" / "evaluation" / "train.jsonl"
    rows = [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines()]
    rows[2]["answer"] = "option two"
    file.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(InputFileError, match=r"tsynbio/ProteinLMBench, row 2: 'answer' 'option two' does not end in the option's number"):
        LOAD_DATASET.get("ProteinLMBenchDataset").load(path="tsynbio/ProteinLMBench")


def test_sciknoweval_missing_subset_file_names_it(data: Path) -> None:
    with pytest.raises(InputFileError, match=r"no such file: .*data/Physics/sciknoweval_physics_test\.jsonl"):
        LOAD_DATASET.get("SciKnowEvalDataset").load(path="hicai-zju/SciKnowEval", prompt_mode="zero-shot", subset="physics")


#: library config → (variable, loader, evaluator)
LIBRARY = {
    "openswi.openswi_gen": ("openswi_datasets", "OpenSWIDataset", "OpenSWIMSEEvaluator"),
    "openswi.openswi_rawprompt_gen": ("openswi_datasets", "OpenSWIDataset", "OpenSWIMSEEvaluator"),
    "ProteinLMBench.ProteinLMBench_gen_a67965": ("proteinlmbench_datasets", "ProteinLMBenchDataset", "ProteinLMBenchEvaluator"),
    "SciKnowEval.SciKnowEval_gen_ebe47d": ("sciknoweval_datasets", "SciKnowEvalDataset", "SciKnowEvalEvaluator"),
}


@pytest.mark.parametrize("module", sorted(LIBRARY))
def test_library_configs_load_rows_as_opencompass_does(module: str, oc_library: Path, data: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    variable, loader, evaluator = LIBRARY[module]
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = data / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.{module} import {variable}\n", encoding="utf-8")
    datasets = load_config(config).variables[variable]
    checked = 0
    for ds in datasets:
        assert ds["type"] is LOAD_DATASET.get(loader)
        assert ds["eval_cfg"]["evaluator"]["type"] is ICL_EVALUATORS.get(evaluator)
        args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg", "n", "k")}
        recorded = [c["rows"] for c in RECORDED[loader] if c["args"] == args]
        if recorded:
            rows = [dict(r) for r in ds["type"].load(**args)]
            assert sorted(rows, key=json.dumps) == sorted(recorded[0], key=json.dumps)
            checked += 1
    assert checked

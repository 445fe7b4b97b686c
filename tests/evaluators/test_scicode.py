"""SciCode's loader and evaluator against OpenCompass 0.5.4's recorded rows and metrics, and the library's configs.

The recording is made by ``scripts/record_oc_misc.py`` on the files under
``tests/data/oc_families/misc/cache/data/scicode`` (problems and HDF5 test data).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.registry import ICL_EVALUATORS, LOAD_DATASET

pytest.importorskip("h5py")

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "misc"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("call", RECORDED["SciCodeDataset"], ids=lambda c: json.dumps(c["args"]))
def test_rows_equal_opencompass(data: Path, call: dict[str, Any]) -> None:
    assert [dict(r) for r in LOAD_DATASET.get("SciCodeDataset").load(**call["args"])] == call["rows"]


@pytest.mark.parametrize("case", RECORDED["SciCodeEvaluator"], ids=lambda c: c["batch"])
def test_evaluator_equals_opencompass(data: Path, case: dict[str, Any]) -> None:
    """Steps right, wrong, without code, with import lines removed, a step whose test data file is missing."""
    evaluator = ICL_EVALUATORS.get("SciCodeEvaluator")(dataset_path="./data/scicode", with_bg=False, timeout=60)
    result = evaluator.score(case["predictions"])
    assert {k: result[k] for k in ("accuracy", "sub_accuracy")} == case["metrics"]


def test_steps_are_reported_per_sample(data: Path) -> None:
    case = next(c for c in RECORDED["SciCodeEvaluator"] if c["batch"] == "right")
    details = ICL_EVALUATORS.get("SciCodeEvaluator")(dataset_path="./data/scicode", with_bg=False).score(case["predictions"])["details"]
    # problem 62 skips its first step; problem 7's step has no test data file
    assert details == [{"problem": "1", "steps": {"1-1": "passed", "1-2": "passed"}, "correct": True},
                       {"problem": "62", "steps": {"62-2": "passed", "62-3": "passed"}, "correct": True},
                       {"problem": "7", "steps": {"7-1": "failed"}, "correct": False}]


def test_missing_test_data_folder_is_an_error_naming_it(data: Path) -> None:
    shutil.rmtree(data / "cache" / "data" / "scicode" / "test_data")
    result = ICL_EVALUATORS.get("SciCodeEvaluator")(dataset_path="./data/scicode", with_bg=False).score([["```python\nx = 1\n```"]])
    assert "SciCodeEvaluator: SciCode's test data folder" in result["error"]
    assert "data/scicode/test_data does not exist" in result["error"]


def test_a_reply_that_is_not_a_list_of_steps_names_the_sample(data: Path) -> None:
    result = ICL_EVALUATORS.get("SciCodeEvaluator")(dataset_path="./data/scicode", with_bg=False).score([["x"], "one reply"])
    assert result["error"].startswith("SciCodeEvaluator: sample 1 (problem 62) must be the list of the steps' replies")


@pytest.mark.parametrize("module", ["scicode_gen_085b98", "scicode_gen_62c139", "scicode_wbg_gen_085b98"])
def test_library_configs_load_rows_and_build_the_evaluator(module: str, oc_library: Path, data: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = data / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.scicode.{module} import SciCode_datasets\n", encoding="utf-8")
    (ds,) = load_config(config).variables["SciCode_datasets"]
    assert ds["type"] is LOAD_DATASET.get("SciCodeDataset")
    args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg")}
    recorded = next(c["rows"] for c in RECORDED["SciCodeDataset"] if c["args"] == args)
    assert [dict(r) for r in ds["type"].load(**args)] == recorded
    cfg = dict(ds["eval_cfg"]["evaluator"])
    evaluator = cfg.pop("type")(**cfg)
    assert evaluator.problems == recorded

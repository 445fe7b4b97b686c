"""Matbench's loader and evaluators against OpenCompass 0.5.4's recorded rows, metrics and details.

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
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data" / "Matbench"


@pytest.mark.parametrize("call", RECORDED["MatbenchDataset"], ids=[c["args"]["task"] for c in RECORDED["MatbenchDataset"]])
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    assert [dict(r) for r in LOAD_DATASET.get("MatbenchDataset").load(**call["args"])] == call["rows"]


@pytest.mark.parametrize("name", sorted(RECORDED["matbench"]))
def test_metrics_and_details_equal_opencompass(name: str) -> None:
    case = RECORDED["matbench"][name]
    assert ICL_EVALUATORS.get(name)().score(list(case["predictions"]), list(case["references"])) == case["result"]


def test_a_classification_reference_that_is_not_true_or_false_is_named() -> None:
    result = ICL_EVALUATORS.get("MatbenchEvaluator_classification")().score(["yes", "no"], [True, "False"])
    assert result == {"error": "MatbenchEvaluator_classification: reference 1 is 'False'; expected true or false"}


def test_missing_task_file_names_it(cache: Path) -> None:
    with pytest.raises(InputFileError, match=r"MatbenchDataset: no such file: .*matbench_base_fold_0_matbench_phonons_test\.json"):
        LOAD_DATASET.get("MatbenchDataset").load(path="opencompass/Matbench", task="matbench_phonons")


@pytest.mark.parametrize("module", ["matbench.matbench_gen_f71840", "matbench.matbench_regex_judge_gen_0e9276"])
def test_library_configs_name_these_components(module: str, oc_library: Path, cache: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.{module} import matbench_datasets\n", encoding="utf-8")
    datasets = load_config(config).variables["matbench_datasets"]
    evaluators = {ds["task"]: ds["eval_cfg"]["evaluator"]["type"] for ds in datasets}
    assert evaluators["matbench_steels"] is ICL_EVALUATORS.get("MatbenchEvaluator_regression")
    assert evaluators["matbench_expt_is_metal"] is ICL_EVALUATORS.get("MatbenchEvaluator_classification")
    glass = "MatbenchEvaluator_classification_glass" if "regex" in module else "MatbenchEvaluator_classification"
    assert evaluators["matbench_glass"] is ICL_EVALUATORS.get(glass)
    for ds in datasets:
        (call,) = [c for c in RECORDED["MatbenchDataset"] if c["args"]["task"] == ds["task"]]
        assert [dict(r) for r in ds["type"].load(path=ds["path"], task=ds["task"])] == call["rows"]

"""S²-TOMG-Bench (loader, evaluator) against OpenCompass 0.5.4's recordings (``scripts/record_oc_sci2.py``).

The evaluator needs RDKit (the optional extra ``chem``); its tests skip, saying
so, where it is missing.  OpenCompass's evaluator writes details; they are
compared with the metrics.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import ConfigError, InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci2"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))
PATH = "opencompass/S2-TOMG-Bench"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data" / "S2-TOMG-Bench"


@pytest.mark.parametrize("call", RECORDED["S2TOMGBenchDataset"], ids=lambda c: json.dumps(c["args"]))
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    assert [dict(r) for r in LOAD_DATASET.get("S2TOMGBenchDataset").load(**call["args"])] == call["rows"]


def test_bad_files_and_tasks_are_named(cache: Path) -> None:
    loader = LOAD_DATASET.get("S2TOMGBenchDataset")
    (cache / "MolEdit_AddComponent.csv").write_text("Instruction,added_group\nAdd one.,hydroxyl\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"MolEdit_AddComponent\.csv, row 1 has no 'molecule' column"):
        loader.load(path=PATH, name="MolEdit_AddComponent")
    (cache / "Other.csv").write_text("Instruction\nx\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"unsupported task None/None"):
        loader.load(path=PATH, name="Other")


CASES = RECORDED["S2TOMGBenchEvaluator"]


@pytest.mark.parametrize("case", CASES, ids=[c["task"] for c in CASES])
def test_metrics_and_details_equal_opencompass(case: dict[str, Any]) -> None:
    pytest.importorskip("rdkit", reason="RDKit (the chem extra) is not installed")
    result = ICL_EVALUATORS.get("S2TOMGBenchEvaluator")().score(list(case["predictions"]), list(case["references"]))
    assert json.loads(json.dumps(result)) == case["result"]


def test_a_reference_of_no_task_is_named() -> None:
    pytest.importorskip("rdkit", reason="RDKit (the chem extra) is not installed")
    result = ICL_EVALUATORS.get("S2TOMGBenchEvaluator")().score(["CCO"], [{"task_family": "MolFold", "subtask": "x"}])
    assert result["error"].startswith("S2TOMGBenchEvaluator: reference 0 unsupported task family 'MolFold'")


def test_library_config_loads_and_scores_with_these_components(oc_library: Path, cache: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      "    from opencompass.configs.datasets.s2_tomg_bench.s2_tomg_bench_gen import s2_tomg_bench_datasets\n",
                      encoding="utf-8")
    datasets = load_config(config).variables["s2_tomg_bench_datasets"]
    assert len(datasets) == 9
    by_task = {c["task"]: c for c in CASES}
    for ds in datasets:
        assert ds["eval_cfg"]["evaluator"]["type"] is ICL_EVALUATORS.get("S2TOMGBenchEvaluator")
        args = {k: ds[k] for k in ("path", "name", "task_family", "subtask")}
        rows = [dict(r) for r in ds["type"].load(**args)]
        (call,) = [c for c in RECORDED["S2TOMGBenchDataset"] if c["args"]["name"] == ds["name"] and "max_samples" not in c["args"]]
        assert rows == call["rows"]
        if importlib_has_rdkit():
            case = by_task[ds["name"]]
            refs = [r[ds["reader_cfg"]["output_column"]] for r in rows]
            result = ds["eval_cfg"]["evaluator"]["type"]().score(list(case["predictions"]), refs)
            assert json.loads(json.dumps(result)) == case["result"]


def importlib_has_rdkit() -> bool:
    import importlib.util

    return importlib.util.find_spec("rdkit") is not None

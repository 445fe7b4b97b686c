"""SciReasoner's OPI (loader, reader, evaluator) against OpenCompass 0.5.4's recordings.

The recording is made by ``scripts/record_oc_sci2.py`` on the files under
``tests/data/oc_families/sci2``.  OpenCompass's ``Opi_Evaluator`` writes no
details; its metrics are compared.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci2"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data" / "SciReasoner" / "OPI_test"


def _splits(loaded: Any) -> dict[str, list[dict[str, Any]]]:
    return {k: [dict(r) for r in loaded[k]] for k in loaded}


@pytest.mark.parametrize("call", RECORDED["OpiDataset"], ids=[json.dumps(c["args"]) for c in RECORDED["OpiDataset"]])
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    assert _splits(LOAD_DATASET.get("OpiDataset").load(**call["args"])) == call["splits"]


def test_a_missing_task_folder_is_named(cache: Path) -> None:
    with pytest.raises(InputFileError, match=r"OpiDataset: no such file: .*OPI_test/Nope/dev/data\.json"):
        LOAD_DATASET.get("OpiDataset").load(path="opencompass/SciReasoner-OPI", task="Nope")


@pytest.mark.parametrize(("reply", "expected"), RECORDED["opi_postprocess"])
def test_reader_equals_opencompass(reply: str, expected: str) -> None:
    assert TEXT_POSTPROCESSORS.get("opi_postprocess")(reply, task="GO") == expected


CASES = RECORDED["Opi_Evaluator"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['task']}-{i}" for i, c in enumerate(CASES)])
def test_metrics_equal_opencompass(case: dict[str, Any]) -> None:
    result = ICL_EVALUATORS.get("Opi_Evaluator")(task=case["task"]).score(list(case["predictions"]), list(case["references"]))
    assert len(result.pop("details")) == len(case["predictions"])
    assert result == case["result"]


def test_a_reply_that_is_not_text_is_named() -> None:
    assert ICL_EVALUATORS.get("Opi_Evaluator")(task="GO").score(["GO:1", 3], ["GO:1", "GO:2"]) == {
        "error": "Opi_Evaluator: prediction 1 is 3, expected text"}


@pytest.mark.parametrize("module", ["opi_gen", "opi_rawprompt_gen"])
def test_library_configs_load_and_score_with_these_components(module: str, oc_library: Path, cache: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.SciReasoner.{module} import all_datasets, mini_all_datasets\n",
                      encoding="utf-8")
    variables = load_config(config).variables
    datasets = variables["all_datasets"] + variables["mini_all_datasets"]
    assert len(datasets) == 32
    reader = TEXT_POSTPROCESSORS.get("opi_postprocess")
    recorded = {json.dumps(c["args"], sort_keys=True): c["splits"] for c in RECORDED["OpiDataset"]}
    by_task = {c["task"]: c for c in CASES if len(c["predictions"]) == 10}
    loaded = 0
    for ds in datasets:
        evaluator = ds["eval_cfg"]["evaluator"]
        assert ds["type"] is LOAD_DATASET.get("OpiDataset") and evaluator["type"] is ICL_EVALUATORS.get("Opi_Evaluator")
        assert ds["eval_cfg"]["pred_postprocessor"]["type"] is reader and ds["eval_cfg"]["dataset_postprocessor"]["type"] is reader
        args = {k: v for k, v in ds.items() if k not in ("abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg")}
        key = json.dumps(args, sort_keys=True)
        if key in recorded:
            assert _splits(ds["type"].load(**args)) == recorded[key]
            loaded += 1
        case = by_task[evaluator["task"]]
        result = evaluator["type"](task=evaluator["task"]).score(list(case["predictions"]), list(case["references"]))
        result.pop("details")
        assert result == case["result"]
    assert loaded == 6

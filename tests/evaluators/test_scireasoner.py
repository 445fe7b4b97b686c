"""SciReasoner's GUE task (loader, reader, evaluator) against OpenCompass 0.5.4's recordings.

The recording is made by ``scripts/record_oc_sci.py`` on the files under
``tests/data/oc_families/sci``.  OpenCompass's ``GUE_Evaluator`` writes no
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

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data" / "SciReasoner" / "GUE-test"


@pytest.mark.parametrize("call", RECORDED["GUE_Dataset"], ids=[json.dumps(c["args"]) for c in RECORDED["GUE_Dataset"]])
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    loaded = LOAD_DATASET.get("GUE_Dataset").load(**call["args"])
    assert {k: [dict(r) for r in loaded[k]] for k in loaded} == call["splits"]


def test_mini_set_of_too_few_questions_names_the_file(cache: Path) -> None:
    with pytest.raises(InputFileError, match=r"mini_set draws 150 questions and .*cpd-prom_core_all/test/data\.json holds 8"):
        LOAD_DATASET.get("GUE_Dataset").load(path="opencompass/SciReasoner-GUE", task="cpd-prom_core_all", mini_set=True)


@pytest.mark.parametrize(("reply", "expected"), RECORDED["GUE_postprocessor"])
def test_reader_equals_opencompass(reply: Any, expected: str) -> None:
    assert TEXT_POSTPROCESSORS.get("GUE_postprocessor")(reply) == expected


@pytest.mark.parametrize("case", RECORDED["GUE_Evaluator"])
def test_metrics_equal_opencompass(case: dict[str, Any]) -> None:
    result = ICL_EVALUATORS.get("GUE_Evaluator")().score(list(case["predictions"]), list(case["references"]))
    assert len(result.pop("details")) == len(case["predictions"])
    assert result == case["result"]


@pytest.mark.parametrize("module", ["SciReasoner.GUE_gen", "SciReasoner.GUE_rawprompt_gen"])
def test_library_configs_name_these_components(module: str, oc_library: Path, cache: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.{module} import GUE_datasets\n", encoding="utf-8")
    datasets = load_config(config).variables["GUE_datasets"]
    reader = TEXT_POSTPROCESSORS.get("GUE_postprocessor")
    for ds in datasets:
        assert ds["type"] is LOAD_DATASET.get("GUE_Dataset")
        assert ds["eval_cfg"]["evaluator"]["type"] is ICL_EVALUATORS.get("GUE_Evaluator")
        assert ds["eval_cfg"]["pred_postprocessor"]["type"] is reader and ds["eval_cfg"]["dataset_postprocessor"]["type"] is reader
    (first,) = [ds for ds in datasets if ds["task"] == "cpd-prom_core_all"]
    loaded = first["type"].load(path=first["path"], task=first["task"])
    assert {k: [dict(r) for r in loaded[k]] for k in loaded} == RECORDED["GUE_Dataset"][0]["splits"]

"""SciReasoner's GUE task (loader, reader, evaluator) against OpenCompass 0.5.4's recordings.

The recording is made by ``scripts/record_oc_sci.py`` on the files under
``tests/data/oc_families/sci``.  OpenCompass's ``GUE_Evaluator`` writes no
details; its metrics are compared.
"""

from __future__ import annotations

import json
import math
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


@pytest.mark.parametrize("call", RECORDED["LLM4MatDataset"], ids=[json.dumps(c["args"]) for c in RECORDED["LLM4MatDataset"]])
def test_llm4mat_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    loaded = LOAD_DATASET.get("LLM4MatDataset").load(**call["args"])
    assert {k: [dict(r) for r in loaded[k]] for k in loaded} == call["splits"]


@pytest.mark.parametrize(("prop", "reply", "expected"), RECORDED["LLM4Mat_postprocessor"])
def test_llm4mat_reader_equals_opencompass(prop: str, reply: str, expected: Any) -> None:
    got = TEXT_POSTPROCESSORS.get("LLM4Mat_postprocessor")(reply, property=prop)
    if isinstance(expected, float) and math.isnan(expected):  # '{band_gap : nan}' reads as NaN
        assert isinstance(got, float) and math.isnan(got)
    else:
        assert got == expected


def test_llm4mat_reader_reads_a_closing_fence_after_long_whitespace_in_linear_time() -> None:
    reader = TEXT_POSTPROCESSORS.get("LLM4Mat_postprocessor")
    assert reader("```json\n{\"band_gap\": 0.5}" + " " * 200_000 + "\n```", property="band_gap") == 0.5
    assert reader("{band_gap : 1.5}" + "\n" * 200_000 + "x", property="band_gap") == 1.5
    # a fence right after the whitespace an opening fence took is removed too, as OpenCompass removes it
    assert reader('```\n ```\n{"band_gap": "2.0 eV"}', property="band_gap") == "2.0 eV"  # read as JSON


@pytest.mark.parametrize("case", RECORDED["LLM4Mat_Evaluator"])
def test_llm4mat_metrics_equal_opencompass(case: dict[str, Any]) -> None:
    assert ICL_EVALUATORS.get("LLM4Mat_Evaluator")().score(list(case["predictions"]), list(case["references"])) == case["result"]


def test_llm4mat_library_configs_name_these_components(oc_library: Path, cache: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      "    from opencompass.configs.datasets.SciReasoner.LLM4Mat_gen import LLM4Mat_datasets\n", encoding="utf-8")
    datasets = load_config(config).variables["LLM4Mat_datasets"]
    reader = TEXT_POSTPROCESSORS.get("LLM4Mat_postprocessor")
    for ds in datasets:
        assert ds["type"] is LOAD_DATASET.get("LLM4MatDataset")
        assert ds["eval_cfg"]["evaluator"]["type"] is ICL_EVALUATORS.get("LLM4Mat_Evaluator")
        assert ds["eval_cfg"]["pred_postprocessor"] == {"type": reader, "property": ds["property"]}
    (band_gap,) = [ds for ds in datasets if ds["abbr"].endswith("MP_Bandgap")]
    args = {k: band_gap[k] for k in ("path", "property", "train_path", "test_path")}
    loaded = band_gap["type"].load(**args)
    (call,) = [c for c in RECORDED["LLM4MatDataset"] if c["args"] == args]
    assert {k: [dict(r) for r in loaded[k]] for k in loaded} == call["splits"]

"""SciReasoner 1.5 (loader, evaluators) against OpenCompass 0.5.4's recordings (``scripts/record_oc_sci2.py``).

OpenCompass's evaluators write no details; their metrics and extras are compared.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import ConfigError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci2"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))
EVALUATORS = {"material": ("SciReasoner15MaterialEvaluator", {"property_name": "bandgap"}),
              "go_bp": ("SciReasoner15GOEvaluator", {}), "tmscore": ("SciReasoner15TMScoreEvaluator", {}),
              "dude_count": ("SciReasoner15DudeEvaluator", {})}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data" / "SciReasoner1.5" / "test-1.5"


@pytest.mark.parametrize("call", RECORDED["SciReasoner15Dataset"], ids=lambda c: json.dumps(c["args"]))
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    assert [dict(r) for r in LOAD_DATASET.get("SciReasoner15Dataset").load(**call["args"])] == call["rows"]


def test_an_unknown_source_is_named(cache: Path) -> None:
    with pytest.raises(ConfigError, match="no file for source 'mp' \\(known: oqmd, jarvis_dft\\)"):
        LOAD_DATASET.get("SciReasoner15Dataset").load(path="opencompass/SciReasoner1.5", name="x", task_type="material",
                                                      source="mp", property_name="bandgap")


CASES = RECORDED["SciReasoner15Evaluators"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['task_type']}-{i}" for i, c in enumerate(CASES)])
def test_metrics_equal_opencompass(case: dict[str, Any]) -> None:
    name, options = EVALUATORS[case["task_type"]]
    result = ICL_EVALUATORS.get(name)(**options).score(list(case["predictions"]), list(case["references"]))
    assert len(result.pop("details")) == len(case["predictions"])
    assert json.loads(json.dumps(result)) == case["result"]


def test_library_config_loads_and_scores_with_these_components(oc_library: Path, cache: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      "    from opencompass.configs.datasets.scireasoner1_5.scireasoner1_5_gen import scireasoner1_5_datasets\n",
                      encoding="utf-8")
    datasets = load_config(config).variables["scireasoner1_5_datasets"]
    loaded = set()
    for ds in datasets:
        assert ds["type"] is LOAD_DATASET.get("SciReasoner15Dataset")
        args = {k: v for k, v in ds.items() if k not in ("abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg")}
        recorded = [c["rows"] for c in RECORDED["SciReasoner15Dataset"] if c["args"] == args]
        if recorded:
            assert [dict(r) for r in ds["type"].load(**args)] == recorded[0]
            loaded.add(args["task_type"])
        options = dict(ds["eval_cfg"]["evaluator"])
        evaluator = options.pop("type")
        kind = args["task_type"]
        assert evaluator is ICL_EVALUATORS.get(EVALUATORS[kind][0])
        if kind != "material" or options.get("property_name") == "bandgap":
            case = next(c for c in CASES if c["task_type"] == kind)
            result = evaluator(**options).score(list(case["predictions"]), list(case["references"]))
            result.pop("details")
            assert json.loads(json.dumps(result)) == case["result"]
    assert loaded >= {"material", "go_bp", "dude_count"}

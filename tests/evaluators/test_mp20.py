"""MP-20 (loader, evaluator) against OpenCompass 0.5.4's recordings (``scripts/record_oc_sci2.py``).

The evaluator needs pymatgen (in the optional extra ``chem``, with SMACT); its
tests skip, saying so, where it is missing.  OpenCompass's ``MP20Evaluator``
writes no details; its metrics are compared.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci2"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data" / "mp20"


def test_rows_equal_opencompass(cache: Path) -> None:
    (call,) = RECORDED["MP20Dataset"]
    assert [dict(r) for r in LOAD_DATASET.get("MP20Dataset").load(**call["args"])] == call["rows"]


def test_a_question_without_its_structure_names_the_file_and_line(cache: Path) -> None:
    with (cache / "mp20_test.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps({"id_ddm": "x", "system_prompt": "", "user_input": ""}) + "\n")
    with pytest.raises(InputFileError, match=r"MP20Dataset: .*mp20_test\.jsonl, question 4 has no 'ground_truth' field"):
        LOAD_DATASET.get("MP20Dataset").load(path="opencompass/mp20")


@pytest.mark.parametrize("case", RECORDED["MP20Evaluator"], ids=lambda c: f"{len(c['predictions'])}-replies")
def test_metrics_equal_opencompass(case: dict[str, Any]) -> None:
    pytest.importorskip("pymatgen", reason="pymatgen (the chem extra) is not installed")
    result = ICL_EVALUATORS.get("MP20Evaluator")().score(list(case["predictions"]), list(case["references"]))
    details = result.pop("details")
    assert result == case["result"]
    assert sum(d["matched"] for d in details) == case["result"]["matched"]


def test_a_reference_without_sites_is_named() -> None:
    pytest.importorskip("pymatgen", reason="pymatgen (the chem extra) is not installed")
    result = ICL_EVALUATORS.get("MP20Evaluator")().score(["{}"], [{"lattice": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}])
    assert result["error"].startswith("MP20Evaluator: reference 0 needs 'lattice' and a list of 'sites'")


def test_library_config_loads_and_scores_with_these_components(oc_library: Path, cache: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      "    from opencompass.configs.datasets.mp20.mp20_rawprompt_gen import mp20_datasets\n", encoding="utf-8")
    (ds,) = load_config(config).variables["mp20_datasets"]
    assert ds["eval_cfg"]["evaluator"]["type"] is ICL_EVALUATORS.get("MP20Evaluator")
    rows = ds["type"].load(path=ds["path"])
    assert [dict(r) for r in rows] == RECORDED["MP20Dataset"][0]["rows"]
    pytest.importorskip("pymatgen", reason="pymatgen (the chem extra) is not installed")
    case = RECORDED["MP20Evaluator"][1]
    references = [rows[0][ds["reader_cfg"]["output_column"]]] * 2
    assert references == case["references"]
    result = ds["eval_cfg"]["evaluator"]["type"]().score(list(case["predictions"]), references)
    result.pop("details")
    assert result == case["result"]

"""Kaoshi's loader against OpenCompass 0.5.4's recordings (``scripts/record_oc_sci2.py``), and the library config."""

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
    return tmp_path / "cache"


@pytest.mark.parametrize("call", RECORDED["KaoshiDataset"], ids=[c["args"]["name"] for c in RECORDED["KaoshiDataset"]])
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    assert [dict(r) for r in LOAD_DATASET.get("KaoshiDataset").load(**call["args"])] == call["rows"]


def test_a_choice_question_without_options_names_the_file_and_line(cache: Path) -> None:
    file = cache / "data" / "Kaoshi" / "职业-消防" / "单选题.jsonl"
    file.write_text(file.read_text(encoding="utf-8") + json.dumps({"question": "?", "answer": ["A"]}) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"KaoshiDataset: .*单选题\.jsonl, line 3 has no 'options' field"):
        LOAD_DATASET.get("KaoshiDataset").load(path="./data/Kaoshi/职业-消防/单选题.jsonl", name="single_choice")


def test_library_config_loads_and_scores_with_these_components(oc_library: Path, cache: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      "    from opencompass.configs.datasets.kaoshi.kaoshi_gen_86aca2 import kaoshi_datasets\n", encoding="utf-8")
    datasets = load_config(config).variables["kaoshi_datasets"]
    assert len(datasets) == 29
    by_path = {c["args"]["path"]: c for c in RECORDED["KaoshiDataset"]}
    scored = {c["question_type"]: c for c in RECORDED["KaoshiEvaluator"]}
    seen = set()
    for ds in datasets:
        assert ds["type"] is LOAD_DATASET.get("KaoshiDataset")
        assert ds["eval_cfg"]["evaluator"]["type"] is ICL_EVALUATORS.get("KaoshiEvaluator")
        call = by_path.get(ds["path"])
        if call is None:
            continue
        seen.add(ds["name"])
        assert call["args"]["name"] == ds["name"] == ds["eval_cfg"]["evaluator"]["question_type"]
        rows = [dict(r) for r in ds["type"].load(path=ds["path"], name=ds["name"])]
        assert rows == call["rows"]
        case = scored[ds["name"]]
        evaluator = ds["eval_cfg"]["evaluator"]["type"](question_type=ds["eval_cfg"]["evaluator"]["question_type"])
        assert evaluator.score(case["predictions"], case["references"])["score"] == case["result"]["score"]
    assert seen == {"single_choice", "multi_choice", "multi_question_choice", "five_out_of_seven", "judgment", "cloze"}

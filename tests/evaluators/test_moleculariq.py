"""MolecularIQ's loader and its count and index evaluators against OpenCompass 0.5.4's recordings.

The recording is made by ``scripts/record_oc_moleculariq.py`` on the files under
``tests/data/oc_families/moleculariq``: loader rows, and the evaluators' metrics
and details on replies reaching each branch of their readers, against
references as written and as the loaded rows give them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import EvaluationError, InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "moleculariq"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))
CASES = [(name, i, case) for name, cases in RECORDED["evaluators"].items() for i, case in enumerate(cases)]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data" / "MolecularIQ" / "test_task"


@pytest.mark.parametrize("call", RECORDED["MoleculariqDataset"], ids=lambda c: c["args"]["name"])
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    assert [dict(r) for r in LOAD_DATASET.get("MoleculariqDataset").load(**call["args"])] == call["rows"]


def test_a_line_that_is_not_json_is_named(cache: Path) -> None:
    (cache / "bad.jsonl").write_text('{"uid": "a", "question": "q", "target": {"ring_count": 1}}\n{oops\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"bad\.jsonl, line 2 is not JSON"):
        LOAD_DATASET.get("MoleculariqDataset").load(path="opencompass/MolecularIQ", name="bad")


@pytest.mark.parametrize(("name", "i", "case"), CASES, ids=[f"{n}-{i}" for n, i, _ in CASES])
def test_metrics_and_details_equal_opencompass(name: str, i: int, case: dict[str, Any]) -> None:
    result = ICL_EVALUATORS.get(name)().score(list(case["predictions"]), list(case["references"]))
    assert json.loads(json.dumps(result)) == case["result"]


@pytest.mark.parametrize("module", ["molculariq_gen", "molculariq_rawprompt_gen"])
def test_library_configs_name_these_components(module: str, oc_library: Path, cache: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.molculariq.{module} import moleculariq_datasets\n",
                      encoding="utf-8")
    datasets = {ds["name"]: ds for ds in load_config(config).variables["moleculariq_datasets"]}
    assert sorted(datasets) == ["count", "generation", "index"]
    for name, ds in datasets.items():
        assert ds["type"] is LOAD_DATASET.get("MoleculariqDataset")
        (rows,) = [c["rows"] for c in RECORDED["MoleculariqDataset"] if c["args"] == {"path": ds["path"], "name": name}]
        assert [dict(r) for r in ds["type"].load(path=ds["path"], name=name)] == rows
    for name, evaluator in (("count", "MoleculariqCountEvaluator"), ("index", "MoleculariqIndexEvaluator")):
        assert datasets[name]["eval_cfg"]["evaluator"]["type"] is ICL_EVALUATORS.get(evaluator)


@pytest.mark.parametrize("case", RECORDED["failing"], ids=lambda c: f"{c['evaluator']}-{c['raises']}-{len(c['predictions'][-1])}")
def test_replies_opencompass_cannot_score_are_named(case: dict[str, Any]) -> None:
    """Where OpenCompass stops with an exception, assay stops with an error naming the sample and its reply."""
    sample = len(case["predictions"]) - 1
    with pytest.raises(EvaluationError, match=rf"{case['evaluator']}: sample {sample}'s reply '<answer>\"ring") as info:
        ICL_EVALUATORS.get(case["evaluator"])().score(list(case["predictions"]), list(case["references"]))
    assert case["raises"] in str(info.value)


@pytest.mark.parametrize("name", ["MoleculariqCountEvaluator", "MoleculariqIndexEvaluator"])
def test_pred_postprocessor_is_applied_before_reading(name: str) -> None:
    """The evaluators take OpenCompass's ``pred_postprocessor`` and read the postprocessed replies: here the answer
    after the reasoning, not the one inside it."""
    reply, ref = {"MoleculariqCountEvaluator": ("<think><answer>2</answer></think><answer>0</answer>", {"ring_count": 0}),
                  "MoleculariqIndexEvaluator": ("<think><answer>[1]</answer></think><answer>[0]</answer>", {"ring_index": [0]})}[name]
    evaluator = ICL_EVALUATORS.get(name)(pred_postprocessor=dict(type="extract-non-reasoning-content"))
    assert evaluator.evaluate(1, 1, [{}], predictions=[reply], references=[ref])["score"] == 100.0
    assert ICL_EVALUATORS.get(name)().evaluate(1, 1, [{}], predictions=[reply], references=[ref])["score"] == 0.0

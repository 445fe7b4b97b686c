"""The biology-instruction tasks (loader, eight evaluators) against OpenCompass 0.5.4's recordings.

The recording is made by ``scripts/record_oc_biodata.py`` on the files under
``tests/data/oc_families/biodata``: loader rows, and each evaluator's metrics
and details (NaN and infinity included) on hand-written and seeded random
batches.
"""

from __future__ import annotations

import json
import math
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import ConfigError, EvaluationError, InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "biodata"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))
PATH = "opencompass/biology-instruction"
AUC_LABELS = ["atoi", "m6a", "none", "m1a", "m5c", "m5u", "m6am", "m7g", "cm", "am", "gm", "um", "psi"]
CASES = [(name, i, case) for name, cases in RECORDED["evaluators"].items() for i, case in enumerate(cases)]
REFERENCE_TYPES = [(name, i, case) for name, cases in RECORDED["reference_types"].items() for i, case in enumerate(cases)]
REPLY_TYPES = [(name, i, case) for name, cases in RECORDED["reply_types"].items() for i, case in enumerate(cases)]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(DATA / "cache", tmp_path / "cache")
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "data" / "biology-instruction-fixed"


def same(got: Any, expected: Any) -> bool:
    """Equal as JSON values, NaN equal to NaN."""
    if isinstance(expected, float) and math.isnan(expected):
        return isinstance(got, float) and math.isnan(got)
    if isinstance(expected, dict):
        return isinstance(got, dict) and got.keys() == expected.keys() and all(same(got[k], expected[k]) for k in expected)
    if isinstance(expected, list):
        return isinstance(got, list) and len(got) == len(expected) and all(map(same, got, expected))
    return bool(got == expected) and type(got) is type(expected)


def _evaluator(name: str) -> Any:
    options = {"predefined_labels": AUC_LABELS} if name == "BiodataAucEvaluator" else {}
    return ICL_EVALUATORS.get(name)(**options)


@pytest.mark.parametrize("call", RECORDED["BiodataTaskDataset"], ids=lambda c: f"{c['args']['task']}-{c['args']['mini_set']}")
def test_rows_equal_opencompass(cache: Path, call: dict[str, Any]) -> None:
    assert [dict(r) for r in LOAD_DATASET.get("BiodataTaskDataset").load(**call["args"])] == call["rows"]


@pytest.mark.parametrize(("name", "i", "case"), CASES, ids=[f"{n}-{i}" for n, i, _ in CASES])
def test_metrics_and_details_equal_opencompass(name: str, i: int, case: dict[str, Any]) -> None:
    _assert_as_recorded(name, _evaluator(name).score(list(case["predictions"]), list(case["references"])), case["result"])


def _assert_as_recorded(name: str, got: dict[str, Any], recorded: dict[str, Any]) -> None:
    result, expected = json.loads(json.dumps(got)), dict(recorded)
    if name == "BiodataAucEvaluator":
        # OpenCompass keeps the labels in a set and averages their AUCs in its hash order, so its own value
        # moves in the last bits from one run to the next (PYTHONHASHSEED); assay averages in the listed order
        assert result.pop("auc") == pytest.approx(expected.pop("auc"), rel=1e-14, abs=0)
    for metric in _DOT_PRODUCT_METRICS:
        if metric in expected:
            # Pearson's r ends in a dot product whose last bit depends on the CPU's BLAS kernel (SciPy's in
            # OpenCompass, NumPy's in assay): on one machine both agree to the bit, across machines within an ulp or two
            assert result.pop(metric) == pytest.approx(expected.pop(metric), rel=1e-14, abs=0, nan_ok=True)
    assert same(result, expected)


#: the metrics computed with Pearson's r
_DOT_PRODUCT_METRICS = ("r^2", "pcc")


def test_an_unknown_answer_type_names_the_file_and_row(cache: Path) -> None:
    (cache / "odd.jsonl").write_text(json.dumps({"prompt": "p", "ground_truth": 1, "meta_data": {"ans_type": "list"}}) + "\n",
                                     encoding="utf-8")
    with pytest.raises(InputFileError, match=r"odd\.jsonl, row 1: unknown meta_data\.ans_type 'list'"):
        LOAD_DATASET.get("BiodataTaskDataset").load(path=PATH, task="odd")


def test_bad_references_and_options_are_named() -> None:
    with pytest.raises(EvaluationError, match="BiodataMCCEvaluator: the reference 'maybe' is not one of"):
        ICL_EVALUATORS.get("BiodataMCCEvaluator")().score(["\\boxed{yes}"], ["maybe"])
    with pytest.raises(EvaluationError, match="BiodataPCCEvaluator: Pearson's r needs at least 2 answers read as numbers; got 1 of 2"):
        ICL_EVALUATORS.get("BiodataPCCEvaluator")().score(['{"a": 1}', "none"], [{"a": 1.0}, {"a": 2.0}])
    with pytest.raises(EvaluationError, match="BiodataR2Evaluator: sample 0's reference 3 is neither"):
        ICL_EVALUATORS.get("BiodataR2Evaluator")().score(["\\boxed{3}"], [3])
    with pytest.raises(ConfigError, match="BiodataAucEvaluator: predefined_labels must list the labels"):
        ICL_EVALUATORS.get("BiodataAucEvaluator")()


MODULES = ["biodata_task_gen", "biodata_task_rawprompt_gen"]
EVALUATORS = {"MCC": "BiodataMCCEvaluator", "PCC": "BiodataPCCEvaluator", "Spearman": "BiodataSpearmanEvaluator",
              "R2": "BiodataR2Evaluator", "Auc": "BiodataAucEvaluator", "Acc": "BiodataAccEvaluator",
              "Fmax": "BiodataECNumberEvaluator", "Mixed": "BiodataMixedScoreEvaluator"}


@pytest.mark.parametrize("module", MODULES)
def test_library_configs_load_and_score_with_these_components(module: str, oc_library: Path, cache: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.biodata.{module} import *\n", encoding="utf-8")
    variables = load_config(config).variables
    datasets = variables["biodata_task_datasets"] + variables.get("mini_biodata_task_datasets", [])
    tasks = {task: metric for metric, names in variables["tasks"].items() for task in names}
    assert len(datasets) == len(tasks) * (2 if module.endswith("rawprompt_gen") else 1)
    for ds in datasets:
        assert ds["type"] is LOAD_DATASET.get("BiodataTaskDataset")
        args = {"path": ds["path"], "task": ds["task"], "mini_set": ds.get("mini_set", False)}
        loaded = [dict(r) for r in ds["type"].load(**args)]
        recorded = [c["rows"] for c in RECORDED["BiodataTaskDataset"] if c["args"] == args]
        assert recorded, f"no recording of {args}: add it to scripts/record_oc_biodata.py's LOADS"
        assert loaded == recorded[0]
        options = dict(ds["eval_cfg"]["evaluator"])
        evaluator = options.pop("type")
        name = EVALUATORS[tasks[ds["task"]]]
        assert evaluator is ICL_EVALUATORS.get(name)
        case = RECORDED["evaluators"][name][0]
        _assert_as_recorded(name, evaluator(**options).score(list(case["predictions"]), list(case["references"])),
                            case["result"])


def test_assay_eval_scores_library_tasks_as_opencompass(oc_library: Path, cache: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``assay eval`` on prediction files of nine library tasks (one per evaluator, records and floats as references
    among them): each result's metric is OpenCompass's on the same replies and rows."""
    from assay.cli import main

    pipeline = RECORDED["pipeline"]
    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      "    from opencompass.configs.datasets.biodata.biodata_task_gen import biodata_task_datasets\n"
                      f"datasets = [d for d in biodata_task_datasets if d['task'] in {sorted(pipeline)!r}]\n"
                      "models = [dict(abbr='m', path='org/m')]\n", encoding="utf-8")
    predictions = tmp_path / "work" / "run" / "predictions" / "m"
    predictions.mkdir(parents=True)
    for task, case in pipeline.items():
        records = {str(i): {"origin_prompt": "", "prediction": reply} for i, reply in enumerate(case["replies"])}
        (predictions / f"{task}-sample_1k.json").write_text(json.dumps(records), encoding="utf-8")
    assert main(["eval", str(config), "-w", str(tmp_path / "work"), "-r", "run", "--workers", "1"]) == 0
    for task, case in pipeline.items():
        result = json.loads((tmp_path / "work" / "run" / "results" / "m" / f"{task}-sample_1k.json").read_text(encoding="utf-8"))
        ((metric, expected),) = case["result"].items()
        if metric == "auc" or metric in _DOT_PRODUCT_METRICS:  # see _assert_as_recorded
            assert result[metric] == pytest.approx(expected, rel=1e-14, abs=0, nan_ok=True)
        else:
            assert result[metric] == expected, task


@pytest.mark.parametrize("name", ["BiodataPCCEvaluator", "BiodataR2Evaluator"])
def test_records_without_keys_are_named(name: str) -> None:
    """References that are all empty records leave nothing to correlate: OpenCompass divides by zero, assay names it."""
    with pytest.raises(EvaluationError, match=rf"{name}: no reference holds a key to correlate \(the first: \{{\}}\)"):
        ICL_EVALUATORS.get(name)().score(["{}", "{}"], [{}, {}])


@pytest.mark.parametrize(("name", "i", "case"), REFERENCE_TYPES, ids=[f"{n}-{i}" for n, i, _ in REFERENCE_TYPES])
def test_references_of_other_types_score_or_fail_as_in_opencompass(name: str, i: int, case: dict[str, Any]) -> None:
    """References that are text, ``None``, booleans, nested lists, records holding text or integers beyond float:
    where OpenCompass scores them assay gives its metrics and details; where it fails, assay's error names the
    evaluator, the sample and its reference (never a number OpenCompass does not compute)."""
    evaluator, references = _evaluator(name), list(case["references"])
    if "raises" not in case["result"]:
        _assert_as_recorded(name, evaluator.score(list(case["predictions"]), references), case["result"])
        return
    _assert_named(name, evaluator, list(case["predictions"]), references, "reference")


@pytest.mark.parametrize(("name", "i", "case"), REPLY_TYPES, ids=[f"{n}-{i}" for n, i, _ in REPLY_TYPES])
def test_replies_that_are_not_text_are_named(name: str, i: int, case: dict[str, Any]) -> None:
    """A reply that is ``None``, a number, a list or a record: OpenCompass fails, assay's error names the sample and
    the reply instead of scoring its text form."""
    assert "raises" in case["result"]
    _assert_named(name, _evaluator(name), list(case["predictions"]), list(case["references"]), "reply")


def _assert_named(name: str, evaluator: Any, predictions: list[Any], references: list[Any], side: str) -> None:
    with pytest.raises(EvaluationError) as failed:
        evaluator.score(predictions, references)
    message = str(failed.value)
    named = re.match(rf"{name}: sample (\d+)'s {side} ", message)
    assert named, message
    assert repr((references if side == "reference" else predictions)[int(named.group(1))])[:60] in message

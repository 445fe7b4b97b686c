"""LLM compression's, inference PPL's, the Hungarian exam's and SciEval's loaders, and inference PPL's
evaluator, against OpenCompass 0.5.4's recorded rows and metrics, and the library's configs.

The recording is made by ``scripts/record_oc_misc.py`` on the files under
``tests/data/oc_families/misc``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.errors import InputFileError
from assay.registry import ICL_EVALUATORS, LOAD_DATASET

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "misc"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))
LOADERS = ("LLMCompressionDataset", "InferencePPLDataset", "HungarianExamMathDataset", "SciEvalDataset")


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the data files; the working folder holds ``OpenDFM/SciEval``."""
    for sub in ("cache", "OpenDFM"):
        shutil.copytree(DATA / sub, tmp_path / sub)
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))  # empty: nothing comes from the Hub's cache
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _loaded(ds: Any) -> Any:
    import datasets

    if isinstance(ds, datasets.DatasetDict):
        return {name: [dict(r) for r in ds[name]] for name in ds}
    return [dict(r) for r in ds]


CALLS = [(loader, call) for loader in LOADERS for call in RECORDED[loader]]


@pytest.mark.parametrize(("loader", "call"), CALLS, ids=[f"{lo}-{json.dumps(c['args'])}" for lo, c in CALLS])
def test_rows_equal_opencompass(data: Path, loader: str, call: dict[str, Any]) -> None:
    loaded = _loaded(LOAD_DATASET.get(loader).load(**call["args"]))
    assert loaded == call.get("rows", call.get("splits"))


def test_scieval_category_list_of_the_library_loads_no_question(data: Path) -> None:
    """The library's configs pass ``category=['biology']``: OpenCompass keeps no record, and neither does assay."""
    table = LOAD_DATASET.get("SciEvalDataset").load(path="OpenDFM/SciEval", name="default", category=["biology"])
    assert table["test"].num_rows == 0
    assert table["test"].num_rows < LOAD_DATASET.get("SciEvalDataset").load(path="OpenDFM/SciEval", name="default",
                                                                            category="biology")["test"].num_rows


@pytest.mark.parametrize("case", RECORDED["AverageInferencePPLEvaluator"], ids=lambda c: json.dumps(c["inputs"]))
def test_average_inference_ppl_equals_opencompass(case: dict[str, Any]) -> None:
    assert ICL_EVALUATORS.get("AverageInferencePPLEvaluator")().score(**case["inputs"]) == case["metrics"]


def test_average_inference_ppl_bad_value_names_it() -> None:
    result = ICL_EVALUATORS.get("AverageInferencePPLEvaluator")().score(ppl=[1.0, None], token_len=[3, 4])
    assert result == {"error": "AverageInferencePPLEvaluator: ppl[1] is None, expected a finite number"}


def test_corpus_without_its_file_names_both_files_looked_for(data: Path) -> None:
    with pytest.raises(InputFileError, match=r"LLMCompressionDataset: no such file: .*llm-compression/wiki\.json or "
                                             r".*llm-compression/wiki\.jsonl"):
        LOAD_DATASET.get("LLMCompressionDataset").load(path="./data/llm-compression", name="wiki")


def test_corpus_record_without_text_names_the_record(data: Path) -> None:
    file = data / "cache" / "data" / "inference_ppl" / "cn-reasoning-val.jsonl"
    file.write_text(file.read_text(encoding="utf-8") + json.dumps({"text": 12, "source": "x"}) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"InferencePPLDataset: .*cn-reasoning-val\.jsonl, record 9: 'text' is 12, expected text"):
        LOAD_DATASET.get("InferencePPLDataset").load(path="./data/inference_ppl", name="cn-reasoning-val")


def test_hungarian_file_with_two_columns_names_them(data: Path) -> None:
    file = data / "cache" / "data" / "HungarianExamMath" / "test.csv"
    file.write_text("Question,Points\nWhat is 2+2?,3\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"HungarianExamMathDataset: .*test\.csv must have one column \(the question\), "
                                             r"found 2: Question, Points"):
        LOAD_DATASET.get("HungarianExamMathDataset").load(path="./data/HungarianExamMath/test.csv")


def test_hungarian_empty_question_names_its_row(data: Path) -> None:
    file = data / "cache" / "data" / "HungarianExamMath" / "test.csv"
    file.write_text('Question\n"What is 2+2?"\n""\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"test\.csv, row 2 after the header: the question is empty"):
        LOAD_DATASET.get("HungarianExamMathDataset").load(path="./data/HungarianExamMath/test.csv")


#: library config → (variable, loader, evaluator)
LIBRARY = {
    "llm_compression.llm_compression": ("llm_compression_datasets", "LLMCompressionDataset", "BPCEvaluator"),
    "inference_ppl.inference_ppl": ("inference_ppl_datasets", "InferencePPLDataset", "AverageInferencePPLEvaluator"),
    "hungarian_exam.hungarian_exam_gen_8a1435": ("hungarianmath_datasets", "HungarianExamMathDataset", "AccEvaluator"),
    "SciEval.SciEval_5shot_gen_4043d4": ("scieval_datasets", "SciEvalDataset", "AccwithDetailsEvaluator"),
    "SciEval.SciEval_5shot_llmjudge_gen_b7b684": ("scieval_datasets", "SciEvalDataset", "GenericLLMEvaluator"),
}


def _config_datasets(module: str, variable: str, oc_library: Path, data: Path, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    from assay import load_config

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = data / "config.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      f"    from opencompass.configs.datasets.{module} import {variable}\n", encoding="utf-8")
    datasets: list[Any] = load_config(config).variables[variable]
    return datasets


@pytest.mark.parametrize("module", sorted(LIBRARY))
def test_library_configs_load_rows_as_opencompass_does(module: str, oc_library: Path, data: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    variable, loader, evaluator = LIBRARY[module]
    checked = 0
    for ds in _config_datasets(module, variable, oc_library, data, monkeypatch):
        assert ds["type"] is LOAD_DATASET.get(loader)
        assert ds["eval_cfg"]["evaluator"]["type"] is ICL_EVALUATORS.get(evaluator)
        args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg", "n", "k")}
        recorded = [c.get("rows", c.get("splits")) for c in RECORDED[loader] if c["args"] == args]
        if recorded:
            assert _loaded(ds["type"].load(**args)) == recorded[0]
            checked += 1
    assert checked


def test_assay_eval_scores_inference_ppl_from_the_prediction_file(oc_library: Path, data: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``assay eval`` on the library's inference-PPL config, unchanged, with a prediction file holding ``ppl`` and
    ``token_len`` per sample as OpenCompass's inferencer writes them: OpenCompass's ``average_ppl``."""
    from assay.cli import main
    from assay.rundir.results import read_result

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    case = RECORDED["AverageInferencePPLEvaluator"][0]
    rows = next(c["rows"] for c in RECORDED["InferencePPLDataset"] if c["args"]["samples"] is None)
    n = len(case["inputs"]["ppl"])
    preds = {str(i): {"origin_prompt": r["text"], "ppl": p, "token_len": t}
             for i, (r, p, t) in enumerate(zip(rows[:n], case["inputs"]["ppl"], case["inputs"]["token_len"]))}
    preds.update({str(i): {"origin_prompt": r["text"], "ppl": 0.0, "token_len": 0} for i, r in enumerate(rows) if i >= n})
    folder = data / "out" / "RUN" / "predictions" / "m"
    folder.mkdir(parents=True)
    (folder / "inference-ppl.json").write_text(json.dumps(preds, ensure_ascii=False), encoding="utf-8")
    config = data / "eval_ppl.py"
    config.write_text("from mmengine.config import read_base\n\nwith read_base():\n"
                      "    from opencompass.configs.datasets.inference_ppl.inference_ppl import inference_ppl_datasets\n\n"
                      "datasets = inference_ppl_datasets\nmodels = [dict(abbr='m', path='m')]\n", encoding="utf-8")
    assert main(["eval", str(config), "-w", str(data / "out"), "-r", "RUN", "--workers", "1"]) == 0
    result = read_result(data / "out" / "RUN" / "results" / "m" / "inference-ppl.json")
    assert result["average_ppl"] == case["metrics"]["average_ppl"]

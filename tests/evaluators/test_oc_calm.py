"""CaLM (loader and evaluator, all 92 datasets of ``calm/calm.py``) against OpenCompass 0.5.4's recordings.

``scripts/record_oc_calm.py`` wrote a few samples per task in CaLM's layout
(``tests/data/oc_families/calm/cache/data/calm``), built every dataset of the
library config there with OpenCompass's loader, and scored crafted replies —
covering each reading rule's branches — with OpenCompass's ``CaLMEvaluator``:
the rows, the metrics, and per reply the label and the error flags.  Here the
library config, imported unchanged, gives the same rows, and assay's evaluator
the same metrics, labels and flags.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from assay.errors import ConfigError, EvaluationError, InputFileError
from assay.evaluators.calm import CaLMEvaluator, item_errors, read_label

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "calm"
RECORD: dict[str, Any] = json.loads((ROOT / "expected" / "calm.json").read_text(encoding="utf-8"))
CONFIG = """from mmengine.config import read_base

with read_base():
    from opencompass.configs.datasets.calm.calm import calm_datasets

datasets = calm_datasets
"""


@pytest.fixture(scope="module")
def library_datasets(oc_library: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    from assay import load_config

    mp = pytest.MonkeyPatch()
    mp.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    config = tmp_path_factory.mktemp("calm") / "config.py"
    config.write_text(CONFIG, encoding="utf-8")
    try:
        datasets = {d["abbr"]: d for d in load_config(config).variables["datasets"]}
    finally:
        mp.undo()
    return datasets


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b) and type(a) is type(b)


def test_every_dataset_of_the_library_config_is_recorded(library_datasets: dict[str, dict[str, Any]]) -> None:
    assert sorted(library_datasets) == sorted(RECORD)
    assert len(RECORD) == 92


@pytest.mark.parametrize("abbr", sorted(RECORD))
def test_loader_builds_opencompass_prompts(abbr: str, library_datasets: dict[str, dict[str, Any]],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The library's relative path is read from the working folder; each row's prompt is OpenCompass's."""
    monkeypatch.chdir(ROOT / "cache")
    ds, record = library_datasets[abbr], RECORD[abbr]
    assert ds["type"].__module__ == "assay.datasets.calm"
    args = {k: v for k, v in ds.items() if k not in ("type", "abbr", "reader_cfg", "infer_cfg", "eval_cfg")}
    assert args == record["args"]
    rows = [dict(r) for r in ds["type"].load(**args)]
    assert json.loads(json.dumps(rows, ensure_ascii=False)) == record["rows"]


@pytest.mark.parametrize("abbr", sorted(RECORD))
def test_evaluator_scores_as_opencompass(abbr: str, library_datasets: dict[str, dict[str, Any]]) -> None:
    """Metrics of the crafted replies, the label each reply reads as and its error flags, as OpenCompass's."""
    record = RECORD[abbr]
    cfg = dict(library_datasets[abbr]["eval_cfg"]["evaluator"])
    evaluator = cfg.pop("type")(**cfg)
    assert isinstance(evaluator, CaLMEvaluator)
    result = evaluator.score(record["predictions"], record["references"])
    details = result.pop("details")
    assert _same(result, record["metrics"]), (result, record["metrics"])
    task, style = record["task"], record["args"]["prompt_style"]
    labels = [read_label(task, p, r, style) for p, r in zip(record["predictions"], record["references"])]
    assert [json.loads(json.dumps(v)) for v in labels] == record["labels"]
    if record["errors"] is not None:
        assert [item_errors(task, p) for p in record["predictions"]] == record["errors"]
        assert [{k: d[k] for k in ("language_error", "nonstandrad", "repetition", "empty")} for d in details] == record["errors"]
    uniform = evaluator.score([record["uniform"]["prediction"]] * len(record["rows"]), [r["gt_item"] for r in record["rows"]])
    uniform.pop("details")
    assert _same(uniform, record["uniform"]["metrics"])


def test_details_back_the_accuracy(library_datasets: dict[str, dict[str, Any]]) -> None:
    record = RECORD["calm_PCD-C_COPA_EN"]
    cfg = dict(library_datasets["calm_PCD-C_COPA_EN"]["eval_cfg"]["evaluator"])
    result = cfg.pop("type")(**cfg).score(record["predictions"], record["references"])
    scores = [d["score"] for d in result["details"]]
    assert sum(scores) / len(scores) == result["Accuracy"]
    assert [d["pred"] for d in result["details"]] == record["labels"]


def test_rouge_overflows_where_opencompass_eval_task_overflows() -> None:
    """Replies the ``rouge`` package's recursive walk can take under OpenCompass's eval task (run as its
    runners run it) are scored, one word more is not: the recorded boundary, and the recorded accuracy."""
    record = json.loads((ROOT / "expected" / "rouge_depth.json").read_text(encoding="utf-8"))
    evaluator = CaLMEvaluator(task=record["task"], prompt_style="basic")
    items = [{"cause": "c", "effect": "e", "gt_answer": " ".join(["w"] * n)} for n in record["lengths"]]
    result = evaluator.score([i["gt_answer"] for i in items], items)
    assert result["Accuracy"] == record["result"]["Accuracy"]
    scored = {n: d["score"] for n, d in zip(record["lengths"], result["details"])}
    assert scored[record["longest_scored"]] == 1.0
    assert scored[record["shortest_failing"]] == 0.0


def test_bad_inputs_name_what_is_wrong(tmp_path: Path) -> None:
    from assay.datasets.calm import CaLMDataset

    folder = tmp_path / "data"
    folder.mkdir()
    good = folder / "CORR-B_correlation_EN.json"
    good.write_text('{"given_info": "g"}\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"CORR-B_correlation_EN.json line 1 has no 'question'"):
        CaLMDataset.load(str(good), "basic")
    with pytest.raises(InputFileError, match="does not match the task's language"):
        CaLMDataset.load(str(good), "basic-CN")
    with pytest.raises(InputFileError, match="'manual-CoT' is not implemented"):
        CaLMDataset.load(str(good), "manual-CoT")
    mixed = folder / "CORR-B_correlation_EN.json"
    mixed.write_text('{"given_info": "g", "question": "q1", "gt_answer": 1}\n{"given_info": "g", "question": "q2", "gt_answer": "yes"}\n', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"CORR-B_correlation_EN.json: field 'gt_item.gt_answer' is a number in line 1 "
                                             r"but text in line 2"):
        CaLMDataset.load(str(mixed), "basic")
    unknown = folder / "XYZ_EN.json"
    unknown.write_text("{}\n", encoding="utf-8")
    with pytest.raises(InputFileError, match="not one of CaLM's task files"):
        CaLMDataset.load(str(unknown), "basic")
    with pytest.raises(ConfigError, match="'XYZ_EN' is not one of CaLM's tasks"):
        CaLMEvaluator(task="XYZ_EN")
    evaluator = CaLMEvaluator(task="CORR-B_correlation_EN", prompt_style="basic")
    with pytest.raises(EvaluationError, match=r"gt_answer 'maybe' cannot be read by the CLADDER rule"):
        evaluator.score(["yes"], [{"gt_answer": "maybe"}])


def test_a_reference_chinese_replies_cannot_be_compared_with_is_refused() -> None:
    """A CEG-O reference that is not text stops OpenCompass under a Chinese reply (jieba cannot segment
    it); assay refuses it naming the task and the value. An English reply scores 0, as in OpenCompass."""
    evaluator = CaLMEvaluator(task="CEG-O_E-CARE_CN", prompt_style="basic-CN")
    with pytest.raises(EvaluationError, match=r"CEG-O_E-CARE_CN.*gt_answer 123 is not text"):
        evaluator.score(["大雨 123"], [{"gt_answer": 123}])
    with pytest.raises(EvaluationError, match=r"gt_answer \['大雨导致积水'\] is not text"):
        evaluator.score(["大雨导致积水"], [{"gt_answer": ["大雨导致积水"]}])
    assert evaluator.score(["rain"], [{"gt_answer": 5}])["Accuracy"] == 0


@pytest.mark.parametrize(("task", "rule", "item", "field"), [
    ("FAS-C_FAS_EN", "AS", {"option1": 1, "option2": "b", "option3": "c", "gt_answer": 1}, "option1"),
    ("PCD-C_COPA_EN", "PCD-C", {"hypothesis1": "a", "hypothesis2": None, "ask-for": "cause", "gt_answer": 0}, "hypothesis2"),
    ("CR-C_CRASS_EN", "CR-C_CRASS", {"Answer1": "a", "Answer2": "b", "Answer3": "c", "Answer4": ["d"], "gt_answer": 1}, "Answer4"),
])
def test_an_option_that_is_not_text_is_refused(task: str, rule: str, item: dict[str, Any], field: str) -> None:
    """OpenCompass stops on an option field that is not text; assay refuses it naming the rule, field and value."""
    evaluator = CaLMEvaluator(task=task, prompt_style="basic")
    with pytest.raises(EvaluationError, match=re.escape(f"({rule} rule): the reference's {field!r} {item[field]!r} is not text")):
        evaluator.score(["option 1"], [item])


def test_assay_eval_of_the_library_config_scores_as_opencompass(oc_library: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``assay eval`` of the library config (one dataset per kind of reading rule), each sample answered with one reply:
    OpenCompass's metrics of that batch, read from the task files of the working folder."""
    from assay.cli import main

    monkeypatch.setenv("ASSAY_OPENCOMPASS", str(oc_library))
    monkeypatch.chdir(ROOT / "cache")
    chosen = ["calm_CORR-B_correlation_EN", "calm_PCD-C_COPA_CN", "calm_PN-P_PN-basic_EN", "calm_NDE-B_NDE-natural_CN",
              "calm_CEG-O_E-CARE_EN", "calm_BAS-C_min-BAS_EN"]
    config = tmp_path / "config.py"
    config.write_text(CONFIG + f"datasets = [d for d in calm_datasets if d['abbr'] in {chosen!r}]\n"
                      "models = [dict(abbr='oc-model', path='org/model')]\n", encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / "run" / "predictions" / "oc-model"
    predictions.mkdir(parents=True)
    for abbr in chosen:
        record = RECORD[abbr]
        reply = record["uniform"]["prediction"]
        records = {str(i): {"origin_prompt": row["question"], "prediction": reply} for i, row in enumerate(record["rows"])}
        (predictions / f"{abbr}.json").write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    assert main(["eval", str(config), "-w", str(work), "-r", "run", "--workers", "1"]) in (0, None)
    for abbr in chosen:
        result = json.loads((work / "run" / "results" / "oc-model" / f"{abbr}.json").read_text(encoding="utf-8"))
        expected = RECORD[abbr]["uniform"]["metrics"]
        assert _same({k: result.get(k) for k in expected}, expected), (abbr, result)
        assert len(result["details"]) == len(RECORD[abbr]["rows"])

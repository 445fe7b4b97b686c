"""References from the prediction files' ``gold`` when the test set cannot be read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.config import load_config
from assay.datasets.build import build_gold_test_set
from assay.errors import InputFileError
from assay.tasks.plan import check_plan, reads_test_set

ROWS = [
    ("Ann has 3 apples and buys 4. How many?", "3 + 4 = 7\n#### 7", "3 + 4 = 7. The answer is 7"),
    ("12 pens, 5 taken. Left?", "12 - 5 = 7\n#### 7", "The answer is 8"),
    ("1,250 and 750 cups. Total?", "1,250 + 750 = 2,000\n#### 2,000", "So 2000"),
    ("20 pages for 6 days?", "20 * 6 = 120\n#### 120", "The answer is 120"),
]

READS_TEST_SET = """
from assay.evaluate.base import BaseEvaluator

class LengthAware(BaseEvaluator):
    def score(self, predictions, references, test_set):
        return {'accuracy': 100.0 * sum(p == r for p, r in zip(predictions, references)) / len(references)}
"""


def _project(root: Path, *, n: int = 1, data: bool = True, extra: str = "", loader: str = "'JsonlDataset'") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    if data:
        (root / "math.jsonl").write_text("".join(json.dumps({"question": q, "answer": a}) + "\n" for q, a, _ in ROWS))
    preds = root / "preds"
    preds.mkdir(exist_ok=True)
    records = [{"origin_prompt": q, "prediction": reply, "gold": a} for _ in range(n) for q, a, reply in ROWS]
    if n > 1:  # the second run answers differently
        records[len(ROWS)]["prediction"] = "The answer is 0"
    (preds / "math.json").write_text(json.dumps({str(i): r for i, r in enumerate(records)}, indent=4))
    cfg = root / "cfg.py"
    cfg.write_text(
        extra + "\n"
        f"datasets = [dict(abbr='math', type={loader}, path='math.jsonl', n={n}, k=1,\n"
        "    reader_cfg=dict(input_columns=['question'], output_column='answer'),\n"
        "    eval_cfg=dict(evaluator=dict(type='Gsm8kEvaluator'), pred_postprocessor=dict(type='gsm8k_postprocess'),\n"
        "                  dataset_postprocessor=dict(type='gsm8k_dataset_postprocess')))]\n"
        "models = [dict(abbr='m', predictions='preds')]\n"
    )
    return cfg


def _result(work: Path, abbr: str = "math") -> dict[str, Any]:
    (run,) = work.iterdir()
    data: dict[str, Any] = json.loads((run / "results" / "m" / f"{abbr}.json").read_text())
    return data


def _scores(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "_meta"}


@pytest.mark.parametrize(("n", "shard_size"), [(1, 0), (2, 0), (2, 3)])
def test_data_present_and_absent_give_the_same_result(tmp_path: Path, n: int, shard_size: int) -> None:
    present = _project(tmp_path / "present", n=n)
    absent = _project(tmp_path / "absent", n=n, data=False)
    options = ["--workers", "1", "--shard-size", str(shard_size)]
    assert main(["eval", str(present), "-w", str(tmp_path / "w1"), *options]) == 0
    assert main(["eval", str(absent), "-w", str(tmp_path / "w2"), *options]) == 0
    with_data, from_gold = _result(tmp_path / "w1"), _result(tmp_path / "w2")
    assert _scores(with_data) == _scores(from_gold)
    metric = "accuracy" if n == 1 else "accuracy (2 runs average)"
    assert with_data[metric] == (75.0 if n == 1 else 62.5)
    assert "references" not in with_data["_meta"]
    assert from_gold["_meta"]["references"] == "gold"
    assert "math.jsonl" in from_gold["_meta"]["references_note"]
    (run,) = (tmp_path / "w2").iterdir()
    log = (run / "logs" / "eval" / "m" / "math.out").read_text()
    assert "references from the prediction files' `gold`" in log and "math.jsonl" in log


def test_a_stand_in_loader_scores_from_gold_even_with_the_data_present(tmp_path: Path) -> None:
    standin = "class MathDataset:\n    _assay_standin = True\n"
    cfg = _project(tmp_path / "p", extra=standin, loader="MathDataset")
    reference = _project(tmp_path / "ref")
    assert main(["eval", str(cfg), "-w", str(tmp_path / "w"), "--workers", "1"]) == 0
    assert main(["eval", str(reference), "-w", str(tmp_path / "wr"), "--workers", "1"]) == 0
    result = _result(tmp_path / "w")
    assert result["_meta"]["references"] == "gold"
    assert "MathDataset is a stand-in" in result["_meta"]["references_note"]
    assert _scores(result) == _scores(_result(tmp_path / "wr"))


def test_the_summary_json_and_the_report_say_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _project(tmp_path / "p", data=False)
    assert main(["run", str(cfg), "-w", str(tmp_path / "w"), "--workers", "1"]) == 0
    (run,) = (tmp_path / "w").iterdir()
    (summary,) = (run / "summary").glob("*.json")
    gold = json.loads(summary.read_text())["references_from_gold"]
    assert [(g["model"], g["dataset"]) for g in gold] == [("m", "math")] and "math.jsonl" in gold[0]["reason"]
    (report,) = (run / "summary").glob("*.html")
    page = report.read_text()
    assert 'id="gold-references"' in page and "m / math" in page
    from assay.report import cell_tip
    from tests.report.pages import board_data

    data = board_data(page)  # the cell's hover text, as the page draws it from its data
    (row,) = [i for i, r in enumerate(data["rows"]) if r["dataset"] == "math"]
    assert "references from the prediction files' gold: " in cell_tip(data, row, 0)


def test_an_evaluator_that_reads_the_test_set_fails_naming_the_data_path(tmp_path: Path) -> None:
    cfg = _project(tmp_path / "p", data=False, extra=READS_TEST_SET)
    cfg.write_text(cfg.read_text().replace("type='Gsm8kEvaluator'", "type=LengthAware"))
    assert main(["eval", str(cfg), "-w", str(tmp_path / "w"), "--workers", "1"]) == 1
    error = _result(tmp_path / "w")["error"]
    assert "math.jsonl" in error and "not on disk" in error and "LengthAware reads the test set" in error
    (check,) = check_plan(load_config(cfg))
    assert not check.can_run and check.problems == (error,)


def test_records_without_gold_fail_naming_the_data_path(tmp_path: Path) -> None:
    cfg = _project(tmp_path / "p", data=False)
    preds = tmp_path / "p" / "preds" / "math.json"
    records = json.loads(preds.read_text())
    for r in records.values():
        del r["gold"]
    preds.write_text(json.dumps(records))
    assert main(["eval", str(cfg), "-w", str(tmp_path / "w"), "--workers", "1"]) == 1
    error = _result(tmp_path / "w")["error"]
    assert "math.jsonl" in error and "no `gold` field" in error


def test_the_data_appearing_changes_the_result_s_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = _project(tmp_path / "p", data=False)
    work = tmp_path / "w"
    assert main(["eval", str(cfg), "-w", str(work), "--workers", "1"]) == 0
    assert _result(work)["_meta"]["references"] == "gold"
    shutil.copy(_project(tmp_path / "donor").parent / "math.jsonl", tmp_path / "p" / "math.jsonl")
    capsys.readouterr()
    assert main(["eval", str(cfg), "-w", str(work), "-r", "--workers", "1"]) == 0
    err = capsys.readouterr().err
    assert "m/math ok" in err and "changed: the test-set file" in err
    assert "references" not in _result(work)["_meta"]


def test_which_evaluators_read_the_test_set(tmp_path: Path) -> None:
    from assay.registry import ICL_EVALUATORS

    assert not reads_test_set(ICL_EVALUATORS.get("AccEvaluator"))
    assert not reads_test_set(ICL_EVALUATORS.get("Gsm8kEvaluator"))
    assert reads_test_set(ICL_EVALUATORS.get("HumanEvalEvaluator"))  # score(test_set=...)
    assert reads_test_set(ICL_EVALUATORS.get("CircularEvaluator"))

    class Own(ICL_EVALUATORS.get("AccEvaluator")):  # type: ignore[misc]
        def evaluate(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
            return {}

    class Flagged(ICL_EVALUATORS.get("AccEvaluator")):  # type: ignore[misc]
        reads_test_set = True

    class Anything(ICL_EVALUATORS.get("AccEvaluator")):  # type: ignore[misc]
        def score(self, **kwargs: Any) -> dict[str, Any]:
            return {}

    assert reads_test_set(Own) and reads_test_set(Flagged) and reads_test_set(Anything)


def test_build_gold_test_set_checks_the_runs() -> None:
    cfg = {"abbr": "d", "n": 2, "reader_cfg": {"output_column": "answer"}}
    with pytest.raises(InputFileError, match=r"3 records.*n=2"):
        build_gold_test_set(cfg, ["a", "b", "c"], source="p.json")
    ts = build_gold_test_set({"abbr": "d", "reader_cfg": {}}, None, length=3)
    assert ts.size == 3 and ts.references is None
    ts = build_gold_test_set(cfg, None, length=4, needs_references=False)
    assert ts.size == 2 and ts.references is None


def test_a_record_without_gold_among_records_with_it_is_an_error() -> None:
    cfg = {"abbr": "d", "reader_cfg": {"output_column": "answer"}}
    with pytest.raises(InputFileError, match=r"record\(s\) 1, 3 of p\.json have no `gold`"):
        build_gold_test_set(cfg, ["A", None, "B", None], where="dataset 'd'", source="p.json")
    assert build_gold_test_set(cfg, ["A", None], needs_references=False).size == 2  # references not used


DECLARED_EVALUATORS = """
from assay.evaluate.base import BaseEvaluator

class Counting(BaseEvaluator):
    '''Declares that it reads nothing of the test set but its length; its own evaluate() says what it was given.'''

    reads_test_set = False

    def score(self, predictions, references):
        return {'accuracy': 100.0 * sum(p == r for p, r in zip(predictions, references)) / len(references)}

    def evaluate(self, k, n, original_dataset, **kwargs):
        return {**super().evaluate(k, n, original_dataset, **kwargs), 'given': type(original_dataset).__name__}

class ReadsByPath(Counting):
    reads_test_set = True
"""


@pytest.mark.parametrize(("evaluator", "given"), [("Counting", "TableView"), ("ReadsByPath", "Dataset")])
def test_one_rule_decides_gold_and_what_the_evaluator_is_given(tmp_path: Path, evaluator: str, given: str) -> None:
    """Whether the evaluator reads the test set decides both whether ``gold`` may stand in for a missing test set
    and whether the test set is built as a ``datasets.Dataset``: one rule, never one answer for each."""
    cfg = _project(tmp_path / "p", extra=DECLARED_EVALUATORS)
    cfg.write_text(cfg.read_text().replace("type='Gsm8kEvaluator'", f"type={evaluator}"))
    reads = reads_test_set(load_config(cfg).datasets[0]["eval_cfg"]["evaluator"]["type"])
    assert reads is (given == "Dataset")
    assert main(["eval", str(cfg), "-w", str(tmp_path / "work"), "--workers", "1"]) == 0
    assert _result(tmp_path / "work")["given"] == given  # the light view for an evaluator that does not read it
    (tmp_path / "p" / "math.jsonl").unlink()  # no test set: gold serves only the evaluator that does not read it
    assert main(["eval", str(cfg), "-w", str(tmp_path / "work2"), "--workers", "1"]) == (1 if reads else 0)

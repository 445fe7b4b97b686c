"""MedCalc-Bench: extract_answer, check_correctness, MedCalcOfficial_Evaluator and the loader, as OpenCompass 0.5.4 has them."""

from __future__ import annotations

import builtins
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assay.datasets.medcalc import MedCalc_BenchDataset
from assay.errors import InputFileError
from assay.evaluators.medcalc import (
    MedCalcOfficial_Evaluator,
    check_correctness,
    evaluate_expressions,
    extract_answer,
    literal_value,
)
from assay.registry import LOAD_DATASET
from assay.sandbox import isolation_unavailable

_NO_SANDBOX = isolation_unavailable("namespaces")
needs_sandbox = pytest.mark.skipif(_NO_SANDBOX is not None, reason=f"no namespace sandbox: {_NO_SANDBOX}")

RECORDED = json.loads((Path(__file__).parents[1] / "data" / "evaluators" / "opencompass_cruxeval_medcalc.json").read_text(encoding="utf-8"))


def _outcome(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except Exception as exc:
        return {"raised": type(exc).__name__}


# -- check_correctness -----------------------------------------------------------------------------

def test_a_duration_matches_whatever_words_surround_its_numbers() -> None:
    assert check_correctness("(2 weeks, 3 days)", "(2 weeks, 3 days)", 69, None, None) == 1
    assert check_correctness("(2, 3)", "('2 weeks', '3 days')", "69", None, None) == 1
    assert check_correctness("(2, 4)", "(2 weeks, 3 days)", 69, None, None) == 0
    assert check_correctness("no numbers", "(2 weeks, 3 days)", 69, None, None) == 0


def test_a_reference_without_a_duration_raises_as_opencompass_does() -> None:
    with pytest.raises(AttributeError):
        check_correctness("(2 weeks, 3 days)", "no duration here", 69, None, None)


def test_integers_dates_decimals_and_unknown_calculators() -> None:
    assert check_correctness("4.4", "4", 4, None, None) == 1 and check_correctness("4.6", "4", 4, None, None) == 0
    assert check_correctness("03/05/2024", "3/5/2024", 13, None, None) == 1
    assert check_correctness("1.05", "1.0", 2, "1.1", "0.9") == 1 and check_correctness("1.2", "1.0", 2, "1.1", "0.9") == 0
    with pytest.raises(ValueError, match="Unknown calculator ID: 99"):
        check_correctness("1", "1", 99, None, None)
    with pytest.raises(TypeError):  # a decimal calculator needs its limits
        check_correctness("1", "1", 2, None, None)


def test_text_to_compare_is_never_run() -> None:
    with pytest.raises(ValueError, match="is not a number"):
        check_correctness("__import__('builtins').__dict__.__setitem__('assay_medcalc_probe', 1)", "1", 4, None, None)
    assert not hasattr(builtins, "assay_medcalc_probe")
    with pytest.raises(NameError, match="name 'N' is not defined"):
        check_correctness("N/A", "1", 4, None, None)


def test_literal_value_reads_numbers_tuples_and_arithmetic_as_eval_does() -> None:
    for text in ("3", " -2.5e3", "(2, 3)", "[1, -1]", "2 ** 10 / 3", "7 // 2 % 3", "True + 1", "1e400", "0x10", "'a'"):
        assert literal_value(text) == eval(text.lstrip()), text
    for text in ("1 / 0", "08", "(1,", "abs(-1)", "x.y"):
        with pytest.raises(Exception) as ours:
            literal_value(text)
        if text in ("1 / 0", "08", "(1,"):
            with pytest.raises(type(ours.value)):
                eval(text)
    with pytest.raises(OverflowError, match="too large"):
        literal_value("9 ** 9 ** 9")


# -- extract_answer --------------------------------------------------------------------------------

def test_extraction_by_output_type() -> None:
    assert extract_answer('{"step_by_step_thinking": "x", "answer": "3/5/2024"}', 13) == ("03/05/2024", "x")
    assert extract_answer('{"answer": "[\'4 weeks\', \'0 days\']"}', 69) == ("(4, 0)", "No Explanation")
    assert extract_answer('{"answer": "1, 2, 3"}', 15)[0] == "3"
    assert extract_answer('{"answer": "53.1%"}', 6)[0] == "0.531"
    assert extract_answer('{"answer": "X.XX"}', 11)[0] == "N/A"


@needs_sandbox
def test_a_str_expression_is_evaluated_in_the_sandbox_with_opencompass_names() -> None:
    assert extract_answer('{"answer": "str(sqrt(16) * 2.5)"}', 3)[0] == "10.0"
    assert extract_answer('{"answer": "str(70 kg / (1.75 ^ 2))"}', 8)[0] == str(70 / 1.75**2)
    assert extract_answer('{"answer": "str(np.log(2.7))"}', 10)[0] == "N/A"  # 'g' is removed: np.lo
    import numpy

    assert evaluate_expressions(["np.__dict__.__setitem__('assay_probe', 1)", "round(2.5)", "len('ab')"]) == ["None", "2", "N/A"]
    assert not hasattr(numpy, "assay_probe")  # the expression ran in another process


def test_an_expression_is_handed_to_the_evaluator_given() -> None:
    seen: list[list[str]] = []

    def evaluate(expressions: Any) -> list[str]:
        seen.append(list(expressions))
        return ["42"]

    assert extract_answer('{"answer": "str(6 * 7 # six sevens)"}', 2, evaluate) == ("42", "No Explanation")
    assert seen == [["6 * 7 "]]  # cut at '#', as OpenCompass cuts it


# -- recorded from OpenCompass 0.5.4 ---------------------------------------------------------------

@needs_sandbox
def test_extraction_and_verdicts_match_opencompass() -> None:
    for case in RECORDED["medcalc_extract_check"]:
        got = _outcome(extract_answer, case["reply"], case["calid"])
        assert (list(got) if isinstance(got, tuple) else got) == case["extracted"], case
        if isinstance(got, tuple):
            verdict = _outcome(check_correctness, got[0], case["ground_truth"], case["calid"], case["upper"], case["lower"])
            assert verdict == case["correct"], case


@needs_sandbox
def test_evaluator_matches_opencompass() -> None:
    recorded = RECORDED["medcalc_evaluator"]
    test_set = recorded["test_set"]
    got = MedCalcOfficial_Evaluator().score(recorded["predictions"], test_set["ground_truth_answer"], test_set)
    assert got["accuracy"] == recorded["result"]["accuracy"]
    ours = [{k: v for k, v in d.items() if k != "correct"} for d in got["details"]]
    assert ours == recorded["result"]["details"]
    assert [d["correct"] for d in got["details"]] == [d["Result"] == "Correct" for d in recorded["result"]["details"]]


def test_evaluator_names_a_missing_column() -> None:
    got = MedCalcOfficial_Evaluator().score(["x"], ["1"], {"calculator_id": [4]})
    assert got["error"].startswith("MedCalcOfficial_Evaluator: the test set lacks the column(s) lower_limit, upper_limit")


# -- loader and OpenCompass's names ----------------------------------------------------------------

def test_loader_reads_the_test_parquet_and_adds_snake_case_columns(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = ["Row Number", "Calculator ID", "Calculator Name", "Category", "Output Type", "Note ID", "Note Type",
               "Patient Note", "Question", "Relevant Entities", "Ground Truth Answer", "Lower Limit", "Upper Limit",
               "Ground Truth Explanation"]
    (tmp_path / "data").mkdir()
    for split, calid in (("test", 69), ("train", 2)):
        row = {c: [f"{c} {split}"] for c in columns}
        row["Calculator ID"] = [calid]
        pq.write_table(pa.table(row), tmp_path / "data" / f"{split}-00000-of-00001.parquet")
    dataset = MedCalc_BenchDataset.load(str(tmp_path), prompt_mode="zero-shot")
    assert dataset["calculator_id"] == [69] and dataset["ground_truth_answer"] == ["Ground Truth Answer test"]
    assert "Calculator ID" in dataset.column_names
    assert "calculator_id" not in MedCalc_BenchDataset.load(str(tmp_path), prompt_mode="few-shot").column_names
    assert LOAD_DATASET.get("MedCalc_BenchDataset") is MedCalc_BenchDataset
    with pytest.raises(InputFileError, match=r"MedCalc_BenchDataset: ncbi/MedCalc-Bench-v1\.0 does not exist"):
        MedCalc_BenchDataset.load("ncbi/MedCalc-Bench-v1.0", prompt_mode="zero-shot")


def test_opencompass_names_serve_these() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("ASSAY_OPENCOMPASS", None)
    code = (
        "import assay.opencompass; assay.opencompass.install()\n"
        "from opencompass.datasets.MedCalc_Bench import check_correctness, extract_answer, MedCalcOfficial_Evaluator\n"
        "from opencompass.datasets import MedCalc_BenchDataset\n"
        "print(check_correctness('(2 weeks, 3 days)', '(2 weeks, 3 days)', 69, None, None), check_correctness.__module__,\n"
        "      extract_answer.__module__, MedCalcOfficial_Evaluator.__module__, MedCalc_BenchDataset.__module__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "assay.evaluators.medcalc", "assay.evaluators.medcalc", "assay.evaluators.medcalc",
                                   "assay.datasets.medcalc"]

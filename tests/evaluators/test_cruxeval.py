"""CRUXEvalOEvaluator, the CRUXEval loader and its postprocessor, as OpenCompass 0.5.4 has them."""

from __future__ import annotations

import builtins
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assay.datasets.cruxeval import CRUXEvalDataset
from assay.errors import InputFileError
from assay.evaluators.cruxeval import CRUXEvalOEvaluator
from assay.postprocess.cruxeval import cruxeval_o_postprocess
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS
from assay.sandbox import isolation_unavailable

_NO_SANDBOX = isolation_unavailable("namespaces")
pytestmark = pytest.mark.skipif(_NO_SANDBOX is not None, reason=f"no namespace sandbox: {_NO_SANDBOX}")

RECORDED = Path(__file__).parents[1] / "data" / "evaluators" / "opencompass_cruxeval_medcalc.json"

DOUBLE = {"id": "sample_0", "code": "def f(x):\n    return [v * 2 for v in x]", "input": "[1, 2]", "output": "[2, 4]"}
TEXT = {"id": "sample_1", "code": "def f(s):\n    return s.upper() + '!'", "input": "'ab'", "output": "'AB!'"}
LOOP = {"id": "sample_2", "code": "def f(n):\n    return n\nwhile True:\n    pass", "input": "1", "output": "1"}


def evaluator() -> CRUXEvalOEvaluator:
    return CRUXEvalOEvaluator(timeout=2, isolation="namespaces")


def score(predictions: list[Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    return evaluator().score(predictions, [r["output"] for r in rows], rows)


def test_right_values_pass_and_wrong_ones_fail() -> None:
    result = score(["[2, 4]", "'ab!'", "[4, 2]"], [DOUBLE, TEXT, DOUBLE])
    assert result["CRUXEval-O"] == pytest.approx(100 / 3)
    assert [result["details"][k]["is_correct"] for k in ("0", "1", "2")] == [True, False, False]
    assert result["details"]["0"] == {"id": "sample_0", "prediction": "[2, 4]", "reference": "[2, 4]",
                                      "is_correct": True, "outcome": "passed"}
    assert result["outcomes"] == {"failed": 2, "passed": 1}


def test_a_list_of_candidates_is_right_when_any_is_and_an_echo_of_the_call_is_never_run() -> None:
    result = score([["f([1, 2])", "[2, 4]"], "f([1, 2])", ["None", "'x'"]], [DOUBLE, DOUBLE, TEXT])
    assert [result["details"][k]["is_correct"] for k in ("0", "1", "2")] == [True, False, False]
    assert result["details"]["1"]["outcome"] == "echoed"
    assert result["outcomes"] == {"failed": 2, "passed": 1}  # the two echoes were not run


def test_the_prediction_is_pasted_into_the_assertion_as_opencompass_does() -> None:
    # OpenCompass 0.5.4 checks the text ``assert <output> == <prediction>``: these pass there, and here
    result = score(["0 or True", "'x' or 1"], [DOUBLE, TEXT])
    assert result["CRUXEval-O"] == 100.0
    assert score(["[2, 4"], [DOUBLE])["details"]["0"]["outcome"] == "failed"  # a syntax error is wrong


def test_code_that_does_not_end_is_unscorable_not_wrong() -> None:
    result = score(["1"], [LOOP])
    assert result["CRUXEval-O"] == 0.0
    assert result["details"]["0"]["outcome"] == "timeout"
    assert CRUXEvalOEvaluator.sample_outcome is not None
    assert CRUXEvalOEvaluator.sample_outcome.unscorable_values["timeout"] == "not_executed"


def test_the_prediction_runs_in_the_sandbox_not_in_the_evaluating_process(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    prediction = (f"(__import__('builtins').__dict__.__setitem__('assay_cruxeval_probe', 1), "
                  f"open({str(marker)!r}, 'w').write('x'), [2, 4])[2]")
    result = score([prediction], [DOUBLE])
    assert result["details"]["0"]["outcome"] == "failed"  # the sandbox has no view of the caller's folders
    assert not hasattr(builtins, "assay_cruxeval_probe")
    assert not marker.exists()
    assert result["isolation"] == "namespaces"


def test_mismatched_lengths_and_a_short_test_set_are_error_records() -> None:
    assert evaluator().score(["1"], ["1"], []) == {"error": "CRUXEvalOEvaluator: 1 predictions but the test set has 0 rows"}
    assert evaluator().score(["1", "2"], ["1"], [DOUBLE]) == {"error": "preds and refrs have different length"}
    bad = evaluator().score(["1"], ["1"], [{"code": "x = 1", "output": "1"}])
    assert bad == {"error": "CRUXEvalOEvaluator: test set row 0 lacks the column(s) input"}


def test_scores_match_those_recorded_from_opencompass() -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))["cruxeval"]
    for case in recorded:
        rows = case["test_set"]
        got = evaluator().score(case["predictions"], [r["output"] for r in rows], rows)
        assert got["CRUXEval-O"] == pytest.approx(case["result"]["CRUXEval-O"]), case
        assert {k: v["is_correct"] for k, v in got["details"].items()} == \
            {k: v["is_correct"] for k, v in case["result"]["details"].items()}, case


def test_postprocessor_keeps_the_first_line_before_done() -> None:
    assert cruxeval_o_postprocess(" 'abc' # done\nassert f(1) == 2") == "'abc'"
    assert cruxeval_o_postprocess("\n[1,\n 2]") == "[1,"
    assert TEXT_POSTPROCESSORS.get("cruxeval_o_postprocess") is cruxeval_o_postprocess


def test_registered_under_opencompass_names() -> None:
    assert ICL_EVALUATORS.get("CRUXEvalOEvaluator") is CRUXEvalOEvaluator
    assert LOAD_DATASET.get("CRUXEvalDataset") is CRUXEvalDataset


def test_loader_reads_the_test_split_of_a_local_copy(tmp_path: Path) -> None:
    (tmp_path / "test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in (DOUBLE, TEXT)), encoding="utf-8")
    dataset = CRUXEvalDataset.load(str(tmp_path))
    assert dataset["output"] == ["[2, 4]", "'AB!'"] and dataset["id"] == ["sample_0", "sample_1"]


def test_loader_refuses_a_hub_id_and_names_missing_columns(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match=r"CRUXEvalDataset: cruxeval-org/cruxeval does not exist .*local files only"):
        CRUXEvalDataset.load("cruxeval-org/cruxeval")
    (tmp_path / "test.jsonl").write_text(json.dumps({"code": "x", "input": "1"}) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"lacks the column\(s\) output"):
        CRUXEvalDataset.load(str(tmp_path))


def test_opencompass_names_serve_these() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("ASSAY_OPENCOMPASS", None)
    code = (
        "import assay.opencompass; assay.opencompass.install()\n"
        "from opencompass.datasets.cruxeval import CRUXEvalOEvaluator, CRUXEvalDataset, cruxeval_o_postprocess\n"
        "from opencompass.datasets import CRUXEvalOEvaluator as again\n"
        "print(CRUXEvalOEvaluator.__module__, CRUXEvalDataset.__module__, cruxeval_o_postprocess.__module__, again is CRUXEvalOEvaluator)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["assay.evaluators.cruxeval", "assay.datasets.cruxeval", "assay.postprocess.cruxeval", "True"]

"""The sandboxed checks that run reply text as Python: how a check's process can end."""

from __future__ import annotations

import pytest

from assay.evaluators._pyeval import Check, SandboxUnavailable, run_checks
from assay.registry import ICL_EVALUATORS


@pytest.fixture(autouse=True)
def _needs_sandbox() -> None:
    try:
        run_checks([Check("korbench10", ("4*6", ""))], limit=30)
    except SandboxUnavailable as exc:
        pytest.skip(f"no sandbox here: {exc}")


def test_memory_error_is_a_failure_not_a_wrong_answer() -> None:
    [verdict] = run_checks([Check("korbench10", ("len(bytearray(2*10**9))*0+24", ""))], limit=30)
    assert verdict.value is None and not verdict.timed_out
    assert verdict.failure is not None and "memory" in verdict.failure


def test_korbench_expression_out_of_memory_is_an_error_record_naming_the_sample() -> None:
    rows = [{"prompt_mode": "0_shot", "category": "puzzle", "rule_id": "10"}] * 2
    result = ICL_EVALUATORS.get("korbenchEvaluator")(expression_timeout=30).score(
        ["[[(1+2+3)*4]]", "[[len(bytearray(2*10**9))*0+24]]"], ["[[(1+2+3)*4=24]]", "[[len(bytearray(2*10**9))*0+24=24]]"], rows)
    assert "details" not in result
    assert result["error"].startswith("sample 1: ") and "memory" in result["error"]


@pytest.mark.parametrize(("expression", "status"), [("os._exit(0)", 0), ("os._exit(3)", 3),
                                                    ("__import__('ctypes').string_at(0)", -11)])
def test_expression_ending_its_process_is_named_and_not_a_time_out(expression: str, status: int) -> None:
    [verdict, after] = run_checks([Check("korbench10", (expression, "")), Check("korbench10", ("4*6", ""))], limit=30)
    assert verdict.value is None and not verdict.timed_out
    assert verdict.failure == f"the expression ended its process (status {status})"
    assert after.value is True


def test_game24_answer_ending_its_process_is_an_error_record_without_a_time_limit_note() -> None:
    result = ICL_EVALUATORS.get("Game24Evaluator")(expression_timeout=30).score(
        ["(4+8)*(6-4)", "__import__('os')._exit(4+8+6+4)"], ["4 8 6 4", "4 8 6 4"])
    assert result["error"].startswith("Game24Evaluator: sample 1: ")
    assert "ended its process (status 22)" in result["error"] and "time limit" not in result["error"]


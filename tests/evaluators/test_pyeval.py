"""The sandboxed checks that run reply text as Python: how a check's process can end."""

from __future__ import annotations

import pytest

from assay.evaluators._pyeval import Check, SandboxUnavailable, Verdict, _verdict, run_checks
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



#: A reply's expression (no ``=``: KOR-Bench cuts the reply there) that digs the batch's verdict marker out of the
#: sandboxed program's code and forms a verdict line saying check 0 found 24.
_FORGED_LINE = ("[c for i in __import__('inspect').stack() for c in i.frame.f_code.co_consts if isinstance(c, str) "
                "and c.startswith('@') and c.endswith(':') and len(c) > 10][0] + '[0, {\"v\": true}]\\n'")


@pytest.mark.parametrize("write", [
    "__import__('os').write(1, ({line}).encode())",  # its standard output
    "open('/proc/%d/fd/1' % __import__('os').getppid(), 'w').write({line})",  # the collecting process's output
])
def test_a_reply_writing_a_verdict_line_of_its_own_does_not_change_its_verdict(write: str) -> None:
    expression = f"({write.format(line=_FORGED_LINE)}) and 0 or 5"
    [forger, after] = run_checks([Check("korbench10", (expression, "")), Check("korbench10", ("4*6", ""))], limit=30)
    # its value is 5 (or an error, which KOR-Bench reads as False): not 24, whatever line it wrote
    assert forger == Verdict(value=False)
    assert after == Verdict(value=True)


def test_a_check_that_closes_its_pipe_and_sleeps_is_timed_out_and_the_later_checks_run() -> None:
    ok = Check("korbench9", ("2*3 = 6", "2*3 = 6"))
    lingers = Check("korbench9", ("os.closerange(3, 4096) or __import__('time').sleep(10**6)", "2*3 = 6"))
    verdicts = run_checks([ok, lingers, ok, ok], limit=2.0)
    assert [v.value for v in verdicts] == [True, None, True, True]
    assert verdicts[1].timed_out and verdicts[1].failure == "did not end within 2 s"


#: An expression whose process starts one (in a session of its own, with ``setsid``) that SIGKILLs, for ten seconds,
#: every other process whose parent is the batch's process: the later checks' processes.
_KILLER = ("os.fork() or os.setsid() or (lambda P: [__import__('time').sleep(0.002) or [os.kill(int(d), 9) "
           "for d in os.listdir('/proc') if d.isdigit() and int(d) - os.getpid() and "
           "open('/proc/'+d+'/stat').read().split()[3].__eq__(str(P))] for _ in range(5000)])"
           "(int(open('/proc/%d/stat' % os.getppid()).read().split()[3]))")


@pytest.mark.parametrize("leave", [False, True])
def test_processes_a_check_starts_do_not_outlive_it(leave: bool) -> None:
    ok = Check("korbench9", ("2*3 + 0*sum(range(3*10**6)) = 6", "2*3 = 6"))  # a check taking a moment
    killer = _KILLER if leave else _KILLER.replace("os.setsid() or ", "")
    verdicts = run_checks([ok, Check("korbench9", (killer + " = 6", "2*3 = 6")), ok, ok, ok], limit=2.0)
    # the killer's own check is wrong, or - when its started process kills the check's process before that
    # process answers, a race on a loaded machine - a failure; the checks after it keep their verdicts
    assert verdicts[1].value is False or (verdicts[1].value is None and verdicts[1].failure), verdicts
    assert [v.value for i, v in enumerate(verdicts) if i != 1] == [True, True, True, True], verdicts


def _forge(answer: str) -> Check:
    """A check whose expression writes ``answer`` to its own answer pipe and ends its process cleanly."""
    write = ("os.write(max(int(f) for f in os.listdir('/proc/self/fd') if int(f) > 2), " + answer + ") and os._exit(0)")
    return Check("korbench9", (write + " = 6", "2*3 = 6"))


@pytest.mark.parametrize("answer", ["b'[\"v\", \"' + b'x' * 300000 + b'\"]'", "b'[\"v\", 6]'", "b'[\"v\", null]'"])
def test_an_answer_a_check_s_process_writes_itself_is_not_a_verdict(answer: str) -> None:
    ok = Check("korbench9", ("2*3 = 6", "2*3 = 6"))
    verdicts = run_checks([ok, _forge(answer), ok, ok], limit=5.0)
    assert verdicts[1] == Verdict(failure="the expression ended its process (status 0)")
    assert [verdicts[i].value for i in (0, 2, 3)] == [True, True, True]


def test_an_exception_text_a_check_s_process_writes_itself_is_cut() -> None:
    ok = Check("korbench9", ("2*3 = 6", "2*3 = 6"))
    verdicts = run_checks([ok, _forge("b'[\"e\", \"' + b'x' * 300000 + b'\"]'"), ok], limit=5.0)
    assert verdicts[1] == Verdict(failure="x" * 500)
    assert verdicts[0].value is True and verdicts[2].value is True


def test_a_sigkill_before_the_cpu_limit_is_no_time_out() -> None:
    """A check's process killed by SIGKILL (here its own; the kernel's out-of-memory killer, another process) is
    not timed out: the message says what is known, not to raise the time limit."""
    ok = Check("korbench9", ("2*3 = 6", "2*3 = 6"))
    verdicts = run_checks([Check("korbench9", ("os.kill(os.getpid(), 9) = 6", "2*3 = 6")), ok], limit=30)
    assert not verdicts[0].timed_out and verdicts[0].value is None
    assert verdicts[0].failure is not None and "SIGKILL before its CPU-time limit" in verdicts[0].failure
    assert verdicts[1].value is True
    rows = [{"prompt_mode": "0_shot", "category": "puzzle", "rule_id": "10"}]
    result = ICL_EVALUATORS.get("korbenchEvaluator")(expression_timeout=30).score(
        ["[[os.kill(os.getpid(), 9)]]"], ["[[os.kill(os.getpid(), 9)=24]]"], rows)
    assert "SIGKILL" in result["error"] and "expression_timeout" not in result["error"]


def test_an_answer_past_its_most_bytes_is_named_so() -> None:
    ok = Check("korbench9", ("2*3 = 6", "2*3 = 6"))
    verdicts = run_checks([_forge("b'x' * (2 * 1024**2)"), ok], limit=30)
    assert verdicts[0] == Verdict(failure="its answer passed 1048576 bytes and it was killed (status -9 (SIGKILL))")
    assert verdicts[1].value is True


@pytest.mark.parametrize(("record", "timed_out", "failure"), [
    ({"k": -9, "c": True, "w": None}, True, "its process was stopped by its CPU-time limit (status -9 (SIGKILL))"),
    ({"k": -24, "c": True, "w": None}, True, "its process was stopped by its CPU-time limit (status -24 (SIGXCPU))"),
    ({"k": -24, "c": False, "w": None}, False, "the expression ended its process (status -24)"),
    ({"k": -9, "c": False, "w": None}, False, "its process was killed by SIGKILL before its CPU-time limit: not by a "
     "limit of the check's but by the kernel's out-of-memory killer, another process or the expression itself"),
    # killed by the program that runs the checks (its answer too long) after most of its CPU time: not by the limit
    ({"k": -9, "c": True, "w": "its answer passed 1048576 bytes and it was killed"}, False,
     "its answer passed 1048576 bytes and it was killed (status -9 (SIGKILL))"),
])
def test_a_signal_s_verdict_says_whether_the_cpu_limit_sent_it(record: dict[str, object], timed_out: bool,
                                                               failure: str) -> None:
    assert _verdict(record, 30.0) == Verdict(failure=failure, timed_out=timed_out)

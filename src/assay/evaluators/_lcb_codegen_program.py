"""The sandbox program that runs one LiveCodeBench code-generation solution on its tests (private).

It reproduces how OpenCompass 0.5.4 (after LiveCodeBench) runs a solution:
call-based problems (``fn_name`` set) load the code as a module and call the
function (a ``Solution`` method when the code defines ``class Solution``) on
JSON-decoded arguments, comparing type-aware; standard-input problems wrap the
code in a function ``code()`` (lines that are not imports are indented by a
tab; a trailing ``if __name__ == '__main__':`` block is unwrapped first), feed
the input through a patched ``sys.stdin``/``open`` and compare the printed
lines through a cascade of looser comparisons.  Tests run in order and stop at
the first that does not pass; each call has ``timeout`` whole seconds
(``signal.alarm``).

The run is checked (:func:`assay.evaluators._code_exec.checked_program`): the
program's process holds the solution and answers calls (its value, or what it
printed on an input); the checking process holds the expected outputs, runs
the comparisons, reports the per-test results and metadata, and fails unless
every test passed.  So the solution cannot write its own results.
"""

from __future__ import annotations

from assay.evaluators._code_exec import _TYPE_AWARE_EQUAL_SOURCE, Checked

__all__: list[str] = []

#: The star imports OpenCompass puts before every solution (a fact of its behaviour).
PRELUDE = "".join(
    f"{line}\n"
    for line in (
        *(
            f"from {m} import *"
            for m in (
                "string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random", "statistics",
                "itertools", "functools", "operator", "io", "sys", "json", "builtins", "typing",
            )
        ),
        *(
            f"import {m}"
            for m in (
                "string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random", "statistics",
                "itertools", "functools", "operator", "io", "sys", "json",
            )
        ),
        "sys.setrecursionlimit(6*10**5)",
    )
)

PROGRAM = r'''
import ast as _lc_ast, signal as _lc_signal, sys as _lc_sys, types as _lc_types
from io import StringIO as _LcStringIO
from unittest.mock import mock_open as _lc_mock_open, patch as _lc_patch


class TimeoutException(Exception):
    pass


def _lc_on_alarm(signum, frame):
    raise TimeoutException


_lc_signal.signal(_lc_signal.SIGALRM, _lc_on_alarm)


class _LcBuffer:
    def __init__(self, text):
        self.data = text.encode("utf-8")

    def read(self, *args):
        return self.data

    def readline(self, *args):
        return self.data.split(b"\n")[0] + b"\n"


class _LcStdin:
    def __init__(self, text):
        self.text = text
        self._io = _LcStringIO(text)
        self.buffer = _LcBuffer(text)

    def read(self, *args):
        return self.text

    def readline(self, *args):
        return self._io.readline(*args)

    def readlines(self, *args):
        return self.text.split("\n")

    def __getattr__(self, name):
        return getattr(self._io, name)


def _lc_call_with_input(method, text):
    lines = iter(text.split("\n"))
    fake = _LcStdin(text)

    @_lc_patch("builtins.open", _lc_mock_open(read_data=text))
    @_lc_patch("sys.stdin", fake)
    @_lc_patch("sys.stdin.readline", lambda *args: next(lines))
    @_lc_patch("sys.stdin.readlines", lambda *args: text.split("\n"))
    @_lc_patch("sys.stdin.read", lambda *args: text)
    def run(m):
        try:
            return m()
        except SystemExit:
            pass

    return run(method)


def _lc_stdin_source(code):
    try:
        tree = _lc_ast.parse(code)
        last = tree.body[-1]
        if isinstance(last, _lc_ast.If) and _lc_ast.unparse(last.test).strip() == "__name__ == '__main__'":
            code = _lc_ast.unparse(tree.body[:-1]) + "\n" + _lc_ast.unparse(last.body)
    except Exception:
        pass
    lines = []
    for x in code.split("\n"):
        if not x.startswith("from ") and not x.startswith("import "):
            lines.append("\t" + x + "\n")
        else:
            lines.append(x + "\n")
    out = ""
    started = False
    for line in lines:
        if line.startswith("\t") and not started:
            out += "stdin = sys.stdin\nstdout = sys.stdout\n"
            out += "def code():\n"
            out += line
            started = True
        elif started and (line.startswith("from ") or line.startswith("import ")):
            out += "\t" + line
        else:
            out += line
    return out


def _lc_load(source):
    module = _lc_types.ModuleType("tmp_sol", "")
    exec(compile(source, "<string>", "exec"), module.__dict__)
    return module


def _lc_prepare(fn_name, timeout):
    code = _LC_CODE
    if fn_name is not None:
        method_name = fn_name
        _lc_signal.alarm(timeout)
        try:
            module = _lc_load(_LC_PRELUDE + code)
            target = module if "class Solution" not in code else module.Solution()
            _lc_signal.alarm(0)
        except Exception as e:
            _lc_signal.alarm(0)
            return ["compile", repr(e)]
        _lc_signal.alarm(0)
    else:
        method_name = "code"
        _lc_signal.alarm(timeout)
        try:
            target = _lc_load(_LC_PRELUDE + _lc_stdin_source(code))
            _lc_signal.alarm(0)
        except Exception as e:
            _lc_signal.alarm(0)
            return ["compile", repr(e)]
        _lc_signal.alarm(0)
    try:
        method = getattr(target, method_name)
    except Exception:
        _lc_signal.alarm(0)
        return ["extract", repr(_lc_sys.exc_info())]
    global _lc_method
    _lc_method = method
    return ["ok"]


def _lc_call(inputs, timeout):
    _lc_signal.alarm(timeout)
    try:
        return _lc_method(*inputs)
    finally:
        _lc_signal.alarm(0)


def _lc_call_stdin(text, timeout):
    _lc_signal.alarm(timeout)
    saved = _lc_sys.stdout
    captured = _LcStringIO()
    _lc_sys.stdout = captured
    try:
        _lc_call_with_input(_lc_method, text)
    finally:
        _lc_signal.alarm(0)
        _lc_sys.stdout = saved
    return captured.getvalue()
'''

_CHECKER_DEFINITIONS = r'''
import json as _lc_json


class _LcVerdict(Exception):
    pass


def _lc_truncate(s, length=300):
    if len(s) <= length:
        return s
    return s[: length // 2] + "...(truncated) ..." + s[-length // 2:]


''' + _TYPE_AWARE_EQUAL_SOURCE.replace("_assay_type_aware_equal", "_lc_equal").lstrip("\n") + "\n\n" + r'''def _lc_int_like(v):
    return isinstance(v, int) or (isinstance(v, str) and v.isdigit())


def _lc_stripped_equal(output, truth):
    if isinstance(output, list):
        if "\n".join(output).strip() == truth.strip():
            return True
        if "\n".join(o.strip() for o in output).strip() == truth.strip():
            return True
    return False


def _lc_run(in_outs, timeout):
    results = []
    call_based = in_outs.get("fn_name") is not None
    prepared = _lc_prepare(in_outs.get("fn_name"), timeout)
    if prepared[0] == "compile":
        results.append(-2)
        return results, {"error": prepared[1], "error_code": -1, "error_message": "Compilation Error"}
    if prepared[0] == "extract":
        results.append(-2)
        return results, {"error": prepared[1], "error_code": -1, "error_message": "Unable to extract code"}

    outputs = in_outs["outputs"]
    for index, inputs in enumerate(in_outs["inputs"]):
        raw_inputs = inputs
        raw_outputs = outputs[index]
        if call_based:
            inputs = [_lc_json.loads(line) for line in inputs.split("\n")]
            outputs[index] = _lc_json.loads(outputs[index])
            size = 300 // (raw_inputs.count("\n") + 1)
            raw_inputs = "\n".join(_lc_truncate(line, size) for line in raw_inputs.strip().split("\n"))
            raw_outputs = _lc_truncate(raw_outputs, 200)
        else:
            raw_inputs = _lc_truncate(raw_inputs)
            raw_outputs = _lc_truncate(raw_outputs, 200)
        try:
            if isinstance(inputs[0], dict):
                inputs = [{int(k): v for k, v in inputs[0].items()}]
        except Exception:
            pass
        try:
            if isinstance(outputs[index], dict):
                outputs[index] = [{int(k): v for k, v in outputs[index].items()}]
        except Exception:
            pass
        try:
            if isinstance(outputs[index][0], dict):
                outputs[index] = [{int(k): v for k, v in outputs[index][0].items()}]
        except Exception:
            pass

        if call_based:
            try:
                output = _lc_call(inputs, timeout)
                shown = _lc_truncate(_lc_json.dumps(output), 200)
                if isinstance(output, tuple):
                    output = list(output)
                ok = _lc_equal(output, outputs[index])
                if isinstance(outputs[index], list) and outputs[index]:
                    ok = ok or _lc_equal(output, outputs[index][0])
                try:
                    if isinstance(output[0], tuple):
                        ok = ok or ([list(x) for x in output] == outputs[index][0])
                except Exception:
                    pass
                results.append(ok)
                if ok is not True:
                    return results, {"output": shown, "expected": raw_outputs, "inputs": raw_inputs, "error_code": -2, "error_message": "Wrong Answer"}
            except Exception as e:
                results.append(-1)
                if "timeoutexception" in repr(e).lower():
                    return results, {"error": repr(e), "error_code": -3, "error_message": "Time Limit Exceeded", "inputs": raw_inputs, "expected": raw_outputs}
                return results, {"error": repr(e), "error_code": -4, "error_message": "Runtime Error", "inputs": raw_inputs, "expected": raw_outputs}
            continue

        passed = False
        if isinstance(inputs, list):
            inputs = "\n".join(inputs)
        if isinstance(outputs[index], list):
            outputs[index] = "\n".join(outputs[index])
        try:
            printed = _lc_call_stdin(inputs, timeout)
            passed = True
        except Exception as e:
            results.append(-1)
            if "timeoutexception" in repr(e).lower():
                return results, {"error": repr(e), "error_code": -3, "error_message": "Time Limit Exceeded", "inputs": raw_inputs, "expected": raw_outputs}
            return results, {"error": repr(e), "error_code": -4, "error_message": "Runtime Error", "inputs": raw_inputs, "expected": raw_outputs}
        shown = _lc_truncate(printed, 200)
        output = printed.splitlines()
        if not passed:
            continue
        truth = outputs[index]
        if _lc_stripped_equal(output, truth):
            results.append(True)
            continue
        ok = False
        try:
            ok = output == [truth]
            if isinstance(truth, list):
                ok = ok or (output == truth)
                if isinstance(output[0], str):
                    ok = ok or ([e.strip() for e in output] == truth)
        except Exception:
            pass
        if ok is True:
            results.append(ok)
            continue
        if isinstance(truth, list):
            for j, item in enumerate(truth):
                truth[j] = [x.strip() for x in item.split("\n") if x]
        else:
            truth = [x.strip() for x in truth.split("\n") if len(x)]
        outputs[index] = truth
        try:
            ok = output == [truth]
            if isinstance(truth, list):
                ok = ok or (output == truth)
        except Exception:
            pass
        if ok is True:
            results.append(ok)
            continue
        if isinstance(output, list):
            output = [o for o in output if len(o)]
        try:
            ok = output == [truth]
            if isinstance(truth, list):
                ok = ok or (output == truth)
        except Exception:
            pass
        try:
            all_ints = all(_lc_int_like(a) and _lc_int_like(b) for a, b in zip(output, truth))
            if not all_ints:
                got = [float(e) for e in output]
                want = [float(e) for e in truth]
                import numpy
                ok = ok or ((len(got) == len(want)) and numpy.allclose(got, want))
        except Exception:
            pass
        try:
            if isinstance(output[0], list):
                all_ints = all(_lc_int_like(a) and _lc_int_like(b) for a, b in zip(output[0], truth))
                if not all_ints:
                    got = [float(e) for e in output[0]]
                    want = [float(e) for e in truth[0]]
                    import numpy
                    ok = ok or ((len(got) == len(want)) and numpy.allclose(got, want))
        except Exception:
            pass
        if ok is True:
            results.append(ok)
            continue
        if isinstance(truth, list):
            for j, item in enumerate(truth):
                truth[j] = set(item.split())
        else:
            truth = set(truth.split())
        outputs[index] = truth
        try:
            ok = output == truth
        except Exception:
            continue
        if ok is True:
            results.append(ok)
            continue
        results.append(ok)
        if ok is not True:
            return results, {"output": shown, "expected": raw_outputs, "inputs": raw_inputs, "error_code": -2, "error_message": "Wrong Answer"}
    return results, {}


def _lc_plain(value):
    if isinstance(value, bool) or value is None or isinstance(value, (int, float, str)):
        return value
    try:
        import numpy
        if isinstance(value, numpy.ndarray):
            return _lc_plain(value.item(0))
        if isinstance(value, numpy.generic):
            return value.item()
    except Exception:
        pass
    return repr(value)
'''

_CHECKER_RUN = r'''
_assay_remote.start()
_lc_prepare = _assay_remote.get("_lc_prepare")
_lc_call = _assay_remote.get("_lc_call")
_lc_call_stdin = _assay_remote.get("_lc_call_stdin")
_lc_results, _lc_meta = _lc_run(_lc_json.loads(_LC_IN_OUTS), _LC_TIMEOUT)
_lc_results = [_lc_plain(r) for r in _lc_results]
_assay_remote.report([_lc_results, _lc_json.dumps(_lc_meta, default=repr)])
if not (_lc_results and all(r is True for r in _lc_results) and len(_lc_results) == _LC_TESTS):
    raise _LcVerdict("not every test passed")
'''

#: The checking process's program: the comparisons, then the run through the channel to the program's process.
CHECKER = _CHECKER_DEFINITIONS + _CHECKER_RUN


def run_in_process(code: str, in_outs: dict, timeout: int) -> tuple[list, dict]:
    """Run ``code`` on ``in_outs`` (inputs, outputs, fn_name) in *this* process, as OpenCompass 0.5.4's
    ``run_test`` does: the same loading, calls and comparisons as the checked run, with no sandbox.

    Returns ``(per-test results, metadata)``: ``True``/``False`` per test run, ``-1`` for a test that
    raised or timed out, ``-2`` when the code did not compile or has no such function.  Sets this
    process's ``SIGALRM`` handler, as OpenCompass's ``testing_util`` does.
    """
    namespace: dict = {"__name__": "_lc_in_process", "_LC_PRELUDE": PRELUDE, "_LC_CODE": code}
    exec(compile(PROGRAM, "<livecodebench program>", "exec"), namespace)
    exec(compile(_CHECKER_DEFINITIONS, "<livecodebench checks>", "exec"), namespace)
    results, metadata = namespace["_lc_run"](in_outs, int(timeout))
    return results, metadata


def codegen_program(code: str, in_outs: str, timeout: int, tests: int) -> Checked:
    """The checked run of ``code`` against the JSON ``in_outs`` (inputs, outputs, fn_name).

    The program's process holds the code and runs each call (or each run on an
    input) under its alarm; the checking process holds the expected outputs,
    compares, and reports ``[per-test results, metadata JSON]``.
    """
    program = f"_LC_PRELUDE = {PRELUDE!r}\n_LC_CODE = {code!r}\n" + PROGRAM
    checker = f"_LC_IN_OUTS = {in_outs!r}\n_LC_TIMEOUT = {int(timeout)!r}\n_LC_TESTS = {int(tests)!r}\n" + CHECKER
    return Checked(program, checker)

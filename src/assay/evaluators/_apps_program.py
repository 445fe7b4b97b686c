"""The sandbox program that runs one APPS / TACO solution on its tests (private).

It reproduces how OpenCompass 0.5.4's ``run_test`` (APPS's and TACO's, the
same) runs a solution where ``pyext`` is installed: the solution, after
OpenCompass's import header, is loaded as a module (call-based problems call
``fn_name`` — a ``Solution`` method when the code defines ``class Solution``;
standard-input problems wrap the code in a function ``code()``, every line but
the imports indented by a tab, and feed each input through a patched
``sys.stdin``/``open``), each call under a 4 s alarm.  Every test runs (a
failing one does not stop the others): ``True``/``False`` per test compared,
``-1`` for a test that raised or timed out, a single ``-2`` when the code does
not load or lacks the function.

The run is checked (:class:`assay.evaluators._code_exec.Checked`): the
program's process holds the solution and answers each call with what it
returned (or the lines it printed); the checking process holds the expected
outputs, makes OpenCompass's comparisons (type-aware for call-based problems;
for standard input a cascade: stripped text, line lists, floats, word sets)
and reports the per-test results.
"""

from __future__ import annotations

from assay.evaluators._code_exec import _TYPE_AWARE_EQUAL_SOURCE, Checked

__all__: list[str] = []

#: The lines OpenCompass puts before every solution (a fact of its behaviour).
HEADER = (
    "import sys\nimport time\nimport itertools\nfrom itertools import accumulate, product, permutations, combinations\n"
    "import collections\nfrom collections import Counter, OrderedDict, deque, defaultdict, ChainMap\n"
    "from functools import lru_cache\nimport math\nfrom math import sqrt, sin, cos, tan, ceil, fabs, floor, gcd, exp, log, log2\n"
    "import fractions\nfrom typing import List, Tuple\nimport numpy as np\nimport random\nimport heapq\nfrom heapq import *\n"
)

#: Seconds each call may take (OpenCompass's module-level ``timeout``).
CALL_SECONDS = 4

PROGRAM = r'''
import signal as _ap_signal, sys as _ap_sys, types as _ap_types
from io import StringIO as _ApStringIO
from unittest.mock import mock_open as _ap_mock_open, patch as _ap_patch


class TimeoutException(Exception):
    pass


def _ap_on_alarm(signum, frame):
    raise TimeoutException


_ap_signal.signal(_ap_signal.SIGALRM, _ap_on_alarm)


def _ap_stdin_source(code):
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


def _ap_load(source):
    module = _ap_types.ModuleType("tmp_sol", "")
    exec(compile(source, "tmp_sol", "exec"), module.__dict__)
    return module


def _ap_prepare(fn_name, timeout):
    global _ap_method
    code = _AP_CODE
    if fn_name is not None:
        name = fn_name
        source = _AP_HEADER + code
    else:
        name = "code"
        source = _AP_HEADER + _ap_stdin_source(code)
    _ap_signal.alarm(timeout)
    try:
        module = _ap_load(source)
        target = module if (fn_name is None or "class Solution" not in code) else module.Solution()
        _ap_signal.alarm(0)
    except Exception as e:
        _ap_signal.alarm(0)
        return ["compile", repr(e)]
    _ap_signal.alarm(0)
    try:
        _ap_method = getattr(target, name)
    except Exception as e:
        return ["extract", repr(e)]
    return ["ok", ""]


def _ap_call(inputs, timeout):
    _ap_signal.alarm(timeout)
    try:
        output = _ap_method(*inputs)
        if isinstance(output, tuple):
            output = list(output)
        _ap_signal.alarm(0)
        return ["ok", output]
    except Exception as e:
        _ap_signal.alarm(0)
        return ["error", repr(e)]


def _ap_call_stdin(text, timeout):
    lines = iter(text.split("\n"))
    saved = _ap_sys.stdout
    captured = _ApStringIO()

    @_ap_patch("builtins.open", _ap_mock_open(read_data=text))
    @_ap_patch("sys.stdin", _ApStringIO(text))
    @_ap_patch("sys.stdin.readline", lambda *args: next(lines))
    @_ap_patch("sys.stdin.readlines", lambda *args: text.split("\n"))
    @_ap_patch("sys.stdin.read", lambda *args: text)
    def run(m):
        try:
            return m()
        except SystemExit:
            pass

    _ap_signal.alarm(timeout)
    _ap_sys.stdout = captured
    try:
        run(_ap_method)
        _ap_signal.alarm(0)
        ok = True
    except Exception:
        _ap_signal.alarm(0)
        ok = False
    finally:
        _ap_sys.stdout = saved
    return ["ok" if ok else "error", captured.getvalue().splitlines()]
'''

_CHECKER_DEFINITIONS = (
    "import json as _ap_json\nimport numpy as _ap_np\n\n\nclass _ApVerdict(Exception):\n    pass\n\n\n"
    + _TYPE_AWARE_EQUAL_SOURCE.replace("_assay_type_aware_equal", "_ap_equal").lstrip("\n")
    + r'''

def _ap_stripped_equal(output, truth):
    if isinstance(output, list):
        if "\n".join(output).strip() == truth.strip():
            return True
        if "\n".join(o.strip() for o in output).strip() == truth.strip():
            return True
    return False


def _ap_int_keys(value):
    return {int(k): v for k, v in value.items()}


def _ap_compare_stdin(output, expected):
    """OpenCompass's cascade for one standard-input test; ``expected`` is a text."""
    if _ap_stripped_equal(output, expected):
        return True
    ok = False
    try:
        ok = output == [expected]
        if isinstance(expected, list):
            ok = ok or output == expected
            if isinstance(output[0], str):
                ok = ok or [e.strip() for e in output] == expected
    except Exception:
        pass
    if ok == True:  # noqa: E712
        return ok
    if isinstance(expected, list):
        for i, item in enumerate(expected):
            expected[i] = [x.strip() for x in item.split("\n") if x]
    else:
        expected = [x.strip() for x in expected.split("\n") if len(x)]
    try:
        ok = output == [expected]
        if isinstance(expected, list):
            ok = ok or output == expected
    except Exception:
        pass
    if ok == True:  # noqa: E712
        return ok
    if isinstance(output, list):
        output = [o for o in output if len(o)]
    try:
        ok = output == [expected]
        if isinstance(expected, list):
            ok = ok or output == expected
    except Exception:
        pass
    try:
        got = [float(e) for e in output]
        want = [float(e) for e in expected]
        ok = ok or (len(got) == len(want) and bool(_ap_np.allclose(got, want)))
    except Exception:
        pass
    try:
        if isinstance(output[0], list):
            got = [float(e) for e in output[0]]
            want = [float(e) for e in expected[0]]
            ok = ok or (len(got) == len(want) and bool(_ap_np.allclose(got, want)))
    except Exception:
        pass
    if ok == True:  # noqa: E712
        return ok
    if isinstance(expected, list):
        for i, item in enumerate(expected):
            expected[i] = set(item.split())
    else:
        expected = set(expected.split())
    try:
        ok = output == expected
    except Exception:
        return None  # OpenCompass records nothing for this test
    if ok == True:  # noqa: E712
        return ok
    if isinstance(output, list):
        output = [o.split() for o in output]
        output = [o for o in output if len(o)]
        output = [set(o) for o in output]
    else:
        output = set(output.split())
    try:
        ok = set(frozenset(s) for s in output) == set(frozenset(s) for s in expected)
    except Exception:
        pass
    try:
        ok = ok or (set(frozenset(round(float(t), 3) for t in s) for s in output)
                    == set(frozenset(round(float(t), 3) for t in s) for s in expected))
    except Exception:
        pass
    return ok


def _ap_run(in_outs, timeout):
    results = []
    fn_name = in_outs.get("fn_name")
    prepared = _ap_prepare(fn_name, timeout)
    if prepared[0] != "ok":
        return [-2], prepared[1]
    outputs = in_outs["outputs"]
    for index, inputs in enumerate(in_outs["inputs"]):
        try:
            if isinstance(inputs[0], dict):
                inputs = [_ap_int_keys(inputs[0])]
        except Exception:
            pass
        try:
            if isinstance(outputs[index], dict):
                outputs[index] = [_ap_int_keys(outputs[index])]
        except Exception:
            pass
        try:
            if isinstance(outputs[index][0], dict):
                outputs[index] = [_ap_int_keys(outputs[index][0])]
        except Exception:
            pass
        if fn_name is not None:
            answer = _ap_call(inputs, timeout)
            if answer[0] != "ok":
                results.append(-1)
                continue
            output = answer[1]
            if isinstance(output, tuple):
                output = list(output)
            ok = _ap_equal(output, outputs[index])
            if isinstance(outputs[index], list) and outputs[index]:
                ok = ok or _ap_equal(output, outputs[index][0])
            try:
                if isinstance(output[0], tuple):
                    ok = ok or ([list(x) for x in output] == outputs[index][0])
            except Exception:
                pass
            results.append(ok)
            continue
        if isinstance(inputs, list):
            inputs = "\n".join(inputs)
        if isinstance(outputs[index], list):
            outputs[index] = "\n".join(outputs[index])
        answer = _ap_call_stdin(inputs, timeout)
        if answer[0] != "ok":
            results.append(-1)
            continue
        ok = _ap_compare_stdin(list(answer[1]), outputs[index])
        if ok is not None:
            results.append(ok)
    return results, ""


def _ap_plain(value):
    if isinstance(value, bool) or value is None or isinstance(value, (int, float, str)):
        return value
    try:
        if isinstance(value, _ap_np.ndarray):
            return _ap_plain(value.item(0))
        if isinstance(value, _ap_np.generic):
            return _ap_plain(value.item())
    except Exception:
        pass
    return bool(value)
''')

_CHECKER_RUN = r'''
_assay_remote.start()
_ap_prepare = _assay_remote.get("_ap_prepare")
_ap_call = _assay_remote.get("_ap_call")
_ap_call_stdin = _assay_remote.get("_ap_call_stdin")
_ap_results, _ap_error = _ap_run(_ap_json.loads(_AP_IN_OUTS), _AP_TIMEOUT)
_ap_results = [_ap_plain(r) for r in _ap_results]
_assay_remote.report([_ap_results, _ap_error])
if not (_ap_results and all(r is True or (type(r) is int and r > 0) for r in _ap_results)):
    raise _ApVerdict("not every test passed")
'''

CHECKER = _CHECKER_DEFINITIONS + _CHECKER_RUN


def apps_program(code: str, in_outs: str, timeout: int = CALL_SECONDS) -> Checked:
    """The checked run of ``code`` against the JSON ``in_outs`` (``inputs``, ``outputs``, ``fn_name``).

    Example:
        >>> run = apps_program("def f(x):\\n    return x", '{"inputs": [[1]], "outputs": [1], "fn_name": "f"}')
        >>> all(compile(src, 'p', 'exec') for src in (run.program, run.checker))
        True
    """
    program = f"_AP_HEADER = {HEADER!r}\n_AP_CODE = {code!r}\n" + PROGRAM
    checker = f"_AP_IN_OUTS = {in_outs!r}\n_AP_TIMEOUT = {int(timeout)!r}\n" + CHECKER
    return Checked(program, checker)

"""The programs EvalPlus-style differential testing runs in the sandbox (private).

Values cross the sandbox boundary as tagged JSON (:data:`CODEC_SOURCE`): floats
(NaN and infinities included), tuples, sets, frozensets, dicts with any
hashable keys, complex numbers and bytes keep their types; nothing is ever
unpickled.
"""

from __future__ import annotations

import json
from typing import Any

from assay.evaluators._code_exec import Checked, read_refused_source

__all__: list[str] = []

#: Encoder and decoder of the tagged JSON, shared by this module and the programs.
CODEC_SOURCE = r'''
def _ap_encode(value):
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value if type(value) is int else {"$i": int(value)}
    if isinstance(value, float):
        return {"$f": repr(float(value))}
    if isinstance(value, complex):
        return {"$c": [repr(value.real), repr(value.imag)]}
    if isinstance(value, list):
        return [_ap_encode(v) for v in value]
    if isinstance(value, tuple):
        return {"$t": [_ap_encode(v) for v in value]}
    if isinstance(value, frozenset):
        return {"$fs": [_ap_encode(v) for v in value]}
    if isinstance(value, set):
        return {"$s": [_ap_encode(v) for v in value]}
    if isinstance(value, dict):
        return {"$d": [[_ap_encode(k), _ap_encode(v)] for k, v in value.items()]}
    if isinstance(value, (bytes, bytearray)):
        return {"$b": bytes(value).hex()}
    raise TypeError("cannot carry a value of type " + type(value).__name__)


def _ap_decode(value):
    if isinstance(value, list):
        return [_ap_decode(v) for v in value]
    if isinstance(value, dict):
        ((tag, body),) = value.items()
        if tag == "$f":
            return float(body)
        if tag == "$i":
            return int(body)
        if tag == "$c":
            return complex(float(body[0]), float(body[1]))
        if tag == "$t":
            return tuple(_ap_decode(v) for v in body)
        if tag == "$fs":
            return frozenset(_ap_decode(v) for v in body)
        if tag == "$s":
            return set(_ap_decode(v) for v in body)
        if tag == "$d":
            return {_ap_decode(k): _ap_decode(v) for k, v in body}
        if tag == "$b":
            return bytes.fromhex(body)
        raise ValueError("unknown tag " + tag)
    return value
'''

_codec: dict[str, Any] = {}
exec(compile(CODEC_SOURCE, "<assay evalplus codec>", "exec"), _codec)


def encode(value: Any) -> Any:
    """Tagged JSON of ``value``.

    >>> encode((1, 2.0, {3}))
    {'$t': [1, {'$f': '2.0'}, {'$s': [3]}]}
    """
    return _codec["_ap_encode"](value)


def decode(value: Any) -> Any:
    """The value of tagged JSON.

    >>> decode({'$t': [1, {'$f': 'nan'}]})[1] != decode({'$f': 'nan'})
    True
    """
    return _codec["_ap_decode"](value)


#: Marker of the line a program writes its result on (the last such line counts).
RESULT_MARK = "@@assay-evalplus@@ "


def truth_program(code: str, entry_point: str, inputs: list[Any], output_not_none: bool) -> str:
    """Run the reference solution on ``inputs``; print its outputs and the seconds each call took."""
    payload = json.dumps(encode(inputs))
    return (
        CODEC_SOURCE
        + f"""
import json as _ap_json, sys as _ap_sys, time as _ap_time
_ap_inputs = _ap_decode(_ap_json.loads({payload!r}))
_ap_globals = {{}}
exec(compile({code!r}, '<string>', 'exec'), _ap_globals)
_ap_fn = _ap_globals[{entry_point!r}]
_ap_out, _ap_times = [], []
for _ap_inp in _ap_inputs:
    _ap_start = _ap_time.time()
    _ap_out.append(_ap_fn(*_ap_inp))
    _ap_times.append(_ap_time.time() - _ap_start)
if {output_not_none!r}:
    _ap_out = [_o is not None for _o in _ap_out]
_ap_sys.stdout.write("\\n" + {RESULT_MARK!r} + _ap_json.dumps([_ap_encode(_ap_out), _ap_times]) + "\\n")
"""
    )


# The program's process: the solution, run with output swallowed and standard
# input refused, and the call of its function under a per-input time limit.
_CHECK_PROGRAM = r'''
import io as _ap_io, signal as _ap_signal, sys as _ap_sys

''' + read_refused_source("_ap") + r'''

class _ApTimeout(Exception):
    pass


def _ap_alarm(signum, frame):
    raise _ApTimeout("Timed out!")


_ap_sink = _ap_io.StringIO()
_ap_sys.stdin = _ApReadRefused()
_ap_sys.stdout = _ap_sink
_ap_sys.stderr = _ap_sink
_ap_globals = {}
exec(compile(_AP_CODE, '<string>', 'exec'), _ap_globals)


def _ap_call(fn, args, limit, with_args):
    _ap_signal.signal(_ap_signal.SIGALRM, _ap_alarm)
    _ap_signal.setitimer(_ap_signal.ITIMER_REAL, limit)
    try:
        out = fn(*args)
    finally:
        _ap_signal.setitimer(_ap_signal.ITIMER_REAL, 0)
    return [out, args] if with_args else out
'''

# The checking process: evalplus's comparisons on the values the calls returned.
_CHECK_BODY = r'''
import json as _ap_json, math as _ap_math


class _ApVerdict(Exception):
    pass


def _ap_is_floats(x):
    import numpy
    if isinstance(x, float):
        return True
    if isinstance(x, (list, tuple)):
        return all(isinstance(i, float) for i in x)
    if isinstance(x, numpy.ndarray):
        return x.dtype == numpy.float64 or x.dtype == numpy.float32
    return False


def _ap_poly(xs, x):
    return sum([coeff * _ap_math.pow(x, i) for i, coeff in enumerate(xs)])


_ap_status = "fail"
_ap_details = []
_ap_find_zero = _AP_DATASET == "humaneval" and _AP_ENTRY == "find_zero"
try:
    _assay_remote.start()
    _ap_fn = _assay_remote.namespace("_ap_globals")[_AP_ENTRY]
    _ap_call = _assay_remote.get("_ap_call")
    _ap_atol = _AP_ATOL
    for _ap_i, _ap_inp in enumerate(_AP_INPUTS):
        try:
            _ap_out = _ap_call(_ap_fn, _ap_inp, _AP_LIMITS[_ap_i], _ap_find_zero)
            if _ap_find_zero:  # evalplus checks the zero against the arguments as the call left them
                _ap_out, _ap_inp = _ap_out
            _ap_exp = _AP_EXPECTED[_ap_i]
            _ap_exact = _ap_out == _ap_exp
            if _AP_DATASET == "mbpp":
                if _AP_ENTRY == "are_equivalent":
                    _ap_exact = _ap_exact or True
                elif _AP_ENTRY == "sum_div":
                    _ap_exact = _ap_exact or _ap_out == 0
                elif _AP_ENTRY in _AP_NOT_NONE:
                    if isinstance(_ap_out, bool):
                        _ap_exact = _ap_out == _ap_exp
                    else:
                        _ap_exact = _ap_exp == (_ap_out is not None)
            if _ap_find_zero:
                assert _ap_poly(*_ap_inp, _ap_out) <= _ap_atol
            if _ap_atol == 0 and _ap_is_floats(_ap_exp):
                _ap_atol = 1e-6
            if not _ap_exact and _ap_atol != 0:
                import numpy
                numpy.testing.assert_allclose(_ap_out, _ap_exp, atol=_ap_atol)
            else:
                assert _ap_exact
        except BaseException:
            _ap_details.append(False)
            continue
        _ap_details.append(True)
    _ap_status = "pass"
except BaseException:
    _ap_status = "fail"
_assay_remote.report([_ap_status, _ap_details])
if _ap_status != "pass" or len(_ap_details) != len(_AP_INPUTS) or not all(_ap_details):
    raise _ApVerdict("some tests failed")
'''


def check_program(
    dataset: str,
    code: str,
    entry_point: str,
    inputs: list[Any],
    expected: list[Any],
    limits: list[float],
    atol: float,
    not_none: list[str],
) -> Checked:
    """The checked run of one solution against ``expected`` outputs, each call under its time limit.

    The solution and its calls run in the program's process; the inputs, the
    expected outputs and the comparisons only in the checking process, which
    reports ``[status, per-input verdicts]``.
    """
    program = f"_AP_CODE = {code!r}\n" + _CHECK_PROGRAM
    head = (
        CODEC_SOURCE
        + "\nimport json as _ap_json0\n"
        + f"_AP_ENTRY = {entry_point!r}\n"
        + f"_AP_DATASET = {dataset!r}\n"
        + f"_AP_INPUTS = _ap_decode(_ap_json0.loads({json.dumps(encode(inputs))!r}))\n"
        + f"_AP_EXPECTED = _ap_decode(_ap_json0.loads({json.dumps(encode(expected))!r}))\n"
        + f"_AP_LIMITS = {[float(x) for x in limits]!r}\n"
        + f"_AP_ATOL = _ap_decode(_ap_json0.loads({json.dumps(encode(atol))!r}))\n"
        + f"_AP_NOT_NONE = {list(not_none)!r}\n"
    )
    return Checked(program, head + _CHECK_BODY)


def last_result(stdout: str) -> Any:
    """The JSON after the last result mark of ``stdout``, or ``None``."""
    at = stdout.rfind(RESULT_MARK)
    if at < 0:
        return None
    line = stdout[at + len(RESULT_MARK) :].split("\n", 1)[0]
    try:
        return json.loads(line)
    except ValueError:
        return None

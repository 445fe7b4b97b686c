"""The driver that runs one compiled or non-Python test program in the sandbox (private).

:func:`driver_program` returns Python source that runs as the sandbox's
program: it writes the test program into the run's working directory, runs
the steps (compile, then run) each with its own time limit, and decides the
verdict the way a test harness of the language decides it (an exit status,
output on standard error).  It ends normally only when the tests passed;
otherwise it prints one line ``<marker> <JSON [kind, result]>`` and raises,
so the sandbox records a failure.  :func:`read_verdict` reads that line back.

Step kinds and how each decides:

* ``compile``: status 0 goes on; another status ends with ``result``'s
  ``failure`` text (``{err}`` is replaced by the step's standard error, else its
  standard output; ``{stderr}`` by its standard error alone); a timeout ends as ``timeout`` with the step's
  ``timeout_result``; ``retries`` more attempts after a timeout.
* ``run``: status 0 passes (``quiet``: only when standard error and standard
  output are both empty, whatever the status; ``fail_on``: only when neither
  holds any of these texts, ``fail_on_stdout``: the standard output none
  of these, and ``fail_on_stderr``: the standard error none of these, else
  ``fail_on_result``; ``stderr_empty``: only when standard error is empty,
  else ``fail_on_result``; ``any_status``: every status counts as 0, only
  the texts decide); ``by_status`` maps other statuses
  to results (``{err}`` and ``{stderr}`` replaced, ``{status}`` by the exit
  status; a result may require a text in the standard error, else falls to
  ``otherwise``; one with ``stderr_nonempty`` chooses ``then`` when the standard error holds anything; one
  with ``both`` looks for its needle in the standard output too); ``checks`` (``[stream, text, result]``,
  looked at first, whatever the status) end with ``result`` when ``stream`` (``stdout`` or ``stderr``) holds
  ``text``.

A verdict's result is cut to its first :data:`RESULT_LIMIT` characters before it is printed, so that its line
stays within the sandbox's output limit (a stack overflow's trace can be megabytes long).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

__all__: list[str] = []

MARKER = "__assay_compiled_verdict__"
#: The characters of a verdict's result the driver prints at most.
RESULT_LIMIT = 4000

_DRIVER = r'''
import json as _j, os as _o, subprocess as _s

_MARK = %(marker)r
_SPEC = _j.loads(%(spec)r)


def _end(kind, result):
    result = result[:%(limit)d]
    print(_MARK + " " + _j.dumps([kind, result]), flush=True)
    raise RuntimeError(kind + ": " + result[:200])


def _text(data, mode):
    if mode == "unicode-escape":
        return data.decode("unicode-escape", "replace")
    return data.decode("utf-8", "replace")


for _name, _content in _SPEC["files"].items():
    with open(_name, "w", encoding="utf-8") as _f:
        _f.write(_content)
_cwd = _o.getcwd()
_env = dict(_o.environ)
_env.update({_k: _v.replace("{cwd}", _cwd) for _k, _v in _SPEC["env"].items()})
if _SPEC.get("copy_tree"):
    import shutil as _sh
    _src, _dst = _SPEC["copy_tree"]
    _sh.copytree(_src, _dst.replace("{cwd}", _cwd))
_passed = False
for _step in _SPEC["steps"]:
    _tries = 1 + int(_step.get("retries", 0))
    _done = None
    for _ in range(_tries):
        try:
            _done = _s.run(_step["argv"], capture_output=True, timeout=_step["timeout"], env=_env, stdin=_s.DEVNULL)
            break
        except _s.TimeoutExpired:
            continue
    if _done is None:
        _end("timeout", _step["timeout_result"])
    _err = _text(_done.stderr, "utf-8")
    _out = _text(_done.stdout, "utf-8")
    _shown = _err if _done.stderr else _out
    if _step["kind"] == "compile":
        if _done.returncode != 0:
            _end("compile", _step["failure"].replace("{err}", _shown).replace("{stderr}", _err))
        continue
    for _stream, _needle, _result in _step.get("checks", ()):
        if _needle in (_out if _stream == "stdout" else _err):
            _end("failed", _result.replace("{err}", _shown).replace("{stderr}", _err))
    if _step.get("quiet"):
        if _err:
            _end("failed", "failed: " + _err)
        if _out:
            _end("failed", "failed: " + _out)
        _passed = True
        continue
    if _done.returncode == 0 or _step.get("any_status"):
        _bad = [_n for _n in _step.get("fail_on", ()) if _n in _out or _n in _err]
        _bad += [_n for _n in _step.get("fail_on_stdout", ()) if _n in _out]
        _bad += [_n for _n in _step.get("fail_on_stderr", ()) if _n in _err]
        if _step.get("stderr_empty") and _done.stderr:
            _bad.append("standard error")
        if _bad:
            _end("failed", _step["fail_on_result"].replace("{err}", _shown))
        _passed = True
        continue
    _rule = _step["by_status"].get(str(_done.returncode), _step["otherwise"])
    if isinstance(_rule, dict) and _rule.get("stderr_nonempty"):
        _rule = _rule["then"] if _done.stderr else _rule["else"]
    elif isinstance(_rule, dict):
        _hay = _text(_done.stderr, _rule.get("decode", "utf-8")) + (_out if _rule.get("both") else "")
        _rule = _rule["then"] if _rule["needle"] in _hay else _rule["else"]
    _end("failed", _rule.replace("{err}", _shown).replace("{stderr}", _err).replace("{status}", str(_done.returncode)))
if not _passed:
    _end("failed", "failed: no test step ran")
'''


def driver_program(files: dict[str, str], steps: Sequence[dict[str, Any]], env: dict[str, str] | None = None,
                   copy_tree: tuple[str, str] | None = None) -> str:
    """The driver's source: write ``files``, copy ``copy_tree`` (source, destination) when given, run ``steps``.

    Example:
        >>> src = driver_program({'a.txt': 'x'}, [{'kind': 'run', 'argv': ['true'], 'timeout': 5, 'timeout_result': 'timed out',
        ...                                        'by_status': {}, 'otherwise': 'failed: {err}'}])
        >>> compile(src, 'driver', 'exec') is not None
        True
    """
    spec = {"files": dict(files), "steps": list(steps), "env": dict(env or {}), "copy_tree": list(copy_tree) if copy_tree else None}
    return _DRIVER % {"marker": MARKER, "spec": json.dumps(spec), "limit": RESULT_LIMIT}


def read_verdict(stdout: str) -> tuple[str, str] | None:
    """The ``(kind, result)`` the driver printed, or ``None`` when it printed none."""
    for line in reversed(stdout.splitlines()):
        if line.startswith(MARKER + " "):
            try:
                kind, result = json.loads(line[len(MARKER) + 1 :])
            except (ValueError, TypeError):
                return None
            return str(kind), str(result)
    return None


def driver_runs(results: Iterable[Any], passed: str, no_verdict: str) -> list[tuple[str, str, str]]:
    """Each sandbox run of a driver program as ``(status, outcome, message)``.

    A run that passed is ``(passed, 'passed', '')``; one that ended without the
    driver's verdict (the whole run's deadline, a kill, the sandbox) is
    ``(no_verdict, <the sandbox's outcome>, <its message>)``; otherwise the
    verdict's result is the status (a timeout of a step is outcome ``timeout``,
    anything else ``failed``), its first 2,000 characters the message.
    """
    runs = []
    for res in results:
        if res.passed:
            runs.append((passed, "passed", ""))
            continue
        verdict = read_verdict(res.stdout)
        if verdict is None:
            runs.append((no_verdict, res.outcome.value, res.message))
            continue
        kind, result = verdict
        runs.append((result, "timeout" if kind == "timeout" else "failed", result[:2000]))
    return runs


def rows_of_test_set(test_set: Any) -> list[dict[str, Any]] | None:
    """The rows of a test set (a table with ``column_names``, or an iterable of mappings) as dicts; ``None`` for none."""
    if test_set is None:
        return None
    names = list(getattr(test_set, "column_names", None) or [])
    if names:
        table = {c: list(test_set[c]) for c in names}
        return [{c: table[c][i] for c in names} for i in range(len(table[names[0]]))]
    return [dict(r) for r in test_set]

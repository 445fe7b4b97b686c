"""LiveCodeBench's in-process test harness, as OpenCompass 0.5.4 has it (``opencompass.datasets.livecodebench.testing_util``).

This module is what ``opencompass.datasets.livecodebench.testing_util`` is
when :mod:`assay.opencompass` serves OpenCompass's names, and it gives
``codegen_check_correctness`` to ``opencompass.datasets.livecodebench.evaluator``:
code that calls OpenCompass's API gets OpenCompass's behaviour.  Like
OpenCompass's, :func:`run_test` runs model code **in the calling process**,
after :func:`reliability_guard` has disabled destructive functions of that
process — it is not a sandbox; :func:`codegen_check_correctness` runs it in a
child process.  assay's own ``LCBCodeGenerationEvaluator`` does not use this
module: it runs each solution in :mod:`assay.sandbox`, with the same loading,
calls and comparisons.

Solutions are loaded as OpenCompass loads them with ``pyext`` installed (its
``full`` extra, on Python < 3.11).  Each :func:`run_test` sets this process's
``SIGALRM`` handler (OpenCompass sets :func:`timeout_handler` when the module
is imported; assay does not touch signals on import).
"""

from __future__ import annotations

import builtins
import faulthandler
import json
import platform
import sys
from enum import Enum
from io import StringIO
from typing import Any

from assay.evaluators._lcb_codegen_program import run_in_process
from assay.evaluators.code_execution import type_aware_equal as type_aware_equal  # one of testing_util's names

__all__: list[str] = []  # served under OpenCompass's names only (assay.opencompass)

#: The memory limit ``codegen_check_correctness`` gives the child by default (4 GiB, as OpenCompass's).
DEFAULT_MEMORY_LIMIT_BYTES = 4 * 1024 * 1024 * 1024

#: OpenCompass's ``pyext`` loader, ``None`` where pyext is absent; assay loads solutions without it.
RuntimeModule = None




def truncatefn(s: str, length: int = 300) -> str:
    """``s`` cut to ``length`` characters: its two halves around ``'...(truncated) ...'``.

    >>> truncatefn('abcdefghij', 4)
    'ab...(truncated) ...ij'
    """
    assert isinstance(s, str)
    if len(s) <= length:
        return s
    return s[: length // 2] + "...(truncated) ..." + s[-length // 2:]


class CODE_TYPE(Enum):
    """How a problem's tests call the solution: a function (``fn_name`` set) or standard input."""

    call_based = 0
    standard_input = 1


class TimeoutException(Exception):
    """A test ran past its time limit (raised by the ``SIGALRM`` handler)."""


def timeout_handler(signum: int, frame: Any) -> None:
    """The ``SIGALRM`` handler: says so on stdout and raises :class:`TimeoutException`."""
    print("alarm went off")
    raise TimeoutException


class Capturing(list[str]):
    """``with Capturing() as out:`` collects what is printed to ``sys.stdout`` inside, as one string appended
    to ``out`` on exit.

    >>> with Capturing() as out:
    ...     print('hi')
    >>> out
    ['hi\\n']
    """

    def __enter__(self) -> Capturing:
        self._stdout = sys.stdout
        self._stringio = StringIO()
        self._stringio.close = lambda *args: 1  # type: ignore[assignment, method-assign]  # closing it keeps the text
        sys.stdout = self._stringio
        return self

    def __exit__(self, *args: Any) -> None:
        self.append(self._stringio.getvalue())
        del self._stringio
        sys.stdout = self._stdout


class MockBuffer:
    """``sys.stdin.buffer`` of a standard-input test: the input's UTF-8 bytes."""

    def __init__(self, inputs: str) -> None:
        self.inputs = inputs.encode("utf-8")

    def read(self, *args: Any) -> bytes:
        return self.inputs

    def readline(self, *args: Any) -> bytes:
        return self.inputs.split(b"\n")[0] + b"\n"


class MockStdinWithBuffer:
    """``sys.stdin`` of a standard-input test: ``read()`` gives the whole input, ``readlines()`` its lines
    split on newlines, ``buffer`` a :class:`MockBuffer`, anything else a ``StringIO`` of it."""

    def __init__(self, inputs: str) -> None:
        self.inputs = inputs
        self._stringio = StringIO(inputs)
        self.buffer = MockBuffer(inputs)

    def read(self, *args: Any) -> str:
        return self.inputs

    def readline(self, *args: Any) -> str:
        return self._stringio.readline(*args)

    def readlines(self, *args: Any) -> list[str]:
        return self.inputs.split("\n")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stringio, name)


def call_method(method: Any, inputs: str | list[str]) -> Any:
    """Call ``method()`` with standard input (and ``open()`` of any file) reading ``inputs`` (lines joined by
    newlines when a list); ``SystemExit`` ends the call quietly (``None``).

    >>> call_method(lambda: input() + '!', ['a', 'b'])
    'a!'
    """
    from unittest.mock import mock_open, patch

    text = "\n".join(inputs) if isinstance(inputs, list) else inputs
    lines = iter(text.split("\n"))
    with patch("builtins.open", mock_open(read_data=text)), patch("sys.stdin", MockStdinWithBuffer(text)), \
            patch("sys.stdin.readline", lambda *args: next(lines)), \
            patch("sys.stdin.readlines", lambda *args: text.split("\n")), patch("sys.stdin.read", lambda *args: text):
        try:
            return method()
        except SystemExit:
            return None


def only_int_check(val: Any) -> bool:
    return isinstance(val, int)


def string_int_check(val: Any) -> bool:
    return isinstance(val, str) and val.isdigit()


def combined_int_check(val: Any) -> bool:
    """An ``int``, or a string of digits.

    >>> combined_int_check(3), combined_int_check('12'), combined_int_check('-1')
    (True, True, False)
    """
    return only_int_check(val) or string_int_check(val)


def stripped_string_compare(s1: str, s2: str) -> bool:
    """Equal once leading and trailing whitespace is stripped."""
    return s1.strip() == s2.strip()


def custom_compare_(output: Any, ground_truth: str) -> bool:
    """A list of printed lines equal to ``ground_truth`` joined by newlines (stripped), as they are or
    each line stripped; anything else is not.

    >>> custom_compare_([' 1', '2 '], '1\\n2'), custom_compare_('1', '1')
    (True, False)
    """
    if isinstance(output, list):
        if stripped_string_compare("\n".join(output), ground_truth):
            return True
        if stripped_string_compare("\n".join(o.strip() for o in output), ground_truth):
            return True
    return False


def run_test(sample: dict[str, Any], test: str | None = None, debug: bool = False, timeout: int = 6,
             memory_limit_bytes: int | None = None) -> tuple[list[Any], dict[str, Any]]:
    """Run the solution ``test`` on the tests of ``sample['input_output']`` in this process.

    First calls :func:`reliability_guard` (with ``memory_limit_bytes``), which
    disables destructive functions of this process for good.  Tests run in
    order and stop at the first that does not pass, each with ``timeout``
    seconds.  Returns the per-test results (``True``/``False``; ``-1`` raised or
    timed out; ``-2`` did not compile or lacks the function) and the metadata
    of the first failure (``error_code``, ``error_message``, inputs, output,
    expected), ``{}`` when all pass.
    """
    reliability_guard(maximum_memory_bytes=memory_limit_bytes)
    if test is None:
        raise AssertionError("should not happen: test code is none")
    in_outs = json.loads(sample["input_output"])
    return run_in_process(test, in_outs, timeout)


def reliability_guard(maximum_memory_bytes: int | None = None) -> None:
    """Disable functions of this process that could harm the machine or the test, as OpenCompass does.

    With ``maximum_memory_bytes``, the address space, data segment and (but
    on macOS) stack are limited to it.  Then ``exit``/``quit``/``help``, the
    ``os`` functions that kill, fork, run programs, change or remove files
    and change directories, ``shutil.rmtree``/``move``/``chown`` and
    ``subprocess.Popen`` become ``None``, the fault handler is disabled and
    ``ipdb``, ``joblib``, ``resource``, ``psutil`` and ``tkinter`` cannot be
    imported.  Not a security sandbox, and not undone: call it only in a
    process that ends after the test.
    """
    if maximum_memory_bytes is not None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (maximum_memory_bytes, maximum_memory_bytes))
        resource.setrlimit(resource.RLIMIT_DATA, (maximum_memory_bytes, maximum_memory_bytes))
        if platform.uname().system != "Darwin":
            resource.setrlimit(resource.RLIMIT_STACK, (maximum_memory_bytes, maximum_memory_bytes))
    faulthandler.disable()

    import os
    import shutil
    import subprocess

    for name in ("exit", "quit", "help"):
        setattr(builtins, name, None)
    os.environ["OMP_NUM_THREADS"] = "1"
    for name in (
        "kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid", "fork", "forkpty", "killpg",
        "rename", "renames", "truncate", "replace", "unlink", "fchmod", "fchown", "chmod", "chown", "chroot", "lchflags",
        "lchmod", "lchown", "getcwd", "chdir",
    ):
        setattr(os, name, None)
    shutil.rmtree = shutil.move = shutil.chown = None  # type: ignore[assignment]
    subprocess.Popen = None  # type: ignore[assignment, misc]
    for name in ("ipdb", "joblib", "resource", "psutil", "tkinter"):
        sys.modules[name] = None  # type: ignore[assignment]


def _run_in_child(sample: dict[str, Any], generation: str, debug: bool, result: Any, metadata_list: Any, timeout: int,
                  memory_limit_bytes: int | None) -> None:
    res, metadata = run_test(sample, test=generation, debug=debug, timeout=timeout, memory_limit_bytes=memory_limit_bytes)
    result.append(res)
    metadata_list.append(metadata)


def codegen_check_correctness(sample: dict[str, Any], generation: str, timeout: int, debug: bool = True,
                              memory_limit_bytes: int | None = DEFAULT_MEMORY_LIMIT_BYTES) -> tuple[Any, Any]:
    """:func:`run_test` in a child process, with a global deadline, as OpenCompass 0.5.4 runs it.

    The child (``multiprocessing``'s default start method) runs this module's
    ``run_test`` as it is when called; it gets ``(timeout + 1)`` seconds per
    test plus 5 and is killed after.  A child that ends without a result
    (killed, out of memory, exited) counts every test as ``-1``, with
    ``{'error_code': -3, 'error_message': 'Global Timeout or Memory Limit Exceeded'}``.
    Returns ``(per-test results, metadata)``.
    """
    import multiprocessing

    manager = multiprocessing.Manager()
    result = manager.list()
    metadata_list = manager.list()
    child = multiprocessing.Process(
        target=_run_in_child, args=(sample, generation, debug, result, metadata_list, timeout, memory_limit_bytes)
    )
    child.start()
    child.join(timeout=(timeout + 1) * len(json.loads(sample["input_output"])["inputs"]) + 5)
    if child.is_alive():
        child.kill()
        child.join()
    if not result:
        in_outs = json.loads(sample["input_output"])
        result = [[-1 for _ in range(len(in_outs["inputs"]))]]  # type: ignore[assignment]
        metadata_list.append({"error_code": -3, "error_message": "Global Timeout or Memory Limit Exceeded"})
    return result[0], metadata_list[0]


"""Isolated execution of untrusted Python programs (R-10.1).

Each program runs in its own process tree, in private mount, pid, network,
IPC and UTS namespaces (only the Python runtime and system libraries visible,
read-only, and the folders given as ``extra_roots``; an empty private working directory and ``/tmp``; no network), as a
uid reserved for the run, with CPU-time, address-space, process-count,
file-size and open-file limits, a wall-clock deadline that kills the whole
tree, and stdout/stderr captured up to a size cap.  The namespaces come from
bubblewrap when it is installed, else from the ``unshare(2)`` system call
(``ASSAY_SANDBOX_NO_BWRAP=1`` ignores bubblewrap).  Both need root.  As root
where no namespace can be created, the sandbox refuses to run code and says
what is missing; a non-root process without namespaces gets the limits only,
with a warning, and every :class:`RunResult` says so in its ``isolation`` field.

A run passes only when the harness confirms that the program reached its last
line; exiting early, even with status 0, is a failure.  A checked run
(``Sandbox.run(program, checker=...)``) puts the deciding code in a second
process under another uid, which calls the program's functions through a pipe
and gets back plain data: there the verdict is out of the program's reach.

Example:
    >>> from assay.sandbox import Limits, Outcome, Sandbox
    >>> sb = Sandbox(Limits(timeout=5))
    >>> [r.outcome.value for r in sb.run_many(["x = 1", "raise ValueError('no')"])]
    ['passed', 'failed']
"""

from __future__ import annotations

from assay.sandbox._runner import (
    NO_BWRAP_ENV,
    Sandbox,
    bwrap_available,
    isolation_unavailable,
    missing_modules,
    namespaces_available,
    program_environment,
    run_program,
    sandbox_python,
    unshare_available,
)
from assay.sandbox._types import Isolation, Limits, Outcome, RunResult

__all__ = [
    "NO_BWRAP_ENV",
    "Isolation",
    "Limits",
    "Outcome",
    "RunResult",
    "Sandbox",
    "bwrap_available",
    "isolation_unavailable",
    "missing_modules",
    "namespaces_available",
    "program_environment",
    "run_program",
    "sandbox_python",
    "unshare_available",
]

"""Typed values of the sandbox: limits, outcomes and the record of one run."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Isolation", "Limits", "Outcome", "RunResult"]


class Outcome(enum.StrEnum):
    """How one program run ended.

    ``PASSED`` means the program ran to its last line (the harness confirmed
    it with a per-run token) — for a checked run, that the checker did;
    everything else is a failure of some kind.
    """

    PASSED = "passed"
    #: An exception (assertion or other) or an early ``exit``; see the message.
    FAILED = "failed"
    #: The wall-clock or CPU-time limit was reached.
    TIMEOUT = "timeout"
    #: The program ran out of its address-space limit (``MemoryError``).
    MEMORY = "memory"
    #: The program was killed by a signal it did not ask for (or output abuse).
    KILLED = "killed"
    #: The sandbox itself could not run the program.
    SANDBOX_ERROR = "sandbox-error"


class Isolation(enum.StrEnum):
    """How strongly a run was isolated from the machine."""

    #: private mount, pid, network, IPC and UTS namespaces (bubblewrap or
    #: ``unshare(2)``), a separate uid, resource limits.
    NAMESPACES = "namespaces"
    #: Resource limits only (plus a separate uid and network namespace when
    #: running as root): the program can see the caller's files.
    LIMITS_ONLY = "limits-only"


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run.

    Args:
        timeout: wall-clock seconds before the whole process tree is killed.
        cpu_time: CPU seconds per process (``RLIMIT_CPU``); ``None`` derives
            it from ``timeout``.
        memory: address-space bytes per process (``RLIMIT_AS``).
        processes: processes of the run's uid (``RLIMIT_NPROC``).
        file_size: largest file the program may write (``RLIMIT_FSIZE``).
        open_files: open file descriptors (``RLIMIT_NOFILE``).
        output: bytes kept of each of stdout and stderr; the rest is read
            and discarded, never buffered.
        tmpfs: bytes of the private working directory (and ``/tmp``).

    Example:
        >>> Limits(timeout=2.0).effective_cpu_time
        3
    """

    timeout: float = 10.0
    cpu_time: int | None = None
    memory: int = 1024**3
    processes: int = 64
    file_size: int = 16 * 1024**2
    open_files: int = 128
    output: int = 64 * 1024
    tmpfs: int = 64 * 1024**2

    @property
    def effective_cpu_time(self) -> int:
        """The CPU-time limit in whole seconds."""
        if self.cpu_time is not None:
            return max(1, int(self.cpu_time))
        return max(1, int(self.timeout) + 1)


@dataclass
class RunResult:
    """The record of one program run.

    ``message`` explains any outcome other than ``PASSED`` (the exception and
    its message, the limit that was hit, the sandbox failure).  ``stdout`` and
    ``stderr`` hold at most :attr:`Limits.output` bytes each (decoded as UTF-8
    with replacement); ``stdout_bytes``/``stderr_bytes`` count everything the
    program wrote.
    """

    outcome: Outcome
    message: str = ""
    exit_code: int | None = None
    stdout: str = ""
    stderr: str = ""
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    duration: float = 0.0
    isolation: Isolation = Isolation.NAMESPACES
    extra: dict[str, Any] = field(default_factory=dict)
    #: what the checker of a checked run reported (JSON), else ``None``
    data: Any = None

    @property
    def passed(self) -> bool:
        """True when the program ran to its end."""
        return self.outcome is Outcome.PASSED

    @property
    def output_truncated(self) -> bool:
        """True when stdout or stderr was cut to the output limit."""
        return bool(self.extra.get("truncated"))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly summary (outputs included, already capped)."""
        return {
            "outcome": self.outcome.value,
            "message": self.message,
            "exit_code": self.exit_code,
            "stdout": self.stdout,
            "stderr": self.stderr,
            "duration": round(self.duration, 4),
            "isolation": self.isolation.value,
        }

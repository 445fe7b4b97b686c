"""Worker processes for ``MATHVerifyEvaluator`` (private).

math-verify (through sympy) can take unbounded time on adversarial input.
Each sample is therefore checked in a worker process; a worker that does not
answer within the per-sample timeout is killed and replaced, and the sample is
recorded as ``timeout``.  Nothing here imports math-verify in the calling
process.
"""

from __future__ import annotations

import functools
import logging
import multiprocessing
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

__all__: list[str] = []

logger = logging.getLogger(__name__)

#: Outcome of one sample: ``status`` is one of the ``STATUS_*`` values.
STATUS_CORRECT = "correct"
STATUS_WRONG = "wrong"
STATUS_NO_ANSWER = "pred_unparsable"
STATUS_BAD_GOLD = "gold_unparsable"
STATUS_TIMEOUT = "timeout"
STATUS_ERROR = "error"

_READY = "ready"
_STARTUP_TIMEOUT = 120.0


@dataclass
class Outcome:
    status: str
    pred: str = ""
    answer: str = ""
    message: str = ""

    @property
    def correct(self) -> bool:
        return self.status == STATUS_CORRECT


def check_one(gold: str, pred: str) -> tuple[str, str, str]:
    """Parse ``gold`` and ``pred`` with math-verify and compare them: ``(status, parsed pred, parsed gold)``.

    Runs inside a worker process.  Parses as OpenCompass 0.5.4's
    ``MATHVerifyEvaluator`` does: the reference always wrapped in ``$…$``
    (first match, LaTeX then plain expressions); the reply by LaTeX only
    (first match, boxed answers first, no match without an anchor, units and
    equations normalized); then ``verify(parsed reply, parsed reference)`` —
    OpenCompass passes the reply in math-verify's *gold* position.  The parsed
    forms are given as the ``str()`` of math-verify's lists.
    """
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify

    gold_parsed = parse(f"${gold}$", extraction_mode="first_match", extraction_config=[LatexExtractionConfig(), ExprExtractionConfig()])
    if not gold_parsed:
        return STATUS_BAD_GOLD, "", ""
    pred_parsed = parse(pred, extraction_config=_reply_config(), extraction_mode="first_match")
    ok = verify(pred_parsed, gold_parsed)
    if not pred_parsed:
        return STATUS_NO_ANSWER, str(pred_parsed), str(gold_parsed)
    return (STATUS_CORRECT if ok else STATUS_WRONG), str(pred_parsed), str(gold_parsed)


@functools.cache
def _reply_config() -> list[Any]:
    """OpenCompass's extraction settings for replies, built once per worker.

    (``equations=True`` is deprecated in latex2sympy2_extended, which logs a
    warning each time a reply is normalized with it; the setting is kept, and
    that logger is quieted in the worker process.)
    """
    from latex2sympy2_extended import NormalizationConfig
    from math_verify import LatexExtractionConfig

    logging.getLogger("latex2sympy2_extended.math_normalization").setLevel(logging.ERROR)
    normalization = NormalizationConfig(nits=False, malformed_operators=False, basic_latex=True, equations=True, boxed="all", units=True)
    return [LatexExtractionConfig(normalization_config=normalization, boxed_match_priority=0, try_extract_without_anchor=False)]


Check = Callable[[str, str], tuple[str, str, str]]


def worker_main(conn: Connection, check: Check = check_one) -> None:
    """Serve ``(index, gold, pred)`` requests with ``check`` until ``None`` or the pipe closes."""
    if check is check_one:
        import math_verify  # noqa: F401 - loaded before signalling readiness, so startup is not charged to a sample

    conn.send(_READY)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        index, gold, pred = msg
        try:
            result: tuple[str, ...] = check(gold, pred)
        except Exception as exc:  # one bad sample must not end the worker
            result = (STATUS_ERROR, "", "", f"{type(exc).__name__}: {exc}"[:300])
        conn.send((index, result))


class _Slot:
    """One worker process and the request it is working on."""

    def __init__(self, ctx: Any, check: Check) -> None:
        self.ctx = ctx
        self.check = check
        self.conn: Connection | None = None
        self.proc: Any = None
        self.index: int | None = None
        self.deadline = 0.0

    def start(self) -> None:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=worker_main, args=(child, self.check), daemon=True, name="assay-math-verify")
        proc.start()
        child.close()
        if not parent.poll(_STARTUP_TIMEOUT):
            proc.kill()
            proc.join(5)
            raise RuntimeError("the math-verify worker did not start")
        ready = parent.recv()
        if ready != _READY:  # pragma: no cover - protocol violation
            raise RuntimeError(f"unexpected message from the math-verify worker: {ready!r}")
        self.conn, self.proc = parent, proc

    def stop(self, kill: bool = False) -> None:
        if self.proc is None:
            return
        if not kill and self.conn is not None:
            try:
                self.conn.send(None)
            except (OSError, BrokenPipeError):
                kill = True
        if not kill:
            self.proc.join(2)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(5)
        if self.conn is not None:
            self.conn.close()
        self.proc = self.conn = None
        self.index = None


def _context() -> Any:
    # fork is fast and safe while the process has a single thread; otherwise spawn.
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def run_checks(
    items: list[tuple[str, str]], *, workers: int, timeout: float, check: Check = check_one
) -> list[Outcome]:
    """Check every ``(gold, pred)`` pair in worker processes, each bounded by ``timeout`` seconds.

    ``check`` (a module-level function, so that it can reach a spawned worker)
    returns ``(status, parsed pred, parsed gold)``; it defaults to math-verify.
    """
    outcomes: list[Outcome | None] = [None] * len(items)
    if not items:
        return []
    ctx = _context()
    slots = [_Slot(ctx, check) for _ in range(max(1, min(workers, len(items))))]
    pending = deque(range(len(items)))
    try:
        for slot in slots:
            slot.start()
        while pending or any(s.index is not None for s in slots):
            for slot in slots:
                if slot.index is None and pending:
                    i = pending.popleft()
                    assert slot.conn is not None
                    slot.conn.send((i, items[i][0], items[i][1]))
                    slot.index, slot.deadline = i, time.monotonic() + timeout
            busy = [s for s in slots if s.index is not None]
            wait_for = max(0.0, min(s.deadline for s in busy) - time.monotonic())
            ready = set(wait([s.conn for s in busy if s.conn is not None], timeout=wait_for))
            now = time.monotonic()
            for slot in busy:
                assert slot.index is not None
                if slot.conn in ready:
                    try:
                        index, result = slot.conn.recv()
                    except (EOFError, OSError):
                        outcomes[slot.index] = Outcome(STATUS_ERROR, message="the math-verify worker died")
                        slot.stop(kill=True)
                        slot.start()
                        continue
                    outcomes[index] = Outcome(*result)
                    slot.index = None
                elif now >= slot.deadline:
                    logger.warning("math-verify: sample %d took more than %.1f s; counted as wrong (timeout)", slot.index, timeout)
                    outcomes[slot.index] = Outcome(STATUS_TIMEOUT, message=f"no verdict within {timeout} s")
                    slot.stop(kill=True)
                    slot.start()
    finally:
        for slot in slots:
            slot.stop()
    return [o if o is not None else Outcome(STATUS_ERROR, message="not checked") for o in outcomes]

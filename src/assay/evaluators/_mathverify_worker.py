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


Check = Callable[[str, str], tuple[str, ...]]


def _warm_math_verify() -> None:
    """Loaded before a worker takes a sample, so that start-up is not charged to one."""
    import math_verify  # noqa: F401


def _check_item(check: Check, item: tuple[int, str, str], emit: Callable[[tuple[Any, ...]], None]) -> None:
    """A worker's part: the verdict on one ``(index, gold, pred)``; one bad sample does not end the worker."""
    _, gold, pred = item
    try:
        result: tuple[str, ...] = check(gold, pred)
    except Exception as exc:
        result = (STATUS_ERROR, "", "", f"{type(exc).__name__}: {exc}"[:300])
    emit(("result", result))


def _context() -> Any:
    # fork is fast and safe while the process has a single thread; otherwise spawn.
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def run_checks(
    items: list[tuple[str, str]], *, workers: int, timeout: float, check: Check = check_one,
    component: str = "math-verify",
) -> list[Outcome]:
    """Check every ``(gold, pred)`` pair in worker processes, each bounded by ``timeout`` seconds.

    ``check`` (a module-level function, so that it can reach a spawned worker)
    returns ``(status, parsed pred, parsed gold)``, optionally with a message; it defaults to math-verify.
    ``component`` names the checker in the workers' names, a dead worker's message and the timeout warning.
    The workers are :class:`assay._pool.ForkPool`'s (spawned instead of forked
    while other threads run); a worker past the deadline is killed and replaced.
    """
    from assay._pool import ForkPool

    outcomes: list[Outcome | None] = [None] * len(items)
    if not items:
        return []
    size = max(1, min(workers, len(items)))
    pool = ForkPool(
        size,
        functools.partial(_check_item, check),
        warm=_warm_math_verify if check is check_one else None,
        name=f"assay-{component}",
        method=_context().get_start_method(),
        ready=True,
        ready_timeout=_STARTUP_TIMEOUT,
    )
    pending = deque(range(len(items)))
    deadlines: dict[int, float] = {}
    try:
        while pending or deadlines:
            while pending and pool.idle():
                i = pending.popleft()
                pool.submit((i, items[i][0], items[i][1]))
                deadlines[i] = time.monotonic() + timeout
            wait_for = max(0.0, min(deadlines.values()) - time.monotonic())
            for (i, _, _), event in pool.events(timeout=wait_for):
                if event[0] == "result":
                    outcomes[i] = Outcome(*event[1])
                elif event[0] == "died":
                    outcomes[i] = Outcome(STATUS_ERROR, message=f"the {component} worker died")
                elif event[0] == "end":
                    deadlines.pop(i, None)
            now = time.monotonic()
            for i in [i for i, deadline in deadlines.items() if now >= deadline]:
                logger.warning("%s: sample %d took more than %.1f s; counted as wrong (timeout)", component, i, timeout)
                outcomes[i] = Outcome(STATUS_TIMEOUT, message=f"no verdict within {timeout} s")
                pool.kill((i, items[i][0], items[i][1]))
                del deadlines[i]
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.close()
    return [o if o is not None else Outcome(STATUS_ERROR, message="not checked") for o in outcomes]

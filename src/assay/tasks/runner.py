"""Running many tasks: in this process, or in a pool of forked worker processes.

Workers are forked from the process that loaded the config, so classes defined
in config files and user modules are available to them without pickling; only
task indices and outcomes cross process boundaries.  Each worker writes its own
result files atomically, so a crash loses nothing that was already written.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from assay.fileio import atomic_write_json
from assay.results import META_KEY
from assay.tasks.plan import EvalOptions, EvalTask
from assay.tasks.run import TaskOutcome, run_task

logger = logging.getLogger(__name__)

__all__ = ["default_workers", "run_tasks"]

OnDone = Callable[[TaskOutcome, int, int], None]

_TASKS: Sequence[EvalTask] = ()
_OPTIONS: EvalOptions | None = None


def default_workers() -> int:
    """The number of CPU cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _run_index(i: int) -> TaskOutcome:
    assert _OPTIONS is not None
    return run_task(_TASKS[i], _OPTIONS)


def run_tasks(
    tasks: Sequence[EvalTask],
    options: EvalOptions,
    *,
    workers: int | None = None,
    on_done: OnDone | None = None,
) -> list[TaskOutcome]:
    """Run every task; return their outcomes in task order."""
    global _TASKS, _OPTIONS
    total = len(tasks)
    workers = default_workers() if workers is None else max(1, workers)
    outcomes: dict[int, TaskOutcome] = {}

    def done(i: int, outcome: TaskOutcome) -> None:
        outcomes[i] = outcome
        if on_done is not None:
            on_done(outcome, len(outcomes), total)

    if workers == 1 or total <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for i, task in enumerate(tasks):
            done(i, run_task(task, options))
        return [outcomes[i] for i in range(total)]

    _TASKS, _OPTIONS = tasks, options
    try:
        ctx = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=min(workers, total), mp_context=ctx) as pool:
            pending: dict[Future[TaskOutcome], int] = {pool.submit(_run_index, i): i for i in range(total)}
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    i = pending.pop(fut)
                    try:
                        done(i, fut.result())
                    except BrokenProcessPool:
                        done(i, _worker_died(tasks[i], options))
                    except Exception as exc:  # run_task never raises; this is a bug guard
                        done(i, _worker_died(tasks[i], options, f"{type(exc).__name__}: {exc}"))
    finally:
        _TASKS, _OPTIONS = (), None
    return [outcomes[i] for i in range(total)]


def _worker_died(task: EvalTask, options: EvalOptions, reason: str | None = None) -> TaskOutcome:
    """Record a task whose worker process died (killed, out of memory, crashed)."""
    run_dir = options.run_dir
    path = run_dir.result_path(task.model_abbr, task.dataset_abbr)
    message = reason or "the worker process running this task died (killed by a signal or out of memory)"
    if not path.is_file() or _is_error_or_unreadable(path):
        atomic_write_json(path, {"error": message, META_KEY: {"model": task.model_abbr, "dataset": task.dataset_abbr}})
    return TaskOutcome(task.name, "failed", str(path), str(run_dir.log_path(task.model_abbr, task.dataset_abbr)), message)


def _is_error_or_unreadable(path: os.PathLike[str]) -> bool:
    from assay.results import read_result

    try:
        return "error" in read_result(path)
    except Exception:
        return True

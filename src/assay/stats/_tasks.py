"""Reading every (model, dataset) of a run once, in this process or in a few forked ones.

A task reads one result file with its details (and, for the sample
browser, the prediction file), computes what the run's statistics and the
HTML report need of it — each metric's :class:`CellStat`, the unscorable
counts, the :class:`SampleColumns` — and drops the details.  Tasks are
independent: when the result files are large, they run in forked worker
processes (one per idle CPU, at most :data:`MAX_WORKERS`; the pool of
:mod:`assay._pool`, as the eval's), each holding the details of one task at a
time and sending the compact output of each task back as soon as it is done.

The eval can do a task's work in the worker that has just written the result,
while the predictions are still in memory (:func:`prepare`); the worker hands
the output to this process (:func:`remember_prepared`), and :func:`run_tasks`
takes it instead of reading the files again, as long as the result file is
unchanged and the summary shows the values it was computed for.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import pickle
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from assay._gc import bulk_allocations
from assay.results import file_signature
from assay.stats._columns import SAMPLE_TEXT, PredictionColumns, SampleColumns, prediction_columns, sample_columns
from assay.stats._details import Details
from assay.stats._intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED, CellStat
from assay.stats._samples import SampleValues, cell_stat, correctness_of, sample_values
from assay.stats._unscorable import Unscorable, unscorable_in, unscorable_of

__all__ = [
    "MAX_WORKERS",
    "POOL_MIN_BYTES",
    "REPORT_OPTIONS",
    "Prepared",
    "Task",
    "TaskOptions",
    "TaskOutput",
    "pool_size",
    "prepare",
    "remember_prepared",
    "run_tasks",
]

logger = logging.getLogger(__name__)

#: Most worker processes (each holds one task's details at a time).
MAX_WORKERS = 4
#: Result files smaller than this in all are read in this process: forking would cost more than it saves.
POOL_MIN_BYTES = 4 << 20


@dataclass(frozen=True)
class Task:
    """One (model, dataset): ``have`` are the summary's values to explain (empty: none)."""

    column: str
    abbr: str
    folder: str
    have: Mapping[str, float] = field(default_factory=dict)
    columns: bool = False


@dataclass(frozen=True)
class TaskOptions:
    """What every task shares: the run directory, the interval settings, and the sample browser's text limit."""

    run_dir: str
    confidence: float = 0.95
    resamples: int = DEFAULT_BOOTSTRAP
    seed: int = DEFAULT_SEED
    keep_samples: bool = False
    text_limit: int = 0


@dataclass
class TaskOutput:
    """What one task found: statistics of ``have`` (in its order) and the browser's columns."""

    cells: dict[str, CellStat] = field(default_factory=dict)
    samples: dict[str, SampleValues] = field(default_factory=dict)
    unscorable: Unscorable | None = None
    columns: SampleColumns | None = None


#: The options of the summary's statistics and report pass (``run_dir`` aside): what :func:`prepare` uses.
REPORT_OPTIONS = TaskOptions("", text_limit=SAMPLE_TEXT)

_Columns = Callable[[], PredictionColumns]


def run_task(task: Task, options: TaskOptions) -> TaskOutput:
    """Read one (model, dataset) and compute what is asked of it."""
    from assay.stats._run import read_full_result

    if not task.have and not task.columns:
        return TaskOutput()
    result = read_full_result(options.run_dir, task.folder, task.abbr)
    if result is None:
        out = TaskOutput()
        for metric, value in task.have.items():
            out.cells[metric] = CellStat(value, reason="the result file cannot be read", confidence=options.confidence)
        return out
    return _output_of(result, task, options, partial(prediction_columns, options.run_dir, task.folder, task.abbr))


def _output_of(result: dict[str, Any], task: Task, options: TaskOptions, predictions: _Columns) -> TaskOutput:
    """What ``task`` asks of a result read from its file; ``predictions`` returns the prediction file's columns."""
    out = TaskOutput()
    details = result.get("details")
    view = Details(details) if isinstance(details, list) and details else None
    correct = correctness_of(view) if view is not None else None
    if task.have:
        known: dict[str, Any] = {} if view is None else {"correct": correct}
        backed: list[tuple[str, float]] = []
        for metric, value in task.have.items():
            sv = sample_values(result, metric, value, **known)
            out.cells[metric] = cell_stat(
                sv, value, confidence=options.confidence, resamples=options.resamples, seed=options.seed
            )
            if isinstance(sv, SampleValues):
                if options.keep_samples:
                    out.samples[metric] = sv
                if sv.basis == "correct":
                    backed.append((metric, value))
        if view is not None:
            out.unscorable = unscorable_in(result, view, backed, correct=correct)
        else:
            out.unscorable = unscorable_of(result, backed)
    if task.columns and view is not None and "error" not in result:
        out.columns = sample_columns(view, task.abbr, options.text_limit, predictions, correct)
    return out


# -- outputs prepared by the worker that wrote the result ------------------------------------------


@dataclass
class Prepared:
    """A result file's task output, computed for every numeric metric of the result by :func:`prepare`.

    Attributes:
        path: the result file (absolute).
        stamp: its size, times and inode then.
        values: each metric's value, as the summary reads it.
        output: the statistics of every metric in ``values``, the unscorable
            counts (with bounds for each of them) and the sample browser's columns.
    """

    path: str
    stamp: tuple[int, int, int, int]
    values: dict[str, float]
    output: TaskOutput

    def output_for(self, task: Task, options: TaskOptions) -> TaskOutput | None:
        """What :func:`run_task` would compute for ``task``, or ``None`` when this output cannot stand in for it."""
        if file_signature(self.path) != self.stamp or dataclasses.replace(options, run_dir="") != REPORT_OPTIONS:
            return None
        if any(self.values.get(metric) != value for metric, value in task.have.items()):
            return None  # the summary shows a value the file did not hold
        done = self.output
        out = TaskOutput(
            cells={metric: done.cells[metric] for metric in task.have},
            samples={metric: sv for metric, sv in done.samples.items() if metric in task.have},
            columns=done.columns if task.columns else None,
        )
        if task.have and done.unscorable is not None:
            bounds = {metric: b for metric, b in done.unscorable.bounds.items() if metric in task.have}
            out.unscorable = dataclasses.replace(done.unscorable, bounds=bounds)
        return out


def prepare(result_path: str | os.PathLike[str], abbr: str, predictions: _Columns) -> Prepared | None:
    """The task output the summary's report pass will want of a result file just written.

    Computed with :data:`REPORT_OPTIONS` for every finite numeric metric of the
    file, read back as the pass would read it; ``predictions`` returns the
    columns of the prediction file it was scored from.  ``None`` when the
    file cannot be read.
    """
    from assay.results import numeric_metrics, read_result

    path = os.path.abspath(result_path)
    stamp = file_signature(path)
    try:
        result = read_result(path)
        if stamp is None or file_signature(path) != stamp:
            return None
        values = {} if "error" in result else {m: float(v) for m, v in numeric_metrics(result).items() if math.isfinite(v)}
        with bulk_allocations():
            output = _output_of(result, Task("", abbr, "", values, columns=True), REPORT_OPTIONS, predictions)
    except Exception as exc:  # the report pass reads the file again and says what is wrong
        logger.debug("could not prepare the statistics of %s: %s", path, exc)
        return None
    return Prepared(path, stamp, values, output)


#: Outputs handed over by the workers that wrote the results, by absolute result path; each is used once.
_PREPARED: dict[str, Prepared] = {}


def remember_prepared(prepared: Prepared) -> None:
    """Let the next :func:`run_tasks` of this process take ``prepared`` for its result file (see :meth:`Prepared.output_for`)."""
    _PREPARED[prepared.path] = prepared


def _multiprocessing() -> Any:
    """The ``multiprocessing`` module, imported when a pool is considered (not on ``import assay.stats``)."""
    import multiprocessing

    return multiprocessing


def _fork_allowed() -> bool:
    """Forking is available and safe: no other thread holds locks a child would inherit, and we may have children."""
    return (
        "fork" in _multiprocessing().get_all_start_methods()
        and threading.active_count() == 1
        and not _multiprocessing().current_process().daemon
    )


def _idle_cpus() -> int:
    """The CPUs no other process is using now, by the count of runnable tasks (Linux), else by the load average."""
    from assay._pool import usable_cpus

    cpus = usable_cpus()
    busy: float | None = None
    try:
        with open("/proc/loadavg", "rb") as fh:  # "0.52 0.58 0.59 2/371 12345": 2 runnable now, this one included
            samples = []
            for _ in range(3):
                fh.seek(0)
                samples.append(int(fh.read().split()[3].split(b"/")[0]) - 1)
                time.sleep(0.001)
        busy = max(samples)
    except (OSError, ValueError, IndexError):
        with suppress(OSError):  # no load average at all: count every CPU
            busy = os.getloadavg()[0]
    if busy is None:
        return cpus
    return max(1, min(cpus, int(cpus - busy + 0.5)))


def _size(options: TaskOptions, task: Task) -> int:
    try:
        return (Path(options.run_dir) / "results" / task.folder / f"{task.abbr}.json").stat().st_size
    except OSError:
        return 0


def pool_size(tasks: Sequence[Task], options: TaskOptions, workers: int | None) -> int:
    """How many processes to read ``tasks`` with (1: in this process).

    ``workers=None`` decides: one per idle CPU (at most :data:`MAX_WORKERS`;
    CPUs other processes keep busy now do not count) when the result files
    add up to :data:`POOL_MIN_BYTES` or more.  Forking is
    never used where it is unavailable or unsafe (other threads running, a
    daemonic process).
    """
    busy = [t for t in tasks if t.have or t.columns]
    if workers is None:
        if len(busy) < 2 or sum(_size(options, t) for t in busy) < POOL_MIN_BYTES:
            return 1
        workers = min(_idle_cpus(), MAX_WORKERS)
    size = max(1, min(workers, len(busy)))
    return size if size > 1 and _fork_allowed() else 1


def run_tasks(tasks: Sequence[Task], options: TaskOptions, *, workers: int | None = None) -> list[TaskOutput]:
    """Run every task; the outputs in task order.  ``workers``: see :func:`pool_size`.

    A task whose result a worker prepared (:func:`remember_prepared`) takes
    that output when it can; the others read their files.
    """
    outputs: list[TaskOutput | None] = [None] * len(tasks)
    if _PREPARED:
        results = os.path.abspath(os.path.join(options.run_dir, "results"))
        for i, task in enumerate(tasks):
            found = _PREPARED.pop(os.path.join(results, task.folder, f"{task.abbr}.json"), None)
            outputs[i] = found.output_for(task, options) if found is not None else None
    todo = [i for i, o in enumerate(outputs) if o is None]
    if todo:
        for i, output in zip(todo, _read_tasks([tasks[i] for i in todo], options, workers)):
            outputs[i] = output
    return [o if o is not None else TaskOutput() for o in outputs]


def _read_tasks(tasks: Sequence[Task], options: TaskOptions, workers: int | None) -> list[TaskOutput | None]:
    size = pool_size(tasks, options, workers)
    with bulk_allocations():
        if size <= 1:
            return [run_task(t, options) for t in tasks]
        # the smallest task here first: the modules the tasks need are then imported once, before forking
        first = min(
            range(len(tasks)), key=lambda i: (not (tasks[i].have or tasks[i].columns), _cost(options, tasks[i]))
        )
        done = run_task(tasks[first], options)
        outputs = _run_forked([t for i, t in enumerate(tasks) if i != first], options, size)
        outputs.insert(first, done)
        missing = [i for i, o in enumerate(outputs) if o is None]
        if missing:
            logger.warning(
                "%d of %d results were not read by worker processes; reading them here", len(missing), len(tasks)
            )
            for i in missing:
                outputs[i] = run_task(tasks[i], options)
    return outputs


def _cost(options: TaskOptions, task: Task) -> int:
    """The bytes a task reads, roughly: its result file, and its prediction file for the columns."""
    size = _size(options, task)
    if task.columns:
        with suppress(OSError):
            size += (Path(options.run_dir) / "predictions" / task.folder / f"{task.abbr}.json").stat().st_size
    return size


def _run_forked(tasks: Sequence[Task], options: TaskOptions, size: int) -> list[TaskOutput | None]:
    """Run the tasks in ``size`` forked workers (:class:`assay._pool.ForkPool`); ``None`` for a task no worker reported.

    The tasks go out largest first, so that no worker is left with a big one
    at the end; an exception a task raised is raised here.
    """
    from assay._pool import ForkPool

    queue = sorted(range(len(tasks)), key=lambda i: _cost(options, tasks[i]))  # popped from the end: largest first
    outputs: list[TaskOutput | None] = [None] * len(tasks)
    failures: list[BaseException] = []
    try:
        pool = ForkPool(size, partial(_work, tasks, options), name="assay-stats")
    except OSError as exc:  # no more processes: the caller reads every task here
        logger.info("could not start %d worker processes (%s)", size, exc)
        return outputs
    try:
        while queue or pool.idle() < size:
            while queue and pool.idle():
                pool.submit(queue.pop())
            for i, event in pool.events():
                if event[0] == "output":
                    outputs[i] = event[1]
                elif event[0] == "error":
                    failures.append(event[1])
                elif event[0] == "died":
                    logger.warning("a worker process reading the results ended: %s", event[1])
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.close()
    if failures:
        raise failures[0]
    return outputs


def _work(tasks: Sequence[Task], options: TaskOptions, i: int, emit: Callable[[tuple[Any, ...]], None]) -> None:
    """A worker's part: task ``i``'s output, or the exception it raised."""
    try:
        output = run_task(tasks[i], options)
    except Exception as exc:
        try:
            pickle.dumps(exc)
        except Exception:  # an exception that cannot travel: its text does
            exc = RuntimeError(f"{type(exc).__name__}: {exc}")
        emit(("error", exc))
        return
    emit(("output", output))

"""Running many tasks: in this process, in a pool of forked workers, or on a Ray cluster.

Work is cut into *units*: a batch of small tasks of one dataset (its test set
is built once per worker and shared by the batch), a big task on its own, a
shard of a split task, or the merge of a split task.  Units are scheduled
largest first (by prediction-file size), shards and merges before new tasks,
so the slowest task does not leave the other workers idle at the end.

The local pool forks its workers from the process that loaded the config, so
classes defined in config files and user modules are available to them
without pickling; only units and small reports cross process boundaries.
The driver imports the built-in components before it forks, so that no
worker imports them again.  When a worker
dies (killed, out of memory), only the task it was running is recorded as
failed; the rest of its batch runs elsewhere and a new worker takes its place.

Example:
    >>> from assay.config import load_config           # doctest: +SKIP
    >>> tasks = plan_tasks(load_config('cfg.py'), run_dir)  # doctest: +SKIP
    >>> outcomes = run_tasks(tasks, EvalOptions(run_dir), workers=4)  # doctest: +SKIP
"""

from __future__ import annotations

import heapq
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from assay._dataclass import FACTORY, DataclassMethods, FrozenMethods
from assay._gc import bulk_allocations
from assay.tasks.plan import EvalOptions, EvalTask
from assay.tasks.run import ShardPlan, TaskOutcome, fail_task, merge_shards, run_shard, start_task

if TYPE_CHECKING:
    from assay._pool import ForkPool

logger = logging.getLogger(__name__)

__all__ = ["Backend", "BackendFactory", "Unit", "default_workers", "execute_unit", "run_tasks"]

#: What a unit reports (see :func:`execute_unit`); :data:`assay._pool.Event`.
Event = tuple[Any, ...]
OnDone = Callable[[TaskOutcome, int, int], None]
#: Called as ``on_shard(task_name, shards_done, shards_total, samples)`` when a shard finishes.
OnShard = Callable[[str, int, int, int], None]


def default_workers() -> int:
    """The number of CPU cores this process may use (one worker each)."""
    from assay._pool import usable_cpus

    return usable_cpus()


@dataclass(init=False, repr=False, eq=False)
class Unit(FrozenMethods):
    """One piece of work for a worker.

    ``kind`` is ``"tasks"`` (score the tasks of ``tasks`` in order, each
    possibly split into shards), ``"shard"`` (score shard ``shard`` of
    ``tasks[0]``) or ``"merge"`` (merge the shards of ``tasks[0]``).
    """

    kind: str
    tasks: tuple[int, ...]
    shard: int = -1
    cost: float = 0.0

    def __init__(self, kind: str, tasks: tuple[int, ...], shard: int = -1, cost: float = 0.0) -> None:
        self.kind = kind
        self.tasks = tasks
        self.shard = shard
        self.cost = cost


def execute_unit(unit: Unit, tasks: Sequence[EvalTask], options: EvalOptions, emit: Callable[[Event], None]) -> None:
    """Run one unit, reporting through ``emit``.

    Events: ``("started", task)``, ``("outcome", task, TaskOutcome)``,
    ``("plan", task, ShardPlan)``, ``("shard", task, shard, error_or_None)``.
    """
    with bulk_allocations():
        _execute(unit, tasks, options, emit)


def _execute(unit: Unit, tasks: Sequence[EvalTask], options: EvalOptions, emit: Callable[[Event], None]) -> None:
    if unit.kind == "tasks":
        for i in unit.tasks:
            emit(("started", i))
            result = start_task(tasks[i], options)
            emit(("plan", i, result) if isinstance(result, ShardPlan) else ("outcome", i, result))
    elif unit.kind == "shard":
        i = unit.tasks[0]
        emit(("started", i))
        emit(("shard", i, unit.shard, run_shard(tasks[i], options, unit.shard)))
    elif unit.kind == "merge":
        i = unit.tasks[0]
        emit(("started", i))
        emit(("outcome", i, merge_shards(tasks[i], options)))
    else:  # pragma: no cover - a programming error
        raise ValueError(f"unknown unit kind {unit.kind!r}")


class Backend(Protocol):
    """Where units run: ``submit`` them, then collect ``(unit, event)`` pairs from ``events``.

    Besides the events of :func:`execute_unit`, a backend reports
    ``("end",)`` when a unit finished and ``("died", message)`` when the
    process running it was lost.
    """

    def capacity(self) -> int: ...

    def submit(self, unit: Unit) -> None: ...

    def events(self) -> list[tuple[Unit, Event]]: ...

    def close(self) -> None: ...


#: Builds the backend of a run from its tasks, options and worker count (see :func:`run_tasks`).
BackendFactory = Callable[[Sequence[EvalTask], EvalOptions, "int | None"], Backend]


class InlineBackend:
    """Runs each unit in this process, when it is submitted."""

    def __init__(self, tasks: Sequence[EvalTask], options: EvalOptions) -> None:
        self._tasks, self._options = tasks, options
        self._queue: list[tuple[Unit, Event]] = []

    def capacity(self) -> int:
        return 1

    def submit(self, unit: Unit) -> None:
        execute_unit(unit, self._tasks, self._options, lambda ev: self._queue.append((unit, ev)))
        self._queue.append((unit, ("end",)))

    def events(self) -> list[tuple[Unit, Event]]:
        out, self._queue = self._queue, []
        return out

    def close(self) -> None:
        pass


# -- the local pool of forked workers -----------------------------------------------------------


#: What every task imports, imported once in the driver before it forks its workers.
_TASK_MODULES = ("assay.rundir.predictions", "assay.evaluate.assemble")


def _warm_imports(tasks: Sequence[EvalTask] = (), prepare_stats: bool = False) -> None:
    """Import what every task uses, in the driver before it forks its workers.

    Each worker then has them from the start, rather than each importing them
    for its first task.  The components the tasks name were imported when
    they were planned (a registry lookup imports only the module defining the
    name), their extraction audits with them, which imported the declared
    corrections.  :mod:`assay.rundir.statistics` is imported when the tasks
    write statistics (it imports what they write them with,
    :mod:`assay.rundir.sidecar` and :mod:`assay.rundir.stats_index`, and the
    summary that follows reads them with it) with ``numpy`` (each task's
    statistics use it, and so does the child ranking the report's models
    after the tasks, forked from the driver: imported once here rather than
    in every worker and then again in that child), and
    :mod:`assay.stats` when some task audits its extraction (the audit
    compares verdicts with it).  ``pyarrow`` is imported by the first task
    that reads a test set, and ``datasets`` (about a second) only by a task
    whose evaluator asks for the test set itself; importing them here would
    cost that time even when every result is reused.
    """
    import importlib

    for name in _TASK_MODULES:
        try:
            importlib.import_module(name)
        except Exception:  # a broken optional import is reported by the task that needs it
            logger.debug("warming %s failed", name, exc_info=True)
    audits = any(task.chain is not None and task.chain.audit is not None for task in tasks)
    if prepare_stats:
        import numpy  # noqa: F401 - what each task computes statistics with, and the report's ranks after the tasks

        import assay.rundir.statistics  # the summary's reader; it imports what each task writes statistics with
    if audits:
        import assay.audit.run  # noqa: F401 - what each task audits with
        from assay.stats import sample_correctness  # noqa: F401 - what each audit compares verdicts with


def fork_pool(size: int, tasks: Sequence[EvalTask], options: EvalOptions) -> ForkPool:
    """``size`` forked workers running units of ``tasks`` (see :func:`execute_unit`)."""
    from assay._pool import ForkPool

    _warm_imports(tasks, options.prepare_stats)
    return ForkPool(size, partial(_run_unit, tasks, options))


def _run_unit(tasks: Sequence[EvalTask], options: EvalOptions, unit: Unit, emit: Callable[[Event], None]) -> None:
    execute_unit(unit, tasks, options, emit)


# -- scheduling -------------------------------------------------------------------------------------


@dataclass(init=False, repr=False, eq=False)
class _Split(DataclassMethods):
    shards: int
    remaining: set[int]
    samples_per_shard: int = 0
    failed: bool = False
    done: int = 0
    reason: str = ""
    started: float = field(default_factory=time.perf_counter)

    def __init__(
        self,
        shards: int,
        remaining: set[int],
        samples_per_shard: int = 0,
        failed: bool = False,
        done: int = 0,
        reason: str = "",
        started: float = FACTORY,
    ) -> None:
        self.shards = shards
        self.remaining = remaining
        self.samples_per_shard = samples_per_shard
        self.failed = failed
        self.done = done
        self.reason = reason
        self.started = time.perf_counter() if started is FACTORY else started


class IndexWriter:
    """The driver's part of the run index (:mod:`assay.rundir.index`): the entries workers return, recorded in batches.

    Each outcome that scored a result carries the entry its worker took right
    after writing the file (and the statistics computed then); the entry is
    recorded only while the file is still as the worker left it.  Entries are
    written at most every :attr:`every` seconds and when the run ends, each
    batch in one transaction; what a killed driver did not record, readers
    index from the files.
    """

    every = 2.0

    def __init__(self, run_dir: Any, written: dict[str, Any] | None = None) -> None:
        from assay.rundir.index import RunIndex

        self.index = RunIndex(run_dir)
        #: relative path → (identity, digest) of every entry recorded, for a summary by the same command
        self.written: dict[str, Any] = written if written is not None else {}
        self.entries: list[Any] = []
        self.last = time.monotonic()

    def add(self, outcome: TaskOutcome) -> None:
        """Keep what ``outcome`` brought back for the index; write the batch when it is due."""
        record = outcome.record
        if record is None:
            return
        outcome.record = None
        from assay.rundir.record import FileIdentity

        try:
            identity = FileIdentity.of(os.stat(self.index.results / record.path))
        except OSError:
            return
        if identity != record.identity:  # changed since the worker wrote it: readers index what is there
            return
        self.entries.append(record)  # with its statistics, when the worker computed them
        self.written[record.path] = (identity, record.digest)
        if time.monotonic() - self.last >= self.every:
            self.flush()

    def flush(self) -> None:
        """Record the entries kept so far, in one transaction."""
        if self.entries:
            self.index.record(self.entries)
        self.entries = []
        self.last = time.monotonic()


@dataclass(init=False, repr=False, eq=False)
class _Scheduler(DataclassMethods):
    tasks: Sequence[EvalTask]
    options: EvalOptions
    on_done: OnDone | None = None
    on_shard: OnShard | None = None
    outcomes: dict[int, TaskOutcome] = field(default_factory=dict)
    queue: list[tuple[int, float, int, Unit]] = field(default_factory=list)
    splits: dict[int, _Split] = field(default_factory=dict)
    seq: int = 0
    index: IndexWriter | None = None

    def __init__(
        self,
        tasks: Sequence[EvalTask],
        options: EvalOptions,
        on_done: OnDone | None = None,
        on_shard: OnShard | None = None,
        outcomes: dict[int, TaskOutcome] = FACTORY,
        queue: list[tuple[int, float, int, Unit]] = FACTORY,
        splits: dict[int, _Split] = FACTORY,
        seq: int = 0,
        index: IndexWriter | None = None,
    ) -> None:
        self.tasks = tasks
        self.options = options
        self.on_done = on_done
        self.on_shard = on_shard
        self.outcomes = {} if outcomes is FACTORY else outcomes
        self.queue = [] if queue is FACTORY else queue
        self.splits = {} if splits is FACTORY else splits
        self.seq = seq
        self.index = index

    def push(self, unit: Unit) -> None:
        priority = {"merge": 0, "shard": 1}.get(unit.kind, 2)
        self.seq += 1
        heapq.heappush(self.queue, (priority, -unit.cost, self.seq, unit))

    def pop(self) -> Unit:
        return heapq.heappop(self.queue)[3]

    def finish(self, i: int, outcome: TaskOutcome) -> None:
        if i in self.outcomes:
            return
        self.outcomes[i] = outcome
        if self.index is not None:
            self.index.add(outcome)
        if self.on_done is not None:
            self.on_done(outcome, len(self.outcomes), len(self.tasks))

    def handle(self, unit: Unit, event: Event, progress: dict[Unit, set[int]]) -> None:
        kind = event[0]
        if kind == "started":
            progress.setdefault(unit, set()).add(event[1])
        elif kind == "outcome":
            i, outcome = event[1], event[2]
            split = self.splits.get(i)
            if split is not None:
                outcome.shards = split.shards
                outcome.reason = outcome.reason or split.reason
                outcome.seconds = time.perf_counter() - split.started
            self.finish(i, outcome)
        elif kind == "plan":
            i, plan = event[1], event[2]
            n = self.tasks[i].dataset.get("n", 1)
            per = plan.samples * (n if isinstance(n, int) else 1) // max(1, plan.shards)
            self.splits[i] = _Split(plan.shards, set(plan.pending), per, done=plan.shards - len(plan.pending), reason=plan.reason)
            logger.info("%s: split into %d shards (%d to score)", plan.name, plan.shards, len(plan.pending))
            per_shard = unit.cost / max(1, plan.shards)
            for s in plan.pending:
                self.push(Unit("shard", (i,), s, per_shard))
            if not plan.pending:
                self.push(Unit("merge", (i,), cost=unit.cost))
        elif kind == "shard":
            i, shard, error = event[1], event[2], event[3]
            self._shard_done(i, shard, error, unit.cost)
        elif kind == "died":
            self._died(unit, str(event[1]), progress.get(unit, set()))
        elif kind == "end":
            progress.pop(unit, None)

    def _shard_done(self, i: int, shard: int, error: str | None, cost: float) -> None:
        split = self.splits[i]
        if split.failed:
            return
        if error is not None:
            split.failed = True
            self.finish(i, fail_task(self.tasks[i], self.options, error))
            return
        split.remaining.discard(shard)
        split.done += 1
        if self.on_shard is not None:
            self.on_shard(self.tasks[i].name, split.done, split.shards, split.samples_per_shard)
        if not split.remaining:
            self.push(Unit("merge", (i,), cost=cost))

    def _died(self, unit: Unit, message: str, started: set[int]) -> None:
        if unit.kind == "shard":
            self._shard_done(unit.tasks[0], unit.shard, f"shard {unit.shard}: {message}", unit.cost)
            return
        unfinished = [i for i in unit.tasks if i not in self.outcomes and i not in self.splits]
        if unit.kind == "merge":
            unfinished = [unit.tasks[0]] if unit.tasks[0] not in self.outcomes else []
        running = [i for i in unfinished if i in started]
        # the last task the worker started was running when it died; the others of the batch are rerun
        victims = running[-1:] if running else unfinished[:1]
        for i in victims:
            self.finish(i, fail_task(self.tasks[i], self.options, message, error_type="WorkerDied"))
        rest = tuple(i for i in unfinished if i not in victims)
        if rest:
            self.push(Unit("tasks", rest, cost=unit.cost * len(rest) / max(1, len(unit.tasks))))


def _task_costs(tasks: Sequence[EvalTask]) -> list[float]:
    """Prediction-file bytes of each task (0 when they cannot be found: the task reports why)."""
    from assay.rundir.predictions import find_prediction_files

    costs = []
    for task in tasks:
        try:
            costs.append(float(sum(p.stat().st_size for p in find_prediction_files(task.prediction_dir, task.dataset_abbr))))
        except Exception:
            costs.append(0.0)
    return costs


def plan_units(tasks: Sequence[EvalTask], workers: int, *, batch: bool = True, costs: Sequence[float] | None = None) -> list[Unit]:
    """Cut the tasks into units, largest first.

    Tasks of one dataset are batched (they share its test set) until a batch
    reaches a share of the total work small enough to keep every worker busy.
    ``costs`` are the tasks' prediction-file bytes, when the caller has them.
    """
    costs = _task_costs(tasks) if costs is None else costs
    total = sum(costs) or 1.0
    target = total / (4 * max(1, workers))
    by_dataset: dict[int, list[int]] = {}
    for i, task in enumerate(tasks):
        by_dataset.setdefault(task.dataset_index, []).append(i)
    units: list[Unit] = []
    for members in by_dataset.values():
        current: list[int] = []
        cost = 0.0
        for i in sorted(members, key=lambda i: -costs[i]):
            if current and (not batch or cost + costs[i] > target):
                units.append(Unit("tasks", tuple(current), cost=cost))
                current, cost = [], 0.0
            current.append(i)
            cost += costs[i]
        if current:
            units.append(Unit("tasks", tuple(current), cost=cost))
    units.sort(key=lambda u: -u.cost)
    return units


#: A run whose prediction files add up to at most this many bytes, all scored by sample-decomposable
#: evaluators, runs in the driver process when the number of workers is not given: forking and
#: feeding a pool of workers would take longer than scoring it (see :func:`run_tasks`).
INLINE_BYTES = 256 * 1024


def _small_enough_inline(tasks: Sequence[EvalTask], costs: Sequence[float]) -> bool:
    """Whether a run is scored at once in the driver: a few prediction bytes, each evaluator working sample by sample.

    Evaluators that are not sample-decomposable (judges, code run in sandboxes) often wait on
    something other than this process, and keep their workers to wait in parallel.
    """
    if sum(costs) > INLINE_BYTES:
        return False
    from assay.registry import ICL_EVALUATORS, resolve_type

    for task in tasks:
        try:
            evaluator = resolve_type(((task.dataset.get("eval_cfg") or {}).get("evaluator") or {}).get("type"), ICL_EVALUATORS)
        except Exception:  # the task reports it
            return False
        if not getattr(evaluator, "sample_decomposable", False):
            return False
    return True


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def drive(backend: Backend, scheduler: _Scheduler, units: Sequence[Unit]) -> None:
    """Feed ``units`` (and the shards and merges they lead to) to ``backend`` until all are done."""
    for unit in units:
        scheduler.push(unit)
    in_flight = 0
    progress: dict[Unit, set[int]] = {}
    while scheduler.queue or in_flight:
        while scheduler.queue and in_flight < backend.capacity():
            unit = scheduler.pop()
            if unit.kind == "shard" and scheduler.splits[unit.tasks[0]].failed:
                continue
            backend.submit(unit)
            in_flight += 1
        for unit, event in backend.events():
            scheduler.handle(unit, event, progress)
            if event[0] == "end":
                in_flight -= 1


def run_tasks(
    tasks: Sequence[EvalTask],
    options: EvalOptions,
    *,
    workers: int | None = None,
    on_done: OnDone | None = None,
    on_shard: OnShard | None = None,
    backend: BackendFactory | None = None,
    written: dict[str, Any] | None = None,
) -> list[TaskOutcome]:
    """Run every task; return their outcomes in task order.

    Args:
        workers: local worker processes (default: the number of cores, or
            none for a small run, see :data:`INLINE_BYTES`); 1 runs everything
            in this process.
        on_done: called as ``on_done(outcome, done, total)`` when a task ends.
        on_shard: called when a shard of a split task ends (see :data:`OnShard`).
        backend: builds where the units run, as ``backend(tasks, options,
            workers)`` (e.g. :func:`assay.tasks.ray_runner.ray_backend` for a
            Ray cluster); ``None`` runs them in this process or forked workers.
        written: filled with the relative path → (identity, digest) of every
            result file whose index entry was recorded, for a summary by the
            same command while it holds the writer lock
            (:meth:`assay.rundir.index.RunIndex.snapshot`).
    """
    total = len(tasks)
    if total == 0:
        return []
    index = IndexWriter(options.run_dir.root, written)
    scheduler = _Scheduler(tasks, options, on_done, on_shard, index=index)
    where: Backend
    pool: ForkPool | None = None
    if backend is not None:
        where = backend(tasks, options, workers)
        units = plan_units(tasks, where.capacity())
    else:
        costs = _task_costs(tasks)
        if workers is None:
            workers = 1 if _small_enough_inline(tasks, costs) else default_workers()
        workers = max(1, workers)
        if workers == 1 or not _can_fork():
            where = InlineBackend(tasks, options)
            units = plan_units(tasks, 1, costs=costs)
        else:
            units = plan_units(tasks, workers, costs=costs)  # before forking: the workers need not import what it does
            where = pool = fork_pool(workers, tasks, options)
    try:
        drive(where, scheduler, units)
    except BaseException:
        if pool is not None:
            pool.terminate()
        raise
    finally:
        where.close()
        index.flush()
    missing = [i for i in range(total) if i not in scheduler.outcomes]
    for i in missing:  # pragma: no cover - every unit reports every task; a guard against a lost one
        scheduler.finish(i, fail_task(tasks[i], options, "the task was never reported as done"))
    return [scheduler.outcomes[i] for i in range(total)]


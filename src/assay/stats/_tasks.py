"""Reading every (model, dataset) of a run once, in this process or in a few forked ones.

A task reads one result file with its details (and, for the sample
browser, the prediction file), computes what the run's statistics and the
HTML report need of it — each metric's :class:`CellStat`, the unscorable
counts, the :class:`SampleColumns` — and drops the details.  Tasks are
independent: when the result files are large, they run in forked worker
processes (one per idle CPU, at most :data:`MAX_WORKERS`; the pool of
:mod:`assay._pool`, as the eval's), each holding the details of one task at a
time and sending the compact output of each task back as soon as it is done.

The eval does a task's work in the worker that has just written the result,
while the predictions are still in memory, and writes it beside the result
(:func:`save_stats`, ``<abbr>.stats``) with the digest of the result's bytes
and the options used; :func:`run_tasks` takes it instead of reading the files
again when the result file still has those bytes (:func:`load_stats`), the
options match and the summary shows the values it was computed for.  The same
holds whichever process, runner or machine wrote it.
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
from typing import TYPE_CHECKING, Any

from assay._gc import bulk_allocations
from assay.fileio import loads_json
from assay.rundir.layout import RunDir
from assay.stats._columns import SAMPLE_TEXT, PredictionColumns, SampleColumns, prediction_columns, sample_columns
from assay.stats._details import Details
from assay.stats._intervals import DEFAULT_BOOTSTRAP, DEFAULT_SEED, CellStat
from assay.stats._samples import SampleValues, cell_stat, correctness_of, outcome_of, sample_values
from assay.stats._unscorable import Unscorable, unscorable_in, unscorable_of

if TYPE_CHECKING:
    from assay.rundir.index import Snapshot

__all__ = [
    "MAX_WORKERS",
    "POOL_MIN_BYTES",
    "REPORT_OPTIONS",
    "STATS_FORMAT",
    "SavedStats",
    "Task",
    "TaskOptions",
    "TaskOutput",
    "pool_size",
    "load_stats",
    "index_lookup",
    "run_tasks",
    "save_stats",
    "stats_path",
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
    from assay.rundir.results import read_full_result

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
    outcome = outcome_of(result)
    correct = correctness_of(view, outcome.correct if outcome is not None else None) if view is not None else None
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


# -- statistics written beside the result by the worker that scored it ----------------------------

#: The version of the statistics' layout and of the rules that compute them; statistics of
#: another version (a ``.stats`` file, an entry of the run index) are computed again.
STATS_FORMAT = 2


def stats_path(result_path: str | os.PathLike[str]) -> Path:
    """The statistics file kept beside a result file: ``<abbr>.json`` → ``<abbr>.stats``.

    >>> stats_path('results/m/gsm8k.json').as_posix()
    'results/m/gsm8k.stats'
    """
    from assay.rundir.layout import stats_path_of

    return stats_path_of(result_path)


@dataclass
class SavedStats:
    """What the report pass wants of one result file, computed once from it (see :func:`save_stats`).

    Attributes:
        result_digest: the :func:`~assay.rundir.results.content_digest` of the result file it was computed from.
        fingerprint: the result's input fingerprint (``_meta.fingerprint``), for the reader.
        options: the options it was computed with (``run_dir`` aside).
        values: each numeric metric's value, as the summary reads it.
        output: the statistics of every metric in ``values``, the unscorable
            counts (with bounds for each of them) and the sample browser's columns.
        samples: metric → its per-sample values (:meth:`SampleValues.to_json`),
            for paired comparisons; ``no_samples``: the metrics that have none, with why.
        details: the number of details entries, and ``examples`` each one's
            ``example_abbr`` (``None`` when no entry has one): what a paired
            comparison checks the two models' samples are the same by.
    """

    result_digest: str
    fingerprint: str | None
    options: TaskOptions
    values: dict[str, float]
    output: TaskOutput
    samples: dict[str, dict[str, Any]] = field(default_factory=dict)
    no_samples: dict[str, str] = field(default_factory=dict)
    details: int | None = None
    examples: list[Any] | None = None

    def output_for(self, task: Task, options: TaskOptions) -> TaskOutput | None:
        """What :func:`run_task` would compute for ``task``, or ``None`` when this output cannot stand in for it.

        The intervals must have been computed with the same settings; the
        sample browser's columns, when the task wants them, with the same text limit.
        """
        mine = self.options
        if options.keep_samples or (options.confidence, options.resamples, options.seed) != (
            mine.confidence, mine.resamples, mine.seed
        ):
            return None
        if task.columns and options.text_limit != mine.text_limit:
            return None
        if any(self.values.get(metric) != value for metric, value in task.have.items()):
            return None  # the summary shows a value the file did not hold
        done = self.output
        if any(metric not in done.cells for metric in task.have):
            return None
        out = TaskOutput(
            cells={metric: done.cells[metric] for metric in task.have},
            columns=done.columns if task.columns else None,
        )
        if task.have and done.unscorable is not None:
            bounds = {metric: b for metric, b in done.unscorable.bounds.items() if metric in task.have}
            out.unscorable = dataclasses.replace(done.unscorable, bounds=bounds)
        return out

    def to_json(self) -> dict[str, Any]:
        """The JSON the statistics file holds."""
        out = self.output
        return {
            "format": STATS_FORMAT,
            "result_digest": self.result_digest,
            "fingerprint": self.fingerprint,
            "options": {k: v for k, v in dataclasses.asdict(self.options).items() if k != "run_dir"},
            "values": self.values,
            "cells": {m: dataclasses.asdict(c) for m, c in out.cells.items()},
            "unscorable": None if out.unscorable is None else dataclasses.asdict(out.unscorable),
            # the columns field by field: dataclasses.asdict would copy every string of them
            "columns": None if out.columns is None else {f.name: getattr(out.columns, f.name) for f in dataclasses.fields(out.columns)},
            "samples": self.samples,
            "no_samples": self.no_samples,
            "details": self.details,
            "examples": self.examples,
        }

    def index_stats(self) -> tuple[str, bytes]:
        """What the run index keeps of these statistics: all but the sample browser's columns (see :func:`index_stats`)."""
        return index_stats(self.options, self.output)

    @classmethod
    def from_bytes(cls, data: bytes) -> SavedStats | None:
        """:meth:`from_json` of a statistics file's or the run index's bytes; ``None`` when unreadable."""
        from assay.fileio import loads_json

        try:
            return cls.from_json(loads_json(data))
        except ValueError:
            return None

    @classmethod
    def from_json(cls, data: Any) -> SavedStats | None:
        """The inverse of :meth:`to_json`; ``None`` for a file of another layout."""
        if not isinstance(data, dict) or data.get("format") != STATS_FORMAT:
            return None
        try:
            unscorable = data["unscorable"]
            if unscorable is not None:
                unscorable = Unscorable(**{**unscorable, "bounds": {m: tuple(b) for m, b in unscorable["bounds"].items()}})
            columns = data["columns"]
            output = TaskOutput(
                cells={m: CellStat(**c) for m, c in data["cells"].items()},
                unscorable=unscorable,
                columns=None if columns is None else SampleColumns(**columns),
            )
            return cls(str(data["result_digest"]), data["fingerprint"], TaskOptions("", **data["options"]),
                       {m: float(v) for m, v in data["values"].items()}, output, dict(data["samples"]),
                       dict(data["no_samples"]), data["details"], data["examples"])
        except (KeyError, TypeError, AttributeError, ValueError):
            return None


def save_stats(
    result_path: str | os.PathLike[str], result_digest: str, abbr: str, predictions: _Columns,
    written: bytes | None = None,
) -> SavedStats | None:
    """Compute what the report pass will want of a result file just written and write it beside it.

    Computed with :data:`REPORT_OPTIONS` for every finite numeric metric of the
    file, read back as the pass would read it: from ``written``, the bytes
    written, when given, else from the file if it still has them;
    ``result_digest`` is the digest of those bytes, which the statistics are
    kept with (a reader whose file has other bytes computes them again);
    ``predictions`` returns the columns of the prediction file it was scored
    from.  ``None`` (and no file) when the result cannot be read.
    """
    from assay.fileio import atomic_write_bytes, loads_json
    from assay.rundir.results import META_KEY, content_digest, numeric_metrics, read_result

    path = os.path.abspath(result_path)
    target = stats_path(path)
    with suppress(OSError):
        target.unlink()
    try:
        if written is not None:
            result = loads_json(written)
        else:
            result = read_result(path)
            if content_digest(path) != result_digest:
                return None  # replaced meanwhile: the report pass reads whatever is there
        values = {} if "error" in result else {m: float(v) for m, v in numeric_metrics(result).items() if math.isfinite(v)}
        meta = result.get(META_KEY)
        fingerprint = meta.get("fingerprint") if isinstance(meta, dict) else None
        with bulk_allocations():
            output = _output_of(result, Task("", abbr, "", values, columns=True),
                                dataclasses.replace(REPORT_OPTIONS, keep_samples=True), predictions)
        samples: dict[str, dict[str, Any]] = {}
        for metric, sv in output.samples.items():
            data_sv = sv.to_json()
            if data_sv is not None:
                samples[metric] = data_sv
        no_samples = {m: c.reason or "no per-sample values" for m, c in output.cells.items()
                      if m not in output.samples}
        details = result.get("details")
        count = len(details) if isinstance(details, list) else None
        examples = None
        if isinstance(details, list) and any(isinstance(d, dict) and "example_abbr" in d for d in details):
            examples = [d.get("example_abbr") if isinstance(d, dict) else None for d in details]
        output.samples = {}
        saved = SavedStats(result_digest, fingerprint, REPORT_OPTIONS, values, output, samples, no_samples, count, examples)
        data = _stats_bytes(saved.to_json())
        atomic_write_bytes(target, data, durable=False)
    except Exception as exc:  # the report pass reads the file again and says what is wrong
        logger.debug("could not save the statistics of %s: %s", path, exc)
        return None
    return saved


def _stats_bytes(data: dict[str, Any] | list[Any], non_finite: bool | None = None) -> bytes:
    """Statistics as JSON; NaN and infinities stay numbers (orjson alone would write ``null``).

    ``non_finite``: whether ``data`` holds any, when the caller knows already.
    """
    from assay.fileio import dumps_json, has_non_finite

    if non_finite is None:
        non_finite = has_non_finite({k: v for k, v in data.items() if k != "columns"} if isinstance(data, dict) else data)
    if non_finite:
        import json

        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return dumps_json(data, indent=False)


def load_stats(result_path: str | os.PathLike[str], digest: str | None = None) -> SavedStats | None:
    """The statistics saved beside a result file, when they were computed from its present content.

    ``None`` when there are none, they cannot be read, or the result file's
    bytes are not those they were computed from (checked by content digest;
    ``digest`` is the file's present digest when the caller knows it).
    """
    from assay.rundir.results import content_digest

    target = stats_path(result_path)
    try:
        data = target.read_bytes()
    except OSError:
        return None
    saved = SavedStats.from_bytes(data)
    if saved is None:
        logger.debug("ignoring unreadable statistics %s", target)
        return None
    if (digest if digest is not None else content_digest(result_path)) != saved.result_digest:
        logger.debug("statistics %s are stale: the result file changed", target)
        return None
    return saved


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
        return RunDir(Path(options.run_dir)).result_path(task.folder, task.abbr).stat().st_size
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


def run_tasks(
    tasks: Sequence[Task], options: TaskOptions, *, workers: int | None = None, snapshot: Snapshot | None = None
) -> list[TaskOutput]:
    """Run every task; the outputs in task order.  ``workers``: see :func:`pool_size`.

    A task takes statistics computed before from its result's present bytes
    with the same options: from the run index (``snapshot``, see
    :mod:`assay.rundir.index`), else from the ``.stats`` file beside the result
    (:func:`save_stats`).  The others read their files, and what they
    compute is kept in the index for the next reader.
    """
    outputs: list[TaskOutput | None] = [None] * len(tasks)
    digests: list[str | None] = [None] * len(tasks)
    results = RunDir(Path(options.run_dir)).results
    for i, task in enumerate(tasks):
        if not (task.have or task.columns):
            continue
        key = f"{task.folder}/{task.abbr}"
        found = _digests_of(snapshot, task) if snapshot is not None else None
        digests[i] = found
        if found is not None and not task.columns and snapshot is not None and not options.keep_samples:
            data = snapshot.stats(key, found, index_settings(options))
            if data is not None:
                outputs[i] = indexed_output(data, task.have, options.confidence)
                if outputs[i] is not None:
                    continue
        saved = None
        if snapshot is None or (found is not None and "," not in found):
            saved = load_stats(results / task.folder / f"{task.abbr}.json", found)
            if saved is not None and snapshot is not None and found is not None:
                snapshot.put_stats(key, found, *saved.index_stats())
        outputs[i] = saved.output_for(task, options) if saved is not None else None
    todo = [i for i, o in enumerate(outputs) if o is None]
    if todo:
        for i, output in zip(todo, _read_tasks([tasks[i] for i in todo], options, workers)):
            outputs[i] = output
            found = digests[i]
            have = tasks[i].have
            if snapshot is not None and found is not None and output is not None and have and all(
                math.isfinite(v) for v in have.values()
            ):
                kept = TaskOutput(cells=dict(output.cells), unscorable=output.unscorable)
                snapshot.put_stats(f"{tasks[i].folder}/{tasks[i].abbr}", found, *index_stats(options, kept))
    if snapshot is not None:
        snapshot.flush()
    return [o if o is not None else TaskOutput() for o in outputs]


#: The version of the statistics' layout in the run index (part of the settings it is stored with).
INDEX_STATS_FORMAT = 3


def index_settings(options: TaskOptions) -> str:
    """What statistics in the run index were computed with: their layout and the interval settings.

    >>> index_settings(TaskOptions(''))
    '3.2 0.95 2000 20240101'
    """
    return f"{INDEX_STATS_FORMAT}.{STATS_FORMAT} {options.confidence!r} {options.resamples} {options.seed}"


def values_key(values: Mapping[str, float]) -> bytes:
    """The values statistics were computed for, as the run index keys them: JSON with sorted keys.

    >>> values_key({'f1': 0.5, 'accuracy': 50.0})
    b'{"accuracy":50.0,"f1":0.5}'
    """
    import orjson

    return orjson.dumps(dict(values), option=orjson.OPT_SORT_KEYS)


def index_stats(options: TaskOptions, output: TaskOutput) -> tuple[str, bytes]:
    """Statistics as the run index keeps them: ``(settings, data)``.

    ``data`` is three lines: the values they were computed for
    (:func:`values_key`), ``{metric: CellStat JSON}`` and the unscorable JSON
    (``null`` when none), the JSON forms the summary's ``.json`` shows, so
    that a summary passes the second and third through as they are, without
    parsing them (see :func:`index_lookup`).  Compact JSON never holds
    a raw newline.  Statistics holding non-finite numbers (which JSON cannot
    spell) have their first line marked, so that only :func:`indexed_output`
    takes them.
    """
    from assay.fileio import has_non_finite

    u = output.unscorable
    cells = output.cells
    key = values_key({m: c.value for m, c in cells.items()})
    cells_data = {m: c.to_json() for m, c in cells.items()}
    u_data = None if u is None else u.to_json()
    odd_cells, odd_u = has_non_finite(cells_data), has_non_finite(u_data)
    if odd_cells or odd_u:  # JSON cannot pass them through: marked
        key = _NOT_PASSED + key
    cells_json = _stats_bytes(cells_data, odd_cells)
    u_json = b"null" if not u_data else _stats_bytes(u_data, odd_u)  # nothing known (a summary shows none)
    return index_settings(options), b"\n".join((key, cells_json, u_json))


#: What the run index holds for one (model, dataset), as it holds it: the cells' JSON
#: (``{metric: CellStat JSON}``) and the unscorable JSON (``None`` when none); see :func:`index_stats`.
IndexedStats = tuple[bytes, bytes | None]


#: Marks the first line of statistics holding NaN or infinities (see :func:`index_stats`).
_NOT_PASSED = b"~"


def _split_indexed(data: bytes, have: Mapping[str, float]) -> IndexedStats | None:
    """The cells' and unscorable JSON of the run index's ``data``; ``None`` when they were computed for
    other values than ``have`` (other metrics, other numbers) or are not in this layout."""
    key, _, rest = data.partition(b"\n")
    if key.removeprefix(_NOT_PASSED) != values_key(have):
        return None
    cells, sep, u = rest.partition(b"\n")
    if not sep:
        return None
    return cells, (None if u == b"null" or u == b"{}" else u)


def indexed_output(data: bytes, have: Mapping[str, float], confidence: float = 0.95) -> TaskOutput | None:
    """The statistics of the summary's values ``have`` in the run index's ``data`` as a :class:`TaskOutput`
    (cells without an interval take ``confidence``); ``None`` when they were computed for other values."""
    found = _split_indexed(data, have)
    if found is None:
        return None
    try:
        cells = loads_json(found[0])
        u = None if found[1] is None else loads_json(found[1])
        return TaskOutput(
            {m: CellStat.from_json({"confidence": confidence, **cells[m]}) for m in have},
            {},
            None if u is None else Unscorable.from_json(u),
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def index_lookup(snapshot: Snapshot, options: TaskOptions) -> Callable[[str, str, Mapping[str, float]], IndexedStats | None]:
    """``lookup(folder, abbr, the summary's values)``: the statistics the run index holds for that
    result, as the JSON bytes it holds (see :data:`IndexedStats`), not parsed; ``None`` for the others,
    which are left to :func:`run_tasks`.

    Only results of one file whose statistics were computed from its present
    bytes, for the same values, with the same settings, are answered, and not
    statistics holding non-finite numbers (JSON cannot pass them through).
    """
    import orjson

    from assay.rundir.index import DIGEST, STATS, STATS_DIGESTS, STATS_SETTINGS

    dumps, sort_keys = orjson.dumps, orjson.OPT_SORT_KEYS
    rows, settings = snapshot.rows.get, index_settings(options)

    def lookup(folder: str, abbr: str, have: Mapping[str, float]) -> IndexedStats | None:
        # fifty thousand times for a leaderboard: values_key and _split_indexed inlined
        row = rows(f"{folder}/{abbr}.json")
        if row is None or row[STATS_SETTINGS] != settings or row[STATS_DIGESTS] != row[DIGEST]:
            return None
        found, _, rest = row[STATS].partition(b"\n")
        if found != dumps(have, option=sort_keys):  # also refuses statistics marked as holding non-finite numbers
            return None
        cells, sep, u = rest.partition(b"\n")
        return (cells, None if u == b"null" or u == b"{}" else u) if sep else None

    return lookup


def _digests_of(snapshot: Snapshot, task: Task) -> str | None:
    """The digests of the file(s) of a task's result as the snapshot has them (split parts joined by ``,``)."""
    from assay.rundir.results import split_result_paths

    one = snapshot.digest(f"{task.folder}/{task.abbr}.json")
    if one is not None:
        return one
    try:
        parts = split_result_paths(".", task.abbr, snapshot.names(task.folder))
    except Exception:  # not contiguous: read from the files, which says so
        return None
    found = [snapshot.digest(f"{task.folder}/{p.name}") for p in parts]
    if not found or any(d is None for d in found):
        return None
    return ",".join(d for d in found if d is not None)


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
            size += (RunDir(Path(options.run_dir)).prediction_dir(task.folder) / f"{task.abbr}.json").stat().st_size
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

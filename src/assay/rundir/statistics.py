"""Statistics of a run directory: every (model, dataset)'s intervals and unscorable counts, read once.

Each (model, dataset) a summary shows is a :class:`Task`.  Its statistics
are taken, in order of preference:

1. from the run index (:mod:`assay.rundir.index`), when they were computed from the
   result file's present bytes, for the values the summary shows, with the
   same settings (:func:`assay.rundir.stats_index.index_lookup`: kept as the
   index's JSON bytes, parsed only if read);
2. from the ``.stats`` file beside the result (:mod:`assay.rundir.sidecar`),
   written by the worker that scored it, under the same conditions;
3. else from the result file itself (and, for the sample browser, the
   prediction file), with :func:`assay.stats.result_stats`.

What is computed is kept in the index for the next reader, in the layout of
:mod:`assay.rundir.stats_index`.  When the result files to read are large,
they are read in forked worker processes (one per idle CPU, at most
:data:`MAX_WORKERS`; the pool of :mod:`assay._pool`, as the eval's), each
holding the details of one task at a time and sending the compact statistics
of each task back as soon as it is done.

:func:`run_stats` does this for a whole summary (group cells included),
:func:`sample_tables` for the report's sample browser alone, and
:func:`index_run` for every result of a run (``assay index``); the run's
config (:func:`load_run_config`) and model folders (:func:`model_dirs_of`)
are found here too.  Comparing two models sample by sample is
:mod:`assay.rundir.compare`'s.
"""

from __future__ import annotations

import logging
import math
import os
import pickle
import threading
import time
from collections.abc import Callable, Collection, Hashable, Iterator, Mapping, MutableMapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from assay._dataclass import DataclassMethods, FrozenMethods
from assay._gc import bulk_allocations
from assay.fileio import loads_json
from assay.rundir.layout import RunDir
from assay.rundir.results import read_full_result
from assay.rundir.sidecar import load_stats, prediction_columns
from assay.rundir.stats_index import (
    index_lookup,
    index_samples,
    index_settings,
    index_stats,
    indexed_output,
    sidecar_samples,
)
from assay.stats import (
    DEFAULT_BOOTSTRAP,
    DEFAULT_SEED,
    CellStat,
    ResultStats,
    SampleColumns,
    SampleValues,
    StatsOptions,
    Unscorable,
    group_plan,
    group_stats_columns,
    percent_cell,
    result_stats,
)

if TYPE_CHECKING:
    from assay.rundir.index import Snapshot

__all__ = [
    "MAX_WORKERS",
    "POOL_MIN_BYTES",
    "CellTable",
    "JsonBacked",
    "RunStats",
    "SampleTables",
    "Task",
    "index_run",
    "index_snapshot",
    "load_run_config",
    "model_dirs_of",
    "pool_size",
    "run_stats",
    "run_task",
    "run_tasks",
    "sample_tables",
]

logger = logging.getLogger(__name__)



#: Most worker processes (each holds one task's details at a time).
MAX_WORKERS = 4
#: Result files smaller than this in all are read in this process: forking would cost more than it saves.
POOL_MIN_BYTES = 4 << 20


@dataclass(repr=False, eq=False)
class Task(FrozenMethods):
    """One (model, dataset): ``have`` are the summary's values to explain (empty: none)."""

    column: str
    abbr: str
    folder: str
    have: Mapping[str, float] = field(default_factory=dict)
    columns: bool = False


def index_snapshot(run_dir: str | os.PathLike[str]) -> Snapshot | None:
    """The run's result files as the run index has them (repaired where stale); ``None`` with ``ASSAY_NO_INDEX``."""
    from assay.rundir.index import RunIndex, index_disabled

    if index_disabled():
        return None
    return RunIndex(run_dir).snapshot()


def load_run_config(run_dir: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The run's newest dumped config (:func:`assay.rundir.configs.newest_dumped_config`) as plain variables,
    ``work_dir`` set to the run.

    ``None`` when there is none or it cannot be loaded (logged).
    """
    from assay.errors import InputFileError
    from assay.rundir.configs import newest_dumped_config

    try:
        path = newest_dumped_config(RunDir(Path(run_dir)))
    except InputFileError:
        return None
    from assay.config import load_config

    try:
        config = load_config(path)
    except Exception as exc:  # a config that no longer loads: the caller does without it
        logger.warning("cannot load the run's config %s: %s", path, exc)
        return None
    variables = dict(config.variables)
    variables["work_dir"] = str(run_dir)
    return variables


def _groups_of(config: Mapping[str, Any] | None, definitions: Sequence[Any] | None) -> list[Any]:
    """The summary groups of a summary's ``group_definitions``, else of the run config, parsed."""
    from assay.groups import parse_summary_groups

    raw: Any = definitions or None
    if raw is None and config is not None:
        summarizer = config.get("summarizer") or {}
        raw = summarizer.get("summary_groups") if isinstance(summarizer, Mapping) else None
    if not raw:
        return []
    return parse_summary_groups(list(raw))


def model_dirs_of(config: Mapping[str, Any] | None, columns: Sequence[str]) -> dict[str, str]:
    """Model column → its folder under ``results/`` (the same name unless ``summarizer_abbr`` differs)."""
    out = {c: c for c in columns}
    if config is None:
        return out
    from assay.config import model_abbr, summarizer_abbr

    for model in config.get("models") or []:
        try:
            out[summarizer_abbr(dict(model))] = model_abbr(dict(model))
        except Exception:  # a malformed model entry: keep the column name
            continue
    return out


@dataclass(repr=False, eq=False)
class SampleTables(DataclassMethods):
    """The sample browser's columns of every (model, dataset) read for the HTML report.

    Attributes:
        text_limit: the longest text kept per sample and field.
        folders: model column → its folder under ``results/`` the columns were read from.
        columns: ``(column, abbr)`` → the :class:`SampleColumns`, or ``None``
            when the result has no usable details (missing, unreadable, failed).
    """

    text_limit: int
    folders: dict[str, str] = field(default_factory=dict)
    columns: dict[tuple[str, str], SampleColumns | None] = field(default_factory=dict)

    def covers(self, columns: Sequence[str], abbrs: Sequence[str], folders: Mapping[str, str], text_limit: int) -> bool:
        """True when these tables hold every (column, abbr), read from the same folders with the same limit."""
        return (
            self.text_limit == text_limit
            and all(self.folders.get(c) == folders.get(c, c) for c in columns)
            and all((c, a) in self.columns for c in columns for a in abbrs)
        )


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class JsonBacked(MutableMapping[K, V]):
    """A mapping whose values may be kept as JSON bytes until someone reads them.

    Statistics read from the run index arrive as the JSON the summary's
    ``.json`` shows; a leaderboard has tens of thousands of them, and most
    are only written out again.  :meth:`put_json` keeps such a value as it
    is; reading it builds the object (``build``) once; :meth:`json_items`
    gives every value's JSON without building any.

    >>> t = JsonBacked(lambda d: CellStat.from_json(d), lambda v: v.to_json())
    >>> t.put_json('a', b'{"value":1.0,"method":"none"}')
    >>> t['b'] = CellStat(2.0, method='none')
    >>> dict(t.json_items())['a'], t['a'].value, len(t)
    ({'value': 1.0, 'method': 'none'}, 1.0, 2)
    """

    def __init__(self, build: Callable[[dict[str, Any]], V], dump: Callable[[V], dict[str, Any]]) -> None:
        self._values: dict[K, Any] = {}  # bytes are a value kept as JSON (the values are never bytes)
        self._build, self._dump = build, dump

    def put_json(self, key: K, data: bytes) -> None:
        """Keep ``data``, the JSON form of the value of ``key``."""
        self._values[key] = data

    def __getitem__(self, key: K) -> V:
        value = self._values[key]
        if type(value) is bytes:
            value = self._values[key] = self._build(loads_json(value))
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._values[key] = value

    def __delitem__(self, key: K) -> None:
        del self._values[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: object) -> bool:
        return key in self._values

    def kept_json(self, key: K) -> bytes | None:
        """The JSON bytes the value of ``key`` is kept as, ``None`` when it is not kept so (or there is none)."""
        value = self._values.get(key)
        return value if type(value) is bytes else None

    def json_of(self, key: K) -> Any:
        """The JSON form of the value of ``key`` (``None`` when there is none); builds nothing."""
        value = self._values.get(key)
        if value is None:
            return None
        return loads_json(value) if type(value) is bytes else self._dump(value)

    def json_items(self, *, fragments: bool = False) -> Iterator[tuple[K, Any]]:
        """Every (key, the value's JSON form), in insertion order; builds nothing.

        Values kept as bytes are given as :class:`orjson.Fragment` with ``fragments``, else parsed.
        """
        dump = self._dump
        kept = _fragment() if fragments else loads_json
        for key, value in self._values.items():
            yield key, (kept(value) if type(value) is bytes else dump(value))


def _fragment() -> Callable[[bytes], Any]:
    import orjson

    return orjson.Fragment


def _cell_from_json(confidence: float, data: dict[str, Any]) -> CellStat:
    if "confidence" not in data:
        data["confidence"] = confidence
    return CellStat.from_json(data)


class CellTable(MutableMapping[tuple[str, str, str], CellStat]):
    """Cells by (column, abbr, metric); the cells of one (column, abbr) may be kept as JSON bytes.

    The run index holds each result's cells as one JSON object,
    ``{metric: CellStat JSON}``; a summary of a leaderboard keeps fifty
    thousand of them (:meth:`keep`) and writes them out unparsed
    (:meth:`json_rows`); reading a cell parses its (column, abbr) once.  A
    cell kept without an interval's confidence takes ``confidence``.

    >>> t = CellTable()
    >>> t.keep('m', 'd', ['acc'], b'{"acc":{"value":50.0,"method":"none"}}')
    >>> t[('m', 'd', 'acc')].confidence, list(t), ('m', 'd', 'f1') in t
    (0.95, [('m', 'd', 'acc')], False)
    """

    def __init__(self, confidence: float = 0.95) -> None:
        self.confidence = confidence
        # (column, abbr) → its cells, or kept as their JSON bytes (built when first read, the bytes kept)
        self._rows: dict[tuple[str, str], dict[str, CellStat] | _KeptCells] = {}
        # kept JSON bytes → their parse: results of the same cells (a leaderboard has many) parsed once
        self._parsed: dict[bytes, dict[str, dict[str, Any]]] = {}

    def reserve(self, column: str, abbr: str) -> None:
        """Keep the place, in iteration and :meth:`json_rows`, of the cells of (column, abbr), set later."""
        self._rows[(column, abbr)] = {}

    def keep(self, column: str, abbr: str, metrics: Collection[str], data: bytes) -> None:
        """Keep the cells ``metrics`` of (column, abbr) as ``data``, JSON ``{metric: CellStat JSON}`` of exactly them."""
        self._rows[(column, abbr)] = _KeptCells(metrics, data)

    def row_of(self, column: str, abbr: str) -> Mapping[str, CellStat] | None:
        """The cells of (column, abbr) by metric (``None`` when there are none), built once; not to be modified."""
        row = self._rows.get((column, abbr))
        if isinstance(row, _KeptCells):
            built = row.built
            if built is None:
                confidence = self.confidence
                if row.parsed is not None:  # a parse other results may share: not modified
                    built = {m: _cell_from_json(confidence, dict(row.parsed[m])) for m in row.metrics}
                else:
                    parsed = loads_json(row.data)
                    built = {m: _cell_from_json(confidence, parsed[m]) for m in row.metrics}
                row.built = built
            return built
        return row

    def kept_json(self, column: str, abbr: str) -> bytes | None:
        """The JSON bytes the cells of (column, abbr) are kept as (``{metric: CellStat JSON}``, a cell without
        ``confidence`` having the table's), ``None`` when they are not kept so (or there are none)."""
        row = self._rows.get((column, abbr))
        return row.data if type(row) is _KeptCells else None

    def json_row(self, column: str, abbr: str) -> Mapping[str, dict[str, Any]] | None:
        """The cells of (column, abbr) by metric as their JSON (:meth:`CellStat.to_json`; a cell without
        ``confidence`` has the table's), ``None`` when there are none; cells kept as bytes are parsed once
        and kept, no :class:`CellStat` built.  Not to be modified."""
        row = self._rows.get((column, abbr))
        if isinstance(row, _KeptCells):
            parsed = row.parsed
            if parsed is None:
                parsed = self._parsed.get(row.data)
                if parsed is None:
                    parsed = self._parsed[row.data] = loads_json(row.data)
                row.parsed = parsed
            return parsed
        if row is None:
            return None
        return {m: c.to_json() for m, c in row.items()}

    def _own(self, column: str, abbr: str) -> dict[str, CellStat] | None:
        """The cells of (column, abbr) as a dict of their own, to modify (their JSON bytes no longer stand for them)."""
        row = self.row_of(column, abbr)
        if row is None:
            return None
        if isinstance(self._rows[(column, abbr)], _KeptCells):
            row = self._rows[(column, abbr)] = dict(row)
        assert isinstance(row, dict)
        return row

    def __getitem__(self, key: tuple[str, str, str]) -> CellStat:
        row = self.row_of(key[0], key[1])
        if row is None:
            raise KeyError(key)
        return row[key[2]]

    def __setitem__(self, key: tuple[str, str, str], value: CellStat) -> None:
        row = self._own(key[0], key[1])
        if row is None:
            row = self._rows[(key[0], key[1])] = {}
        row[key[2]] = value

    def __delitem__(self, key: tuple[str, str, str]) -> None:
        row = self._own(key[0], key[1])
        if row is None:
            raise KeyError(key)
        del row[key[2]]
        if not row:
            del self._rows[(key[0], key[1])]

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, tuple) or len(key) != 3:
            return False
        row = self._rows.get((key[0], key[1]))
        if row is None:
            return False
        return key[2] in (row.metrics if isinstance(row, _KeptCells) else row)

    def __iter__(self) -> Iterator[tuple[str, str, str]]:
        for (column, abbr), row in self._rows.items():
            for metric in row.metrics if isinstance(row, _KeptCells) else row:
                yield column, abbr, metric

    def __len__(self) -> int:
        return sum(len(row.metrics if isinstance(row, _KeptCells) else row) for row in self._rows.values())

    def json_rows(self, *, fragments: bool = False) -> Iterator[tuple[str, str, Any]]:
        """Every (column, abbr, its cells' JSON ``{metric: …}``); builds nothing.

        Cells kept as bytes (read or not) are given as :class:`orjson.Fragment` with ``fragments``, else parsed.
        """
        fragment = _fragment() if fragments else loads_json
        for (column, abbr), row in self._rows.items():
            if isinstance(row, _KeptCells):
                yield column, abbr, fragment(row.data)
            elif row:
                yield column, abbr, {m: c.to_json() for m, c in row.items()}


class _KeptCells:
    """The cells of one (column, abbr) kept as the run index's JSON: their metrics, the bytes, and the
    cells once built."""

    __slots__ = ("built", "data", "metrics", "parsed")

    def __init__(self, metrics: Collection[str], data: bytes) -> None:
        self.metrics, self.data = metrics, data
        self.built: dict[str, CellStat] | None = None
        self.parsed: dict[str, dict[str, Any]] | None = None


def _cell_table(confidence: float = 0.95) -> CellTable:
    return CellTable(confidence)


def _unscorable_table() -> JsonBacked[tuple[str, str], Unscorable]:
    return JsonBacked(Unscorable.from_json, Unscorable.to_json)


@dataclass(repr=False, eq=False)
class RunStats(DataclassMethods):
    """Intervals and unscorable counts of every cell of a run.

    ``cells`` maps ``(column, abbr, metric)`` to :class:`CellStat` (datasets
    and groups); ``unscorable`` maps ``(column, dataset abbr)``, where
    anything is known of them; ``tables`` holds the report's sample columns
    when :func:`run_stats` was asked for them.  Statistics taken from the run
    index stay JSON until read (:class:`CellTable`, :class:`JsonBacked`).
    """

    cells: MutableMapping[tuple[str, str, str], CellStat] = field(default_factory=_cell_table)
    unscorable: MutableMapping[tuple[str, str], Unscorable] = field(default_factory=_unscorable_table)
    samples: dict[tuple[str, str, str], SampleValues] = field(default_factory=dict)
    tables: SampleTables | None = None

    def cell(self, column: str, abbr: str, metric: str) -> CellStat | None:
        """The statistics of one cell, or ``None``."""
        return self.cells.get((column, abbr, metric))

    def to_json(self, *, fragments: bool = False) -> dict[str, Any]:
        """``{"cells": {column: {abbr: {metric: …}}}, "unscorable": {column: {abbr: …}}}``.

        With ``fragments``, statistics kept as the run index's JSON bytes are
        :class:`orjson.Fragment` values (:func:`assay.fileio.dumps_json` writes
        them as they are, unparsed); else everything is plain data.
        """
        cells: dict[str, dict[str, Any]] = {}
        if isinstance(self.cells, CellTable):
            for column, abbr, data in self.cells.json_rows(fragments=fragments):
                per = cells.get(column)
                if per is None:
                    per = cells[column] = {}
                per[abbr] = data
        else:
            for (column, abbr, metric), stat in self.cells.items():
                cells.setdefault(column, {}).setdefault(abbr, {})[metric] = stat.to_json()
        unscorable: dict[str, dict[str, Any]] = {}
        u_items = self.unscorable.json_items(fragments=fragments) if isinstance(self.unscorable, JsonBacked) else (
            (k, v.to_json()) for k, v in self.unscorable.items()
        )
        for (column, abbr), data in u_items:
            if data:
                unscorable.setdefault(column, {})[abbr] = data
        return {"cells": cells, "unscorable": unscorable}


class _ColumnCells(Mapping[tuple[str, str], CellStat]):
    """One model column's dataset cells of a :class:`RunStats`, by (abbr, metric), built only when read.

    ``abbrs`` are the datasets with cells, ``values`` their metrics (abbr → metric → value).
    """

    def __init__(self, cells: Mapping[tuple[str, str, str], CellStat], column: str, abbrs: list[str],
                 values: Mapping[str, Mapping[str, float]]) -> None:
        self._cells, self._column, self._abbrs, self._values = cells, column, abbrs, values

    def __getitem__(self, key: tuple[str, str]) -> CellStat:
        return self._cells[(self._column, *key)]

    def get(self, key: tuple[str, str], default: Any = None) -> Any:
        cells = self._cells
        if type(cells) is CellTable:  # the usual table: one lookup, not three
            row = cells.row_of(self._column, key[0])
            return default if row is None else row.get(key[1], default)
        return cells.get((self._column, *key), default)

    def intervals_of(self, keys: Sequence[tuple[str, str]]) -> tuple[list[float], list[bool]] | None:
        """The standard error of each cell of ``keys`` (abbr, metric) and whether it is a percentage of
        correct answers (:func:`assay.stats.percent_cell`), ``None`` when one has no interval;
        read from the cells' JSON, no :class:`CellStat` built."""
        cells, column = self._cells, self._column
        ses: list[float] = []
        percents: list[bool] = []
        if type(cells) is not CellTable:
            for key in keys:
                stat = self.get(key)
                if stat is None or stat.se is None:
                    return None
                ses.append(stat.se)
                percents.append(percent_cell(stat.method, stat.high))
            return ses, percents
        json_row = cells.json_row
        for abbr, metric in keys:
            row = json_row(column, abbr)
            data = row.get(metric) if row is not None else None
            se = data.get("se") if data is not None else None
            if se is None:
                return None
            ses.append(se)
            percents.append(percent_cell(data.get("method"), data.get("high")))  # type: ignore[union-attr]
        return ses, percents

    def __iter__(self) -> Iterator[tuple[str, str]]:
        values = self._values
        return ((abbr, metric) for abbr in self._abbrs for metric in values[abbr])

    def __len__(self) -> int:
        values = self._values
        return sum(len(values[abbr]) for abbr in self._abbrs)


def run_stats(
    run_dir: str | os.PathLike[str],
    summary: Any,
    *,
    groups: Sequence[Any] | None = None,
    config: Mapping[str, Any] | None = None,
    confidence: float = 0.95,
    resamples: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    keep_samples: bool = False,
    sample_text: int | None = None,
    workers: int | None = None,
    snapshot: Snapshot | None = None,
    index: bool = True,
) -> RunStats:
    """Intervals of every cell of a summary, and each (model, dataset)'s unscorable counts.

    Each result file is read once, with its details; with ``sample_text`` the
    prediction files are read too, for the report's sample browser.

    Args:
        run_dir: the run directory (its ``results/`` are read with details).
        summary: the summary's leaderboard (:class:`assay.summarize.leaderboard.Leaderboard`:
            its ``models``, ``dataset_abbrs``, ``groups``, ``metrics``, ``scores`` and
            ``group_definitions``), or what the summarizer returned (its ``leaderboard``).
        groups: the summary groups (:class:`assay.groups.SummaryGroup` or
            group dicts); default: from the summary's ``group_definitions`` or
            the run's newest dumped config (:func:`load_run_config`).
        config: the run config (for ``summarizer_abbr`` folders and groups);
            default: the newest dumped one (:func:`load_run_config`).
        keep_samples: keep each cell's per-sample values (for comparisons and reports).
        sample_text: also keep the sample browser's columns of every (model,
            dataset) in ``tables``, texts cut to this many characters.
        workers: processes to read the results with; ``None`` decides by their
            size and the CPUs, ``1`` reads them in this process (see
            :func:`pool_size`).
        snapshot: the run's result files as the run index has them
            (:meth:`assay.rundir.index.RunIndex.snapshot`); default: taken here,
            unless ``index`` is false or ``ASSAY_NO_INDEX`` is set.

    Raises:
        TypeError: ``summary`` is not a leaderboard.
    """
    view = getattr(summary, "leaderboard", None) or summary
    if not all(hasattr(view, a) for a in ("models", "dataset_abbrs", "groups", "metrics", "scores")):
        raise TypeError(f"run_stats needs the summary's leaderboard, got {type(summary).__name__}")
    if config is None:
        config = load_run_config(run_dir)
    if groups is None:
        group_list = _groups_of(config, getattr(view, "group_definitions", None))
    else:
        from assay.groups import SummaryGroup

        group_list = [g if isinstance(g, SummaryGroup) else SummaryGroup.from_config(g) for g in groups]
    folders = model_dirs_of(config, view.models)
    want_columns = sample_text is not None
    options = StatsOptions(confidence, resamples, seed, keep_samples, sample_text or 0)
    if snapshot is None and index:
        snapshot = index_snapshot(run_dir)
    lookup = index_lookup(snapshot, options) if snapshot is not None and not want_columns and not keep_samples else None
    out = RunStats(cells=_cell_table(confidence))
    cells, unscorable = out.cells, out.unscorable
    assert isinstance(cells, CellTable) and isinstance(unscorable, JsonBacked)
    keep_cells, put_unscorable, reserve = cells.keep, unscorable.put_json, cells.reserve
    column_abbrs: dict[str, list[str]] = {}  # column → the datasets it has cells of
    tasks = []
    for column in view.models:
        column_values = view.scores.get(column, {})
        folder = folders.get(column, column)
        abbrs = column_abbrs[column] = []
        for abbr in view.dataset_abbrs:
            have = column_values.get(abbr)
            if have:
                abbrs.append(abbr)
                indexed = lookup(folder, abbr, have) if lookup is not None else None
                if indexed is not None:  # most cells, straight from the index, kept as its JSON: parsed only if read
                    keep_cells(column, abbr, have, indexed[0])
                    if indexed[1] is not None:
                        put_unscorable((column, abbr), indexed[1])
                    continue
                reserve(column, abbr)  # computed below, shown in this place
                unscorable[(column, abbr)] = None  # the same: set or removed below
            if have or want_columns:
                tasks.append(Task(column, abbr, folder, dict(have or {}), want_columns))
    computed = run_tasks(tasks, str(run_dir), options, workers=workers, snapshot=snapshot)
    outputs: dict[tuple[str, str], ResultStats] = {(t.column, t.abbr): o for t, o in zip(tasks, computed)}
    for (column, abbr), found in outputs.items():
        have = view.scores.get(column, {}).get(abbr)
        if not have:
            continue
        for metric in have:
            cells[(column, abbr, metric)] = found.cells[metric]
            if metric in found.samples:
                out.samples[(column, abbr, metric)] = found.samples[metric]
        if found.unscorable is not None and found.unscorable.to_json():  # kept when something is known
            unscorable[(column, abbr)] = found.unscorable
        else:
            del unscorable[(column, abbr)]
    plans = {g.name: group_plan(g, view.metrics) for g in group_list}
    found_groups = group_stats_columns(
        group_list, view.models, {c: view.scores.get(c, {}) for c in view.models}, view.metrics,
        {c: _ColumnCells(cells, c, column_abbrs[c], view.scores.get(c, {})) for c in view.models},
        confidence=confidence, resamples=resamples, seed=seed, plans=plans) if group_list else {}
    for column in view.models:
        column_values = view.scores.get(column, {})
        for (abbr, metric), stat in found_groups.get(column, {}).items():
            out.cells[(column, abbr, metric)] = stat
        for abbr in view.groups:
            for metric, value in column_values.get(abbr, {}).items():
                if (column, abbr, metric) not in out.cells:
                    reason = "the group's definition is unknown (no config in configs/ and no group_definitions)"
                    out.cells[(column, abbr, metric)] = CellStat(value, reason=reason, confidence=confidence)
    if sample_text is not None:
        out.tables = SampleTables(sample_text, {c: folders.get(c, c) for c in view.models},
                                  {key: o.columns for key, o in outputs.items()})
    return out


def sample_tables(
    run_dir: str | os.PathLike[str],
    columns: Sequence[str],
    abbrs: Sequence[str],
    folders: Mapping[str, str],
    text_limit: int,
    *,
    workers: int | None = None,
    snapshot: Snapshot | None = None,
    index: bool = True,
) -> SampleTables:
    """The sample browser's columns of every (column, abbr), without statistics (see :func:`run_stats`)."""
    tasks = [Task(c, a, folders.get(c, c), {}, True) for c in columns for a in abbrs]
    if snapshot is None and index:
        snapshot = index_snapshot(run_dir)
    outputs = run_tasks(tasks, str(run_dir), StatsOptions(text_limit=text_limit), workers=workers, snapshot=snapshot)
    return SampleTables(text_limit, {c: folders.get(c, c) for c in columns},
                        {(t.column, t.abbr): o.columns for t, o in zip(tasks, outputs)})


def index_run(run_dir: str | os.PathLike[str], *, check_content: bool = False, workers: int | None = None) -> Snapshot:
    """Build or repair the run index of ``run_dir`` (:mod:`assay.rundir.index`), statistics included.

    Every result file is taken from the index where it still matches, else
    read; the statistics of every result (each finite metric's interval,
    the unscorable counts) the index lacks are computed from the files and
    kept, and so are the report's samples of every result whose ``.stats``
    file matches it (:func:`assay.rundir.stats_index.index_samples`).
    ``check_content`` checks every entry by content (SHA-256).

    Returns the snapshot (what was added, changed, removed).
    """
    import math

    from assay.rundir.index import RunIndex
    from assay.rundir.results import numeric_metrics

    snapshot = RunIndex(run_dir).snapshot(check_content=check_content)
    tasks = []
    for rel in snapshot.paths():
        folder, _, name = rel.rpartition("/")
        found = snapshot.head(rel)
        if not folder or found is None or "error" in found[0]:
            continue
        values = {m: float(v) for m, v in numeric_metrics(found[0]).items() if math.isfinite(v)}
        if values:
            tasks.append(Task(folder, name[: -len(".json")], folder, values))
    run_tasks(tasks, str(run_dir), StatsOptions(), workers=workers, snapshot=snapshot)
    layout = RunDir(Path(run_dir))
    for task in tasks:
        rel = f"{task.folder}/{task.abbr}.json"
        digest = snapshot.digest(rel)
        if digest is not None and snapshot.samples(rel) is None:
            read = sidecar_samples(str(layout.result_path(task.folder, task.abbr)), digest)
            if read is not None:
                snapshot.put_samples(rel, digest, *read)
    snapshot.flush()
    return snapshot


def run_task(task: Task, run_dir: str, options: StatsOptions) -> ResultStats:
    """Read one (model, dataset) of ``run_dir`` and compute what is asked of it."""
    if not task.have and not task.columns:
        return ResultStats()
    result = read_full_result(run_dir, task.folder, task.abbr)
    if result is None:
        out = ResultStats()
        for metric, value in task.have.items():
            out.cells[metric] = CellStat(value, reason="the result file cannot be read", confidence=options.confidence)
        return out
    return result_stats(result, task.have, options, columns=task.columns, abbr=task.abbr,
                        predictions=partial(prediction_columns, run_dir, task.folder, task.abbr))


def _multiprocessing() -> Any:
    """The ``multiprocessing`` module, imported when a pool is considered (not on import)."""
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


def _size(run_dir: str, task: Task) -> int:
    try:
        return RunDir(Path(run_dir)).result_path(task.folder, task.abbr).stat().st_size
    except OSError:
        return 0


def pool_size(tasks: Sequence[Task], run_dir: str, workers: int | None) -> int:
    """How many processes to read ``tasks`` with (1: in this process).

    ``workers=None`` decides: one per idle CPU (at most :data:`MAX_WORKERS`;
    CPUs other processes keep busy now do not count) when the result files
    add up to :data:`POOL_MIN_BYTES` or more.  Forking is
    never used where it is unavailable or unsafe (other threads running, a
    daemonic process).
    """
    busy = [t for t in tasks if t.have or t.columns]
    if workers is None:
        if len(busy) < 2 or sum(_size(run_dir, t) for t in busy) < POOL_MIN_BYTES:
            return 1
        workers = min(_idle_cpus(), MAX_WORKERS)
    size = max(1, min(workers, len(busy)))
    return size if size > 1 and _fork_allowed() else 1


def run_tasks(
    tasks: Sequence[Task], run_dir: str, options: StatsOptions, *, workers: int | None = None,
    snapshot: Snapshot | None = None,
) -> list[ResultStats]:
    """Run every task of ``run_dir``; the outputs in task order.  ``workers``: see :func:`pool_size`.

    A task takes statistics computed before from its result's present bytes
    with the same options: from the run index (``snapshot``, see
    :mod:`assay.rundir.index`), else from the ``.stats`` file beside the result
    (:func:`assay.rundir.sidecar.save_stats`).  The others read their files, and what they
    compute is kept in the index for the next reader.
    """
    outputs: list[ResultStats | None] = [None] * len(tasks)
    digests: list[str | None] = [None] * len(tasks)
    layout = RunDir(Path(run_dir))
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
            saved = load_stats(layout.result_path(task.folder, task.abbr), found)
            if saved is not None and snapshot is not None and found is not None:
                snapshot.put_stats(key, found, *index_stats(saved.options, saved.output))
                if snapshot.samples(f"{key}.json") is None:  # the report's samples too, while the file is read
                    snapshot.put_samples(f"{key}.json", found, *index_samples(saved))
        outputs[i] = saved.output_for(task.have, options, columns=task.columns) if saved is not None else None
    todo = [i for i, o in enumerate(outputs) if o is None]
    if todo:
        for i, output in zip(todo, _read_tasks([tasks[i] for i in todo], run_dir, options, workers)):
            outputs[i] = output
            found = digests[i]
            have = tasks[i].have
            if snapshot is not None and found is not None and output is not None and have and all(
                math.isfinite(v) for v in have.values()
            ):
                kept = ResultStats(cells=dict(output.cells), unscorable=output.unscorable)
                snapshot.put_stats(f"{tasks[i].folder}/{tasks[i].abbr}", found, *index_stats(options, kept))
    if snapshot is not None:
        snapshot.flush()
    return [o if o is not None else ResultStats() for o in outputs]


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


def _read_tasks(tasks: Sequence[Task], run_dir: str, options: StatsOptions, workers: int | None) -> list[ResultStats | None]:
    size = pool_size(tasks, run_dir, workers)
    with bulk_allocations():
        if size <= 1:
            return [run_task(t, run_dir, options) for t in tasks]
        # the smallest task here first: the modules the tasks need are then imported once, before forking
        first = min(
            range(len(tasks)), key=lambda i: (not (tasks[i].have or tasks[i].columns), _cost(run_dir, tasks[i]))
        )
        done = run_task(tasks[first], run_dir, options)
        outputs = _run_forked([t for i, t in enumerate(tasks) if i != first], run_dir, options, size)
        outputs.insert(first, done)
        missing = [i for i, o in enumerate(outputs) if o is None]
        if missing:
            logger.warning(
                "%d of %d results were not read by worker processes; reading them here", len(missing), len(tasks)
            )
            for i in missing:
                outputs[i] = run_task(tasks[i], run_dir, options)
    return outputs


def _cost(run_dir: str, task: Task) -> int:
    """The bytes a task reads, roughly: its result file, and its prediction file for the columns."""
    size = _size(run_dir, task)
    if task.columns:
        with suppress(OSError):
            size += (RunDir(Path(run_dir)).prediction_dir(task.folder) / f"{task.abbr}.json").stat().st_size
    return size


def _run_forked(tasks: Sequence[Task], run_dir: str, options: StatsOptions, size: int) -> list[ResultStats | None]:
    """Run the tasks in ``size`` forked workers (:class:`assay._pool.ForkPool`); ``None`` for a task no worker reported.

    The tasks go out largest first, so that no worker is left with a big one
    at the end; an exception a task raised is raised here.
    """
    from assay._pool import ForkPool

    queue = sorted(range(len(tasks)), key=lambda i: _cost(run_dir, tasks[i]))  # popped from the end: largest first
    outputs: list[ResultStats | None] = [None] * len(tasks)
    failures: list[BaseException] = []
    try:
        pool = ForkPool(size, partial(_work, tasks, run_dir, options), name="assay-stats")
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


def _work(
    tasks: Sequence[Task], run_dir: str, options: StatsOptions, i: int, emit: Callable[[tuple[Any, ...]], None]
) -> None:
    """A worker's part: task ``i``'s output, or the exception it raised."""
    try:
        output = run_task(tasks[i], run_dir, options)
    except Exception as exc:
        try:
            pickle.dumps(exc)
        except Exception:  # an exception that cannot travel: its text does
            exc = RuntimeError(f"{type(exc).__name__}: {exc}")
        emit(("error", exc))
        return
    emit(("output", output))

"""Rank intervals and paired comparisons of a run's leaderboard, for every column the report can rank by.

:func:`run_ranking` takes a run's :class:`~assay.summarize.leaderboard.Leaderboard`
and its :class:`~assay.rundir.statistics.RunStats`, finds the per-sample
values behind every dataset cell the rankings need, and hands them to
:class:`assay.stats.RankBootstrap` (the mathematics, documented there).

The per-sample values of a (model, dataset, metric) come, in order, from
the statistics given (``RunStats.samples``, kept by
:func:`~assay.rundir.statistics.run_stats` with ``keep_samples``); from the
run index, where the eval workers put them
(:func:`assay.rundir.stats_index.index_samples`), or the ``.stats`` file
beside the result (:mod:`assay.rundir.sidecar`; what is read there is then
kept in the index), while they were computed from the result's present bytes
and for the value the summary shows; else from the result's details.  A cell
none of them gives per-sample values for falls back to its interval (see
:mod:`assay.stats._ranks`), and the ranking says so.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assay.rundir.layout import RunDir
from assay.rundir.results import read_full_result
from assay.rundir.sidecar import load_stats_samples
from assay.rundir.statistics import index_snapshot, load_run_config, model_dirs_of
from assay.rundir.stats_index import (
    packed_units,
    sample_units_locator,
    sample_values_reader,
    sidecar_samples,
)
from assay.stats import (
    DEFAULT_ROUNDS,
    DEFAULT_SEED,
    CellStat,
    RankBootstrap,
    SampleBlock,
    SampleStore,
    SampleValues,
    sample_values,
)

if TYPE_CHECKING:
    from assay.rundir.index import Snapshot

__all__ = ["rankable_columns", "ranked_columns", "run_ranking", "sample_values_of"]

logger = logging.getLogger(__name__)

Key = tuple[str, str, str]


def _group_metric(view: Any, group: Any) -> str | None:
    metrics = view.metrics.get(group.name) or []
    if group.metric in metrics:
        return str(group.metric)
    return str(metrics[0]) if metrics else None


def rankable_columns(view: Any, groups: Sequence[Any]) -> dict[str, str]:
    """Every column the report can rank by, abbr → its metric, in the order the page lists them.

    The top-level summary groups first (computed groups no other computed group
    takes as an input; their own aggregate, e.g. ``naive_average``), in the
    summary's order, then every dataset (its primary metric): those of the table's rows in their
    order, then the others in the summary's order.
    """
    computed = [g for g in groups if g.name in set(view.groups)]
    inner = {abbr for g in computed for abbr in g.abbrs}
    out: dict[str, str] = {}
    by_name = {g.name: g for g in computed}
    for name in view.groups:
        group = by_name.get(name)
        if group is None or name in inner:
            continue
        metric = _group_metric(view, group)
        if metric is not None:
            out[name] = metric
    datasets = set(view.dataset_abbrs)
    shown = [r.dataset for r in getattr(view, "rows", None) or [] if not r.placeholder and r.dataset in datasets]
    for abbr in dict.fromkeys([*shown, *view.dataset_abbrs]):
        metrics = view.metrics.get(abbr) or []
        if metrics and abbr not in out:
            out[abbr] = str(metrics[0])
    return out


def _default_column(view: Any, columns: Mapping[str, str], groups: Sequence[Any]) -> str | None:
    """The last top-level summary group, else the first dataset row of the table, else the first dataset."""
    group_names = {g.name for g in groups}
    top = [abbr for abbr in columns if abbr in group_names]
    if top:
        return top[-1]
    for row in getattr(view, "rows", None) or []:
        if not row.placeholder and row.dataset in columns:
            return str(row.dataset)
    return next(iter(columns), None)


def ranked_columns(view: Any, config: Mapping[str, Any] | None, groups: Sequence[Any] | None = None,
                   ) -> tuple[list[Any], dict[str, str], str | None]:
    """What :func:`run_ranking` ranks: the summary groups it uses (``groups``, default: the summary's
    ``group_definitions``, else those of ``config``; only those the summary computed), every column it can rank
    by (:func:`rankable_columns`, in order) and the default column (the last top-level summary group, else the
    first dataset row of the table, else the first dataset; ``None`` when nothing can be ranked)."""
    view = getattr(view, "leaderboard", None) or view
    if groups is None:
        group_list = view.summary_groups(config) if hasattr(view, "summary_groups") else []
    else:
        from assay.groups import SummaryGroup

        group_list = [g if isinstance(g, SummaryGroup) else SummaryGroup.from_config(g) for g in groups]
    group_list = [g for g in group_list if g.name in set(view.groups)]
    columns = rankable_columns(view, group_list)
    return group_list, columns, _default_column(view, columns, group_list)


def _leaves(abbr: str, metric: str, groups: Mapping[str, Any], metrics: Mapping[str, Sequence[str]],
            out: dict[tuple[str, str], None], seen: set[tuple[str, str]]) -> None:
    """The dataset cells (abbr, metric) one cell is computed from, into ``out``."""
    from assay.stats import group_plan

    if (abbr, metric) in seen:
        return
    seen.add((abbr, metric))
    group = groups.get(abbr)
    if group is None:
        out[(abbr, metric)] = None
        return
    for inp_abbr, inp_metric in group_plan(group, metrics).get(metric, []):
        if inp_metric is not None:
            _leaves(inp_abbr, inp_metric, groups, metrics, out, seen)


def _ranked_leaves(group_list: list[Any], columns: dict[str, str], default: str | None, metrics: Any, *,
                   only: Sequence[str] | None = None, by: str | None = None, datasets: bool = True,
                   ) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The columns ranked (``only``'s, else every one; top-level groups alone without ``datasets``; the compared
    one, ``by`` else ``default``, always) and the dataset cells (abbr, metric) their per-sample values come from."""
    if only is not None or not datasets:
        group_names = {g.name for g in group_list}
        chosen_only = list(columns) if only is None else list(only)
        if not datasets:
            chosen_only = [abbr for abbr in chosen_only if abbr in group_names]
        wanted = {*chosen_only, by if by is not None else default}
        columns = {abbr: metric for abbr, metric in columns.items() if abbr in wanted}
    by_group = {g.name: g for g in group_list}
    leaves: dict[tuple[str, str], None] = {}
    seen: set[tuple[str, str]] = set()
    for abbr, metric in columns.items():
        _leaves(abbr, metric, by_group, metrics, leaves, seen)
    return columns, list(leaves)


def ranked_cells(view: Any, config: Mapping[str, Any] | None, run_dir: str | os.PathLike[str], *,
                 datasets: bool = True) -> set[tuple[str, str]]:
    """The dataset cells (abbr, metric) whose per-sample values :func:`run_ranking` reads when called with ``config``,
    ``datasets`` and its defaults otherwise (every column, the default one compared): a result is read by it only for
    its values of these."""
    view = getattr(view, "leaderboard", None) or view
    if config is None:
        config = load_run_config(run_dir)
    group_list, columns, default = ranked_columns(view, config)
    return set(_ranked_leaves(group_list, columns, default, view.metrics, datasets=datasets)[1])


def sample_values_of(
    run_dir: str | os.PathLike[str],
    view: Any,
    cells: Sequence[tuple[str, str]],
    *,
    folders: Mapping[str, str] | None = None,
    given: Mapping[Key, SampleValues] | None = None,
    snapshot: Snapshot | None = None,
    held: Mapping[str, tuple[str, str, bytes]] | None = None,
) -> tuple[Mapping[Key, SampleValues], dict[Key, str]]:
    """The per-sample values of the dataset cells ``cells`` ((abbr, metric)) of every model of ``view``.

    ``held``: the run index's samples of the results, already looked up
    (:meth:`~assay.rundir.index.Snapshot.current_samples`: the result's path
    under ``results/`` → (digest, settings, data)); a result found there is
    not looked up in ``snapshot`` again.

    Returns ``(values, reasons)``: (model, abbr, metric) → :class:`SampleValues`
    where they are known (see the module's docstring for where from), and
    → why there are none where they are not.  ``values`` is a
    :class:`~assay.stats.SampleStore`: the values the index keeps packed alike
    for many models of a dataset (the usual leaderboard) are read together, one
    array a (dataset, metric), the same numbers as read one by one.
    """
    root = Path(run_dir)
    results_dir = str(RunDir(root).results)
    folders = folders if folders is not None else {}
    given = given if given is not None else {}
    found: dict[Key, SampleValues] = {}
    reasons: dict[Key, str] = {}
    by_abbr: dict[str, list[str]] = {}
    for abbr, metric in cells:
        by_abbr.setdefault(abbr, []).append(metric)
    empty: Mapping[str, Any] = {}
    locate = sample_units_locator()
    looked_up = (held if held is not None else {}).get
    one = _OneByOne(root, results_dir, snapshot, looked_up, found, reasons)
    blocks: dict[tuple[str, str], SampleBlock] = {}
    models = [(model, folders.get(model, model), view.scores.get(model, empty)) for model in view.models]
    for abbr, metrics in by_abbr.items():
        # the packed values of every model whose wanted cells of the dataset are alike, joined into one array a
        # metric (a leaderboard's fifty thousand results: a few hundred arrays); the other results one by one
        joined: dict[str, tuple[Any, list[str], list[bytes]]] = {}
        apart: list[tuple[str, str, Mapping[str, Any], list[str]]] = []
        name = f"/{abbr}.json"
        for model, folder, per_model in models:
            cell = per_model.get(abbr)
            if not cell:
                continue
            if given:
                want = []
                for m in metrics:
                    if cell.get(m) is not None:
                        sv = given.get((model, abbr, m))
                        if sv is not None:
                            found[(model, abbr, m)] = sv
                        else:
                            want.append(m)
            else:
                want = [m for m in metrics if cell.get(m) is not None]
            if not want:
                continue
            found_held = looked_up(folder + name)
            placed = locate(found_held[1], found_held[2]) if found_held is not None and found_held[0] else None
            if placed is not None:
                values, places, start = placed
                picked = []
                for m in want:
                    place = places.get(m)
                    if place is None or values.get(m) != cell[m]:
                        break
                    same = joined.get(m)
                    if same is not None and same[0] != place[0]:
                        break
                    picked.append((m, place, same))
                else:
                    data = found_held[2]  # type: ignore[index]
                    for m, place, same in picked:
                        if same is None:
                            same = joined[m] = (place[0], [], [])
                        same[1].append(model)
                        same[2].append(data[start + place[1]:start + place[2]])
                    continue
            apart.append((model, folder, cell, want))
        for m, (alike, members, parts) in joined.items():
            blocks[(abbr, m)] = _block(alike, members, parts)
        for model, folder, cell, want in apart:
            one.read(model, folder, abbr, cell, want)
    return SampleStore(found, blocks), reasons


def _block(alike: tuple[Any, ...], models: list[str], parts: list[bytes]) -> SampleBlock:
    """The per-sample values of ``models`` of one (dataset, metric), packed alike (``alike``: the first part of
    their :data:`~assay.rundir.stats_index.UnitsPlace`; ``parts``: the packed bytes of each), read as
    :func:`~assay.rundir.stats_index.sample_values_reader` reads each: the same numbers, in one array."""
    kind, scale, runs, basis, packed, count = alike
    units = packed_units(b"".join(parts), packed, count * len(models), runs).reshape(len(models), count)
    units.flags.writeable = False
    return SampleBlock(models, units, kind, scale, runs, basis)


class _OneByOne:
    """Reads the per-sample values of one result at a time (those :func:`sample_values_of` does not read
    together), into ``found`` (or why there are none into ``reasons``): from the run index's samples of the
    result (``looked_up``: already looked up, else asked of ``snapshot``), from its ``.stats`` file, or from
    the result file itself."""

    def __init__(self, root: Path, results_dir: str, snapshot: Snapshot | None, looked_up: Any,
                 found: dict[Key, SampleValues], reasons: dict[Key, str]) -> None:
        self.root, self.results_dir, self.snapshot, self.looked_up = root, results_dir, snapshot, looked_up
        self.found, self.reasons = found, reasons
        self.read_held = sample_values_reader()

    def read(self, model: str, folder: str, abbr: str, cell: Mapping[str, Any], want: list[str]) -> None:
        """The values of the cells ``want`` of ``model``'s result of ``abbr`` (in ``folder``; ``cell``: its values)."""
        found, reasons, read_held, snapshot = self.found, self.reasons, self.read_held, self.snapshot
        rel = f"{folder}/{abbr}.json"
        saved: tuple[dict[str, float], Mapping[str, Any], dict[str, str]] | None = None
        found_held = self.looked_up(rel)
        if found_held is not None and found_held[0]:  # as the snapshot would give them
            saved = read_held(found_held[1], found_held[2])
        elif snapshot is not None:
            digest = snapshot.digest(rel)
            if digest:
                in_index = snapshot.samples(rel)
                if in_index is None:  # an index without them: from the .stats file, kept in the index
                    in_index = sidecar_samples(os.path.join(self.results_dir, folder, f"{abbr}.json"), digest)
                    if in_index is not None:
                        snapshot.put_samples(rel, digest, *in_index)
                if in_index is not None:
                    saved = read_held(*in_index)
        else:
            loaded = load_stats_samples(os.path.join(self.results_dir, folder, f"{abbr}.json"), None)
            if loaded is not None:
                from_json = SampleValues.from_json
                saved = (loaded[0], {m: from_json(d) for m, d in loaded[1].items()}, loaded[2])
        rest = []
        for m in want:
            key = (model, abbr, m)
            if saved is not None and saved[0].get(m) == cell[m]:
                data = saved[1].get(m)
                if data is not None:
                    found[key] = data
                    continue
                if m in saved[2]:
                    reasons[key] = saved[2][m]
                    continue
            rest.append(m)
        if not rest:
            return
        result = read_full_result(self.root, folder, abbr)
        if result is None or "error" in result:
            for m in rest:
                reasons[(model, abbr, m)] = "the result file cannot be read" if result is None else "its evaluation failed"
            return
        for m in rest:
            value = cell[m]
            assert value is not None
            got = sample_values(result, m, float(value))
            if isinstance(got, str):
                reasons[(model, abbr, m)] = got
            else:
                found[(model, abbr, m)] = got


def run_ranking(
    run_dir: str | os.PathLike[str],
    view: Any,
    stats: Any = None,
    *,
    by: str | None = None,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = DEFAULT_SEED,
    top: int = 10,
    confidence: float = 0.95,
    only: Sequence[str] | None = None,
    groups: Sequence[Any] | None = None,
    config: Mapping[str, Any] | None = None,
    snapshot: Snapshot | None = None,
    datasets: bool = True,
    held: Mapping[str, tuple[str, str, bytes]] | None = None,
) -> dict[str, Any]:
    """Rank intervals of every column the report can rank by, and the paired comparisons of the top models.

    Args:
        run_dir: the run directory.
        view: the summary's :class:`~assay.summarize.leaderboard.Leaderboard` (or what the summarizer returned).
        stats: the run's :class:`~assay.rundir.statistics.RunStats` (its cells' intervals are the
            fallback of cells without per-sample values; its ``samples``, when kept, are used first);
            ``None``: no fallback intervals; a function giving them: called once, only when a cell without
            per-sample values is met.
        by: the column the paired comparisons are of (default: the default column below).
        rounds, seed, confidence: the bootstrap's settings (:class:`assay.stats.RankBootstrap`).
        top: how many of the best models by ``by`` are compared two by two.
        only: rank only these columns (and ``by``), e.g. the groups and datasets a page shows
            (default: every column that can be ranked); ``default`` is chosen among all of them.
        groups: the summary groups (default: the summary's ``group_definitions``, else the run config's).
        config: the run config (default: the newest dumped one).
        snapshot: the run index's snapshot (default: taken here, unless ``ASSAY_NO_INDEX``).
        datasets: rank the datasets too; with ``False`` only the top-level summary groups (those of
            ``only``, when given) and ``by`` or the default column are ranked — every dataset is still
            resampled for the groups, but none is ranked itself.
        held: the run index's samples already looked up (see :func:`sample_values_of`).

    Returns:
        JSON-ready data, stable in shape::

            {"default": <abbr>,            # the last top-level summary group, else the first dataset
                                           # row of the table; null when nothing can be ranked
             "rankings": {<abbr>: {        # every top-level summary group, then every dataset
                 "metric": <metric>, "kind": "group"|"dataset", "rounds": int, "seed": int,
                 "confidence": float,
                 "models": [{"model", "value", "low", "high", "rank", "rank_low", "rank_high",
                             "tier", ["note"]}, ...],   # best first
                 "ties": [[model, ...], ...],          # tiers of two models or more, best first
                 "note": str,                          # what the ranking rests on
                 ["left_out": [{"model", "reason"}]]}},
             "pairs": {"by": <abbr>, "metric": <metric>, "models": [top models, best first],
                       "cells": [[{"result": "win"|"tie"|"loss", "p": Holm-corrected p,
                                   "delta": value_row − value_column, "test": str} | null, ...], ...],
                       "confidence": float, "correction": "holm", "note": str}
                      | null}

        ``cells[i][j]`` reads from row model ``i``'s side; ``null`` on the
        diagonal and for a pair that cannot be tested.

    Raises:
        ValueError: ``by`` is not a column that can be ranked (naming it and the columns that can).
    """
    view = getattr(view, "leaderboard", None) or view
    if config is None:
        config = load_run_config(run_dir)
    group_list, columns, default = ranked_columns(view, config, groups)
    if by is not None and by not in columns:
        shown = ", ".join(list(columns)[:20]) + (", …" if len(columns) > 20 else "")
        raise ValueError(f"cannot rank by {by!r}: it is not a top-level summary group or dataset of the summary "
                         f"(those are: {shown or 'none'})")
    if not columns:
        return {"default": None, "rankings": {}, "pairs": None}
    if only is not None:
        unknown = [c for c in only if c not in columns]
        if unknown:
            raise ValueError(f"cannot rank by {unknown[0]!r}: it is not a top-level summary group or dataset of "
                             "the summary")
    columns, leaves = _ranked_leaves(group_list, columns, default, view.metrics, only=only, by=by, datasets=datasets)
    folders = model_dirs_of(config, view.models)
    if snapshot is None:
        snapshot = index_snapshot(run_dir)
    given = (None if callable(stats) else getattr(stats, "samples", None)) or {}
    samples, reasons = sample_values_of(run_dir, view, leaves, folders=folders, given=given, snapshot=snapshot,
                                        held=held)
    if snapshot is not None:
        snapshot.flush()  # the samples read from .stats files, kept for the next reader
    cells = _Cells(stats, reasons, confidence)
    boot = RankBootstrap(view.models, view.scores, samples, cells, group_list, view.metrics,
                         rounds=rounds, seed=seed, confidence=confidence)
    chosen = by if by is not None else default
    assert chosen is not None  # there are columns, so there is a default
    done = boot.rank_all(list(columns.items()), keep_draws={(chosen, columns[chosen])})
    rankings: dict[str, Any] = {}
    pairs = None
    for (abbr, _), ranking in done.items():
        for model in list(ranking.left_out):
            reason = view.missing_reason(model, abbr) if hasattr(view, "missing_reason") else None
            if reason:
                ranking.left_out[model] = reason
        rankings[abbr] = ranking.to_json()
        if abbr == chosen:
            pairs = boot.pairs(ranking, top).to_json()
    return {"default": default, "rankings": rankings, "pairs": pairs}


class _Cells(Mapping[Key, CellStat]):
    """The fallback intervals: the run's statistics, with the reason a cell has no per-sample values.

    ``stats`` may be a function giving the statistics: it is called when a cell is first looked up.
    """

    def __init__(self, stats: Any, reasons: Mapping[Key, str], confidence: float) -> None:
        self._stats = stats
        self._found: Mapping[Key, CellStat] | None = None
        self._reasons = reasons
        self._confidence = confidence

    @property
    def _cells(self) -> Mapping[Key, CellStat]:
        if self._found is None:
            stats = self._stats() if callable(self._stats) else self._stats
            cells = getattr(stats, "cells", None)
            self._found = cells if cells is not None else {}
        return self._found

    def __getitem__(self, key: Key) -> CellStat:
        stat = self._cells.get(key)
        reason = self._reasons.get(key)
        if stat is None:
            if reason is None:
                raise KeyError(key)
            return CellStat(float("nan"), reason=reason, confidence=self._confidence)
        if reason is not None and not stat.reason:
            import dataclasses

            return dataclasses.replace(stat, reason=reason)
        return stat

    def __iter__(self) -> Any:
        return iter(self._cells)

    def __len__(self) -> int:
        return len(self._cells)

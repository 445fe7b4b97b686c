"""Building the report's data and rendering it as one HTML file."""

from __future__ import annotations

import contextlib
import html
import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from assay._dataclass import DataclassMethods
from assay.audit import AuditRecord
from assay.report._samples import payload as _payload
from assay.report._samples import sample_table
from assay.rundir.record import judge_line
from assay.stats import SAMPLE_TEXT

logger = logging.getLogger(__name__)

__all__ = ["HtmlReport", "audit_note", "begin_html_report", "build_report_data", "render_report", "write_html_report"]

_PALETTE = ("#0969da", "#cf222e", "#1a7f37", "#8250df", "#bc4c00", "#1b7c83", "#bf3989", "#57606a")


def audit_note(audit: AuditRecord | None, metric: str, value: float | None) -> str:
    """The leaderboard's note on one cell's extraction audit (see :mod:`assay.audit`).

    >>> from assay.audit import AuditRecord
    >>> audit_note(AuditRecord([], 1319, 3, metrics={'accuracy': 81.2}), 'accuracy', 80.9)
    '3 of 1,319 replies read differently by the corrected extractor; accuracy would be 81.20 instead of 80.90'
    >>> audit_note(AuditRecord([], 10, 0, metrics={'accuracy': 50.0}), 'accuracy', 50.0)
    'all 10 replies read the same by the corrected extractor'
    >>> audit_note(AuditRecord.failed([], 'ValueError: boom'), 'accuracy', 50.0)
    'extraction audit failed: ValueError: boom'
    """
    if audit is None:
        return ""
    if audit.error is not None:
        return f"extraction audit failed: {audit.error}"
    replies, differ = audit.replies, audit.differ
    if not differ:
        return f"all {replies:,} replies read the same by the corrected extractor"
    text = f"{differ:,} of {replies:,} repl{'y' if replies == 1 else 'ies'} read differently by the corrected extractor"
    would = audit.would_be(metric)
    if would is not None and value is not None:
        text += f"; {metric} would be {would:.2f} instead of {value:.2f}"
    return text


def interval_text(stat: Any) -> str:
    """How a cell's interval was computed, the bounds and the standard error left as ``{lo}``, ``{hi}`` and
    ``{se}`` for the page to fill in (so that cells computed alike share one text); for a cell without an
    interval, why, as :meth:`assay.stats.CellStat.describe` says it.

    >>> from assay.stats import CellStat
    >>> interval_text(CellStat(50.0, 5.0, 40.0, 60.0, 'wilson', n=100, basis='correct'))
    '95% CI [{lo}, {hi}] (wilson, n=100, correct){se}'
    >>> interval_text(CellStat(50.0, reason='no per-sample details'))
    'no interval: no per-sample details'
    """
    if not stat.has_interval:
        return str(stat.describe())
    parts: list[str] = [stat.method]
    if stat.n is not None:
        parts.append(f"n={stat.n}" + (f"×{stat.runs} runs" if stat.runs and stat.runs > 1 else ""))
    if stat.basis:
        parts.append(stat.basis)
    return f"{round(stat.confidence * 100):d}% CI [{{lo}}, {{hi}}] ({', '.join(parts)}){{se}}"


def fill_interval_text(template: str, cell: list[Any]) -> str:
    """An :func:`interval_text` filled in with a compact cell's bounds and standard error, as the page shows it.

    >>> fill_interval_text('95% CI [{lo}, {hi}] (wilson, n=100, correct){se}', [50.0, 40.0, 60.0, 5.0, 0])
    '95% CI [40.00, 60.00] (wilson, n=100, correct), se 5.00'
    """
    _, lo, hi, se = cell[:4]
    if lo is None:
        return template
    return (template.replace("{lo}", f"{lo:.2f}").replace("{hi}", f"{hi:.2f}")
            .replace("{se}", "" if se is None else f", se {se:.2f}"))


class _Texts:
    """The page's table of repeated texts: each text once, cells holding its index.

    It also remembers, for a leaderboard's fifty thousand results, each
    result's unscorable counts (read once per result, not once per metric)
    and the text of each way an interval was computed.
    """

    def __init__(self) -> None:
        self.items: list[str] = []
        self._index: dict[str, int] = {}
        self.unscorable: dict[tuple[str, str], tuple[Any, int, int | None]] = {}
        self.methods: dict[tuple[Any, ...], int] = {}
        self._described: dict[tuple[Any, ...], tuple[int, str]] = {}
        self._reasons: dict[Any, int] = {}
        self._kept: dict[bytes, tuple[Any, int, int | None]] = {}
        self._noted: tuple[Any, set[tuple[str, str]]] | None = None
        #: metric → (a result's cells JSON, its unscorable JSON) → a cell of them but for its value
        self.same_cells: dict[str, dict[tuple[bytes, bytes | None], list[Any]]] = {}

    def noted_of(self, view: Any) -> set[tuple[str, str]]:
        """:func:`_noted` of ``view``, computed once."""
        if self._noted is None or self._noted[0] is not view:
            self._noted = (view, _noted(view))
        return self._noted[1]

    def unscorable_of(self, stats: Any, column: str, abbr: str) -> tuple[Any, int, int | None]:
        """The unscorable counts of one result as a cell shows them: ``(bounds by metric, count, the index
        of their description)``, the description ``None`` when nothing is known; read once per result."""
        known = self.unscorable.get((column, abbr))
        if known is not None:
            return known
        table = stats.unscorable if stats is not None else None
        json_of = getattr(table, "json_of", None)
        kept = table.kept_json((column, abbr)) if json_of is not None else None  # type: ignore[union-attr]
        if kept is not None:  # results of the same counts and bounds (a leaderboard has many) read once
            known = self._kept.get(kept)
            if known is not None:
                self.unscorable[(column, abbr)] = known
                return known
        if json_of is not None:  # the run index's JSON, read without building the counts' object
            data = json_of((column, abbr))
        else:
            u = table.get((column, abbr)) if table is not None else None
            data = u.to_json() if u is not None else None
        if data is None:
            known = self.unscorable[(column, abbr)] = ({}, 0, None)
            return known
        if kept is not None:
            self._kept[kept] = self._unscorable_of_json(data)
            known = self.unscorable[(column, abbr)] = self._kept[kept]
            return known
        known = self.unscorable[(column, abbr)] = self._unscorable_of_json(data)
        return known

    def _unscorable_of_json(self, data: dict[str, Any]) -> tuple[Any, int, int | None]:
        counts = (data.get("total"), data.get("unextracted"), data.get("judge_failed"), data.get("not_executed"))
        found = self._described.get(counts)
        if found is None:
            from assay.stats import Unscorable

            u = Unscorable(*counts)
            found = self._described[counts] = (u.count, u.describe())
        count, described = found
        said = self(described) if count or described else None
        return data.get("bounds") or {}, count, said

    def interval(self, stat: Any) -> int:
        """The index of :func:`interval_text` of ``stat``."""
        if not stat.has_interval:
            return self(interval_text(stat))
        key = (stat.method, stat.n, stat.runs, stat.basis, stat.confidence)
        found = self.methods.get(key)
        if found is None:
            found = self.methods[key] = self(interval_text(stat))
        return found

    def interval_of_json(self, data: dict[str, Any], confidence: float) -> int:
        """:meth:`interval` of the cell whose JSON (:meth:`assay.stats.CellStat.to_json`) is ``data``, its
        confidence ``confidence`` when the JSON has none; a cell is built only for a way not met before."""
        ranged = data.get("low") is not None and data.get("high") is not None
        if ranged:
            found = self.methods.get((data.get("method", "none"), data.get("n"), data.get("runs"), data.get("basis"),
                                      data.get("confidence", confidence)))
        else:  # the text of a cell without an interval is its reason
            found = self._reasons.get(data.get("reason"))
        if found is None:
            from assay.stats import CellStat

            found = self.interval(CellStat.from_json({"confidence": confidence, **data}))
            if not ranged:
                self._reasons[data.get("reason")] = found
        return found

    def __call__(self, text: str) -> int:
        found = self._index.get(text)
        if found is None:
            found = self._index[text] = len(self.items)
            self.items.append(text)
        return found


def _compact_cell(view: Any, stats: Any, texts: _Texts, column: str, abbr: str, metric: str,
                  value: float | None, missing: str | None) -> tuple[list[Any], dict[str, Any] | None]:
    """One value as the page holds it, and what rarer things it has to say (``None`` when nothing).

    The cell is ``[value, low, high, se, text]``, then, where its unscorable
    counts are known, ``unscorable count, text`` and, where the metric's
    range were they all wrong … right is known, ``low, high`` of it; without
    a value it is ``[None, text]`` (why).  Texts index the page's ``texts``:
    how the interval was computed, or why there is none; the unscorable
    counts described.  The interval's bounds and standard error are rounded
    to the two decimals the page shows of them; the value is kept in full.
    The rest: ``marks``, ``gold``, ``audit``/``audit_differ``, ``tool_audit``/``tool_audit_name``/``tool_audit_differ``
    (what another tool's own extraction of the replies assay scored again would give), ``source`` (the
    badge's label of a value another tool computed: :func:`source_label`), ``judge`` and
    their sentences (``notes``), shown on hover or click.
    """
    if value is None:
        return [None, texts(missing or f"{column} has no value for {abbr} {metric}")], None
    if stats is None:
        stat = None
    elif type(stats.cells).__name__ == "CellTable":  # the run's statistics: the row of (column, abbr) at once
        row = stats.cells.row_of(column, abbr)
        stat = row.get(metric) if row is not None else None
    else:
        stat = stats.cell(column, abbr, metric)
    if stat is None:
        cell: list[Any] = [value, None, None, None, texts("no interval: no statistics for this cell")]
    elif stat.has_interval:
        cell = [value, round(stat.low, 2), round(stat.high, 2), None if stat.se is None else round(stat.se, 2),
                texts.interval(stat)]
    else:
        cell = [value, None, None, None, texts.interval(stat)]
    bounds, count, said = texts.unscorable_of(stats, column, abbr)
    if said is not None:
        cell += [count, said]
        if count and metric in bounds:
            cell += list(bounds[metric][:2])
    return cell, _cell_extra(view, column, abbr, metric, value)


def _table_cells(view: Any, stats: Any, texts: _Texts, columns: list[str], abbr: str, metric: str,
                 values: dict[str, Any], r: int, extras: dict[str, dict[str, Any]]) -> list[list[Any]] | None:
    """The cells of one row of the table, :func:`_compact_cell`'s, read from the statistics' JSON as the
    run index keeps them (no cell object built); ``None`` when the statistics are not the run's table.
    ``values``: column → the row's value; a cell's extra goes into ``extras`` under ``"<r>:<column>"``."""
    table: Any = stats.cells if stats is not None else None
    if type(table).__name__ != "CellTable" or any(values.get(column) is None for column in columns):
        return None  # a cell without a value says why, as :func:`_compact_cell` does
    json_row, confidence, interval_of, unscorable_of = (table.json_row, table.confidence, texts.interval_of_json,
                                                        texts.unscorable_of)
    noted = texts.noted_of(view)
    # results whose cells and unscorable counts are the same JSON bytes (a leaderboard has many: 50 samples
    # allow 51 accuracies) give the same cell but for its value, worked out once per metric
    kept_cells = getattr(table, "kept_json", None)
    u_table = stats.unscorable
    kept_u = u_table.kept_json if hasattr(u_table, "json_of") else None
    same = texts.same_cells.setdefault(metric, {})
    cells = []
    for c, column in enumerate(columns):
        value = values[column]
        memo_key = None
        if kept_cells is not None and kept_u is not None:
            held = kept_cells(column, abbr)
            u_held = kept_u((column, abbr)) if held is not None else None
            if held is not None and (u_held is not None or (column, abbr) not in u_table):
                memo_key = (held, u_held)
                tail = same.get(memo_key)
                if tail is not None:
                    cells.append([value, *tail])
                    if (column, abbr) in noted:
                        extra = _cell_extra(view, column, abbr, metric, value)
                        if extra is not None:
                            extras[f"{r}:{c}"] = extra
                    continue
        row = json_row(column, abbr)
        data = row.get(metric) if row is not None else None
        if data is None:
            cell: list[Any] = [value, None, None, None, texts("no interval: no statistics for this cell")]
        else:
            low, high = data.get("low"), data.get("high")
            if low is not None and high is not None:
                se = data.get("se")
                cell = [value, round(low, 2), round(high, 2), None if se is None else round(se, 2),
                        interval_of(data, confidence)]
            else:
                cell = [value, None, None, None, interval_of(data, confidence)]
        bounds, count, said = unscorable_of(stats, column, abbr)
        if said is not None:
            cell += [count, said]
            if count and metric in bounds:
                cell += list(bounds[metric][:2])
        cells.append(cell)
        if memo_key is not None:
            same[memo_key] = cell[1:]
        if (column, abbr) in noted:
            extra = _cell_extra(view, column, abbr, metric, value)
            if extra is not None:
                extras[f"{r}:{c}"] = extra
    return cells


def _noted(view: Any) -> set[tuple[str, str]]:
    """The (column, abbr) of every result :func:`_cell_extra` may have something to say of: marked, with
    ``gold`` references, an extraction audit, another tool's, a source or judge figures."""
    out: set[tuple[str, str]] = set(view.marks) | set(view.gold_references)
    for audits in (view.audits, getattr(view, "tool_audits", None) or {}):
        out.update((column, abbr) for column, per in audits.items() for abbr in per)
    out.update(getattr(view, "sources", None) or {})
    out.update(getattr(view, "judge_usage", None) or {})
    return out


def _cell_extra(view: Any, column: str, abbr: str, metric: str, value: float) -> dict[str, Any] | None:
    """What rarer things a cell with a value has to say (see :func:`_compact_cell`), ``None`` when nothing."""
    extra: dict[str, Any] = {}
    notes: list[str] = []
    marks = view.marks.get((column, abbr))
    if marks:
        extra["marks"] = [m.to_json() for m in marks]
        notes.extend(f"* {_mark_text(m)}" for m in extra["marks"])
    gold_reason = view.gold_references.get((column, abbr))
    if gold_reason is not None:
        extra["gold"] = True
        notes.append(f"references from the prediction files' gold: {gold_reason}")
    audit = view.audits.get(column, {}).get(abbr)
    note = audit_note(audit, metric, value)
    if note and audit is not None:
        notes.append(note)
        if audit.error is not None or audit.differ:  # a cell the correction would change
            extra["audit"] = note
            extra["audit_differ"] = bool(audit.differ)
    tool_audit = getattr(view, "tool_audits", {}).get(column, {}).get(abbr)
    if tool_audit is not None:  # another tool's own extraction of the replies assay scored again
        said = tool_audit.note(metric, value)
        notes.append(said)
        if tool_audit.record.error is not None or tool_audit.record.differ:  # a cell the tool's reading would change
            extra["tool_audit"] = said
            extra["tool_audit_name"] = f"{tool_audit.tool} {tool_audit.extraction}"
            extra["tool_audit_differ"] = bool(tool_audit.record.differ)
    source = getattr(view, "sources", {}).get((column, abbr))
    if source is not None:
        extra["source"] = source_label(source)
        notes.append(source_note(source, metric))
    usage = getattr(view, "judge_usage", {}).get((column, abbr))
    if usage is not None:
        extra["judge"] = judge_line(usage)
        notes.append("judge: " + extra["judge"])
    if notes:
        extra["notes"] = notes
    return extra or None


def cell_notes(data: dict[str, Any], row: int, column: int) -> list[str]:
    """The sentences of one cell of the full table beyond its value and interval: its unscorable counts,
    the range were they all wrong … right, its marks, gold references, extraction audit and judge figures."""
    cell = data["rows"][row]["cells"][column]
    lines = []
    if len(cell) > 5:
        described = data["texts"][cell[6]]
        lines.append(f"unscorable: {described}" if cell[5] else described)
        if len(cell) > 7:
            lines.append(f"if all unscorable were wrong / right: {cell[7]:.2f} / {cell[8]:.2f}")
    extra = data["extras"].get(f"{row}:{column}")
    if extra:
        lines.extend(extra.get("notes", []))
    return lines


def cell_tip(data: dict[str, Any], row: int, column: int) -> str:
    """The text the page shows for one cell of the full table on hover: the value in full, its interval
    and how it was computed (or why there is none), then its notes (:func:`cell_notes`).

    ``row`` indexes ``data["rows"]``, ``column`` ``data["models"]``.
    """
    r = data["rows"][row]
    cell = r["cells"][column]
    texts = data["texts"]
    if cell[0] is None:
        return str(texts[cell[1]])
    lines = [f"{data['models'][column]} · {r['dataset']} · {r['metric']} = {_exact(cell[0])}",
             fill_interval_text(texts[cell[4]], cell), *cell_notes(data, row, column)]
    return "\n".join(lines)


def _top_level(groups: list[Any]) -> list[str]:
    """The groups no other group takes as an input, in their order."""
    inner = {s.abbr for g in groups for s in g.subsets}
    return [g.name for g in groups if g.name not in inner]


def build_report_data(
    run_dir: str | os.PathLike[str],
    summary: Any = None,
    *,
    stats: Any = None,
    max_text: int = SAMPLE_TEXT,
    snapshot: Any = None,
) -> dict[str, Any]:
    """Everything the report shows, as JSON-ready data.

    Args:
        run_dir: the run directory.
        summary: the summarizer's result, a :class:`~assay.summarize.leaderboard.Leaderboard`,
            the parsed summary ``.json``, or ``None`` (the newest ``.json``, else
            the leaderboard of the result files, without groups).
        stats: a :class:`assay.rundir.statistics.RunStats` already computed (default: ``summary.stats``, else computed here).
            Its ``tables`` (or those of ``summary.stats``), when they were read
            with the same folders and ``max_text``, give the sample browser;
            otherwise the results and predictions are read here.
        max_text: longest text kept per sample and field.
        snapshot: the result files as the run index has them (default:
            ``summary.snapshot``, else taken here; see :mod:`assay.rundir.index`).

    Returns:
        ``{"time", "run", "models", "rows", "texts", "extras", "groups", "rank_by", "rankings",
        "datasets", "gold", "incomplete", "heatmaps", "judge", "pairwise"}``.  Each row
        (the full table, OpenCompass's layout) has ``cells``, one per model, in
        the compact form the page holds: ``[value, low, high, se, text]`` or
        ``[None, text]``, the value at full precision as the summary's
        ``.json`` holds it, ``text`` indexing ``"texts"`` (how the interval was
        computed, or why there is no value; see :func:`cell_tip`);
        ``"extras"`` maps ``"<row>:<column>"`` to a cell's unscorable count
        (``u``, ``blo``/``bhi``), ``marks``, ``gold``, ``audit``, ``judge``
        and the sentences (``notes``) the page shows for them.  ``"groups"``
        lists the summary groups with their inputs (each a row of the table,
        or its own cells); ``"rank_by"`` is the leaderboard's default column;
        ``"gold"``, ``"incomplete"`` and ``"judge"`` list the results with
        references from ``gold``, marked values and judge figures (with its
        pairwise line when it has one); ``"pairwise"``: one line per pairwise
        entry of the leaderboard (:func:`pairwise_line`).
    """
    return _report_data(run_dir, summary, stats=stats, max_text=max_text, snapshot=snapshot, samples=True)[0]


@dataclass(repr=False, eq=False)
class _Context(DataclassMethods):
    """What the sample browser's data is read from, when :func:`_report_data` was asked not to read it."""

    root: Path
    columns: list[str]
    abbrs: list[str]
    folders: dict[str, str]
    audits: Any
    snapshot: Any
    tables: Any
    view: Any = None
    stats: Any = None
    config: Any = None
    ranks: bool = False
    tool_audits: Any = None
    #: rank the datasets too (else only the top-level summary groups, or the default column)
    rank_datasets: bool = True
    #: the run index's samples of the results, as looked up for the report (:func:`_indexed_samples`): the
    #: rankings read their per-sample values there instead of looking each result up again
    held: Any = None


def _rankings(root: Path, view: Any, stats: Any, config: Any, snapshot: Any,
              models: list[str], datasets: bool = True, held: Any = None) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The rank intervals of every column the leaderboard can rank by and the top models' paired comparisons
    (:func:`assay.rundir.ranking.run_ranking`) as the page holds them, and the pictures drawn from them;
    ``(None, {})`` when they cannot be computed.  Without ``datasets``, only the top-level summary groups
    (else the default column) are ranked.  ``held``: the run index's samples already looked up
    (:func:`assay.rundir.ranking.sample_values_of`).

    Each ranking keeps its settings, note and ties, and per model (in the
    page's model order) ``[rank, rank_low, rank_high, tier]`` or ``None``
    (not ranked); values and intervals are the cells' own.  The pictures
    (:mod:`assay.report._pictures`): a forest plot of every top-level group
    and of the default column (``"forest"``: abbr → SVG), the dataset × model
    heatmap in the default column's order and the paired comparison matrix.
    """
    try:
        return _ranking_data(root, view, stats, config, snapshot, models, datasets, held)
    except Exception as exc:  # the report is written without rank intervals, and says so
        logger.warning("report: no rank intervals: %s: %s", type(exc).__name__, exc)
        return None, {}


def _ranking_data(root: Path, view: Any, stats: Any, config: Any, snapshot: Any,
                  models: list[str], datasets: bool, held: Any = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """:func:`_rankings`, raising what :func:`assay.rundir.ranking.run_ranking` raises."""
    from assay.report._pictures import forest_plot, pair_matrix, ranking_heatmap
    from assay.rundir.ranking import run_ranking

    found = run_ranking(root, view, stats, config=config, snapshot=snapshot, datasets=datasets, held=held,
                        **_rank_settings())
    where = {m: i for i, m in enumerate(models)}
    out: dict[str, Any] = {}
    for abbr, ranking in found["rankings"].items():
        per: list[list[int] | None] = [None] * len(models)
        for entry in ranking["models"]:
            i = where.get(entry["model"])
            if i is not None and entry.get("rank_low") is not None:
                per[i] = [entry["rank"], entry["rank_low"], entry["rank_high"], entry["tier"]]
        out[abbr] = {k: ranking[k] for k in ("metric", "kind", "rounds", "seed", "confidence", "ties", "note") if k in ranking}
        out[abbr]["ranks"] = per
    pictures: dict[str, Any] = {"forest": {}}
    try:
        for i, (abbr, ranking) in enumerate(found["rankings"].items()):
            if ranking.get("kind") == "group" or abbr == found["default"]:
                pictures["forest"][abbr] = forest_plot(ranking, abbr, ident=f"forest-{i}")
        if any(r.get("kind", "dataset") == "dataset" for r in found["rankings"].values()):
            pictures["heatmap"] = ranking_heatmap(found, ident="heatmap")
        if found.get("pairs"):
            pictures["pairs"] = pair_matrix(found["pairs"], ident="pairs")
    except Exception as exc:  # the tables stand without the pictures
        logger.warning("report: pictures not drawn: %s: %s", type(exc).__name__, exc)
    return {"default": found["default"], "rankings": out, "pairs": found["pairs"]}, pictures


def _rank_settings() -> dict[str, Any]:
    """The bootstrap's settings the report's rankings are computed with (part of their key, :func:`_rankings_key`)."""
    from assay.stats import DEFAULT_ROUNDS, DEFAULT_SEED

    return {"rounds": DEFAULT_ROUNDS, "seed": DEFAULT_SEED, "confidence": 0.95, "top": 10}


#: The rank intervals of every column are computed by default for runs of at most this many (model, dataset)
#: results; a larger run ranks by default only its top-level summary groups (without groups, the default
#: column), resampling every dataset for them.
RANK_LIMIT = 5_000


def _report_data(
    run_dir: str | os.PathLike[str], summary: Any, *, stats: Any, max_text: int, snapshot: Any, samples: bool,
    ranks: bool | None = None, defer_ranks: bool = False,
) -> tuple[dict[str, Any], _Context]:
    """:func:`build_report_data`; without ``samples`` the sample browser's data is left to the caller
    (``"datasets"`` empty; sample tables the statistics already hold are in the context).  ``ranks``:
    compute the rankings of every column (default: up to :data:`RANK_LIMIT` results, and only the top-level
    summary groups' above it; the context's ``ranks`` and ``rank_datasets`` say what was decided); with
    ``defer_ranks`` they are left to the caller (:func:`_add_rankings`)."""
    context = _report_context(run_dir, summary, stats=stats, max_text=max_text, snapshot=snapshot, samples=samples,
                              ranks=ranks)
    data = _page_data(context, samples=samples, max_text=max_text)
    if context.ranks and not defer_ranks:
        _add_rankings(data, context)
    return data, context


def _report_context(
    run_dir: str | os.PathLike[str], summary: Any, *, stats: Any, max_text: int, snapshot: Any, samples: bool,
    ranks: bool | None, stats_later: bool = False,
) -> _Context:
    """What the report is made from (see :func:`_report_data`): the leaderboard, the run's config, the statistics
    (computed here when neither given nor the summary's), the snapshot, the sample tables the statistics hold,
    and what is ranked.  With ``stats_later``, the statistics and their sample tables are left out, for
    :func:`_take_stats` to put in."""
    from assay.rundir.statistics import load_run_config, model_dirs_of
    from assay.summarize import leaderboard_of

    root = Path(run_dir)
    view = leaderboard_of(summary, root)
    config = load_run_config(root)
    folders = model_dirs_of(config, view.models)
    columns = view.models
    if snapshot is None:
        snapshot = getattr(summary, "snapshot", None)
    context = _Context(root, list(columns), list(view.dataset_abbrs), {c: folders.get(c, c) for c in columns},
                       view.audits, snapshot, None, view, None, config, tool_audits=getattr(view, "tool_audits", None))
    context.ranks = ranks is not False
    context.rank_datasets = bool(ranks) or len(columns) * len(view.dataset_abbrs) <= RANK_LIMIT
    if stats_later:
        if context.snapshot is None:
            from assay.rundir.statistics import index_snapshot

            context.snapshot = index_snapshot(root)
    else:
        _take_stats(context, summary, stats, max_text=max_text, samples=samples)
    return context


def _take_stats(context: _Context, summary: Any, stats: Any, *, max_text: int, samples: bool) -> None:
    """Put the statistics into the context (see :func:`_report_context`): ``stats``, else the summary's, else
    computed here; the sample tables of the statistics given or the summary's when they cover the report (with
    ``samples``, read here when none do)."""
    from assay.rundir.statistics import run_stats, sample_tables

    root, view, columns, folders = context.root, context.view, context.columns, context.folders
    # the sample columns read with the statistics (by the summarizer or the caller) when they fit
    tables = None
    for holder in (stats, getattr(summary, "stats", None)):
        found = getattr(holder, "tables", None)
        if found is not None and found.covers(columns, view.dataset_abbrs, folders, max_text):
            tables = found
            break
    if stats is None:
        stats = getattr(summary, "stats", None)  # what the summarizer computed, when it did
    snapshot = context.snapshot
    if snapshot is None and (stats is None or (tables is None and samples)):
        from assay.rundir.statistics import index_snapshot

        snapshot = context.snapshot = index_snapshot(root)
    if stats is None:
        want = max_text if tables is None and samples else None
        stats = run_stats(root, view, config=context.config, sample_text=want, snapshot=snapshot)
        tables = tables or stats.tables
    if tables is None and samples:
        tables = sample_tables(root, columns, view.dataset_abbrs, folders, max_text, snapshot=snapshot)
    context.stats, context.tables = stats, tables


def _page_data(context: _Context, *, samples: bool, max_text: int) -> dict[str, Any]:
    """The page's data (see :func:`build_report_data`), without the rankings; the sample browser's only with
    ``samples`` (from the context's sample tables)."""
    from assay.stats import group_plan

    root, view, stats, config, tables, columns = (context.root, context.view, context.stats, context.config,
                                                  context.tables, context.columns)
    texts = _Texts()
    extras: dict[str, dict[str, Any]] = {}
    rows = []
    where: dict[tuple[str, str], int] = {}
    for r, row in enumerate(view.metric_rows()):
        abbr, metric = row.dataset, row.metric or ""
        fast = _table_cells(view, stats, texts, columns, abbr, metric, row.values, r, extras) if abbr else None
        cells = fast if fast is not None else []
        for c, column in enumerate(columns if fast is None else ()):
            value = row.values.get(column)
            missing = None
            if value is None:
                missing = row.missing.get(column) or view.missing_reason(column, abbr)
                if row.placeholder or not abbr:
                    missing = missing or "separator or unknown row"
            cell, extra = _compact_cell(view, stats, texts, column, abbr, metric, value, missing)
            cells.append(cell)
            if extra is not None:
                extras[f"{r}:{c}"] = extra
        if abbr and not row.placeholder:
            where.setdefault((abbr, metric), r)
        rows.append({"dataset": abbr, "version": row.version, "metric": metric,
                     "mode": row.mode, "cells": cells, "placeholder": row.placeholder})

    def series(abbr: str, metric: str | None) -> dict[str, Any]:
        """One input of a group: its row of the table, else its own cells."""
        out: dict[str, Any] = {"dataset": abbr, "metric": metric or ""}
        found = where.get((abbr, metric or ""))
        if found is not None:
            out["row"] = found
            return out
        cells = []
        for column in columns:
            value = view.scores.get(column, {}).get(abbr, {}).get(metric) if metric else None
            cells.append(_compact_cell(view, stats, texts, column, abbr, metric or "", value,
                                       view.missing_reason(column, abbr))[0])
        out["cells"] = cells
        return out

    groups_out = []
    try:
        groups = view.summary_groups(config)
    except Exception as exc:  # an invalid group config: no group columns
        logger.warning("report: group definitions unusable: %s", exc)
        groups = []
    top = set(_top_level(groups))
    for group in groups:
        if group.name not in view.groups:
            continue
        plan = group_plan(group, view.metrics)
        inputs = plan.get(group.metric, [])
        groups_out.append({"name": group.name, "metric": group.metric, "aggregation": group.aggregation,
                           "top": group.name in top, **series(group.name, group.metric),
                           "inputs": [series(a, m) for a, m in inputs if m is not None]})
    tops = [g for g in groups_out if g["top"]]
    rank_by: dict[str, Any] | None
    if tops:
        rank_by = {"dataset": tops[-1]["name"], "metric": tops[-1]["metric"]}
    else:
        first = next((r for r in rows if r["dataset"] and not r["placeholder"]), None)
        rank_by = {"dataset": first["dataset"], "metric": first["metric"]} if first else None

    datasets = []
    if samples and tables is not None:
        for abbr in view.dataset_abbrs:
            table = sample_table(tables, columns, abbr, view.audits, max_text, getattr(view, "tool_audits", None))
            if table is not None:
                datasets.append(table)
    heatmaps = needle_heatmaps(view, stats)
    gold = [{"model": c, "dataset": a, "reason": r} for (c, a), r in view.gold_references.items()]
    marked = [{"model": c, "dataset": a, **m.to_json()} for (c, a), ms in view.marks.items()
              if view.scores.get(c, {}).get(a) for m in ms]
    pairwise = [{"model": e.get("model"), "dataset": e.get("dataset"), "judge": e.get("judge"), "line": pairwise_line(e)}
                for e in (getattr(view, "pairwise", None) or {}).get("entries") or [] if isinstance(e, dict)]
    lines = {(p["model"], p["dataset"]): p["line"] for p in pairwise}
    judge = [{"model": c, "dataset": a, "line": judge_line(u) + (f"; {lines[(c, a)]}" if (c, a) in lines else "")}
             for (c, a), u in getattr(view, "judge_usage", {}).items()]
    data = {"time": view.time, "run": root.resolve().name, "models": columns, "rows": rows, "texts": texts.items,
            "extras": extras, "groups": groups_out, "rank_by": rank_by, "rankings": None, "pictures": {},
            "datasets": datasets,
            "gold": gold, "incomplete": marked, "heatmaps": heatmaps, "judge": judge, "pairwise": pairwise}
    return data


def _add_rankings(data: dict[str, Any], context: _Context, beside: Any = None) -> None:
    """Put the run's rankings and their pictures into ``data``; the default column is then the ranking's.

    ``beside``: the child process computing them (:func:`_rankings_beside`), else they are computed here.
    """
    got: tuple[bool, Any] = beside.wait() if beside is not None else (False, None)
    if got[0] and got[1][0] == "done":
        rankings, pictures = got[1][1], got[1][2]
    elif got[0]:  # failed there: the report is written without rank intervals, and says so
        logger.warning("report: no rank intervals: %s", got[1][1])
        rankings, pictures = None, {}
    else:
        rankings, pictures = _rankings(context.root, context.view, context.stats, context.config, context.snapshot,
                                       context.columns, context.rank_datasets, context.held)
    _put_rankings(data, rankings, pictures)


def _indexed_samples(
    snap: Any, rels: dict[tuple[str, str], str], digests: dict[tuple[str, str], str | None], text_limit: int,
    scores: Mapping[str, Mapping[str, Any]] | None = None, ranked_cells: Callable[[], set[tuple[str, str]]] | None = None,
) -> tuple[dict[tuple[str, str], bytes], bool, dict[str, tuple[str, str, bytes]]]:
    """What the run index holds of the results' samples (``rels``: (column, abbr) → the result file under
    ``results/``, whose present bytes have ``digests``), looked up once for both readers of them: the
    sample browser's (``(column, abbr)`` → data, of the samples computed with ``text_limit`` by this version's
    rules), whether every result of the report the rankings read has its per-sample values there (reading them
    there is then all the rankings do), and what was found (as :meth:`~assay.rundir.index.Snapshot.current_samples`
    gives it: the rankings read their per-sample values from it).  The index's samples are read here, once, before a
    child that ranks is forked.

    ``scores``: the summary's values, column → abbr → metric → value (``None``: every result counts).  The rankings
    read the per-sample values of a result only for its values there (:func:`assay.rundir.ranking.sample_values_of`),
    and of those only the ones of the cells they rank (``ranked_cells()``, asked for once and only when needed:
    :func:`assay.rundir.ranking.ranked_cells`; ``None``: any metric): a result without any — a failed task's error
    record, a file that cannot be read, values of other metrics only — is not read by them, and whether the index
    holds its samples does not matter to them."""
    from assay.rundir.stats_index import samples_current

    readable: dict[str, tuple[bool, bool]] = {}  # per settings text met: (values readable, columns readable)
    found: dict[tuple[str, str], bytes] = {}
    every = True
    looked_up: dict[str, tuple[str, str, bytes]] = {}
    table = snap.all_samples().get
    empty: Mapping[str, Any] = {}

    metrics: list[dict[str, set[str]] | None] = []  # abbr → the metrics ranked, once asked for

    def ranked_metrics() -> dict[str, set[str]] | None:
        if not metrics:
            try:
                cells = ranked_cells() if ranked_cells is not None else None
            except Exception:  # the rankings will say what fails: any metric counts meanwhile
                cells = None
            by_abbr: dict[str, set[str]] = {}
            for abbr, metric in cells or ():
                by_abbr.setdefault(abbr, set()).add(metric)
            metrics.append(by_abbr if cells is not None else None)
        return metrics[0]

    def ranked(key: tuple[str, str]) -> bool:  # whether the rankings may read the result's per-sample values
        if scores is None:
            return True
        cell = scores.get(key[0], empty).get(key[1])
        if cell is None or all(v is None for v in cell.values()):
            return False
        wanted = ranked_metrics()
        return wanted is None or any(cell.get(m) is not None for m in wanted.get(key[1], ()))

    for key, rel in rels.items():
        held = table(rel)
        digest = digests.get(key)
        if held is None or held[0] != digest:  # none, or computed from other bytes than the file's present ones
            if digest and every and ranked(key):  # a result the index lacks the samples of (not one without a file)
                every = False
            continue
        looked_up[rel] = held
        settings = held[1]
        ok = readable.get(settings)
        if ok is None:
            ok = readable[settings] = (samples_current(settings), samples_current(settings, text_limit))
        if not ok[0] and every and ranked(key):
            every = False
        if ok[1]:
            found[key] = held[2]
    return found, every, looked_up


def _rankings_beside(context: _Context, stats_later: Callable[[], Any] | None = None) -> Any:
    """The rankings and pictures (:func:`_rankings`) being computed in a forked child process while the report
    reads its samples (:class:`assay._beside.Beside`; ``None`` when it cannot start: then :func:`_add_rankings`
    computes them).  ``stats_later``: the statistics are not in the context yet; the child calls it for them
    when it first needs them."""
    from assay._beside import Beside

    def compute() -> tuple[str, Any, Any]:
        try:
            stats = context.stats if stats_later is None else stats_later
            return ("done", *_ranking_data(context.root, context.view, stats, context.config, context.snapshot,
                                           context.columns, context.rank_datasets, context.held))
        except Exception as exc:
            return "failed", f"{type(exc).__name__}: {exc}", None

    return Beside.start(compute, "the report's rank intervals")


def _put_rankings(data: dict[str, Any], rankings: dict[str, Any] | None, pictures: dict[str, Any]) -> None:
    """Put rankings and their pictures (:func:`_rankings`) into ``data``; the default column is then the ranking's."""
    data["rankings"], data["pictures"] = rankings, pictures
    if rankings is not None and rankings.get("default") and data["rank_by"] is not None:
        found = rankings["rankings"].get(rankings["default"])
        if found is not None:
            data["rank_by"] = {"dataset": rankings["default"], "metric": found["metric"]}


#: The layout of the rankings kept beside a report, and of what their key is made of (bumped when either
#: changes, or how rankings are computed: rankings of another layout are not reused).
RANKINGS_FORMAT = 2


def _rankings_key(context: _Context, digests: dict[tuple[str, str], str | None]) -> str:
    """What a report's rankings and their pictures are computed from, as a digest: this version of assay, the
    bootstrap's settings (rounds, seed, confidence, how many models are compared two by two), which columns are
    ranked (whether the datasets are; every column that can be ranked, in the page's order — the summary's rows
    decide it —, and the default column, which the comparisons are of), the models and their folders, the digest
    of every result's bytes (the per-sample values and the cells' intervals are computed from them), the summary's
    values, metrics and missing values, and the summary groups."""
    import hashlib

    import orjson

    from assay import __version__
    from assay.rundir.ranking import ranked_columns

    view = context.view
    try:
        _, columns, default = ranked_columns(view, context.config)
        ranked: Any = [list(columns.items()), default]
    except Exception as exc:  # the rankings fail the same way: the report is written without them
        ranked = repr(exc)
    config = context.config or {}
    summarizer = config.get("summarizer") if isinstance(config, Mapping) else None
    definitions = getattr(view, "group_definitions", None) or (
        summarizer.get("summary_groups") if isinstance(summarizer, Mapping) else None)
    missing = [[r.dataset, r.metric, r.missing] for r in getattr(view, "rows", None) or [] if r.missing]
    errors = [[str(e.model), str(e.dataset), str(e.message)] for e in getattr(view, "errors", None) or []]
    parts = [RANKINGS_FORMAT, __version__, _rank_settings(), context.rank_datasets, ranked, context.columns,
             context.folders,
             [digests.get((c, a)) for c in context.columns for a in context.abbrs], context.abbrs,
             view.scores, view.metrics, list(view.groups), definitions, missing, errors]
    # a definition orjson cannot write (a transform given as a function) is written by its repr, which names
    # the function's address: a key no later process meets, so that such rankings are always computed again
    dumped = orjson.dumps(parts, default=repr, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY)
    return hashlib.sha256(dumped).hexdigest()[:32]


def _rankings_file(key: str) -> str:
    """The name of a report's kept rankings in its sample folder."""
    return f"rankings_{key}.json"


def _earlier_rankings(summary_dir: Path, key: str) -> tuple[dict[str, Any], Path] | None:
    """The rankings and pictures (:func:`_rankings`) an earlier report of the run kept under ``key`` in its sample
    folder, and their file; ``None`` when none did (or its file is unreadable)."""
    import orjson

    for path in sorted(summary_dir.glob(f"summary_*_files/{_rankings_file(key)}"), reverse=True):
        try:
            held = orjson.loads(path.read_bytes())
        except (OSError, ValueError):
            continue
        if isinstance(held, dict) and held.get("format") == RANKINGS_FORMAT and "rankings" in held and "pictures" in held:
            return held, path
    return None


def _keep_rankings(target: Path, data: dict[str, Any], earlier: tuple[dict[str, Any], Path] | None) -> None:
    """Keep the report's rankings and pictures in its sample folder (an earlier report's file linked)."""
    import shutil

    import orjson

    if earlier is not None:
        try:
            os.link(earlier[1], target)
            return
        except OSError:
            with contextlib.suppress(OSError):
                shutil.copyfile(earlier[1], target)
                return
    target.write_bytes(orjson.dumps({"format": RANKINGS_FORMAT, "rankings": data["rankings"],
                                     "pictures": data["pictures"]}))


def needle_heatmaps(view: Any, stats: Any) -> list[dict[str, Any]]:
    """NeedleBench's depth × length grids of the leaderboard's datasets: one per model and kind.

    The depth and length of each cell are read from the dataset abbrs (see
    :mod:`assay.summarize.needle_grid`), the value from the leaderboard's
    scores; each cell has ``v`` (``None``: no value), ``lo``/``hi`` when its
    result has an interval, and ``tip``: model, kind, depth, length, the value
    in full, its interval or why it has none, the result it came from.
    """
    from assay.summarize.needle_grid import needle_grids

    out = []
    for grid in needle_grids(view.scores, view.dataset_abbrs, view.models):
        rows = []
        for i, depth in enumerate(grid.depths):
            cells = []
            for j, length in enumerate(grid.lengths):
                value = grid.matrix[i][j]
                where = f"{grid.model} · {grid.label} · depth {depth:g}% · length {length:,}"
                cell: dict[str, Any] = {"v": value}
                if value is None:
                    cell["tip"] = f"{where}: no value"
                    cells.append(cell)
                    continue
                abbr, metric = grid.cells[(depth, length)]
                tip = [f"{where} = {_exact(value)}"]
                stat = stats.cell(grid.model, abbr, metric) if stats is not None else None
                if stat is not None and stat.has_interval:
                    cell["lo"], cell["hi"] = stat.low, stat.high
                    tip.append(f"95% interval [{stat.low:.2f}, {stat.high:.2f}]: {stat.describe()}")
                else:
                    tip.append("no interval: no statistics for this cell")
                tip.append(f"from {abbr} · {metric}")
                cell["tip"] = "\n".join(tip)
                cells.append(cell)
            rows.append(cells)
        out.append({"model": grid.model, "kind": grid.kind, "label": grid.label, "depths": grid.depths,
                    "lengths": grid.lengths, "overall": grid.overall, "cells": rows})
    return out


def _exact(value: float) -> str:
    """A value as the summary ``.json`` holds it: every digit, the shortest text that reads back the same.

    >>> _exact(64.16666666666667), _exact(50), _exact(92.5)
    ('64.16666666666667', '50.0', '92.5')
    """
    return repr(float(value))


def source_label(source: dict[str, Any]) -> str:
    """The badge of a value another tool computed: the tool's name; a group's tools joined with ``+``.

    >>> source_label({'tool': 'lm_eval', 'version': '0.4.8'}), source_label({'tools': ['assay', 'lm_eval'], 'mixed': True})
    ('lm_eval', 'assay+lm_eval')
    """
    if "tool" in source:
        return str(source["tool"])
    return "+".join(str(t) for t in source.get("tools") or [])


def source_note(source: dict[str, Any], metric: str) -> str:
    """The sentence of a value another tool computed: the tool, its version, the files, and the tool's own
    value of ``metric`` with the factor assay shows it with.

    >>> source_note({'tool': 'lm_eval', 'version': '0.4.8', 'files': ['out/results.json'],
    ...              'metrics': {'acc,none': 0.625}, 'scale': {'acc,none': 100.0}}, 'acc,none')
    "from lm_eval 0.4.8: out/results.json; lm_eval's value 0.625, shown × 100 (in percent)"
    >>> source_note({'tools': ['assay', 'lm_eval'], 'mixed': True, 'from': {'a': 'assay', 'b': 'lm_eval'}}, 'avg')
    'from several sources: a (assay), b (lm_eval)'
    """
    if "tool" not in source:
        leaves = ", ".join(f"{leaf} ({tool})" for leaf, tool in (source.get("from") or {}).items())
        if source.get("mixed"):
            return f"from several sources: {leaves}"
        return f"from {source_label(source)}: {leaves}"
    tool = str(source["tool"])
    text = f"from {tool} {source.get('version') or ''}".rstrip()
    files = source.get("files") or []
    if files:
        text += ": " + ", ".join(str(f) for f in files)
    value = (source.get("metrics") or {}).get(metric)
    if value is not None:
        scale = (source.get("scale") or {}).get(metric, 1.0)
        text += f"; {tool}'s value {value!r}" + (" (shown as is)" if scale == 1 else
                                                 f", shown × {scale:g}" + (" (in percent)" if scale == 100 else ""))
    return text


def _mark_text(mark: dict[str, Any]) -> str:
    """One mark as the report says it: ``'unjudged: 12 samples — 12 of 23 judge requests failed'``.

    >>> _mark_text({'kind': 'unjudged', 'count': 12, 'detail': '12 of 23 judge requests failed'})
    'unjudged: 12 samples — 12 of 23 judge requests failed'
    >>> _mark_text({'kind': 'changed', 'count': None, 'detail': 'edited'})
    'changed — edited'
    """
    count = mark.get("count")
    text = str(mark.get("kind") or "incomplete")
    if isinstance(count, int) and not isinstance(count, bool):
        text += f": {count:,} sample{'' if count == 1 else 's'}"
    detail = mark.get("detail")
    return f"{text} — {detail}" if detail else text


def _asset(name: str) -> str:
    return resources.files("assay.report").joinpath(name).read_text(encoding="utf-8")


def _marks_note(marked: list[dict[str, Any]]) -> list[str]:
    """The note listing every marked value: model, dataset, kind, samples affected, why."""
    if not marked:
        return []
    esc = html.escape
    items = "".join(f"<li>{esc(str(m['model']))} / {esc(str(m['dataset']))}: {esc(_mark_text(m))}</li>" for m in marked)
    return [
        '<div class="note marks-note" id="incomplete"><p>* Values computed from fewer samples than they claim, with '
        f"samples that could not be scored, from a result changed after it was computed, or from a result a failed run "
        f"did not re-score:</p><ul>{items}</ul></div>"
    ]


def _judge_note(judge: list[dict[str, Any]]) -> list[str]:
    """The note with one line per judged result: calls, cache hits, failures, tokens, time and cost."""
    if not judge:
        return []
    esc = html.escape
    items = "".join(f"<li>{esc(str(j['model']))} / {esc(str(j['dataset']))}: {esc(str(j['line']))}</li>" for j in judge)
    return [
        '<div class="note judge-note" id="judge-usage"><p>LLM judge calls of this run\'s results (cached replies '
        f"were paid for by an earlier run; unknown tokens or cost are shown as such):</p><ul>{items}</ul></div>"
    ]


def pairwise_line(entry: dict[str, Any]) -> str:
    """One pairwise result as the report says it: win rate and interval, Elo, position bias, unparsed replies.

    >>> pairwise_line({'base': 'gpt4-0314', 'win_rate': 61.5, 'win_rate_interval': [52.25, 70.0], 'samples': 48,
    ...                'unparsed': 2, 'position_bias': {'pairs': 20, 'flipped': 3, 'rate': 0.15}})
    'win rate 61.50 [52.25, 70.00] against gpt4-0314; position bias: 3 of 20 questions flip when the answers swap (15.0%); 2 of 48 judge replies unparsed'
    """
    parts = []
    rate, interval = entry.get("win_rate"), entry.get("win_rate_interval")
    if isinstance(rate, (int, float)):
        text = f"win rate {rate:.2f}"
        if isinstance(interval, list) and len(interval) == 2:
            text += f" [{interval[0]:.2f}, {interval[1]:.2f}]"
        parts.append(f"{text} against {entry.get('base')}")
    elo, elo_interval = entry.get("elo"), entry.get("elo_interval")
    if isinstance(elo, (int, float)):
        text = f"Elo {elo:.1f}"
        if isinstance(elo_interval, list) and len(elo_interval) == 2:
            text += f" [{elo_interval[0]:.1f}, {elo_interval[1]:.1f}]"
        parts.append(text)
    bias = entry.get("position_bias")
    if isinstance(bias, dict) and bias.get("pairs"):
        parts.append(f"position bias: {bias.get('flipped')} of {bias.get('pairs')} questions flip when the answers swap "
                     f"({100 * float(bias.get('rate') or 0):.1f}%)")
    parts.append(f"{entry.get('unparsed', 0)} of {entry.get('samples', 0)} judge replies unparsed")
    return "; ".join(parts)


def _pairwise_note(pairwise: list[dict[str, Any]]) -> list[str]:
    """The note with one line per pairwise judged model: its win rate's interval, position bias, unparsed replies."""
    if not pairwise:
        return []
    esc = html.escape
    items = "".join(
        f"<li>{esc(str(p['model']))} / {esc(str(p['dataset']))} (judge {esc(str(p['judge']))}): {esc(str(p['line']))}</li>"
        for p in pairwise
    )
    return [
        '<div class="note pairwise-note" id="pairwise"><p>Pairwise judgements (assay\'s statistics beside the official '
        f"numbers; seeded bootstrap intervals):</p><ul>{items}</ul></div>"
    ]


def _gold_note(gold: list[dict[str, Any]]) -> list[str]:
    """The note naming the results whose references came from the prediction files' ``gold``."""
    if not gold:
        return []
    esc = html.escape
    items = "".join(f"<li>{esc(g['model'])} / {esc(g['dataset'])}: {esc(g['reason'])}</li>" for g in gold)
    return [
        '<div class="note gold-note" id="gold-references"><p>ᵍ References taken from the prediction files\' '
        f"<code>gold</code> field (the test set was not read):</p><ul>{items}</ul></div>"
    ]


def _group_cells(data: dict[str, Any], entry: dict[str, Any]) -> list[list[Any]]:
    """The cells of a group or a group's input: its row's, else its own."""
    return data["rows"][entry["row"]]["cells"] if "row" in entry else entry["cells"]


#: Bar charts of the groups are drawn for runs of at most this many models.
CHART_MODELS = 12


def _chart_svg(group: dict[str, Any], data: dict[str, Any]) -> str:
    """A group's bar chart: the group and each of its inputs, one bar per model with its interval."""
    models = data["models"]
    cats = [(f"{group['name']} ({group['metric']})", _group_cells(data, group))]
    cats += [(f"{i['dataset']} · {i['metric']}", _group_cells(data, i)) for i in group["inputs"]]
    values = [c[2] if c[0] is not None and c[2] is not None else c[0] for _, cells in cats for c in cells if c[0] is not None]
    lows = [c[1] if c[1] is not None else c[0] for _, cells in cats for c in cells if c[0] is not None]
    if not values:
        return '<p class="note">no values</p>'
    top = max(max(values), 0.0)
    bottom = min(min(lows), 0.0)
    span = (top - bottom) or 1.0
    labels = [label[:40] for label, _ in cats]
    # room for the longest label, drawn at 40 degrees down to the left of its bars (10 px font: ~5.6 px a letter)
    longest = 5.6 * max(len(t) for t in labels)
    label_h = 16 + round(longest * 0.643)
    bar, gap, height, pad_top = 16, 14, 180, 10
    left = max(40, round(longest * 0.766) - len(models) * bar // 2 + 8)
    width = left + len(cats) * (len(models) * bar + gap) + 10
    y = lambda v: pad_top + (top - v) / span * height  # noqa: E731
    out = [f'<svg width="{width}" height="{pad_top + height + label_h}" viewBox="0 0 {width} {pad_top + height + label_h}" '
           f'role="img" aria-label="{html.escape(group["name"])}">']
    for k in range(5):
        t = bottom + span * k / 4
        out.append(f'<line x1="{left}" x2="{width}" y1="{y(t):.1f}" y2="{y(t):.1f}" stroke="#eaeef2"/>'
                   f'<text x="{left - 4}" y="{y(t) + 4:.1f}" font-size="10" text-anchor="end">{t:.0f}</text>')
    x = left + gap / 2
    for (label, cells), short in zip(cats, labels):
        for m, c in enumerate(cells):
            v = c[0]
            color = _PALETTE[m % len(_PALETTE)]
            if v is not None:
                has_ci = c[1] is not None
                y0, y1 = y(max(v, 0.0)), y(min(v, 0.0))
                tip = f"{models[m]}: {v:.2f}" + (f" [{c[1]:.2f}, {c[2]:.2f}]" if has_ci else " (no interval)")
                out.append(f'<rect x="{x:.1f}" y="{y0:.1f}" width="{bar - 2}" height="{max(y1 - y0, 0.5):.1f}" '
                           f'fill="{color}" fill-opacity=".75"><title>{html.escape(tip)}</title></rect>')
                if has_ci:
                    cx = x + (bar - 2) / 2
                    out.append(f'<path d="M{cx:.1f} {y(c[1]):.1f}V{y(c[2]):.1f}M{cx - 4:.1f} {y(c[1]):.1f}'
                               f'h8M{cx - 4:.1f} {y(c[2]):.1f}h8" stroke="#1d232a" stroke-width="1.2" fill="none"/>')
            x += bar
        lx = x - len(models) * bar / 2
        ly = pad_top + height + 10
        out.append(f'<text x="{lx:.1f}" y="{ly:.1f}" font-size="10" text-anchor="end" '
                   f'transform="rotate(-40 {lx:.1f} {ly:.1f})"><title>{html.escape(label)}</title>{html.escape(short)}</text>')
        x += gap
    out.append("</svg>")
    return "".join(out)


def _heat_color(value: float) -> str:
    """The background of a heatmap cell: red at 0, yellow at 50, green at 100.

    >>> _heat_color(0), _heat_color(50), _heat_color(100)
    ('#d7263d', '#f2c14e', '#2a9d8f')
    """
    stops = ((0.0, (0xD7, 0x26, 0x3D)), (50.0, (0xF2, 0xC1, 0x4E)), (100.0, (0x2A, 0x9D, 0x8F)))
    v = min(max(value, 0.0), 100.0)
    (a, ca), (b, cb) = (stops[0], stops[1]) if v <= 50.0 else (stops[1], stops[2])
    t = (v - a) / (b - a)
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb))


def _heatmap_html(grid: dict[str, Any]) -> str:
    esc = html.escape
    overall = "-" if grid.get("overall") is None else f"{grid['overall']:.2f}"
    head = "".join(f"<th>{n // 1000}k</th>" if n >= 1000 else f"<th>{n}</th>" for n in grid["lengths"])
    out = [f'<div class="heatmap" data-model="{esc(grid["model"], quote=True)}" data-kind="{esc(grid["kind"], quote=True)}">'
           f'<h3>{esc(grid["model"])} · {esc(grid["label"])} <span class="note">overall {overall}</span></h3>'
           f'<table class="heat"><thead><tr><th>depth % \\ length</th>{head}</tr></thead><tbody>']
    for depth, row in zip(grid["depths"], grid["cells"]):
        tds = []
        for j, cell in enumerate(row):
            tip = esc(cell["tip"], quote=True)
            v = cell.get("v")
            if v is None:
                tds.append(f'<td class="hc miss" title="{tip}">-</td>')
                continue
            ci = f' data-lo="{_exact(cell["lo"])}" data-hi="{_exact(cell["hi"])}"' if "lo" in cell else ""
            tds.append(f'<td class="hc" style="background:{_heat_color(v)}" title="{tip}" data-value="{_exact(v)}" '
                       f'data-length="{grid["lengths"][j]}" data-depth="{depth:g}"{ci}>{v:.0f}</td>')
        out.append(f"<tr><th>{depth:g}</th>{''.join(tds)}</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


#: Sample data of at most this many bytes in all is embedded in the page; more is written beside it,
#: one ``<script>`` file per dataset in ``summary_<time>_files/``, loaded when the dataset is opened.
EMBED_LIMIT = 4_000_000

_BOARD_OPEN = '<script type="application/json" id="assay-board">'


def render_report(data: dict[str, Any]) -> str:
    """The report as one HTML document, its sample data embedded (see :func:`build_report_data` for ``data``)."""
    chunks = [(d["abbr"], d["n"], _payload(d)) for d in data["datasets"]]
    return b"".join(_render_utf8(data, chunks, None)).decode("utf-8")


def _render_utf8(data: dict[str, Any], chunks: list[tuple[str, int, Any]], side: str | None) -> list[bytes]:
    """The page's UTF-8 bytes, in pieces: ``chunks`` (abbr, samples, JSON bytes) embedded, or, with ``side``
    (the folder's name), ``chunks`` (abbr, samples, the name of its file in the folder) left to their files."""
    board = {k: v for k, v in data.items() if k not in ("datasets", "pictures")}
    pictures = data.get("pictures") or {}
    board["has_pictures"] = bool(pictures.get("forest") or pictures.get("heatmap") or pictures.get("pairs")
                                 or (data["groups"] and len(data["models"]) <= CHART_MODELS))
    board["samples"] = [{"abbr": abbr, "n": n, **({"file": held} if side is not None else {})} for abbr, n, held in chunks]
    board["side"] = side
    before = _document({**board, "pictures": pictures})
    out = [p.encode("utf-8", "replace") for p in before]  # a lone surrogate in a config's name is shown as "?"
    out.append(_BOARD_OPEN.encode() + _payload(board) + b"</script>")
    if side is None:
        for i, (_, _, payload) in enumerate(chunks):
            out.append(f'<script type="application/json" id="samples-{i}">'.encode() + payload + b"</script>")
    out.append(f"<script>{_asset('report.js')}</script></body></html>".encode())
    return out


def _document(data: dict[str, Any]) -> list[str]:
    """The lines of the document before its data."""
    models = data["models"]
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>assay report {esc(data.get('time') or data.get('run') or '')}</title>",
        f"<style>{_asset('report.css')}</style></head><body>",
        f"<h1>assay report</h1><div class=\"meta\">run {esc(str(data.get('run', '')))}"
        + (f" · summary {esc(data['time'])}" if data.get("time") else "")
        + f" · {len(models)} models · {len(data['rows'])} rows · {len(data['samples'])} datasets with samples</div>",
        "<noscript><p class=\"note\">This report draws its tables with JavaScript; the summary's .csv, .md and "
        ".txt files beside it hold the same table.</p></noscript>",
        '<nav class="views" aria-label="views"><button type="button" class="view-tab" data-view="board" '
        'aria-pressed="true">Leaderboard</button><button type="button" class="view-tab" data-view="table" '
        'aria-pressed="false">Full table</button>'
        + ('<a href="#pictures">Pictures</a>' if data.get("has_pictures") else "")
        + ('<a href="#samples">Samples</a>' if data["samples"] else "") + "</nav>",
        '<section id="board-view" class="view">',
        '<div class="controls"><label>rank by <select id="rank-by"></select></label>'
        '<label>models <input type="search" id="filter-models" placeholder="filter models"></label>'
        '<label>columns <input type="search" id="filter-columns" placeholder="filter groups and datasets"></label>'
        '<span class="count-note" id="board-count"></span></div>',
        '<p class="note">Models ranked by the chosen column, best first; equal values share a rank (=). Each value has '
        "its 95% interval below it, and its rank interval where one was computed. Click a column's name to sort by it, "
        "▸ to open a group into its datasets. Badges: ⚠ predictions that could not be extracted, judged or executed; "
        "≠ replies the corrected extractor reads differently; ᵍ references from the prediction files' gold; * a value "
        "computed from fewer samples than it claims; ⚖ what the judge calls cost; a tool's name (lm_eval, inspect_ai …) "
        "a value that tool computed, imported from its files (a+b: a group of values from several sources). Hover or focus a badge for its "
        'sentence, click it to keep it open.</p><p class="note" id="rank-note"></p>',
        '<div class="scroll"><table class="board" id="leaderboard"></table></div></section>',
        '<section id="table-view" class="view" hidden>',
        '<div class="controls"><label>datasets <input type="search" id="filter-datasets" placeholder="filter datasets">'
        '</label><label>models <input type="search" id="filter-table-models" placeholder="filter models"></label>'
        '<span class="count-note" id="table-count"></span></div>',
        '<p class="note">The summary\'s table in OpenCompass\'s layout: one row per dataset and metric, one column per '
        "model, each value with its 95% interval; hover a cell for its value in full, how its interval was computed, "
        "or why it is “-”. Click a column's name to sort by it.</p>",
        '<p class="pager" id="table-pager" hidden><button type="button" id="table-prev">‹ prev</button> '
        '<span id="table-page"></span> <button type="button" id="table-next">next ›</button></p>'
        '<div class="scroll"><table class="board" id="full-table"></table></div></section>',
        '<div id="popover" role="status" hidden></div>',
        *_marks_note(data.get("incomplete") or []),
        *_gold_note(data.get("gold") or []),
        *_judge_note(data.get("judge") or []),
        *_pairwise_note(data.get("pairwise") or []),
    ]
    pictures = data.get("pictures") or {}
    if pictures.get("forest") or pictures.get("heatmap") or pictures.get("pairs"):
        parts.append('<h2 id="pictures">Pictures</h2><p class="note">The forest plot of the column the leaderboard '
                     "ranks by (where one is drawn: the top-level groups and the default column), the datasets × "
                     "models heatmap in the ranking's order, and the top models compared two by two. Hover a mark "
                     'for its figures.</p><div class="pictures">')
        default = (data.get("rankings") or {}).get("default")
        for abbr, svg in pictures.get("forest", {}).items():
            hidden = "" if abbr == default else " hidden"
            parts.append(f'<figure class="picture forest" data-abbr="{esc(abbr, quote=True)}"{hidden}>{svg}</figure>')
        for name in ("heatmap", "pairs"):
            if pictures.get(name):
                parts.append(f'<figure class="picture {name}">{pictures[name]}</figure>')
        parts.append("</div>")
    elif data["groups"] and len(models) <= CHART_MODELS:
        legend = "".join(f'<span><i style="background:{_PALETTE[i % len(_PALETTE)]}"></i>{esc(m)}</span>'
                         for i, m in enumerate(models))
        parts.append(f'<h2 id="pictures">Summary groups</h2><div class="legend">{legend}</div><div class="charts">')
        for g in data["groups"]:
            parts.append(f'<div class="chart" data-group="{esc(g["name"])}"><h3>{esc(g["name"])} '
                         f'<span class="note">({esc(g["metric"])}, {esc(g["aggregation"])}; bars: 95% interval)</span>'
                         f"</h3>{_chart_svg(g, data)}</div>")
        parts.append("</div>")
    if data.get("heatmaps"):
        parts.append('<h2 id="needle-heatmaps">NeedleBench: depth × length</h2><p class="note">One grid per model and '
                     "kind of NeedleBench dataset, depth and length read from the dataset names; hover a cell for its "
                     "value in full and its 95% interval.</p><div class=\"heatmaps\">")
        parts.extend(_heatmap_html(g) for g in data["heatmaps"])
        parts.append("</div>")
    if data["samples"]:
        where = ("embedded in this page" if data["side"] is None else
                 f"in the folder {esc(data['side'])}/ beside this page (keep the two together)")
        parts.append('<h2 id="samples">Samples</h2><p class="note">Open a dataset to browse its samples (their data, '
                     f"{where}, is read when a dataset is opened); “right” means correct in at least half of the runs."
                     '</p><p><input type="search" id="filter-samples" placeholder="filter datasets"></p>')
    relations = [("any", "any relation"), ("a_right_b_wrong", "A right, B wrong"), ("a_wrong_b_right", "A wrong, B right"),
                 ("both_right", "both right"), ("both_wrong", "both wrong"), ("a_better", "A scores higher"),
                 ("b_better", "B scores higher"), ("differ", "A and B differ"),
                 ("audit", "A read differently by the corrected extractor"),
                 ("tool", "A read differently by the other tool's own extraction")]
    options = "".join(f'<option value="{v}">{esc(label)}</option>' for v, label in relations)
    for i, ds in enumerate(data["samples"]):
        parts.append(
            f'<details class="ds" data-index="{i}" data-dataset="{esc(ds["abbr"], quote=True)}"><summary>{esc(ds["abbr"])} '
            f'<span class="note">({ds["n"]} samples)</span></summary>'
            '<div class="controls"><label>A <select class="sel-a"></select></label>'
            '<label>B <select class="sel-b"></select></label>'
            f'<select class="sel-rel" aria-label="relation">{options}</select>'
            '<input type="search" class="search" placeholder="search text" aria-label="search text">'
            '<span><b class="count">0</b> matching</span>'
            '<span class="pager"><button type="button" class="prev">‹ prev</button><span class="page-info"></span>'
            '<button type="button" class="next">next ›</button></span></div>'
            '<table class="samples"><thead><tr><th style="width:9em">sample</th><th>reference</th></tr></thead>'
            "<tbody></tbody></table></details>"
        )
    return parts


def write_html_report(
    run_dir: str | os.PathLike[str],
    summary: Any,
    time_str: str,
    *,
    stats: Any = None,
    max_text: int = SAMPLE_TEXT,
    snapshot: Any = None,
    embed: bool | None = None,
    ranks: bool | None = None,
) -> Path:
    """Write ``<run_dir>/summary/summary_<time_str>.html`` (atomically) and return its path.

    ``summary`` is what the summarizer's ``summarize()`` returned, a leaderboard,
    the parsed summary ``.json``, or ``None`` (see :func:`build_report_data`).

    The sample browser's data is read one dataset at a time (in worker
    processes for a large run) and embedded in the page when it is at most
    :data:`EMBED_LIMIT` bytes in all or ``embed`` is true; else (or with
    ``embed`` false) each dataset's goes to a ``<script>`` file in
    ``summary_<time_str>_files/`` beside the page, which loads it when the
    dataset is opened (browsers load those from ``file://`` pages too).  The
    files are named by what they are made of (the models' result digests,
    folders, audits and the text limit; listed in the folder's
    ``manifest.json``): a dataset an earlier report of the run has a file of
    is not read again, its file linked (or copied) into the new folder.

    ``ranks``: compute the rank intervals of every column the leaderboard can
    rank by and the top models' paired comparisons
    (:func:`assay.rundir.ranking.run_ranking`); default: every column for runs
    of at most :data:`RANK_LIMIT` results, only the top-level summary groups
    (every dataset resampled for them) for larger ones; ``False``: none.  The
    rankings and their pictures are kept in the sample folder under a key of
    what they are computed from (:func:`_rankings_key`): a later report of the
    same results and summary takes them from an earlier report's folder.
    """
    return begin_html_report(run_dir, summary, time_str, stats=stats, max_text=max_text, snapshot=snapshot,
                             ranks=ranks).write(embed)


def begin_html_report(
    run_dir: str | os.PathLike[str],
    summary: Any,
    time_str: str,
    *,
    stats: Any = None,
    max_text: int = SAMPLE_TEXT,
    snapshot: Any = None,
    ranks: bool | None = None,
    stats_later: Callable[[], Any] | None = None,
) -> HtmlReport:
    """Begin the report :func:`write_html_report` writes: what it is made from is gathered and the rank intervals
    start in a forked child; :meth:`HtmlReport.write` writes it, :meth:`HtmlReport.discard` gives it up (one of the
    two must follow: the child runs until then).

    ``stats_later``: the statistics are not computed yet; they are given with :meth:`HtmlReport.take_stats`
    before the report is written, and the child ranking meanwhile calls ``stats_later()`` for them only
    when a cell it ranks has no per-sample values (its interval is then the fallback; see
    :func:`assay.rundir.ranking.run_ranking`).

    A command that writes the summary files first begins the report as soon as its leaderboard is built (before
    its statistics and those files), so that the rankings are computed while the statistics, the summary files
    and the page's data are.
    """
    from assay._gc import bulk_allocations

    with bulk_allocations():
        return HtmlReport(run_dir, summary, time_str, stats=stats, max_text=max_text, snapshot=snapshot, ranks=ranks,
                          stats_later=stats_later)


class HtmlReport:
    """A report begun (:func:`begin_html_report`): its context, its path, what earlier reports kept of the same
    results, and the child computing its rankings, if any."""

    def __init__(
        self, run_dir: str | os.PathLike[str], summary: Any, time_str: str, *, stats: Any, max_text: int, snapshot: Any,
        ranks: bool | None, stats_later: Callable[[], Any] | None = None,
    ) -> None:
        from assay.rundir.layout import RunDir

        self.max_text, self.time_str, self.summary = max_text, time_str, summary
        #: the statistics are to be given (:meth:`take_stats`) before the report is written
        self.stats_pending = stats_later is not None
        self.context = context = _report_context(run_dir, summary, stats=stats, max_text=max_text, snapshot=snapshot,
                                                 samples=False, ranks=ranks, stats_later=self.stats_pending)
        self.path = RunDir(Path(run_dir)).summary_stem(time_str).with_suffix(".html")
        snap = context.snapshot
        self.rels = rels = {(c, a): f"{context.folders.get(c, c)}/{a}.json" for c in context.columns for a in context.abbrs}
        self.digests = digests = snap.digests(rels) if snap is not None else dict.fromkeys(rels)
        self.rankings_key = _rankings_key(context, digests) if context.ranks and snap is not None else None
        self.kept_rankings = (_earlier_rankings(self.path.parent, self.rankings_key)
                              if self.rankings_key is not None and self.path.parent.is_dir() else None)
        self.want_ranks = context.ranks and self.kept_rankings is None
        #: the index's samples of every result, when the rankings needed them looked up (see :meth:`_looked_up`)
        self.indexed: dict[tuple[str, str], bytes] | None = None
        self.beside: Any = None
        if snap is not None and self.want_ranks:
            every = self._look_up(rels)
            if every:
                # the rankings computed beside the rest of the report: what the user waits for is the longer of the
                # two (not when the index lacks samples: they are read once, in this process, and kept in the
                # index before ranking)
                self.beside = _rankings_beside(context, stats_later)

    def take_stats(self, stats: Any) -> None:
        """Give the statistics of a report begun without them (``None``: computed here, as
        :func:`write_html_report` computes those it is not given)."""
        _take_stats(self.context, self.summary, stats, max_text=self.max_text, samples=False)
        self.stats_pending = False

    def _look_up(self, rels: dict[tuple[str, str], str]) -> bool:
        """The index's samples of ``rels`` looked up once for the sample browser and the rankings
        (:func:`_indexed_samples`); whether every result the rankings read has its per-sample values there."""
        context = self.context
        view = getattr(context.view, "leaderboard", None) or context.view  # as the rankings read it
        from assay.rundir.ranking import ranked_cells

        self.indexed, every, context.held = _indexed_samples(
            context.snapshot, rels, self.digests, self.max_text, getattr(view, "scores", None),
            lambda: ranked_cells(view, context.config, context.root, datasets=context.rank_datasets))
        return every

    def discard(self) -> None:
        """Stop the child computing the rankings, if it still runs (nothing is written)."""
        beside, self.beside = self.beside, None
        if beside is not None:
            beside.discard()

    def write(self, embed: bool | None = None) -> Path:
        """Write the report (see :func:`write_html_report`) and return its path; the child is ended however
        this ends."""
        from assay._gc import bulk_allocations

        try:
            with bulk_allocations():
                return self._write(embed)
        finally:
            self.discard()

    def _write(self, embed: bool | None) -> Path:
        import shutil
        import tempfile

        import orjson

        from assay.fileio import atomic_write_chunks, hold_folder, release_folder, replace_dir
        from assay.report._samples import (
            CHUNK_FORMAT,
            MANIFEST,
            Source,
            chunk_file,
            chunk_keys,
            chunk_script,
            earlier_chunks,
            from_tables,
            read_chunks,
            script_payload,
        )

        if self.stats_pending:
            raise RuntimeError("the report's statistics were not given (HtmlReport.take_stats)")
        context, path, max_text, rels = self.context, self.path, self.max_text, self.rels
        data = _page_data(context, samples=False, max_text=max_text)
        side_dir = path.with_name(path.stem + "_files")
        snap = context.snapshot
        source = Source(context.root, context.columns, context.abbrs, context.folders, context.audits, self.digests,
                        max_text, tool_audits=context.tool_audits)
        keys = chunk_keys(source, list(dict.fromkeys(context.abbrs)))
        # a dataset whose results are those of an earlier report's sample file: that file, not read again
        earlier = earlier_chunks(path.parent) if path.parent.is_dir() else {}
        reused = {abbr: earlier[key] for abbr, key in keys.items() if key is not None and key in earlier}
        rankings_key, kept_rankings = self.rankings_key, self.kept_rankings
        fresh_abbrs = [a for a in keys if a not in reused]
        want_samples = context.tables is None and bool(fresh_abbrs)
        if snap is not None and want_samples and self.indexed is None:
            wanted = set(fresh_abbrs)
            self._look_up({k: r for k, r in rels.items() if k[1] in wanted})
        if context.tables is not None:
            read = from_tables(context.tables, context.columns, context.abbrs, context.audits, max_text, context.tool_audits)
        else:
            source.abbrs = fresh_abbrs
            source.indexed = self.indexed or {}  # the samples the run index holds
            read = read_chunks(source)
            if snap is not None and source.repairs:  # read from the .stats files: kept in the index for the next report
                for rel, digest, settings, repaired in source.repairs:
                    snap.put_samples(rel, digest, settings, repaired)
                snap.flush()
        fresh_chunks = {abbr: (n, payload) for abbr, n, payload in read}
        # every chunk in the datasets' order: (abbr, samples, its bytes or the earlier file holding them, its key)
        chunks: list[tuple[str, int, bytes | Path, str | None]] = []
        for abbr, key in keys.items():
            if abbr in fresh_chunks:
                chunks.append((abbr, *fresh_chunks[abbr], key))
            elif abbr in reused:
                chunks.append((abbr, reused[abbr][1], reused[abbr][0], key))
        size = sum(len(c[2]) if isinstance(c[2], bytes) else c[2].stat().st_size for c in chunks)
        if embed is None:
            embed = size <= EMBED_LIMIT
        embedded: list[tuple[str, int, bytes]] = []
        named: list[tuple[str, int, str]] = []
        fresh: Path | None = None
        mark: tuple[int, str] | None = None
        try:
            # the sample files first: written while the child computing the rankings, if any, finishes
            if embed:
                for abbr, n, held, key in chunks:
                    payload = held if isinstance(held, bytes) else script_payload(str(key), held.read_bytes())
                    if payload is None:  # an earlier file not as expected: read again
                        found = read_chunks(Source(source.root, source.columns, [abbr], source.folders, source.audits,
                                                   source.digests, max_text, tool_audits=source.tool_audits), workers=1)
                        payload = found[0][2] if found else b"null"
                    embedded.append((abbr, n, payload))
            else:
                path.parent.mkdir(parents=True, exist_ok=True)  # a run summarized for the first time by its report
                fresh = Path(tempfile.mkdtemp(prefix=side_dir.name + ".", dir=path.parent))
                # marked as being written: left by a process killed meanwhile (it may wait long for its rankings),
                # the folder is removed by the run's next writer (assay.rundir.layout.remove_stale_temp_files)
                mark = hold_folder(fresh)
                manifest: dict[str, int] = {}
                for i, (abbr, n, held, key) in enumerate(chunks):
                    name = key or f"chunk{i}"
                    target = fresh / chunk_file(name)
                    if isinstance(held, Path):
                        try:
                            os.link(held, target)  # the earlier report keeps its file: the same bytes, not copied
                        except OSError:
                            shutil.copyfile(held, target)
                    else:
                        target.write_bytes(chunk_script(name, held))
                    if key is not None:
                        manifest[key] = n
                    named.append((abbr, n, name))
                (fresh / MANIFEST).write_bytes(orjson.dumps({"format": CHUNK_FORMAT, "chunks": manifest}))
            if kept_rankings is not None:  # computed by an earlier report from the same results and settings
                _put_rankings(data, kept_rankings[0]["rankings"], kept_rankings[0]["pictures"])
            elif context.ranks:
                _add_rankings(data, context, self.beside)
            self.discard()
            if fresh is not None:
                if rankings_key is not None and data["rankings"] is not None:
                    _keep_rankings(fresh / _rankings_file(rankings_key), data, kept_rankings)
                fresh.chmod(0o755)
        except BaseException:
            if fresh is not None:
                shutil.rmtree(fresh, ignore_errors=True)
            raise
        finally:
            if mark is not None:
                release_folder(mark)
        if fresh is None:
            atomic_write_chunks(path, iter(_render_utf8(data, embedded, None)), durable=False)
            shutil.rmtree(side_dir, ignore_errors=True)
        else:
            # the new folder takes the old one's place in one step: a complete folder under its name at every instant
            replace_dir(fresh, side_dir)
            atomic_write_chunks(path, iter(_render_utf8(data, named, side_dir.name)), durable=False)
        logger.info("report written to %s", path)
        return path

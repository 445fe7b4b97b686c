"""The leaderboard: one typed summary, built once by the summarizer, rendered and read back.

A :class:`Leaderboard` holds what a summary shows and why: the model
columns, the table rows (dataset or group, metric, mode, version) with every
value at full precision, the marks of the cells whose value is not what it
seems (:class:`~assay.groups.CellMark`: an incomplete result, one changed
after assay computed it, one not re-scored, a group computed from such), the
problems met, the summary groups' definitions and where the numbers came
from.  The summarizer builds it once from the scores it collected; the
``.txt``/``.csv``/``.md`` tables and the summary ``.json`` are renderings of
it (:meth:`Leaderboard.to_json`), and ``assay report``, ``assay verify`` and
``assay compare`` read it back from the ``.json`` (:meth:`Leaderboard.from_json`),
never from the two-decimal table.

A summary ``.json`` written before the leaderboard kept ``metrics`` and
``dataset_abbrs`` is read as well: the datasets are the abbrs of ``scores``
that are not groups, each one's metrics in the order :func:`assay.rundir.results.order_metrics`
gives.

>>> board = Leaderboard(models=['m'], rows=[Row('d', values={'m': 62.5})], scores={'m': {'d': {'acc': 62.5}}},
...                     dataset_abbrs=['d'], metrics={'d': ['acc']})
>>> Leaderboard.from_json(board.to_json()) == board
True
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay._dataclass import FACTORY, DataclassMethods, FrozenMethods
from assay.audit import AuditRecord, ToolAudit, read_records, read_tool_records, records_json, tool_records_json
from assay.groups import MARK, CellMark, Scores, SummaryIssue

__all__ = ["HEADER", "Cell", "Leaderboard", "LeaderboardView", "Row", "newest_summary_json"]

#: The text columns before the model columns.
HEADER: tuple[str, ...] = ("dataset", "version", "metric", "mode")
DASH = "-"


@dataclass(init=False, repr=False, eq=False)
class Row(DataclassMethods):
    """One row of a leaderboard table.

    Attributes:
        dataset: the dataset or group abbr (``''`` for a separator).
        version: the prompt version (``-`` when none).
        metric: the metric shown; ``None`` in a table whose columns are metrics
            (``CircularSummarizer``: ``metric_values`` holds them).
        mode: ``gen``/``ppl``/… (``-`` when unknown).
        values: model column → the value at full precision, or ``None``.
        missing: model column → why it has no value.
        placeholder: a row of ``-`` (a separator, an unknown abbr or metric).
        marked: the model columns whose value is marked (:data:`~assay.groups.MARK`).
        metric_values: model column → metric → value, in a table whose columns
            are metrics; ``None`` otherwise.
        sources: model column → where its value came from, for the cells another tool computed
            (:attr:`Leaderboard.sources`); a cell assay scored itself has none.
    """

    dataset: str
    version: str = DASH
    metric: str | None = DASH
    mode: str = DASH
    values: dict[str, float | None] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    placeholder: bool = False
    marked: tuple[str, ...] = ()
    metric_values: dict[str, dict[str, float | None]] | None = None
    sources: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __init__(
        self,
        dataset: str,
        version: str = DASH,
        metric: str | None = DASH,
        mode: str = DASH,
        values: dict[str, float | None] = FACTORY,
        missing: dict[str, str] = FACTORY,
        placeholder: bool = False,
        marked: tuple[str, ...] = (),
        metric_values: dict[str, dict[str, float | None]] | None = None,
        sources: dict[str, dict[str, Any]] = FACTORY,
    ) -> None:
        self.dataset = dataset
        self.version = version
        self.metric = metric
        self.mode = mode
        self.values = {} if values is FACTORY else values
        self.missing = {} if missing is FACTORY else missing
        self.placeholder = placeholder
        self.marked = marked
        self.metric_values = metric_values
        self.sources = {} if sources is FACTORY else sources

    def cells(self, models: Sequence[str]) -> list[str]:
        """The row as the text table shows it: the text columns, then each value with two decimals.

        >>> Row('d', 'v', 'acc', 'gen', {'a': 62.5, 'b': None}, marked=('a',)).cells(['a', 'b'])
        ['d', 'v', 'acc', 'gen', '62.50*', '-']
        """
        marked = self.marked
        values = self.values
        shown = [
            DASH if (v := values.get(m)) is None else f"{v:.2f}{MARK}" if m in marked else f"{v:.2f}" for m in models
        ]
        return [self.dataset, self.version, self.metric or DASH, self.mode, *shown]

    def metric_rows(self) -> list[Row]:
        """One row per metric with one number per model (a row of metric columns split); else the row itself.

        >>> [(r.metric, r.values) for r in Row('d', metric=None, metric_values={'m': {'acc': 1.0, 'f1': None}}).metric_rows()]
        [('acc', {'m': 1.0}), ('f1', {'m': None})]
        """
        if self.metric_values is None:
            return [self]
        metrics = list(dict.fromkeys(m for per in self.metric_values.values() for m in per))
        return [
            Row(self.dataset, self.version, metric, self.mode, {c: per.get(metric) for c, per in self.metric_values.items()},
                dict(self.missing), self.placeholder, self.marked, sources=dict(self.sources))
            for metric in metrics
        ]

    def to_json(self) -> dict[str, Any]:
        """The row as the summary ``.json`` holds it."""
        if self.metric_values is not None or self.metric is None:
            if self.placeholder:
                return {"dataset": self.dataset, "placeholder": True}
            out: dict[str, Any] = {"dataset": self.dataset, "version": self.version, "mode": self.mode,
                                   "values": {c: dict(per) for c, per in (self.metric_values or {}).items()}}
        else:
            out = {"dataset": self.dataset, "version": self.version, "metric": self.metric, "mode": self.mode,
                   "values": dict(self.values)}
        if self.missing:
            out["missing"] = dict(self.missing)
        if self.placeholder:
            out["placeholder"] = True
        if self.marked:
            out["marked"] = list(self.marked)
        if self.sources:
            out["source"] = {c: dict(s) for c, s in self.sources.items()}
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Row:
        """A row of a summary ``.json``; one whose values are ``{metric: value}`` per model has metric columns."""
        values = data.get("values") or {}
        per_metric = isinstance(values, Mapping) and any(isinstance(v, Mapping) for v in values.values())
        marked = tuple(str(c) for c in data.get("marked") or [])
        missing = {str(c): str(r) for c, r in (data.get("missing") or {}).items()}
        sources = {str(c): dict(s) for c, s in (data.get("source") or {}).items() if isinstance(s, Mapping)}
        if per_metric or "metric" not in data:
            placeholder = bool(data.get("placeholder"))
            return cls(
                str(data.get("dataset", "")), str(data.get("version", DASH)), None, str(data.get("mode", DASH)),
                missing=missing, placeholder=placeholder, marked=marked,
                metric_values=None if placeholder else
                {str(c): {str(m): _number(x) for m, x in (v or {}).items()} for c, v in values.items()},
                sources=sources,
            )
        return cls(
            str(data.get("dataset", "")), str(data.get("version", DASH)), str(data.get("metric", DASH)),
            str(data.get("mode", DASH)), {str(c): _number(v) for c, v in values.items()}, missing,
            bool(data.get("placeholder")), marked, sources=sources,
        )


def _number(value: Any) -> float | None:
    return None if value is None or isinstance(value, bool) or not isinstance(value, (int, float)) else value


@dataclass(init=False, repr=False, eq=False)
class LeaderboardView(DataclassMethods):
    """One named table of a summary of several views (``MultiFacetedSummarizer``)."""

    name: str
    header: list[str] | None
    rows: list[Row]

    def __init__(self, name: str, header: list[str] | None, rows: list[Row]) -> None:
        self.name = name
        self.header = header
        self.rows = rows

    def to_json(self) -> dict[str, Any]:
        """``{"name", "header", "rows"}`` (no ``header`` for a view without rows)."""
        if self.header is None:
            return {"name": self.name, "rows": [r.to_json() for r in self.rows]}
        return {"name": self.name, "header": list(self.header), "rows": [r.to_json() for r in self.rows]}


@dataclass(init=False, repr=False, eq=False)
class Cell(FrozenMethods):
    """One (model, row) value of a leaderboard: the number at full precision, or why there is none, and its marks."""

    value: float | None
    marks: tuple[CellMark, ...] = ()
    missing: str | None = None

    def __init__(self, value: float | None, marks: tuple[CellMark, ...] = (), missing: str | None = None) -> None:
        self.value = value
        self.marks = marks
        self.missing = missing


@dataclass(init=False, repr=False, eq=False)
class Leaderboard(DataclassMethods):
    """Every number of a summary and why each is shown as it is.

    Attributes:
        models: the model columns, in order.
        rows: the main table's rows (of the first view with rows, for a summary of views).
        scores: model column → dataset or group → metric → value, every value the summary knows.
        dataset_abbrs: the datasets, in order; ``groups``: the summary groups computed, in order.
        metrics: dataset or group → its metrics in display order (the first is the primary one).
        modes, versions: dataset or group → its mode; dataset → its prompt version.
        header: the main table's header as written (``None`` for a summary of views).
        marks: (model, dataset or group) → why its value is marked, for every value that is.
        changed: (model, dataset) → the result file whose bytes are not those assay wrote.
        not_rescored: (model, dataset) → why the last run of its task left the result as it was.
        gold_references: (model, dataset) → why its references came from the prediction files' ``gold``.
        audits: model → dataset → the result's extraction audit (:class:`assay.audit.AuditRecord`).
        tool_audits: model → dataset → for a result scoring another tool's replies with its extraction named,
            that extraction against assay's chain (:class:`assay.audit.ToolAudit`).
        judge_usage: (model, dataset) → what its judge calls cost (the result's ``_meta.judge``).
        sources: (model, dataset or group) → where its value came from when another tool computed it
            (:func:`assay.rundir.sources.cell_source`: ``tool``, ``version``, ``files``, the tool's own ``metrics``
            and ``scale``; for a group, ``tools``, ``mixed`` and ``from``: each input → its tool, ``assay``
            for assay's own); a value assay computed has none.
        pairwise: the pairwise judge statistics (:func:`assay.subjective.pairwise.pairwise_section`:
            ``settings`` and ``entries``, per judge, dataset and compared model the win rate and its
            bootstrap interval, position bias, unparsed replies, Elo), or empty.
        errors, warnings: the problems met.
        group_definitions: the summary groups as configured (plain data), or ``None`` when not kept.
        views: the named tables of a summary of views, else ``None``.
        metric_types: the metric columns of a table whose columns are metrics, else ``None``.
        time: the summary's time stamp; ``summarizer``: the summarizer's class name.
    """

    models: list[str]
    rows: list[Row] = field(default_factory=list)
    scores: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    dataset_abbrs: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    metrics: dict[str, list[str]] = field(default_factory=dict)
    modes: dict[str, str] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    header: list[str] | None = None
    marks: dict[tuple[str, str], tuple[CellMark, ...]] = field(default_factory=dict)
    changed: dict[tuple[str, str], str] = field(default_factory=dict)
    not_rescored: dict[tuple[str, str], str] = field(default_factory=dict)
    gold_references: dict[tuple[str, str], str] = field(default_factory=dict)
    audits: dict[str, dict[str, AuditRecord]] = field(default_factory=dict)
    tool_audits: dict[str, dict[str, ToolAudit]] = field(default_factory=dict)
    judge_usage: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    sources: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    pairwise: dict[str, Any] = field(default_factory=dict)
    errors: list[SummaryIssue] = field(default_factory=list)
    warnings: list[SummaryIssue] = field(default_factory=list)
    group_definitions: list[Any] | None = None
    views: list[LeaderboardView] | None = None
    metric_types: list[str] | None = None
    time: str = ""
    summarizer: str = ""

    def __init__(
        self,
        models: list[str],
        rows: list[Row] = FACTORY,
        scores: dict[str, dict[str, dict[str, float]]] = FACTORY,
        dataset_abbrs: list[str] = FACTORY,
        groups: list[str] = FACTORY,
        metrics: dict[str, list[str]] = FACTORY,
        modes: dict[str, str] = FACTORY,
        versions: dict[str, str] = FACTORY,
        header: list[str] | None = None,
        marks: dict[tuple[str, str], tuple[CellMark, ...]] = FACTORY,
        changed: dict[tuple[str, str], str] = FACTORY,
        not_rescored: dict[tuple[str, str], str] = FACTORY,
        gold_references: dict[tuple[str, str], str] = FACTORY,
        audits: dict[str, dict[str, AuditRecord]] = FACTORY,
        tool_audits: dict[str, dict[str, ToolAudit]] = FACTORY,
        judge_usage: dict[tuple[str, str], dict[str, Any]] = FACTORY,
        sources: dict[tuple[str, str], dict[str, Any]] = FACTORY,
        pairwise: dict[str, Any] = FACTORY,
        errors: list[SummaryIssue] = FACTORY,
        warnings: list[SummaryIssue] = FACTORY,
        group_definitions: list[Any] | None = None,
        views: list[LeaderboardView] | None = None,
        metric_types: list[str] | None = None,
        time: str = "",
        summarizer: str = "",
    ) -> None:
        self.models = models
        self.rows = [] if rows is FACTORY else rows
        self.scores = {} if scores is FACTORY else scores
        self.dataset_abbrs = [] if dataset_abbrs is FACTORY else dataset_abbrs
        self.groups = [] if groups is FACTORY else groups
        self.metrics = {} if metrics is FACTORY else metrics
        self.modes = {} if modes is FACTORY else modes
        self.versions = {} if versions is FACTORY else versions
        self.header = header
        self.marks = {} if marks is FACTORY else marks
        self.changed = {} if changed is FACTORY else changed
        self.not_rescored = {} if not_rescored is FACTORY else not_rescored
        self.gold_references = {} if gold_references is FACTORY else gold_references
        self.audits = {} if audits is FACTORY else audits
        self.tool_audits = {} if tool_audits is FACTORY else tool_audits
        self.judge_usage = {} if judge_usage is FACTORY else judge_usage
        self.sources = {} if sources is FACTORY else sources
        self.pairwise = {} if pairwise is FACTORY else pairwise
        self.errors = [] if errors is FACTORY else errors
        self.warnings = [] if warnings is FACTORY else warnings
        self.group_definitions = group_definitions
        self.views = views
        self.metric_types = metric_types
        self.time = time
        self.summarizer = summarizer

    # -- building ------------------------------------------------------------------------------
    @classmethod
    def from_scores(cls, scores: Scores, rows: Sequence[Row], **fields: Any) -> Leaderboard:
        """The leaderboard of ``scores`` with these table rows; ``fields`` sets the others (``time``, ``header``, …)."""
        marks = {
            key: tuple(ms) for key, ms in scores.marks.items() if ms and key[1] in scores.values.get(key[0], {})
        }
        return cls(
            models=list(scores.columns),
            rows=list(rows),
            scores=scores.values,
            dataset_abbrs=list(scores.dataset_abbrs),
            groups=list(scores.groups),
            metrics={abbr: list(ms) for abbr, ms in scores.metrics.items()},
            modes=scores.modes,
            versions=scores.versions,
            marks=marks,
            changed=dict(scores.changed),
            not_rescored=dict(scores.kept),
            gold_references=dict(scores.gold_references),
            audits=scores.audits,
            tool_audits=scores.tool_audits,
            judge_usage=dict(scores.judge),
            sources={key: s for key, s in scores.sources.items() if key[1] in scores.values.get(key[0], {})},
            errors=scores.errors,
            warnings=scores.warnings,
            **fields,
        )

    # -- reading -------------------------------------------------------------------------------
    def cell(self, model: str, abbr: str, metric: str) -> Cell:
        """The value of ``model`` for ``abbr``'s ``metric``, its marks, or why it has none."""
        value = self.scores.get(model, {}).get(abbr, {}).get(metric)
        if value is None:
            return Cell(None, (), self.missing_reason(model, abbr) or f"{model} has no value for {abbr} {metric}")
        return Cell(value, self.marks.get((model, abbr), ()))

    def missing_reason(self, model: str, abbr: str) -> str | None:
        """Why ``model`` has no value for ``abbr``: as its table row says, else the error met there; else ``None``."""
        for row in self.rows:
            if row.dataset == abbr and model in row.missing:
                return row.missing[model]
        return next((i.message for i in self.errors if i.model == model and i.dataset == abbr), None)

    def summary_groups(self, config: Mapping[str, Any] | None = None) -> list[Any]:
        """The summary groups (:class:`assay.groups.SummaryGroup`) of ``group_definitions``, else of
        ``config``'s summarizer, parsed.

        Raises:
            ConfigError: a definition that does not parse.
        """
        from assay.groups import parse_summary_groups

        raw: Any = self.group_definitions or None
        if raw is None and config is not None:
            summarizer = config.get("summarizer") or {}
            raw = summarizer.get("summary_groups") if isinstance(summarizer, Mapping) else None
        return parse_summary_groups(list(raw)) if raw else []

    def metric_rows(self) -> list[Row]:
        """The main table's rows with one number per model (rows of metric columns split by metric)."""
        return [r for row in self.rows for r in row.metric_rows()]

    def marked_cells(self, abbrs: Collection[str] | None = None) -> list[tuple[str, str, tuple[CellMark, ...]]]:
        """(model, abbr, marks) of every marked value (of ``abbrs`` only, when given), in column then row order."""
        order = {abbr: i for i, abbr in enumerate([*self.dataset_abbrs, *self.groups])}
        columns = {c: i for i, c in enumerate(self.models)}
        keys = [k for k in self.marks if abbrs is None or k[1] in abbrs]
        keys.sort(key=lambda k: (columns.get(k[0], len(columns)), order.get(k[1], len(order))))
        return [(c, a, self.marks[(c, a)]) for c, a in keys]

    def table(self, rows: Sequence[Row] | None = None) -> list[list[str]]:
        """Header plus rows as the text tables show them (``rows``: default the main table's)."""
        models = self.models
        return [[*HEADER, *models]] + [r.cells(models) for r in (self.rows if rows is None else rows)]

    def issues(self) -> Iterator[SummaryIssue]:
        """Every error, then every warning."""
        yield from self.errors
        yield from self.warnings

    # -- the summary .json ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The summary ``.json``'s content (without the statistics, which the summarizer adds).

        ``incomplete`` (present when any) lists every marked value's ``{"model",
        "dataset", "kind", "count", "detail"}``; ``changed_results`` the result
        files whose bytes are not those assay wrote; ``not_rescored`` those the
        last run of their task failed to re-score and left in place, with why;
        ``sources`` (present when any) where each value another tool computed came from (model, dataset,
        then :attr:`sources`' record; each row holds its cells' records too, under ``source``);
        ``judge_usage`` what each judged result's judge calls cost (model, dataset, ``judge``: its
        ``_meta.judge``); ``pairwise`` the pairwise judge statistics (present when any: see
        :mod:`assay.subjective.pairwise`); ``references_from_gold`` the results whose references came from the
        prediction files' ``gold``; ``extraction_audits`` each result's extraction audit;
        ``tool_extraction_audits`` (present when any) for a result scoring another tool's replies, that
        tool's own extraction against assay's chain (model → dataset → ``tool``, ``extraction`` and the
        audit record's keys); ``dataset_abbrs`` and ``metrics`` the rows'
        order, so that a reader needs no rule to find it.
        """
        payload: dict[str, Any] = {"time": self.time, "summarizer": self.summarizer, "models": list(self.models)}
        if self.views is None:
            if self.header is not None:
                payload["header"] = list(self.header)
            payload["rows"] = [r.to_json() for r in self.rows]
        payload.update({
            "scores": self.scores,
            "modes": self.modes,
            "versions": self.versions,
            "groups": list(self.groups),
            "dataset_abbrs": list(self.dataset_abbrs),
            "metrics": self.metrics,
            "errors": [i.to_json() for i in self.errors],
            "warnings": [i.to_json() for i in self.warnings],
        })
        if self.gold_references:
            payload["references_from_gold"] = [
                {"model": column, "dataset": abbr, "reason": reason} for (column, abbr), reason in self.gold_references.items()
            ]
        if self.marks:
            payload["incomplete"] = [
                {"model": column, "dataset": abbr, **m.to_json()} for (column, abbr), marks in self.marks.items() for m in marks
            ]
        if self.changed:
            payload["changed_results"] = [
                {"model": column, "dataset": abbr, "file": rel} for (column, abbr), rel in self.changed.items()
            ]
        if self.not_rescored:
            payload["not_rescored"] = [
                {"model": column, "dataset": abbr, "reason": reason} for (column, abbr), reason in self.not_rescored.items()
            ]
        if self.audits:
            payload["extraction_audits"] = records_json(self.audits)
        if self.tool_audits:
            payload["tool_extraction_audits"] = tool_records_json(self.tool_audits)
        if self.judge_usage:
            payload["judge_usage"] = [
                {"model": column, "dataset": abbr, "judge": usage} for (column, abbr), usage in self.judge_usage.items()
            ]
        if self.sources:
            payload["sources"] = [
                {"model": column, "dataset": abbr, **source} for (column, abbr), source in self.sources.items()
            ]
        if self.pairwise:
            payload["pairwise"] = self.pairwise
        if self.metric_types is not None:
            payload["metric_types"] = list(self.metric_types)
        if self.views is not None:
            payload["views"] = [v.to_json() for v in self.views]
        if self.group_definitions is not None:
            payload["group_definitions"] = self.group_definitions
        return payload

    @classmethod
    def from_json(cls, source: Mapping[str, Any] | str | os.PathLike[str]) -> Leaderboard:
        """The leaderboard a summary ``.json`` holds (a path, or its parsed content), at full precision.

        Raises:
            InputFileError: the file cannot be read or is not a summary (naming the file and the key).
        """
        from assay.errors import InputFileError

        where = "the summary"
        if not isinstance(source, Mapping):
            from assay.fileio import read_json

            where = str(source)
            source = read_json(source, what="summary")
            if not isinstance(source, Mapping):
                raise InputFileError(f"{where}: a summary .json holds an object, not {type(source).__name__}")
        try:
            return cls._from_json(source)
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            raise InputFileError(f"{where}: not a summary .json this version reads: {type(exc).__name__}: {exc}") from None

    @classmethod
    def _from_json(cls, data: Mapping[str, Any]) -> Leaderboard:
        from assay.rundir.results import order_metrics

        scores_in = data.get("scores") or {}
        models = [str(m) for m in (data.get("models") or list(scores_in))]
        groups = [str(g) for g in data.get("groups") or []]
        scores = {
            str(c): {str(a): {str(m): v for m, v in ms.items()} for a, ms in (per or {}).items()}
            for c, per in scores_in.items()
        }
        dataset_abbrs = data.get("dataset_abbrs")
        metrics = data.get("metrics")
        if dataset_abbrs is None or metrics is None:  # a summary .json written before these were kept
            abbrs: dict[str, None] = {}
            found: dict[str, dict[str, None]] = {}
            for column in models:
                for abbr, ms in (scores.get(column) or {}).items():
                    if abbr not in groups:
                        abbrs.setdefault(abbr, None)
                    found.setdefault(abbr, {}).update(dict.fromkeys(ms))
            dataset_abbrs = list(abbrs) if dataset_abbrs is None else dataset_abbrs
            if metrics is None:
                metrics = {a: (list(m) if a in groups else order_metrics(list(m))) for a, m in found.items()}
        views = None
        rows_json = data.get("rows")
        if data.get("views") is not None:
            views = [
                LeaderboardView(str(v.get("name", "")), list(v["header"]) if v.get("header") is not None else None,
                                [Row.from_json(r) for r in v.get("rows") or []])
                for v in data["views"]
            ]
            if rows_json is None:
                rows_json = next((v.get("rows") for v in data["views"] if v.get("rows")), [])
        marks: dict[tuple[str, str], list[CellMark]] = {}
        for item in data.get("incomplete") or []:
            count = item.get("count")
            count = count if isinstance(count, int) and not isinstance(count, bool) else None
            marks.setdefault((str(item.get("model")), str(item.get("dataset"))), []).append(
                CellMark(str(item.get("kind") or "incomplete"), count, str(item.get("detail", "")))
            )
        return cls(
            models=models,
            rows=[Row.from_json(r) for r in rows_json or []],
            scores=scores,
            dataset_abbrs=[str(a) for a in dataset_abbrs],
            groups=groups,
            metrics={str(a): [str(m) for m in ms] for a, ms in metrics.items()},
            modes={str(k): str(v) for k, v in (data.get("modes") or {}).items()},
            versions={str(k): str(v) for k, v in (data.get("versions") or {}).items()},
            header=list(data["header"]) if data.get("header") is not None and views is None else None,
            marks={k: tuple(v) for k, v in marks.items()},
            changed=_pairs(data.get("changed_results"), "file"),
            not_rescored=_pairs(data.get("not_rescored"), "reason"),
            gold_references=_pairs(data.get("references_from_gold"), "reason"),
            audits=read_records(data.get("extraction_audits"), "summary .json"),
            tool_audits=read_tool_records(data.get("tool_extraction_audits"), "summary .json"),
            judge_usage=_judge_usage(data.get("judge_usage")),
            sources=_sources(data.get("sources")),
            pairwise=dict(data["pairwise"]) if isinstance(data.get("pairwise"), Mapping) else {},
            errors=[_issue(i) for i in data.get("errors") or []],
            warnings=[_issue(i) for i in data.get("warnings") or []],
            group_definitions=data.get("group_definitions"),
            views=views,
            metric_types=list(data["metric_types"]) if data.get("metric_types") is not None else None,
            time=str(data.get("time") or ""),
            summarizer=str(data.get("summarizer") or ""),
        )


def _pairs(items: Any, key: str) -> dict[tuple[str, str], str]:
    return {(str(i.get("model")), str(i.get("dataset"))): str(i.get(key, "")) for i in items or [] if isinstance(i, Mapping)}


def _sources(items: Any) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (str(i.get("model")), str(i.get("dataset"))): {k: v for k, v in i.items() if k not in ("model", "dataset")}
        for i in items or [] if isinstance(i, Mapping)
    }


def _judge_usage(items: Any) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (str(i.get("model")), str(i.get("dataset"))): dict(i["judge"])
        for i in items or [] if isinstance(i, Mapping) and isinstance(i.get("judge"), Mapping)
    }


def _issue(item: Mapping[str, Any]) -> SummaryIssue:
    return SummaryIssue("warning" if item.get("level") == "warning" else "error", str(item.get("message", "")), model=item.get("model"), dataset=item.get("dataset"),
                        file=item.get("file"))


def newest_summary_json(run_dir: str | os.PathLike[str]) -> Path | None:
    """The newest ``summary/summary_<time>.json`` of a run directory, or ``None``."""
    from assay.rundir.layout import RunDir

    return RunDir(Path(run_dir)).newest_summary_json()

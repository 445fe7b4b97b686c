"""Typed objects passed between the summarizer's stages."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from assay._dataclass import FACTORY, DataclassMethods, FrozenMethods

__all__ = ["MARK", "CellMark", "Scores", "SummaryIssue", "SummaryResult", "incomplete_marks"]

#: What follows a table value whose result is incomplete, changed after it was computed or not re-scored
#: (see :class:`CellMark`).
MARK = "*"


@dataclass(init=False, repr=False, eq=False)
class CellMark(FrozenMethods):
    """Why one cell's value is marked in the table.

    ``kind`` is a result's ``_meta.incomplete`` kind (``partial_predictions``:
    prediction parts missing, scored because a partial score was asked for;
    ``unjudged``: judge requests that failed; …), ``changed`` for a result
    whose bytes are not those assay wrote, ``not_rescored`` for a result the
    last run of its task failed to re-score and left as it was, or the kind
    of the marked inputs of a summary group.  ``count`` is the number of samples affected (``None``:
    unknown), ``detail`` a one-line explanation.

    >>> CellMark('unjudged', 12, '12 of 23 judge requests failed').describe()
    'unjudged (12 samples): 12 of 23 judge requests failed'
    """

    kind: str
    count: int | None
    detail: str
    #: a group's mark: the marked datasets it was computed from, each with its count (the count is their sum)
    sources: tuple[tuple[str, int | None], ...] = field(default=(), compare=False, repr=False)

    def __init__(
        self,
        kind: str,
        count: int | None,
        detail: str,
        sources: tuple[tuple[str, int | None], ...] = (),
    ) -> None:
        self.kind = kind
        self.count = count
        self.detail = detail
        self.sources = sources

    def describe(self) -> str:
        """A one-line human description."""
        count = "" if self.count is None else f" ({self.count:,} sample{'' if self.count == 1 else 's'})"
        return f"{self.kind}{count}: {self.detail}" if self.detail else f"{self.kind}{count}"

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "count", "detail"}``, the form of a result's ``_meta.incomplete`` entries."""
        return {"kind": self.kind, "count": self.count, "detail": self.detail}


def incomplete_marks(value: Any) -> list[CellMark]:
    """The marks of a result's ``_meta.incomplete`` list (entries ``{"kind", "count", "detail"}``).

    Entries of another form still mark the cell: a missing or empty ``kind``
    reads ``incomplete``, a ``count`` that is not a whole number ≥ 0 reads
    unknown, a ``detail`` that is not a string is shown as written.

    >>> incomplete_marks([{'kind': 'unjudged', 'count': 3, 'detail': 'judge unreachable'}, 'x'])
    [CellMark(kind='unjudged', count=3, detail='judge unreachable'), CellMark(kind='incomplete', count=None, detail="'x'")]
    >>> incomplete_marks(None), incomplete_marks([])
    ([], [])
    """
    if not value:
        return []
    items = value if isinstance(value, list) else [value]
    marks = []
    for item in items:
        if not isinstance(item, dict):
            marks.append(CellMark("incomplete", None, repr(item)[:200]))
            continue
        kind, count, detail = item.get("kind"), item.get("count"), item.get("detail", "")
        kind = kind if isinstance(kind, str) and kind else "incomplete"
        count = count if isinstance(count, int) and not isinstance(count, bool) and count >= 0 else None
        detail = detail if isinstance(detail, str) else repr(detail)[:200]
        marks.append(CellMark(kind, count, " ".join(detail.split())))
    return marks


@dataclass(init=False, repr=False, eq=False)
class SummaryIssue(FrozenMethods):
    """One problem met while summarizing: a failed evaluation, a bad file, a group that could not be computed.

    ``model`` is the model's column name and ``dataset`` a dataset or group
    abbr, when the issue concerns one; ``file`` is relative to the run directory.

    >>> SummaryIssue('error', 'missing metrics: [\\'sub_c\\']', model='m1', dataset='grp').describe()
    "m1 / grp: missing metrics: ['sub_c']"
    """

    level: Literal["error", "warning"]
    message: str
    model: str | None = None
    dataset: str | None = None
    file: str | None = None

    def __init__(
        self,
        level: Literal['error', 'warning'],
        message: str,
        model: str | None = None,
        dataset: str | None = None,
        file: str | None = None,
    ) -> None:
        self.level = level
        self.message = message
        self.model = model
        self.dataset = dataset
        self.file = file

    def describe(self) -> str:
        """A one-line human description."""
        where = " / ".join(p for p in (self.model, self.dataset) if p)
        if self.file and self.file not in self.message:
            where = f"{where} ({self.file})" if where else self.file
        return f"{where}: {self.message}" if where else self.message

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (keys with ``None`` left out)."""
        out: dict[str, Any] = {"level": self.level, "message": self.message}
        for key in ("model", "dataset", "file"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


@dataclass(init=False, repr=False, eq=False)
class Scores(DataclassMethods):
    """Every number the summarizer knows, before it is laid out as a table.

    Attributes:
        columns: model column names, in config order (``summarizer_abbr`` or ``abbr``).
        dataset_abbrs: dataset abbrs in config order, each once.
        metrics: abbr (dataset or group) → its metrics in display order; the
            first is the *primary* metric.
        values: column → abbr → metric → value (finite numbers only).
        raw: column → abbr → the result as read (without ``details``), a
            group's values, or ``{'error': …}``: the raw section of the summary.
        cell_errors: (column, abbr) → why that model has no value for that abbr.
        modes: abbr → ``gen``/``ppl``/``ll``/``unknown``/``mixed``/``-``.
        versions: dataset abbr → 6-hex prompt version (or ``-``).
        groups: names of the summary groups that were computed, in order.
        issues: errors and warnings, in the order met.
        gold_references: (column, abbr) → why that result's references were
            taken from the prediction files' ``gold`` (its test set was not read).
        audits: column → dataset abbr → the result's extraction audit (an :class:`assay.audit.AuditRecord`), where it has one.
        tool_audits: column → dataset abbr → the comparison of another tool's own extraction with assay's
            chain (an :class:`assay.audit.ToolAudit`), for a result scoring that tool's replies.
        marks: (column, abbr) → why that cell is marked in the table: its result's ``_meta.incomplete``,
            a result changed after assay computed it, one not re-scored (``kept``), or a group computed
            from marked cells.
        changed: (column, abbr) → the result file (relative to the run directory) whose bytes are not
            those assay wrote when it computed it.
        kept: (column, abbr) → why that result was not re-scored by the last run of its task,
            which failed and left it in place.
        judge: (column, abbr) → what that result's judge calls cost (its ``_meta.judge``).
        sources: (column, abbr) → where that cell's value came from when another tool computed it (a result
            imported with ``_meta.source``: ``tool``, ``version``, ``files``, the tool's own ``metrics`` and
            ``scale``), or, for a group computed from such cells, ``tools`` and ``from`` (each input
            dataset → the tool that gave it, ``assay`` for assay's own) and whether it is ``mixed``.
            A cell assay scored itself has no entry.

    >>> s = Scores(columns=['m1'])
    >>> s.set_values('m1', 'ds', {'accuracy': 50.0})
    >>> s.value('m1', 'ds', 'accuracy')
    50.0
    """

    columns: list[str]
    dataset_abbrs: list[str] = field(default_factory=list)
    metrics: dict[str, list[str]] = field(default_factory=dict)
    values: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    raw: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    cell_errors: dict[tuple[str, str], str] = field(default_factory=dict)
    modes: dict[str, str] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    groups: list[str] = field(default_factory=list)
    issues: list[SummaryIssue] = field(default_factory=list)
    gold_references: dict[tuple[str, str], str] = field(default_factory=dict)
    audits: dict[str, dict[str, Any]] = field(default_factory=dict)
    tool_audits: dict[str, dict[str, Any]] = field(default_factory=dict)
    marks: dict[tuple[str, str], list[CellMark]] = field(default_factory=dict)
    changed: dict[tuple[str, str], str] = field(default_factory=dict)
    kept: dict[tuple[str, str], str] = field(default_factory=dict)
    judge: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)
    sources: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)

    def __init__(
        self,
        columns: list[str],
        dataset_abbrs: list[str] = FACTORY,
        metrics: dict[str, list[str]] = FACTORY,
        values: dict[str, dict[str, dict[str, float]]] = FACTORY,
        raw: dict[str, dict[str, dict[str, Any]]] = FACTORY,
        cell_errors: dict[tuple[str, str], str] = FACTORY,
        modes: dict[str, str] = FACTORY,
        versions: dict[str, str] = FACTORY,
        groups: list[str] = FACTORY,
        issues: list[SummaryIssue] = FACTORY,
        gold_references: dict[tuple[str, str], str] = FACTORY,
        audits: dict[str, dict[str, Any]] = FACTORY,
        tool_audits: dict[str, dict[str, Any]] = FACTORY,
        marks: dict[tuple[str, str], list[CellMark]] = FACTORY,
        changed: dict[tuple[str, str], str] = FACTORY,
        kept: dict[tuple[str, str], str] = FACTORY,
        judge: dict[tuple[str, str], dict[str, Any]] = FACTORY,
        sources: dict[tuple[str, str], dict[str, Any]] = FACTORY,
    ) -> None:
        self.columns = columns
        self.dataset_abbrs = [] if dataset_abbrs is FACTORY else dataset_abbrs
        self.metrics = {} if metrics is FACTORY else metrics
        self.values = {} if values is FACTORY else values
        self.raw = {} if raw is FACTORY else raw
        self.cell_errors = {} if cell_errors is FACTORY else cell_errors
        self.modes = {} if modes is FACTORY else modes
        self.versions = {} if versions is FACTORY else versions
        self.groups = [] if groups is FACTORY else groups
        self.issues = [] if issues is FACTORY else issues
        self.gold_references = {} if gold_references is FACTORY else gold_references
        self.audits = {} if audits is FACTORY else audits
        self.tool_audits = {} if tool_audits is FACTORY else tool_audits
        self.marks = {} if marks is FACTORY else marks
        self.changed = {} if changed is FACTORY else changed
        self.kept = {} if kept is FACTORY else kept
        self.judge = {} if judge is FACTORY else judge
        self.sources = {} if sources is FACTORY else sources
        self.__post_init__()

    def __post_init__(self) -> None:
        for column in self.columns:
            self.values.setdefault(column, {})
            self.raw.setdefault(column, {})

    def value(self, column: str, abbr: str, metric: str) -> float | None:
        """The value of one cell, or ``None``."""
        return self.values.get(column, {}).get(abbr, {}).get(metric)

    def set_values(self, column: str, abbr: str, values: dict[str, float]) -> None:
        """Record (or replace) one model's metrics for one abbr."""
        self.values.setdefault(column, {})[abbr] = values
        self.cell_errors.pop((column, abbr), None)

    def primary_metric(self, abbr: str) -> str | None:
        """The first metric of ``abbr`` in display order, or ``None`` when it has none."""
        names = self.metrics.get(abbr)
        return names[0] if names else None

    def add_issue(self, issue: SummaryIssue) -> None:
        """Record an issue."""
        self.issues.append(issue)

    @property
    def errors(self) -> list[SummaryIssue]:
        """Issues of level ``error``."""
        return [i for i in self.issues if i.level == "error"]

    @property
    def warnings(self) -> list[SummaryIssue]:
        """Issues of level ``warning``."""
        return [i for i in self.issues if i.level == "warning"]


@dataclass(init=False, repr=False, eq=False)
class SummaryResult(DataclassMethods):
    """What :meth:`DefaultSummarizer.summarize` returns.

    Attributes:
        text: what the command line prints (the table, then its markdown form).
        table: the rows of the main table, header first, as written to the ``.csv``
            (values with two decimals: for reading, never for the numbers).
        paths: file kind (``txt``, ``csv``, ``md``, ``json``, or a view name) → path written.
        errors: every error met (failed evaluations, bad files, groups that could not be computed).
        warnings: every warning met.
        time_str: the time stamp in the file names.
        leaderboard: the summary itself (:class:`assay.summarize.leaderboard.Leaderboard`): every
            value at full precision, its marks, the rows; what every file of the summary renders.
        stats: intervals and unscorable counts of every cell (:class:`assay.rundir.statistics.RunStats`),
            when they were computed.
        failed: the parts of the summary that could not be made (a benchmark's summarizer that
            failed, a leaderboard that could not be computed): what was made is written, and the
            command line exits 1 naming these.
    """

    text: str = ""
    table: list[list[str]] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)
    errors: list[SummaryIssue] = field(default_factory=list)
    warnings: list[SummaryIssue] = field(default_factory=list)
    time_str: str = ""
    leaderboard: Any = None
    stats: Any = None
    #: the result files as the run index had them when the summary was made (:class:`assay.rundir.index.Snapshot`)
    snapshot: Any = None
    failed: list[str] = field(default_factory=list)

    def __init__(
        self,
        text: str = "",
        table: list[list[str]] = FACTORY,
        paths: dict[str, Path] = FACTORY,
        errors: list[SummaryIssue] = FACTORY,
        warnings: list[SummaryIssue] = FACTORY,
        time_str: str = "",
        leaderboard: Any = None,
        stats: Any = None,
        snapshot: Any = None,
        failed: list[str] = FACTORY,
    ) -> None:
        self.text = text
        self.table = [] if table is FACTORY else table
        self.paths = {} if paths is FACTORY else paths
        self.errors = [] if errors is FACTORY else errors
        self.warnings = [] if warnings is FACTORY else warnings
        self.time_str = time_str
        self.leaderboard = leaderboard
        self.stats = stats
        self.snapshot = snapshot
        self.failed = [] if failed is FACTORY else failed

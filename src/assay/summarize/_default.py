"""``DefaultSummarizer`` and the functions the command line calls (R-7.1 … R-7.7)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from assay._gc import bulk_allocations
from assay.config.abbr import dataset_abbr, model_abbr
from assay.errors import ConfigError, InputFileError, RegistryError
from assay.fileio import atomic_write_bytes, atomic_write_text, dumps_json
from assay.groups import MARK, Scores, SummaryGroup, SummaryResult, apply_groups, parse_summary_groups
from assay.registry import SUMMARIZERS, resolve_type
from assay.rundir.layout import RunDir, new_timestamp
from assay.summarize._collect import collect_scores
from assay.summarize._table import (
    build_rows,
    render_csv,
    render_markdown,
    render_marks,
    render_marks_markdown,
    render_raw,
    render_simple,
    render_sources,
    render_sources_markdown,
    render_stdout,
    render_tool_audits,
    render_tool_audits_markdown,
    render_txt,
    source_column,
    source_tags,
)
from assay.summarize.leaderboard import HEADER, Leaderboard, Row

__all__ = [
    "DefaultSummarizer",
    "build_summarizer",
    "get_logger",
    "leaderboard_of",
    "results_leaderboard",
    "log_issues",
    "parse_dataset_abbrs",
    "run_summarizer",
    "validate_summarizer_config",
    "write_json",
]

logger = logging.getLogger(__name__)

DatasetAbbrs = list[str | tuple[str, str]]


def get_logger() -> logging.Logger:
    """The logger a summarizer keeps as ``self.logger`` and warns through: this module's.

    :class:`DefaultSummarizer` calls it by name when it is built, as
    OpenCompass's does, so that ``opencompass.summarizers.default.get_logger``
    replaced (e.g. by ``unittest.mock.patch``) gives its logger to the
    summarizers built meanwhile.  It is a :class:`logging.Logger`
    (OpenCompass's is its ``'OpenCompass'`` MMLogger): the library logs, and
    only the command line prints.
    """
    return logger


def parse_dataset_abbrs(value: Any, where: str = "summarizer.dataset_abbrs") -> DatasetAbbrs | None:
    """Validate a ``dataset_abbrs`` list: abbr strings (``''`` for a separator) and ``[abbr, metric]`` pairs.

    >>> parse_dataset_abbrs(['a', ['b', 'accuracy'], ''])
    ['a', ('b', 'accuracy'), '']
    """
    if value is None:
        return None
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise ConfigError(f"{where} must be a list of abbrs and [abbr, metric] pairs, got {type(value).__name__}")
    out: DatasetAbbrs = []
    for i, item in enumerate(value):
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, Sequence) and len(item) == 2 and all(isinstance(p, str) for p in item):
            out.append((item[0], item[1]))
        else:
            raise ConfigError(f"{where}[{i}] must be an abbr string or an [abbr, metric] pair, got {item!r:.80}")
    return out


def _config_dataset_abbrs(config: Mapping[str, Any]) -> list[str]:
    datasets = config.get("datasets") or []
    if not isinstance(datasets, Sequence) or isinstance(datasets, (str, bytes)):
        raise ConfigError(f"config key 'datasets' must be a list of dataset dicts, got {type(datasets).__name__}")
    abbrs = []
    for i, ds in enumerate(datasets):
        if not isinstance(ds, Mapping):
            raise ConfigError(f"datasets[{i}] must be a dict, got {type(ds).__name__}")
        abbrs.append(dataset_abbr(dict(ds)))
    return abbrs


@SUMMARIZERS.register_module()
class DefaultSummarizer:
    """Turn a run's result files into tables: ``summary/summary_<time>.{txt,csv,md,json}``.

    Args:
        config: the whole run config as plain data: ``models``, ``datasets``,
            ``work_dir`` (the run directory) and ``summarizer``.
        dataset_abbrs: the rows, in order: abbrs (primary metric), ``[abbr, metric]``
            pairs and ``''`` separators.  Omitted: every metric of every dataset,
            then every group metric.
        summary_groups: group dicts (see :mod:`assay.groups._groups`), kept as
            given in ``summary_groups`` (``[]`` when omitted), as OpenCompass keeps
            them; validated into :attr:`groups`.
        prompt_db: deprecated and ignored (a warning when set).
        **unknown: other options are ignored with a warning.

    Raises:
        ConfigError: a mistake in ``dataset_abbrs`` or ``summary_groups``.

    Subclasses override :meth:`summarize` and reuse :meth:`load_scores`,
    :meth:`build_rows`, :meth:`leaderboard` (the one
    :class:`~assay.summarize.leaderboard.Leaderboard` every file of the summary
    renders) and :meth:`write_summary`.

    >>> import tempfile
    >>> run = tempfile.mkdtemp()
    >>> s = DefaultSummarizer({'models': [{'abbr': 'm1'}], 'datasets': [{'abbr': 'd'}], 'work_dir': run})
    >>> print(s.summarize(time_str='20240101_000000').text.splitlines()[2])
    d          -          -         -       -
    """

    #: Number of leading text columns in the table (never parsed as numbers).
    text_columns = len(HEADER)
    #: Compute intervals and unscorable counts (they go into the ``.json`` and the report).
    with_stats: bool = True
    #: Show each value's 95% interval in the text tables (``--ci``).
    show_ci: bool = False
    #: With the statistics, also read what the HTML report's sample browser shows
    #: (kept in ``result.stats.tables``), so that the report reads no file again.
    with_sample_columns: bool = False
    #: Read the results through the run index (:mod:`assay.rundir.index`), building or repairing it.
    use_index: bool = True
    #: The result files as :meth:`load_scores` found them (``None``: read without the index).
    snapshot: Any = None
    #: The result files the command running this summary wrote while it holds the writer lock
    #: (see :meth:`assay.rundir.index.RunIndex.snapshot`): not read again for their digest.
    written: Any = None
    #: Called with the leaderboard, the statistics (``None`` without them) and the snapshot once they are
    #: computed and confirmed, before the summary files are written: the caller may begin what follows the
    #: summary (the HTML report) meanwhile.
    computed: Callable[[Leaderboard, Any, Any], None] | None = None
    #: Called with the leaderboard, the snapshot and a function computing the statistics as :meth:`compute_stats`
    #: does, as soon as the leaderboard is built: before its statistics are computed and before the snapshot is
    #: confirmed (called again with a new leaderboard when the summary is computed again from a new snapshot).
    #: The caller may begin what needs the leaderboard alone; it waits for :attr:`computed` of the same
    #: leaderboard before it takes anything it began as final.  It returns whether what it began keeps a
    #: process busy beside this one meanwhile: the text files are then written in this process, not by one
    #: more child beside the ``.json`` (the cores are taken).
    built: Callable[[Leaderboard, Any, Callable[[], Any]], bool | None] | None = None
    #: Set by :meth:`_compute`: what :attr:`built` began keeps a process busy beside this one.
    _busy_beside: bool = False
    #: Set by :meth:`summarize` while it computes: the run index is checked against the result files
    #: in a child process meanwhile (see :meth:`assay.rundir.index.RunIndex.snapshot`), and confirmed before
    #: anything is written.
    _defer_check: bool = False

    def __init__(
        self,
        config: Mapping[str, Any],
        dataset_abbrs: Sequence[Any] | None = None,
        summary_groups: Sequence[Any] | None = None,
        prompt_db: Any = None,
        pairwise: Mapping[str, Any] | bool | None = None,
        **unknown: Any,
    ) -> None:
        if not isinstance(config, Mapping):
            raise ConfigError(f"the summarizer needs the run config as a dict, got {type(config).__name__}")
        self.cfg = config
        if pairwise is not None and not isinstance(pairwise, (bool, Mapping)):
            raise ConfigError(f"summarizer.pairwise must be a dict (rounds, seed, confidence) or a bool, got {pairwise!r}")
        #: The pairwise judge statistics' settings (``False``: none; see :meth:`pairwise_stats`).
        self.pairwise: Mapping[str, Any] | bool = True if pairwise is None else pairwise
        #: The logger this summarizer warns through (:func:`get_logger`, looked up when it is built).
        self.logger = get_logger()
        if prompt_db:
            self.logger.warning("summarizer option 'prompt_db' is deprecated and ignored; remove it from the config")
        if unknown:
            self.logger.warning("%s ignores the unknown options %s", type(self).__name__, sorted(unknown))
        self.model_cfgs: list[dict[str, Any]] = [dict(m) for m in (config.get("models") or [])]
        for m in self.model_cfgs:
            model_abbr(m)  # raises ConfigError naming the model without abbr or path
        self.config_dataset_abbrs = _config_dataset_abbrs(config)
        self.dataset_abbrs = parse_dataset_abbrs(dataset_abbrs)
        #: The ``summary_groups`` argument as given.
        self.summary_groups: Sequence[Any] = [] if summary_groups is None else summary_groups
        #: The summary groups, validated: what the summary computes.
        self.groups: list[SummaryGroup] = parse_summary_groups(
            list(summary_groups) if summary_groups is not None else None,
            dataset_abbrs=self.config_dataset_abbrs,
        )
        work_dir = config.get("work_dir")
        self.work_dir: Path | None = Path(work_dir) if isinstance(work_dir, (str, Path)) and work_dir else None

    # -- stages ------------------------------------------------------------------------------
    @property
    def run_dir(self) -> Path:
        """The run directory (``work_dir`` of the config)."""
        if self.work_dir is None:
            raise ConfigError("the run config has no 'work_dir' (the run directory to summarize)")
        return self.work_dir

    def load_scores(self) -> Scores:
        """Read every result and compute every group.

        Raises:
            InputFileError: the run directory does not exist.
        """
        run_dir = self.run_dir
        if not run_dir.is_dir():
            raise InputFileError(f"run directory {run_dir} does not exist")
        if not RunDir(run_dir).results.is_dir() and any(
            p.is_dir() and RunDir(p).results.is_dir() for p in run_dir.iterdir()
        ):
            logger.warning(
                "%s has no results/ folder but its subfolders do: work_dir should name one run directory "
                "(<work_dir>/<YYYYmmdd_HHMMSS>), not their parent",
                run_dir,
            )
        self.snapshot = None
        if self.use_index:
            from assay.rundir.index import RunIndex, index_disabled

            if not index_disabled():
                self.snapshot = RunIndex(run_dir).snapshot(deferred=self._defer_check, written=self.written)
        scores = collect_scores(self.cfg, run_dir, self.snapshot)
        apply_groups(scores, self.groups)
        return scores

    def build_rows(
        self, scores: Scores, dataset_abbrs: Sequence[Any] | None = None, *, skip_placeholders: bool = False
    ) -> list[Row]:
        """The table rows for ``dataset_abbrs`` (``None``: the default order)."""
        return build_rows(scores, dataset_abbrs, skip_placeholders=skip_placeholders)

    def output_paths(self, output_path: str | None, time_str: str) -> dict[str, Path]:
        """``txt``/``csv``/``md``/``json`` paths: ``<run_dir>/summary/summary_<time>.*``, or beside ``output_path``."""
        if output_path is None:
            stem = str(RunDir(self.run_dir).summary_stem(time_str))
        else:
            stem = output_path[:-4] if output_path.endswith(".txt") else output_path
        return {kind: Path(f"{stem}.{kind}") for kind in ("txt", "csv", "md", "json")}

    def summarize(self, output_path: str | None = None, time_str: str | None = None) -> SummaryResult:
        """Read the results, compute the groups, write the summary files and return what to print.

        Args:
            output_path: where to write the ``.txt`` (the other files go beside
                it); default ``<run_dir>/summary/summary_<time>.txt``.
            time_str: the time stamp in the file names; default now.
        """
        time_str = time_str or new_timestamp()
        self._defer_check = True
        try:
            scores, board, stats = self._compute(time_str)
        except BaseException:
            if self.snapshot is not None:
                self.snapshot.abandon()
            raise
        finally:
            self._defer_check = False
        if self.snapshot is not None and not self.snapshot.confirm():
            logger.info("result files changed since the run index was read; reading them again")
            scores, board, stats = self._compute(time_str)
        if self.computed is not None:
            self.computed(board, stats, self.snapshot)
        display = table_with_ci(board, stats) if stats is not None and self.show_ci else None

        def extra() -> dict[str, Any] | None:
            return {"stats": stats.to_json(fragments=True)} if stats is not None else None

        result = self.write_summary(
            board, render_raw(scores), output_path=output_path, display_table=display,
            shown_abbrs={r.dataset for r in board.rows}, extra=extra,
        )
        result.stats = stats
        return result

    def _compute(self, time_str: str) -> tuple[Scores, Leaderboard, Any]:
        """The scores, the leaderboard and the statistics (``None`` without them)."""
        scores = self.load_scores()
        board = self.leaderboard(scores, self.build_rows(scores, self.dataset_abbrs), time_str)
        if self.built is not None:
            self._busy_beside = bool(self.built(board, self.snapshot, partial(self.compute_stats, board)))
        return scores, board, (self.compute_stats(board) if self.with_stats else None)

    def leaderboard(self, scores: Scores, rows: Sequence[Row], time_str: str, **fields: Any) -> Leaderboard:
        """The leaderboard of ``scores`` with these rows: what every file of the summary renders."""
        fields.setdefault("header", [*HEADER, *scores.columns])
        fields.setdefault("pairwise", self.pairwise_stats())
        for key, usage in self.subjective_usage().items():
            scores.judge.setdefault(key, usage)
        return Leaderboard.from_scores(
            scores, rows, time=time_str, summarizer=type(self).__name__, group_definitions=self.group_definitions(),
            **fields,
        )

    def pairwise_stats(self) -> dict[str, Any]:
        """The pairwise judge statistics of the run's pairwise datasets (:mod:`assay.subjective.pairwise`), or ``{}``.

        Computed beside the official numbers when the config has datasets of a pairwise
        family (a pairwise summarizer or dict postprocessor) and a ``work_dir``;
        ``summarizer.pairwise=False`` leaves them out, a dict sets ``rounds`` (1,000),
        ``seed`` (0) and ``confidence`` (0.95).
        """
        if self.pairwise is False or self.work_dir is None:
            return {}
        datasets = [d for d in self.cfg.get("datasets") or [] if isinstance(d, Mapping)]
        if not any(d.get("summarizer") or _dict_postprocessor(d) for d in datasets):
            return {}  # no judged dataset: nothing to import
        from assay.subjective.pairwise import family_of, pairwise_section

        if not any(family_of(d) is not None for d in datasets):
            return {}
        options = dict(self.pairwise) if isinstance(self.pairwise, Mapping) else {}
        unknown = set(options) - {"rounds", "seed", "confidence"}
        if unknown:
            raise ConfigError(f"summarizer.pairwise: unknown key(s) {', '.join(sorted(unknown))}; allowed: rounds, seed, confidence")
        section = pairwise_section({**self.cfg, "work_dir": str(self.work_dir)}, **options)
        return section if section["entries"] else {}

    def subjective_usage(self) -> dict[tuple[str, str], dict[str, Any]]:
        """What judging the run's subjective results cost, by (judged model, dataset), with their unjudged samples
        (:func:`assay.rundir.judged.judged_usage`); ``{}`` without a ``work_dir``."""
        if self.work_dir is None:
            return {}
        from assay.rundir.judged import judged_usage
        from assay.rundir.layout import RunDir

        return judged_usage(RunDir(self.work_dir))

    def group_definitions(self) -> list[Any]:
        """The summary groups as configured (plain data), kept in the ``.json`` for re-checking."""
        from assay.config.dump import plainify

        summarizer_cfg = self.cfg.get("summarizer") or {}
        groups = summarizer_cfg.get("summary_groups") if isinstance(summarizer_cfg, Mapping) else None
        return list(plainify(list(groups or [])))

    def compute_stats(self, board: Leaderboard) -> Any:
        """Intervals and unscorable counts of every cell; ``None`` (with a warning) if they cannot be computed."""
        try:
            from assay.rundir.statistics import run_stats
            from assay.stats import SAMPLE_TEXT

            sample_text = SAMPLE_TEXT if self.with_sample_columns else None
            return run_stats(self.run_dir, board, groups=self.groups, config=self.cfg, sample_text=sample_text,
                             snapshot=self.snapshot, index=self.use_index)
        except Exception as exc:  # the table matters more than its intervals
            logger.warning("intervals could not be computed (%s: %s); the summary is written without them", type(exc).__name__, exc)
            return None

    def write_summary(
        self,
        board: Leaderboard,
        raw: str,
        *,
        output_path: str | None,
        table: list[list[str]] | None = None,
        extra: Callable[[], Mapping[str, Any] | None] | None = None,
        display_table: list[list[str]] | None = None,
        shown_abbrs: Collection[str] | None = None,
    ) -> SummaryResult:
        """Write the ``.txt``, ``.csv``, ``.md`` and ``.json`` files of one leaderboard.

        ``table`` is the text table (default: the leaderboard's rows); ``raw`` the
        ``.txt`` file's raw section.  ``display_table`` (e.g. values with intervals)
        replaces ``table`` in the text renderings (stdout, ``.txt``, ``.md``); the
        ``.csv`` keeps plain numbers.  The marks of the rows of ``shown_abbrs``
        (``None``: every marked value) are listed under the text tables; the
        ``.json`` keeps every mark.  ``extra`` gives what the ``.json`` holds
        beside the leaderboard (its statistics): for a large table it runs while
        a child process writes the text files (see :mod:`assay._beside`).
        """
        paths = self.output_paths(output_path, board.time)
        own_rows = table is None  # the leaderboard's rows: the values another tool computed are marked
        table = board.table() if table is None else table
        shown = display_table if display_table is not None else table
        csv_table = table
        sources = sources_md = ""
        if own_rows and board.sources:
            shown, csv_table = source_tags(board, shown), source_column(board, table)
            sources, sources_md = render_sources(board), render_sources_markdown(board)
        markdown = render_markdown(shown)
        marks, marks_md = render_marks(board, shown_abbrs), render_marks_markdown(board, shown_abbrs)
        if marks_md:  # what each marked value's mark means, under the table
            markdown = f"{markdown}\n{marks_md}"
        if sources_md:  # which tool computed each value so marked
            markdown = f"{markdown}\n{sources_md}"
            marks = f"{marks}\n\n{sources}" if marks else sources
        tools, tools_md = render_tool_audits(board, shown_abbrs), render_tool_audits_markdown(board, shown_abbrs)
        if tools_md:  # what another tool's own extraction of the replies scored again would give
            markdown = f"{markdown}\n{tools_md}"
            marks = f"{marks}\n\n{tools}" if marks else tools

        def write_texts() -> str:
            simple = self.render_simple(shown)
            if marks:
                simple = f"{simple}\n\n{marks}"
            atomic_write_text(paths["txt"], self.render_txt(board.time, simple, csv_table, markdown, raw))
            atomic_write_text(paths["csv"], self.render_csv(csv_table))
            atomic_write_text(paths["md"], markdown)
            return simple

        beside = None
        if extra is not None and not self._busy_beside and len(table) * len(board.models) >= BESIDE_MIN_VALUES:
            from assay._beside import Beside

            # the temporary files the child leaves when it is stopped (Ctrl-C, SIGTERM) or fails are removed by it
            beside = Beside.start(write_texts, "writing the summary's text files")
        try:
            payload = board.to_json()
            more = extra() if extra is not None else None
            if more:
                payload.update(more)
            write_json(paths["json"], payload)
            done, simple = beside.wait() if beside is not None else (False, None)
        except BaseException:
            if beside is not None:
                beside.discard()  # the child stopped: what it was writing is removed
            raise
        if not done or not isinstance(simple, str):
            simple = write_texts()
        logger.info("summary written to %s (.txt, .csv, .md, .json)", paths["txt"].with_suffix(""))
        log_issues(board)
        return SummaryResult(
            text=self.render_stdout(simple, markdown),
            table=table,
            paths=paths,
            errors=board.errors,
            warnings=board.warnings,
            time_str=board.time,
            leaderboard=board,
        )


    # -- the text renderings, which a summarizer of another layout replaces ------------------------
    def render_simple(self, table: list[list[str]]) -> str:
        """The table as the ``.txt`` file's tabulate section and stdout show it."""
        return render_simple(table, self.text_columns)

    def render_txt(self, time_str: str, simple: str, table: list[list[str]], markdown: str, raw: str) -> str:
        """The ``.txt`` file."""
        return render_txt(time_str, simple, table, markdown, raw)

    def render_csv(self, table: list[list[str]]) -> str:
        """The ``.csv`` file."""
        return render_csv(table)

    def render_stdout(self, simple: str, markdown: str) -> str:
        """What the command line prints."""
        return render_stdout(simple, markdown)


def _dict_postprocessor(dataset: Mapping[str, Any]) -> Any:
    """A dataset config's ``eval_cfg.evaluator.dict_postprocessor``, or ``None``."""
    evaluator = (dataset.get("eval_cfg") or {}).get("evaluator") if isinstance(dataset.get("eval_cfg"), Mapping) else None
    return evaluator.get("dict_postprocessor") if isinstance(evaluator, Mapping) else None


def table_with_ci(board: Leaderboard, stats: Any) -> list[list[str]]:
    """The leaderboard's table with each value followed by its 95% interval (``'62.00 [52.21, 70.96]'``)."""
    from assay.stats import format_with_ci

    models = board.models
    out = [[*HEADER, *models]]
    for row in board.rows:
        if row.placeholder:
            out.append(row.cells(models))
            continue
        shown = []
        for col in models:
            v = row.values.get(col)
            text = format_with_ci(v, stats.cell(col, row.dataset, row.metric or ""))
            shown.append(_marked(text) if col in row.marked and text != "-" else text)
        out.append([row.dataset, row.version, row.metric or "-", row.mode, *shown])
    return out


def _marked(shown: str) -> str:
    """``'62.00 [52.21, 70.96]'`` → ``'62.00* [52.21, 70.96]'``: the mark right after the value."""
    value, sep, rest = shown.partition(" ")
    return f"{value}{MARK}{sep}{rest}"


_MAX_LOGGED = 20


#: A summary with at least this many values writes its text files in a child process while it
#: writes its ``.json`` (where a second CPU and forking allow it).
BESIDE_MIN_VALUES = 20_000
#: A summary ``.json`` with more values than this is written without indentation (a leaderboard of
#: 100 models × 500 datasets: 20 MB instead of 31 MB, written in half the time); smaller ones are indented.
INDENT_MAX_VALUES = 20_000


def write_json(path: Path, payload: dict[str, Any]) -> None:
    """Write the summary JSON atomically.

    Every number in a summary is finite (non-finite metrics are reported and
    left out), so the payload is serialized directly, without the slower
    non-finite check of :func:`assay.fileio.atomic_write_json`.  It is
    indented for reading unless it holds more than :data:`INDENT_MAX_VALUES` values.
    """
    rows = payload.get("rows")
    models = payload.get("models")
    size = len(rows) * len(models) if isinstance(rows, list) and isinstance(models, list) else 0
    atomic_write_bytes(path, dumps_json(payload, indent=size <= INDENT_MAX_VALUES) + b"\n")


def log_issues(board: Leaderboard) -> None:
    """Log the problems met (the first few one by one, then a count)."""
    issues = list(board.issues())
    for issue in issues[:_MAX_LOGGED]:
        (logger.warning if issue.level == "error" else logger.info)("summary: %s", issue.describe())
    if len(issues) > _MAX_LOGGED:
        logger.warning(
            "summary: %d more problems; every one is in the raw section and the .json", len(issues) - _MAX_LOGGED
        )


def build_summarizer(config: Mapping[str, Any]) -> DefaultSummarizer:
    """Instantiate the summarizer that ``config['summarizer']`` describes (no ``type``: DefaultSummarizer).

    Raises:
        ConfigError: an unknown ``type``, an invalid option, a bad group.

    >>> s = build_summarizer({'models': [], 'datasets': [], 'work_dir': '.',
    ...                       'summarizer': {'type': 'CircularSummarizer', 'metric_types': ['acc']}})
    >>> type(s).__name__
    'CircularSummarizer'
    """
    if not isinstance(config, Mapping):
        raise ConfigError(f"the run config must be a dict, got {type(config).__name__}")
    scfg = config.get("summarizer") or {}
    if not isinstance(scfg, Mapping):
        raise ConfigError(f"config key 'summarizer' must be a dict, got {type(scfg).__name__}")
    options = dict(scfg)
    spec = options.pop("type", None)
    if spec is None:
        cls: Any = DefaultSummarizer
    else:
        try:
            cls = resolve_type(spec, SUMMARIZERS, key="summarizer.type")
        except RegistryError as exc:
            raise ConfigError(str(exc)) from None
        if not isinstance(cls, type) or not callable(getattr(cls, "summarize", None)):
            raise ConfigError(f"summarizer.type={spec!r} must be a summarizer class (with a summarize() method)")
    name = getattr(cls, "__name__", repr(cls))
    try:
        summarizer = cls(config, **options)
    except ConfigError:
        raise
    except TypeError as exc:
        raise ConfigError(f"summarizer {name}: {exc}") from exc
    if not isinstance(summarizer, DefaultSummarizer):
        logger.debug("summarizer %s does not subclass DefaultSummarizer", name)
    return summarizer


def validate_summarizer_config(config: Mapping[str, Any]) -> None:
    """Check everything about the summary that can be checked before any evaluation.

    The summarizer ``type`` and options, every summary group (keys, mixed
    subsets, weights, transforms, forward and self references), ``dataset_abbrs``,
    the models' and datasets' abbrs.  Datasets that share an abbr are not an
    error here: planning fails their tasks, or scores an exact repeat once
    (:func:`assay.config.validate.validate_datasets`), and the summary shows
    the row once, with an issue.

    Raises:
        ConfigError: naming the component and the offending key.

    >>> validate_summarizer_config({'models': [], 'datasets': [{'abbr': 'a'}], 'work_dir': '.',
    ...     'summarizer': {'summary_groups': [{'name': 'g', 'subsets': ['a'], 'weight': {'a': 1}}]}})
    Traceback (most recent call last):
    ...
    assay.errors.ConfigError: summarizer.summary_groups[0] 'g': unknown key 'weight' (did you mean 'weights'?); allowed keys: name, subsets, metric, weights, std, sum, harmonic_mean, transforms
    """
    _config_dataset_abbrs(config)
    build_summarizer(config)


def run_summarizer(
    config: Mapping[str, Any],
    *,
    time_str: str | None = None,
    output_path: str | None = None,
    ci: bool = False,
    stats: bool = True,
    index: bool = True,
    written: Mapping[str, Any] | None = None,
    computed: Callable[[Leaderboard, Any, Any], None] | None = None,
    built: Callable[[Leaderboard, Any, Callable[[], Any]], bool | None] | None = None,
) -> SummaryResult:
    """Build the configured summarizer and run it; returns what to print and the paths written.

    Raises:
        ConfigError: the summarizer config is invalid.
        InputFileError: the run directory does not exist.

    ``stats`` computes intervals and unscorable counts (from the statistics
    kept with each result, else from its per-sample details); ``ci`` also
    shows the intervals in the text tables.  ``index`` reads the results
    through the run index (:mod:`assay.rundir.index`), building or repairing it;
    the result's ``snapshot`` is what it found, for the steps that follow
    (:func:`assay.report.write_html_report`).  ``written``: the result files
    the calling command wrote and still holds the writer lock of (see
    :meth:`assay.rundir.index.RunIndex.snapshot`).  ``computed``: called with
    the leaderboard, the statistics and the snapshot before the summary files
    are written (see :attr:`DefaultSummarizer.computed`; a summarizer of
    another kind may not call it); ``built``: called with the leaderboard, the
    snapshot and a function computing the statistics as soon as the leaderboard
    is built, before its statistics (see :attr:`DefaultSummarizer.built`; nor
    may it).

    >>> import tempfile
    >>> result = run_summarizer({'models': [{'abbr': 'm'}], 'datasets': [{'abbr': 'd'}],
    ...                          'work_dir': tempfile.mkdtemp()}, time_str='20240101_000000')
    >>> sorted(result.paths), result.table[1]
    (['csv', 'json', 'md', 'txt'], ['d', '-', '-', '-', '-'])
    """
    summarizer = build_summarizer(config)
    if isinstance(summarizer, DefaultSummarizer):
        summarizer.with_stats = stats or ci
        summarizer.show_ci = ci
        summarizer.use_index = index
        summarizer.written = written
        summarizer.computed = computed
        summarizer.built = built
    with bulk_allocations():  # tens of thousands of small results, statistics and rows: no cycles among them
        result = summarizer.summarize(output_path=output_path, time_str=time_str)
    if isinstance(result, SummaryResult):
        if result.snapshot is None:
            result.snapshot = getattr(summarizer, "snapshot", None)
        return result
    logger.debug("%s.summarize() returned %r, not a SummaryResult", type(summarizer).__name__, type(result))
    return SummaryResult(time_str=time_str or "")


def results_leaderboard(run_dir: str | os.PathLike[str]) -> Leaderboard:
    """The leaderboard of a run's result files as they are, without a config: each folder under
    ``results/`` a model, each result a dataset (split parts ``<abbr>_<i>.json`` one), no groups.

    Nothing is written.
    """
    root = Path(run_dir)
    results = RunDir(root).results
    folders = sorted(p.name for p in results.iterdir() if p.is_dir()) if results.is_dir() else []
    stems: dict[str, None] = {}
    for folder in folders:
        names = {p.stem for p in (results / folder).glob("*.json")}
        for name in sorted(names):
            base, _, part = name.rpartition("_")
            whole = base if part.isdigit() and base and base not in names and f"{base}_0" in names else name
            stems.setdefault(whole, None)
    config = {"models": [{"abbr": f} for f in folders], "datasets": [{"abbr": a} for a in stems], "work_dir": str(root)}
    summarizer = DefaultSummarizer(config)
    scores = summarizer.load_scores()
    return summarizer.leaderboard(scores, summarizer.build_rows(scores), "")


def leaderboard_of(summary: Any, run_dir: str | os.PathLike[str]) -> Leaderboard:
    """The leaderboard of a summary: a :class:`Leaderboard`, what a summarizer returned, a parsed
    summary ``.json``, or ``None`` — the newest ``summary/*.json`` of ``run_dir``, else the
    leaderboard of its result files (:func:`results_leaderboard`).

    Raises:
        InputFileError: the summary ``.json`` cannot be read (naming it).
        TypeError: ``summary`` is none of these.
    """
    from assay.summarize.leaderboard import newest_summary_json

    if isinstance(summary, Leaderboard):
        return summary
    if summary is None:
        path = newest_summary_json(run_dir)
        return Leaderboard.from_json(path) if path is not None else results_leaderboard(run_dir)
    board = getattr(summary, "leaderboard", None)
    if isinstance(board, Leaderboard):
        return board
    if isinstance(summary, Mapping):
        return Leaderboard.from_json(summary)
    raise TypeError(f"cannot read a leaderboard from {type(summary).__name__}")

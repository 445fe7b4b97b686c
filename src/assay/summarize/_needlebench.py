"""OpenCompass's NeedleBench summarizers: ``NeedleBenchSummarizer``, ``NeedleBenchSummarizerV2`` and
``NeedleBenchATCSummarizer``.

They compute what OpenCompass 0.5.4's summarizers of the same names compute,
its quirks included (each class says which); their table is a
:class:`~assay.summarize.leaderboard.Leaderboard` like every summarizer's.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from assay.groups import MARK, Scores, SummaryIssue, SummaryResult
from assay.registry import SUMMARIZERS
from assay.rundir.layout import new_timestamp
from assay.summarize._default import DefaultSummarizer
from assay.summarize._table import default_row_keys, render_raw
from assay.summarize.leaderboard import DASH, Leaderboard, Row
from assay.summarize.needle_grid import draw_grid, opencompass_plot_grids

__all__ = ["NeedleBenchATCSummarizer", "NeedleBenchSummarizer", "NeedleBenchSummarizerV2"]

logger = logging.getLogger(__name__)

_RULE = 128
#: A dataset or group with at least this many metrics shows ``average_score``, whichever metric is asked for.
MANY_METRICS = 10


@SUMMARIZERS.register_module()
class NeedleBenchSummarizer(DefaultSummarizer):
    """NeedleBench's table and its depth × length heatmaps, as OpenCompass 0.5.4's ``NeedleBenchSummarizer``.

    Options as :class:`DefaultSummarizer` (``dataset_abbrs``, ``summary_groups``);
    the library's ``configs/summarizers/needlebench.py`` builds them.

    The table has one text column, ``dataset``, then one column per model:
    a row whose abbr is no dataset or group with a value (a
    ``--------- … ---------`` separator, an unknown abbr) is a row of ``-``
    followed by the header row again, as OpenCompass repeats it.  An abbr
    with ten metrics or more shows ``average_score`` whatever metric was asked
    for (so, without ``dataset_abbrs``, a multi-needle retrieval dataset
    shows its ``average_score`` once per metric it has).  Where OpenCompass
    picks a metric of an abbr listed alone from an unordered set, assay
    shows its first metric (the one the default summarizer shows); the
    library's configs never leave that choice open.  Values have two
    decimals; a marked value has ``*``.

    Files: ``summary_<time>.txt`` in OpenCompass's NeedleBench layout (its
    tabulate section as :mod:`tabulate` lays out the rows, numbers in its
    default format: ``100``, not ``100.00``; csv; raw), ``.csv``, assay's
    ``.md`` and ``.json``, and the heatmaps under ``summary/plots/``: the
    files OpenCompass writes (see
    :func:`assay.summarize.needle_grid.opencompass_plot_grids`), drawn from
    the results (OpenCompass draws them from the text it wrote), with every
    cell's value in it.  The heatmaps need matplotlib (``pip install
    assay[plots]``); without it the summary is written and a warning says
    why no heatmap was drawn.

    OpenCompass's own quirks of the library config are kept, since they are
    what its table shows: ``Single-Needle-Retrieval(S-RT)-<size>`` and its
    ``-EN``/``-ZH`` groups average the multi-needle retrieval datasets'
    ``average_score`` (the config lists ``Length<n>_parallel_…`` there), so
    they equal the ``Multi-Needle-Retrieval`` rows; the heatmaps average the
    single-needle datasets.
    """

    text_columns = 1
    #: Overall heatmaps: the plain mean of the three kinds (``NeedleBenchSummarizerV2``), else 0.4/0.3/0.3.
    plot_mean = False
    #: Draw the heatmaps under ``summary/plots/``.
    draw_plots = True

    def summarize(self, output_path: str | None = None, time_str: str | None = None) -> SummaryResult:
        """Write the summary files and the heatmaps; return what to print."""
        time_str = time_str or new_timestamp()
        scores = self.load_scores()
        rows = self.needle_rows(scores)
        board = self.leaderboard(scores, rows, time_str, header=["dataset", *scores.columns])
        stats = self.compute_stats(board) if self.with_stats else None

        def extra() -> dict[str, Any] | None:
            return {"stats": stats.to_json(fragments=True)} if stats is not None else None

        result = self.write_summary(board, render_raw(scores), output_path=output_path, table=self.needle_table(board),
                                    shown_abbrs={r.dataset for r in board.rows}, extra=extra)
        result.stats = stats
        self.after_write(board, scores, result)
        if self.draw_plots:
            result.paths.update(self.write_plots(scores, result.paths["txt"].parent / "plots"))
        return result

    def after_write(self, board: Leaderboard, scores: Scores, result: SummaryResult) -> None:
        """What a subclass writes beside the summary files (nothing here)."""

    # -- the table ------------------------------------------------------------------------------
    def needle_rows(self, scores: Scores) -> list[Row]:
        """The rows: ``dataset_abbrs`` in order (default: every metric of every dataset, then of every group)."""
        keys = default_row_keys(scores) if self.dataset_abbrs is None else [
            (item, None) if isinstance(item, str) else (item[0], item[1]) for item in self.dataset_abbrs
        ]
        columns = scores.columns
        rows: list[Row] = []
        for abbr, wanted in keys:
            metrics = scores.metrics.get(abbr) or []
            if not metrics or not any(abbr in scores.values[c] for c in columns):
                missing = {c: scores.cell_errors.get((c, abbr), "no dataset or group with a value") for c in columns}
                rows.append(Row(abbr, DASH, DASH, DASH, dict.fromkeys(columns), missing, placeholder=True))
                continue
            metric = "average_score" if len(metrics) >= MANY_METRICS else wanted
            if metric is None:
                metric = metrics[0]
            elif metric not in metrics:
                rows.append(Row(abbr, DASH, metric, DASH, dict.fromkeys(columns),
                                dict.fromkeys(columns, f"{abbr} has no metric {metric!r}"), placeholder=True))
                continue
            values = {c: scores.values[c].get(abbr, {}).get(metric) for c in columns}
            missing = {c: scores.cell_errors.get((c, abbr), f"{c} has no value for {abbr} {metric}")
                       for c, v in values.items() if v is None}
            marked = tuple(c for c, v in values.items() if v is not None and (c, abbr) in scores.marks)
            rows.append(Row(abbr, scores.versions.get(abbr, DASH), metric, scores.modes.get(abbr, DASH), values,
                            missing, marked=marked))
        return rows

    def needle_table(self, board: Leaderboard) -> list[list[str]]:
        """The text table: ``dataset`` and one column per model; after a row of ``-`` for an abbr without values,
        the header again."""
        header = ["dataset", *board.models]
        table = [header]
        for row in board.rows:
            if row.placeholder:
                table.append([row.dataset, *[DASH] * len(board.models)])
                if row.metric == DASH:  # no such dataset or group: OpenCompass repeats the header
                    table.append(list(header))
                continue
            table.append([row.dataset, *[
                DASH if (v := row.values.get(m)) is None else f"{v:.2f}{MARK if m in row.marked else ''}"
                for m in board.models
            ]])
        return table

    # -- the text renderings ----------------------------------------------------------------------
    def render_simple(self, table: list[list[str]]) -> str:
        import tabulate

        return str(tabulate.tabulate(table, headers="firstrow"))

    def render_txt(self, time_str: str, simple: str, table: list[list[str]], markdown: str, raw: str) -> str:
        top, bottom = "^" * _RULE, "$" * _RULE
        divider = "-" * _RULE + " THIS IS A DIVIDER " + "-" * _RULE
        csv = "\n".join(",".join(row) for row in table)
        return (f"{time_str}\ntabulate format\n{top}\n{simple}\n{bottom}\n\n{divider}\n\n"
                f"csv format\n{top}\n{csv}\n{bottom}\n\n{divider}\n\n"
                f"raw format\n{top}\n{raw}\n{bottom}\n")

    def render_csv(self, table: list[list[str]]) -> str:
        return "\n".join(",".join(row) for row in table) + "\n"

    def render_stdout(self, simple: str, markdown: str) -> str:
        return simple

    # -- the heatmaps -----------------------------------------------------------------------------
    def write_plots(self, scores: Scores, folder: Path) -> dict[str, Path]:
        """Draw OpenCompass's heatmaps into ``folder``; returns ``plots/<file>`` → path of each one drawn."""
        abbrs = list(dict.fromkeys(a for c in scores.columns for a in scores.values[c]))
        grids = opencompass_plot_grids(scores.values, scores.columns, abbrs, mean=self.plot_mean)
        if not grids:
            return {}
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            message = (f"{type(self).__name__}: the {len(grids)} heatmaps were not drawn: matplotlib is not "
                       "installed (pip install 'assay[plots]')")
            logger.warning("%s", message)
            scores.add_issue(SummaryIssue("warning", message))
            return {}
        out: dict[str, Path] = {}
        for name, grid in grids:
            out[f"plots/{name}"] = draw_grid(grid, folder / name)
        logger.info("%d heatmaps written under %s", len(out), folder)
        return out


@SUMMARIZERS.register_module()
class NeedleBenchSummarizerV2(NeedleBenchSummarizer):
    """:class:`NeedleBenchSummarizer` whose overall heatmaps take the plain mean of the three kinds
    (OpenCompass 0.5.4's ``NeedleBenchSummarizerV2``, which the library's ``needlebench_v2_*`` summarizers use)."""

    plot_mean = True


_NEEDLES = re.compile(r"needle_(\d+)_")
#: The four ATC settings and the pattern of their abbrs (searched, as a regular expression).
ATC_SETTINGS = (("en", "_en$"), ("zh", "_zh$"), ("en_ordered", "_en_ordered"), ("zh_ordered", "_zh_ordered"))
#: The score below which a needle count counts as failed.
ATC_PASS = 60


@SUMMARIZERS.register_module()
class NeedleBenchATCSummarizer(NeedleBenchSummarizer):
    """NeedleBench-ATC: the table of :class:`NeedleBenchSummarizer`, and in the ``.csv`` the most needles
    each model handles per setting, as OpenCompass 0.5.4's ``NeedleBenchATCSummarizer``.

    The ``.txt`` holds the table; the ``.csv`` is then replaced by one row per
    setting (``en``, ``zh``, ``en_ordered``, ``zh_ordered``: the rows whose
    abbr matches ``_en$``, ``_zh$``, ``_en_ordered``, ``_zh_ordered``) and one
    column per model *whose abbr contains a ``b``* (OpenCompass keeps only
    those columns).  A model's value is the needle count (``needle_<n>_`` in
    the abbr) before the last run of scores below 60, counts ascending, a
    ``-`` counting as below; ``0`` when the smallest count is below; the
    largest count when no score is below.  A setting without rows gives no
    value (an empty cell, and every value written as a float).  No heatmap is
    drawn (OpenCompass draws none).

    Where a row of the table names no needle count (a separator, a missing
    dataset, its repeated header) OpenCompass stops with an error after
    writing the table; assay keeps the table as the ``.csv`` and reports the
    row in a warning.
    """

    draw_plots = False

    def after_write(self, board: Leaderboard, scores: Scores, result: SummaryResult) -> None:
        from assay.fileio import atomic_write_text

        table = result.table
        try:
            text = atc_max_needles_csv(table)
        except ValueError as exc:
            message = f"NeedleBenchATCSummarizer: {result.paths['csv']}: the table is kept as it is: {exc}"
            logger.warning("%s", message)
            result.warnings.append(SummaryIssue("warning", message))
            return
        atomic_write_text(result.paths["csv"], text)


def atc_max_needles_csv(table: Sequence[Sequence[str]]) -> str:
    """The ``.csv`` of :class:`NeedleBenchATCSummarizer` from its text table (header first).

    Raises:
        ValueError: a row names no needle count (naming the row).

    >>> atc_max_needles_csv([['dataset', 'm-7b', 'gpt'], ['x_needle_2_en', '90.00', '10.00'],
    ...                      ['x_needle_5_en', '50.00', '10.00'], ['x_needle_8_en', '70.00', '-']])
    'ATC Experiment Type,m-7b\\nen,2.0\\nzh,\\nen_ordered,\\nzh_ordered,\\n'
    """
    header, body = list(table[0]), [list(r) for r in table[1:]]
    counts: list[int] = []
    for row in body:
        m = _NEEDLES.search(row[0])
        if m is None:
            raise ValueError(f"row {row[0]!r} names no needle count (needle_<n>_)")
        counts.append(int(m[1]))
    models = [(k, name) for k, name in enumerate(header) if k > 0 and "b" in name]
    results: dict[str, dict[str, float | None]] = {}
    for setting, pattern in ATC_SETTINGS:
        rows = sorted(((counts[i], body[i]) for i in range(len(body)) if re.search(pattern, body[i][0])),
                      key=lambda p: p[0])
        per: dict[str, float | None] = {}
        for k, name in models:
            best: float | None = None
            low, previous = 0, 0
            for count, row in rows:
                try:
                    score = float(row[k].rstrip(MARK))
                except ValueError:
                    score = -1.0
                if score < ATC_PASS:
                    low += 1
                    if low == 1:
                        best = previous
                else:
                    low = 0
                previous = count
            if best is None:
                best = max((c for c, _ in rows), default=None)
            per[name] = best
        results[setting] = per
    lines = [",".join(["ATC Experiment Type", *(name for _, name in models)])]
    # one missing value makes every value a float (the transposed frame has one dtype)
    floats = any(v is None for per in results.values() for v in per.values())
    for setting, _ in ATC_SETTINGS:
        cells = []
        for _, name in models:
            v = results[setting][name]
            cells.append("" if v is None or (isinstance(v, float) and math.isnan(v))
                         else f"{float(v)!r}" if floats else str(int(v)))
        lines.append(",".join([setting, *cells]))
    return "\n".join(lines) + "\n"


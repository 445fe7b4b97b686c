"""``CircularSummarizer``: one row per abbr, one column per model × metric type (R-7.7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from assay.errors import ConfigError
from assay.groups import MARK, SummaryResult
from assay.registry import SUMMARIZERS
from assay.rundir.layout import new_timestamp
from assay.summarize._default import DefaultSummarizer
from assay.summarize._table import format_value, render_raw
from assay.summarize.leaderboard import DASH, Leaderboard, Row

__all__ = ["CircularSummarizer"]


@SUMMARIZERS.register_module()
class CircularSummarizer(DefaultSummarizer):
    """A table with two header rows: model names over their metric columns, then the metric names.

    Made for circular evaluation, whose datasets report several metrics
    (``acc_origin``, ``perf_circular``, …) that read best side by side.

    Args:
        config: the run config (see :class:`DefaultSummarizer`).
        dataset_abbrs: the rows, abbrs only (``''`` for a separator).  Omitted:
            every dataset of the run, then every computed group.
        summary_groups: as for :class:`DefaultSummarizer`.
        metric_types: the metrics shown for each model, in order (required).

    The columns are ``dataset, version, mode`` then, for each model, one
    column per metric type; a missing value is ``-``.  The values of a marked
    cell (an incomplete result, one changed after it was computed or not
    re-scored, a group computed from such) are followed by ``*``, every
    metric of it, and listed under the table, as by :class:`DefaultSummarizer`.

    >>> import tempfile
    >>> cfg = {'models': [{'abbr': 'm1'}], 'datasets': [{'abbr': 'd'}], 'work_dir': tempfile.mkdtemp()}
    >>> table = CircularSummarizer(cfg, metric_types=['acc', 'perf']).summarize(time_str='t').table
    >>> table[0], table[1]
    (['dataset', 'version', 'mode', 'm1', '-'], ['-', '-', '-', 'acc', 'perf'])
    """

    text_columns = 3

    def __init__(
        self,
        config: Mapping[str, Any],
        dataset_abbrs: Sequence[Any] | None = None,
        summary_groups: Sequence[Any] | None = None,
        prompt_db: Any = None,
        metric_types: Sequence[str] | None = None,
        **unknown: Any,
    ) -> None:
        super().__init__(config, None, summary_groups, prompt_db, **unknown)
        if (
            not isinstance(metric_types, Sequence)
            or isinstance(metric_types, str)
            or not metric_types
            or not all(isinstance(m, str) and m for m in metric_types)
        ):
            raise ConfigError(
                f"CircularSummarizer: key 'metric_types' must be a non-empty list of metric names, got {metric_types!r}"
            )
        self.metric_types = list(metric_types)
        self.row_abbrs: list[str] | None = None
        if dataset_abbrs is not None:
            if isinstance(dataset_abbrs, str) or not isinstance(dataset_abbrs, Sequence):
                raise ConfigError("CircularSummarizer: key 'dataset_abbrs' must be a list of abbrs")
            for i, item in enumerate(dataset_abbrs):
                if not isinstance(item, str):
                    raise ConfigError(
                        f"CircularSummarizer: dataset_abbrs[{i}] must be an abbr string (the metric columns come "
                        f"from metric_types), got {item!r:.80}"
                    )
            self.row_abbrs = list(dataset_abbrs)

    def summarize(self, output_path: str | None = None, time_str: str | None = None) -> SummaryResult:
        """Write ``summary_<time>.{txt,csv,md,json}`` with the two-header-row table."""
        time_str = time_str or new_timestamp()
        scores = self.load_scores()
        abbrs = self.row_abbrs if self.row_abbrs is not None else scores.dataset_abbrs + scores.groups
        rows: list[Row] = []
        for abbr in abbrs:
            if abbr not in scores.metrics:
                rows.append(Row(abbr, metric=None, placeholder=True))
                continue
            values: dict[str, dict[str, float | None]] = {}
            marked: list[str] = []
            for column in scores.columns:
                got = scores.values[column].get(abbr, {})
                values[column] = {m: got.get(m) for m in self.metric_types}
                if (column, abbr) in scores.marks and any(got.get(m) is not None for m in self.metric_types):
                    marked.append(column)
            rows.append(Row(abbr, scores.versions.get(abbr, DASH), None, scores.modes.get(abbr, DASH),
                            marked=tuple(marked), metric_values=values))
        board = self.leaderboard(scores, rows, time_str, header=self._header(scores.columns)[0],
                                 metric_types=list(self.metric_types))
        return self.write_summary(
            board, render_raw(scores), table=self.table(board), output_path=output_path, shown_abbrs=set(abbrs),
        )

    def _header(self, columns: list[str]) -> tuple[list[str], list[str]]:
        k = len(self.metric_types)
        header1 = ["dataset", "version", "mode"]
        header2 = [DASH, DASH, DASH]
        for column in columns:
            header1 += [column] + [DASH] * (k - 1)
            header2 += self.metric_types
        return header1, header2

    def table(self, board: Leaderboard) -> list[list[str]]:
        """The two header rows, then one row per abbr: each model's value of each metric type."""
        k = len(self.metric_types)
        table = [*self._header(board.models)]
        for row in board.rows:
            if row.placeholder or row.metric_values is None:
                table.append([row.dataset, DASH, DASH] + [DASH] * (k * len(board.models)))
                continue
            cells = [row.dataset, row.version, row.mode]
            for column in board.models:
                got = row.metric_values.get(column, {})
                mark = MARK if column in row.marked else ""
                cells += [DASH if (v := got.get(m)) is None else f"{format_value(v)}{mark}" for m in self.metric_types]
            table.append(cells)
        return table

"""``MultiFacetedSummarizer``: several named views of one set of scores (R-7.7)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay._dataclass import FrozenMethods
from assay.errors import ConfigError
from assay.fileio import atomic_write_text
from assay.groups import SummaryResult
from assay.registry import SUMMARIZERS
from assay.rundir.layout import new_timestamp
from assay.summarize._default import (
    DatasetAbbrs,
    DefaultSummarizer,
    log_issues,
    parse_dataset_abbrs,
    write_json,
)
from assay.summarize._table import (
    render_csv,
    render_markdown,
    render_marks,
    render_marks_markdown,
    render_raw,
    render_simple,
)
from assay.summarize.leaderboard import HEADER, Leaderboard, LeaderboardView

__all__ = ["MultiFacetedSummarizer", "SummaryFacet"]

_RULE = 128


@dataclass(repr=False, eq=False)
class SummaryFacet(FrozenMethods):
    """One named table: its rows are chosen by ``dataset_abbrs`` (``None``: the default order)."""

    name: str
    dataset_abbrs: DatasetAbbrs | None


def _parse_views(value: Any) -> list[SummaryFacet]:
    where = "MultiFacetedSummarizer: key 'dataset_abbrs_list'"
    if value is None:
        return [SummaryFacet("all", None)]
    if isinstance(value, (str, Mapping)) or not isinstance(value, Sequence) or not value:
        raise ConfigError(f"{where} must be a non-empty list of dict(name=..., dataset_abbrs=[...])")
    views: list[SummaryFacet] = []
    names: set[str] = set()
    for i, item in enumerate(value):
        if not isinstance(item, Mapping):
            raise ConfigError(f"{where}[{i}] must be a dict with 'name' and 'dataset_abbrs', got {item!r:.80}")
        unknown = sorted(set(item) - {"name", "dataset_abbrs"})
        if unknown:
            raise ConfigError(f"{where}[{i}]: unknown keys {unknown}; allowed keys: name, dataset_abbrs")
        name = item.get("name")
        if not isinstance(name, str) or not name or name in (".", "..") or "/" in name or "\\" in name:
            raise ConfigError(f"{where}[{i}]: key 'name' must be a file name without '/', got {name!r}")
        if name in names:
            raise ConfigError(f"{where}[{i}]: key 'name' repeats the view name {name!r}")
        names.add(name)
        views.append(SummaryFacet(name, parse_dataset_abbrs(item.get("dataset_abbrs"), f"{where}[{i}].dataset_abbrs")))
    return views


@SUMMARIZERS.register_module()
class MultiFacetedSummarizer(DefaultSummarizer):
    """Scores are read and groups computed once; each named view is its own table.

    Args:
        config: the run config (see :class:`DefaultSummarizer`).
        dataset_abbrs_list: ``[dict(name=..., dataset_abbrs=[...]), ...]``; omitted,
            one view ``all`` with the default rows.
        summary_groups: as for :class:`DefaultSummarizer`.

    Files: ``summary/summary_<time>/<name>.csv`` (as OpenCompass) and ``<name>.md``
    for each view that has a row; ``summary/summary_<time>.txt`` with every
    view's table and the raw section; ``summary/summary_<time>.json`` with every
    view's rows, every score and every error.  Rows of ``-`` (separators,
    unknown abbrs) are left out of views, and a view without rows is skipped.
    Marked values (see :class:`DefaultSummarizer`) are followed by ``*`` in
    every view, and each view's ``.md`` and text list the marks of its rows.

    >>> import tempfile
    >>> cfg = {'models': [{'abbr': 'm1'}], 'datasets': [{'abbr': 'd'}], 'work_dir': tempfile.mkdtemp()}
    >>> s = MultiFacetedSummarizer(cfg, dataset_abbrs_list=[{'name': 'main', 'dataset_abbrs': ['d']}])
    >>> sorted(s.summarize(time_str='t').paths)
    ['json', 'txt']
    """

    def __init__(
        self,
        config: Mapping[str, Any],
        dataset_abbrs_list: Sequence[Mapping[str, Any]] | None = None,
        summary_groups: Sequence[Any] | None = None,
        prompt_db: Any = None,
        **unknown: Any,
    ) -> None:
        super().__init__(config, None, summary_groups, prompt_db, **unknown)
        self.views = _parse_views(dataset_abbrs_list)

    def summarize(self, output_path: str | None = None, time_str: str | None = None) -> SummaryResult:
        """Write one csv (and md) per view, plus the ``.txt`` and ``.json`` of all views."""
        time_str = time_str or new_timestamp()
        scores = self.load_scores()
        views = []
        for view in self.views:
            rows = self.build_rows(scores, view.dataset_abbrs, skip_placeholders=True)
            views.append(LeaderboardView(view.name, [*HEADER, *scores.columns] if rows else None, rows))
        main = next((v.rows for v in views if v.rows), [])
        board = self.leaderboard(scores, main, time_str, header=None, views=views)
        return self.write_views(board, render_raw(scores), output_path)

    def write_views(self, board: Leaderboard, raw: str, output_path: str | None) -> SummaryResult:
        """Write the files of a leaderboard of views (see the class)."""
        paths = self.output_paths(output_path, board.time)
        view_dir = Path(str(paths["txt"])[: -len(".txt")])
        texts: list[str] = []
        sections: list[str] = []
        result_paths: dict[str, Path] = {}
        first_table: list[list[str]] = []
        for view in board.views or []:
            if not view.rows:
                continue
            table = board.table(view.rows)
            first_table = first_table or table
            simple = render_simple(table, self.text_columns)
            shown = {r.dataset for r in view.rows}
            markdown = render_markdown(table)
            if board.marks:  # what the view's marks mean, under its table
                marks, marks_md = render_marks(board, shown), render_marks_markdown(board, shown)
                simple = f"{simple}\n\n{marks}" if marks else simple
                markdown = f"{markdown}\n{marks_md}" if marks_md else markdown
            csv_path, md_path = view_dir / f"{view.name}.csv", view_dir / f"{view.name}.md"
            atomic_write_text(csv_path, render_csv(table))
            atomic_write_text(md_path, markdown)
            result_paths[f"{view.name}.csv"], result_paths[f"{view.name}.md"] = csv_path, md_path
            texts.append(f"{view.name}\n{simple}")
            sections.append(f"view {view.name}\n{'^' * _RULE}\n{simple}\n{'$' * _RULE}\n")
        sections.append(f"raw format\n{'^' * _RULE}\n{raw}\n{'$' * _RULE}\n")
        atomic_write_text(paths["txt"], f"{board.time}\n" + "\n".join(sections))
        write_json(paths["json"], board.to_json())
        log_issues(board)
        result_paths = {"txt": paths["txt"], "json": paths["json"], **result_paths}
        return SummaryResult(
            text="\n\n".join(texts),
            table=first_table,
            paths=result_paths,
            errors=board.errors,
            warnings=board.warnings,
            time_str=board.time,
            leaderboard=board,
        )

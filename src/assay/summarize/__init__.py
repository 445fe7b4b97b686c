"""Summarizers: from a run's result files to leaderboard tables (R-7).

``DefaultSummarizer`` reads ``<run_dir>/results/<model>/<dataset>.json``,
computes ``summary_groups`` and writes ``<run_dir>/summary/summary_<time>.{txt,csv,md,json}``.
It needs the result files only: no dataset is loaded.

Example:
    >>> import json, pathlib, tempfile
    >>> from assay.summarize import run_summarizer
    >>> run = pathlib.Path(tempfile.mkdtemp())
    >>> for abbr, acc in [('a', 60), ('b', 90)]:
    ...     p = run / 'results' / 'm1' / f'{abbr}.json'
    ...     p.parent.mkdir(parents=True, exist_ok=True)
    ...     _ = p.write_text(json.dumps({'accuracy': acc}))
    >>> config = {'models': [{'abbr': 'm1'}], 'datasets': [{'abbr': 'a'}, {'abbr': 'b'}],
    ...           'work_dir': str(run),
    ...           'summarizer': {'summary_groups': [{'name': 'avg', 'subsets': [['a', 'accuracy'], ['b', 'accuracy']]}]}}
    >>> result = run_summarizer(config, time_str='20240101_000000')
    >>> result.table[-1]
    ['avg', '-', 'naive_average', '-', '75.00']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from assay._discover import lazy_names

if TYPE_CHECKING:
    from assay.groups import (
        Scores,
        Subset,
        SummaryGroup,
        SummaryIssue,
        SummaryResult,
        Transform,
        TransformError,
        aggregate,
        compile_transform,
        parse_summary_groups,
    )
    from assay.summarize._bradley_terry import CompassArenaBradleyTerrySummarizer
    from assay.summarize._circular import CircularSummarizer
    from assay.summarize._collect import eval_mode, prompt_hash, prompt_version
    from assay.summarize._default import (
        DefaultSummarizer,
        build_summarizer,
        leaderboard_of,
        results_leaderboard,
        run_summarizer,
        validate_summarizer_config,
    )
    from assay.summarize._multi_faceted import MultiFacetedSummarizer, SummaryFacet
    from assay.summarize._needlebench import NeedleBenchATCSummarizer, NeedleBenchSummarizer, NeedleBenchSummarizerV2
    from assay.summarize._subjective import DefaultSubjectiveSummarizer
    from assay.summarize._subjective_summary import SubjectiveSummarizer, flatten_scores
    from assay.summarize.leaderboard import Cell, Leaderboard, LeaderboardView, Row, newest_summary_json

#: Each module and the names exported here from it, imported the first time one of them is asked for
#: (a summary imports only the summarizer it runs).
_WHERE = {
    "assay.groups": (
        "Scores",
        "Subset",
        "SummaryGroup",
        "SummaryIssue",
        "SummaryResult",
        "Transform",
        "TransformError",
        "aggregate",
        "compile_transform",
        "parse_summary_groups",
    ),
    "_bradley_terry": ("CompassArenaBradleyTerrySummarizer",),
    "_circular": ("CircularSummarizer",),
    "_collect": ("eval_mode", "prompt_hash", "prompt_version"),
    "_default": (
        "DefaultSummarizer",
        "build_summarizer",
        "leaderboard_of",
        "results_leaderboard",
        "run_summarizer",
        "validate_summarizer_config",
    ),
    "_multi_faceted": ("MultiFacetedSummarizer", "SummaryFacet"),
    "_needlebench": ("NeedleBenchATCSummarizer", "NeedleBenchSummarizer", "NeedleBenchSummarizerV2"),
    "_subjective": ("DefaultSubjectiveSummarizer",),
    "_subjective_summary": ("SubjectiveSummarizer", "flatten_scores"),
    "leaderboard": ("Cell", "Leaderboard", "LeaderboardView", "Row", "newest_summary_json"),
}

__all__ = [
    "Cell",
    "CircularSummarizer",
    "CompassArenaBradleyTerrySummarizer",
    "DefaultSubjectiveSummarizer",
    "DefaultSummarizer",
    "Leaderboard",
    "LeaderboardView",
    "MultiFacetedSummarizer",
    "NeedleBenchATCSummarizer",
    "NeedleBenchSummarizer",
    "NeedleBenchSummarizerV2",
    "Row",
    "Scores",
    "SubjectiveSummarizer",
    "Subset",
    "SummaryGroup",
    "SummaryIssue",
    "SummaryResult",
    "SummaryFacet",
    "Transform",
    "TransformError",
    "aggregate",
    "build_summarizer",
    "compile_transform",
    "leaderboard_of",
    "eval_mode",
    "flatten_scores",
    "newest_summary_json",
    "parse_summary_groups",
    "prompt_hash",
    "prompt_version",
    "results_leaderboard",
    "run_summarizer",
    "validate_summarizer_config",
]
_getattr = lazy_names(__name__, _WHERE)


def __getattr__(name: str) -> Any:
    return _getattr(name)

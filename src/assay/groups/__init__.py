"""Summary groups: the scores table they read, their parsing, planning and aggregation.

A leaf of the package: it imports nothing of assay but its errors, so that
the summarizers (:mod:`assay.summarize`) that compute the groups and the
statistics (:mod:`assay.stats`) that give them intervals both build on it
without importing each other.

    >>> groups = parse_summary_groups([{'name': 'avg', 'subsets': ['a', 'b']}])
    >>> groups[0].name, [s.abbr for s in groups[0].subsets]
    ('avg', ['a', 'b'])
"""

from __future__ import annotations

from assay.groups._expr import Transform, TransformError, compile_transform
from assay.groups._groups import (
    OWN_SOURCE,
    Subset,
    SummaryGroup,
    aggregate,
    apply_groups,
    group_source,
    left_sum,
    parse_summary_groups,
)
from assay.groups._model import MARK, CellMark, Scores, SummaryIssue, SummaryResult, incomplete_marks

__all__ = [
    "MARK",
    "OWN_SOURCE",
    "CellMark",
    "Scores",
    "Subset",
    "SummaryGroup",
    "SummaryIssue",
    "SummaryResult",
    "Transform",
    "TransformError",
    "aggregate",
    "apply_groups",
    "compile_transform",
    "group_source",
    "incomplete_marks",
    "left_sum",
    "parse_summary_groups",
]

"""One result's per-sample details, looked at column by column.

Most details are uniform: every entry is a dict with the same few keys, each
holding a one-element list.  :class:`Details` finds out once whether that is
so and hands out whole columns, so that the statistics and the report can
treat the common layout with list comprehensions and array operations and
keep the entry-by-entry rules for everything else.
"""

from __future__ import annotations

from itertools import chain
from operator import itemgetter
from typing import Any

__all__ = ["Details", "flat_runs"]


class Details:
    """The details of one result (a list), with the keys its entries have and columns on demand.

    Attributes:
        items: the entries, in sample order.
        all_dicts: every entry is a plain ``dict``.
        keys: the keys found in any entry (empty unless ``all_dicts``).

    >>> d = Details([{'correct': [True], 'pred': ['A']}, {'correct': [False]}])
    >>> d.all_dicts, sorted(d.keys), d.column('pred'), d.column('correct'), d.runs('correct')
    (True, ['correct', 'pred'], None, [[True], [False]], ([True, False], 1))
    """

    def __init__(self, items: list[Any]) -> None:
        self.items = items
        self.n = len(items)
        self.all_dicts = set(map(type, items)) <= {dict}
        self.keys: set[str] = set(chain.from_iterable(items)) if self.all_dicts else set()
        self._columns: dict[str, list[Any] | None] = {}
        self._runs: dict[str, tuple[list[Any], int] | None] = {}
        self._types: dict[str, set[type]] = {}

    def present(self, names: tuple[str, ...]) -> list[str]:
        """Those of ``names`` that some entry has, in the order given."""
        return [k for k in names if k in self.keys]

    def column(self, key: str) -> list[Any] | None:
        """Every entry's value of ``key``; ``None`` unless every entry is a dict that has it."""
        if key in self._columns:
            return self._columns[key]
        col: list[Any] | None = None
        if self.all_dicts and key in self.keys:
            try:
                col = list(map(itemgetter(key), self.items))
            except KeyError:
                col = None
        self._columns[key] = col
        return col

    def types(self, key: str) -> set[type]:
        """The types of the values of ``key`` (empty when not every entry has it)."""
        if key not in self._types:
            column = self.column(key)
            self._types[key] = set(map(type, column)) if column is not None else set()
        return self._types[key]

    def runs(self, key: str) -> tuple[list[Any], int] | None:
        """:func:`flat_runs` of the column of ``key``; ``None`` when there is no such column or layout."""
        if key not in self._runs:
            column = self.column(key)
            self._runs[key] = flat_runs(column, self.types(key)) if column is not None else None
        return self._runs[key]


def flat_runs(column: list[Any], types: set[type] | None = None) -> tuple[list[Any], int] | None:
    """A column's per-run values, flattened, and the run count, when every sample has the same count.

    A list is the sample's runs; any other value (a tuple excepted) is one run.
    ``None`` for tuples, mixed layouts and differing or zero run counts.
    ``types`` are the types of the column's values, when known.

    >>> flat_runs([['A', 'B'], ['C', '']]), flat_runs(['A', 'B']), flat_runs([['A'], ['B', 'C']])
    ((['A', 'B', 'C', ''], 2), (['A', 'B'], 1), None)
    """
    if not column:
        return None
    if types is None:
        types = set(map(type, column))
    if types == {list}:
        lengths = set(map(len, column))
        if len(lengths) != 1:
            return None
        runs = lengths.pop()
        if runs == 0:
            return None
        return (list(chain.from_iterable(column)) if runs > 1 else list(map(itemgetter(0), column))), runs
    if any(issubclass(t, (list, tuple)) for t in types):
        return None
    return column, 1

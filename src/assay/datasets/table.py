"""Test sets as Arrow tables, and a light read-only view of them.

Reading a test set needs only ``pyarrow``; the ``datasets`` library (about a
second to import) is loaded only when an evaluator asks for the test set
itself, as a ``datasets.Dataset`` (see :attr:`assay.datasets.build.TestSet.dataset`).

:class:`TableView` is what the evaluation loop reads when no evaluator code
needs the ``datasets`` object: the number of rows, the column names and whole
columns as lists.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from itertools import chain
from operator import itemgetter, methodcaller
from typing import Any

from assay.errors import InputFileError

__all__ = ["RowTable", "TableView", "column_values", "hf_dataset", "rows_to_table", "to_table"]


class TableView:
    """A read-only view of a test set with the parts of ``datasets.Dataset``'s API that
    :class:`assay.evaluate.BaseEvaluator` uses: ``len``, ``column_names``,
    ``select_columns``, ``select`` and ``view[name]`` / ``view[a:b]`` / ``view[i]``.

    It is built from whole columns given as Python lists, or read on demand
    through ``column(name)``; nothing is computed with Arrow, so no Arrow
    compute kernels (nor ``pandas``, which they import) are loaded.

    >>> view = TableView({'q': ['x', 'y', 'z'], 'idx': [0, 1, 2]})
    >>> len(view), view.column_names
    (3, ['q', 'idx'])
    >>> view.select_columns(['idx'])[:2]
    {'idx': [0, 1]}
    >>> view.select(range(1, 3))['q']
    ['y', 'z']
    >>> view[0]
    {'q': 'x', 'idx': 0}
    """

    def __init__(self, columns: dict[str, Any], *, num_rows: int | None = None, column: Any = None) -> None:
        self._names = list(columns)
        self._columns: dict[str, list[Any] | None] = dict(columns)
        self._read = column
        if num_rows is None:
            num_rows = len(next(iter(columns.values()))) if columns and next(iter(columns.values())) is not None else 0
        self._num_rows = num_rows

    def __len__(self) -> int:
        return self._num_rows

    @property
    def num_rows(self) -> int:
        return self._num_rows

    @property
    def column_names(self) -> list[str]:
        return list(self._names)

    def column(self, name: str) -> list[Any]:
        """The whole column ``name`` as a list (read once, then kept)."""
        if name not in self._columns:
            raise KeyError(f"no column {name!r} (columns: {', '.join(self._names)})")
        values = self._columns[name]
        if values is None:
            values = self._columns[name] = list(self._read(name))
        return values

    def select_columns(self, names: Sequence[str]) -> TableView:
        return TableView({name: self.column(name) for name in names}, num_rows=self._num_rows)

    def select(self, indices: Any) -> TableView:
        rows = list(indices)
        return TableView({name: [self.column(name)[i] for i in rows] for name in self._names}, num_rows=len(rows))

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return self.column(key)
        if isinstance(key, slice):
            return {name: self.column(name)[key] for name in self._names}
        if isinstance(key, int):
            if not -self._num_rows <= key < self._num_rows:
                raise IndexError(f"row {key} out of range for a table of {self._num_rows} rows")
            return {name: self.column(name)[key] for name in self._names}
        raise TypeError(f"a test-set view is indexed by a column name, a row number or a slice, not {type(key).__name__}")

    def __iter__(self) -> Any:
        columns = [self.column(name) for name in self._names]
        for values in zip(*columns):
            yield dict(zip(self._names, values))

    def __repr__(self) -> str:
        return f"TableView(num_rows={self._num_rows}, columns={self._names})"


class RowTable:
    """Rows read as Python values (a small file), with the table interface test-set building
    uses; the Arrow table is built only when asked for (:meth:`to_arrow`).

    A column's values are the file's, except that integers in a column that also
    holds floats are read as floats, as Arrow reads them, so that a small and a
    large file give the same references.  A column of lists of one plain type
    (say, each sample's acceptable answers) is kept as read, since Arrow gives
    it back unchanged; for any other nested or mixed column the Arrow table is
    built at once, so that columns Arrow could not hold are reported when the
    table is read, as for a large file.

    >>> t = RowTable([{'a': 1, 'b': 'x'}, {'a': 2.5}], 'rows')
    >>> t.num_rows, t.column_names, t.column_values('a'), t.column_values('b')
    (2, ['a', 'b'], [1.0, 2.5], ['x', None])
    """

    def __init__(self, rows: list[dict[str, Any]], where: str) -> None:
        self._rows = rows
        self._where = where
        self.column_names: list[str] = list(dict.fromkeys(chain.from_iterable(rows)))
        self.num_rows = len(rows)
        self._arrow: Any = None
        self._columns: dict[str, list[Any]] = {}
        self._lists: set[str] = set()  # columns of lists, copied when read (the rows keep theirs)
        for name in self.column_names:
            try:
                values = list(map(itemgetter(name), rows))  # the usual case: every row has the column
            except KeyError:
                values = list(map(methodcaller("get", name), rows))
            kinds = set(map(type, values)) - {type(None)}
            if kinds == {int, float}:
                values = [float(v) if type(v) is int else v for v in values]
            elif kinds == {list} and _plain_lists(values):
                self._lists.add(name)  # lists of one plain type: Arrow would give them back as they are
            elif len(kinds) > 1 or kinds & {dict, list}:
                self.to_arrow()  # nested or mixed values: Arrow decides what they become, or refuses them now
            self._columns[name] = values

    def column_values(self, name: str) -> list[Any]:
        if self._arrow is not None:
            return list(self._arrow.column(name).to_pylist())
        if name in self._lists:
            return [None if v is None else list(v) for v in self._columns[name]]
        return list(self._columns[name])

    def to_arrow(self) -> Any:
        """The rows as a ``pyarrow.Table`` (built once)."""
        if self._arrow is None:
            self._arrow = rows_to_table(self._rows, self._where)
        return self._arrow


#: The largest integer an Arrow ``int64`` holds.
_INT64_MAX = (1 << 63) - 1


def _plain_lists(values: list[Any]) -> bool:
    """Whether a column of lists (and nulls) holds elements of one plain type (strings, bools,
    floats or 64-bit integers) and nulls only: Arrow reads it back unchanged, so it is kept as read.

    >>> _plain_lists([['a', None], [], None]), _plain_lists([[1], ['a']]), _plain_lists([[1, 2.5]]), _plain_lists([[{'k': 1}]])
    (True, False, False, False)
    """
    kinds = {type(v) for value in values if value is not None for v in value} - {type(None)}
    if not kinds:
        return True
    if len(kinds) > 1 or not kinds <= {str, bool, float, int}:
        return False
    if kinds == {int}:
        return all(-_INT64_MAX - 1 <= v <= _INT64_MAX for value in values if value is not None for v in value if v is not None)
    return True


def column_values(source: Any, name: str) -> list[Any]:
    """Column ``name`` of a ``pyarrow.Table`` or :class:`RowTable`, as a list."""
    if isinstance(source, RowTable):
        return source.column_values(name)
    return list(source.column(name).to_pylist())


def rows_to_table(rows: Sequence[dict[str, Any]], where: str) -> Any:
    """An Arrow table of row dicts; every key of any row is a column (``null`` where a row lacks it)."""
    import pyarrow as pa

    keys = dict.fromkeys(key for row in rows for key in row)
    try:
        return pa.Table.from_pydict({key: [row.get(key) for row in rows] for key in keys})
    except (pa.ArrowException, TypeError, ValueError, OverflowError) as exc:  # mixed column types
        raise InputFileError(f"{where} cannot be turned into a table: {exc}") from exc


def to_table(test: Any, where: str) -> tuple[Any, Any]:
    """``(pyarrow.Table, datasets features or None)`` of a loader's test split.

    Accepts a ``pyarrow.Table``, a ``datasets.Dataset`` (its features are kept, so
    the ``datasets`` object handed to evaluators has the loader's types) or a list
    of row dicts.
    """
    if isinstance(test, RowTable):
        return test, None
    import pyarrow as pa

    if isinstance(test, pa.Table):
        return test, None
    if isinstance(test, list):
        if not all(isinstance(row, dict) for row in test):
            raise InputFileError(f"{where}: the loader returned a list whose items are not all row dicts")
        return rows_to_table(test, f"{where}: the loader's rows"), None
    hf = sys.modules.get("datasets")  # a loader that returns a datasets.Dataset has imported the library
    if hf is not None and isinstance(test, hf.Dataset):
        if getattr(test, "_indices", None) is not None:
            test = test.flatten_indices(keep_in_memory=True)
        return test.data.table, test.features
    raise InputFileError(f"{where}: the loader returned {type(test).__name__}, expected a datasets.Dataset, DatasetDict, pyarrow.Table or list of rows")


def hf_dataset(table: Any, features: Any, replaced: Sequence[str], fingerprint: str) -> Any:
    """A ``datasets.Dataset`` over ``table``, with the loader's ``features`` for the columns it kept."""
    import datasets

    inferred = datasets.Features.from_arrow_schema(table.schema)
    info = None
    if features is not None:
        merged = datasets.Features(
            {name: features[name] if name in features and name not in replaced else inferred[name] for name in table.column_names}
        )
        if merged != inferred:
            info = datasets.DatasetInfo(features=merged)
    return datasets.Dataset(table, info=info, fingerprint=fingerprint)

"""Building the test set handed to evaluators (R-3.1 – R-3.4).

Steps: call the loader, pick the test split, apply ``test_range``, add the
``subdivision``/``idx`` columns, concatenate ``n`` copies (run-major), apply
``dataset_postprocessor`` to the output column, and take the references.

Unlike OpenCompass, ``test_range`` is applied *before* the ``n`` copies are
made, so a range never cuts across runs.

The test set is kept as the loader's Arrow table plus how to derive the
evaluated rows from it.  The built-in local loaders read files straight into
Arrow (their ``load_table``), and the columns the evaluation loop needs are
read as lists, so a run whose evaluators do not ask for the test set imports
neither ``datasets`` nor Arrow's compute kernels; :attr:`TestSet.dataset`
builds the ``datasets.Dataset`` on first use.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from assay._dataclass import FACTORY, DataclassMethods
from assay.datasets.location import get_data_path, is_dataset_id
from assay.datasets.reader import select_indices
from assay.datasets.table import RowTable, TableView, column_values, hf_dataset, to_table
from assay.errors import ConfigError, InputFileError
from assay.postprocess.chain import build_postprocessor
from assay.registry import LOAD_DATASET, resolve_type

__all__ = ["FRAMEWORK_KEYS", "TestSet", "build_test_set", "build_gold_test_set"]

#: Dataset-config keys that belong to assay, not to the loader.
FRAMEWORK_KEYS = frozenset({"abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg", "n", "k", "summarizer"})


@dataclass(init=False, repr=False, eq=False)
class TestSet(DataclassMethods):
    """The evaluated rows, ``n`` copies laid out run-major.

    Held as the loader's Arrow table (``source``) and the recipe to derive the
    evaluated rows from it (``indices`` from ``test_range``, the
    postprocessed output column, the ``subdivision``/``idx`` columns, ``n``
    copies); :attr:`table`, :attr:`dataset` and :attr:`view` derive them on
    first use.
    """

    source: Any
    references: list[Any] | None
    output_column: str | None
    size: int
    n: int
    abbr: str = "dataset"
    #: rows of ``source`` selected by ``test_range`` (``None``: all of them)
    indices: list[int] | None = None
    #: the output column after ``dataset_postprocessor`` (one run), when there is one
    post_values: list[Any] | None = None
    files: list[Path] = field(default_factory=list)
    #: the loader's ``datasets`` features (``None`` when it gave no ``datasets.Dataset``)
    features: Any = None
    #: columns whose values assay replaced (their loader features no longer apply)
    replaced: tuple[str, ...] = ()
    fingerprint: str = ""
    #: ``source`` already holds the rows of all ``n`` runs (a shard's rows, see :meth:`rows`)
    runs_in_source: bool = False

    def __init__(
        self,
        source: Any,
        references: list[Any] | None,
        output_column: str | None,
        size: int,
        n: int,
        abbr: str = "dataset",
        indices: list[int] | None = None,
        post_values: list[Any] | None = None,
        files: list[Path] = FACTORY,
        features: Any = None,
        replaced: tuple[str, ...] = (),
        fingerprint: str = "",
        runs_in_source: bool = False,
    ) -> None:
        self.source = source
        self.references = references
        self.output_column = output_column
        self.size = size
        self.n = n
        self.abbr = abbr
        self.indices = indices
        self.post_values = post_values
        self.files = [] if files is FACTORY else files
        self.features = features
        self.replaced = replaced
        self.fingerprint = fingerprint
        self.runs_in_source = runs_in_source

    @property
    def column_names(self) -> list[str]:
        names = list(self.source.column_names)
        return names + [c for c in ("subdivision", "idx") if c not in names]

    def column(self, name: str) -> list[Any]:
        """Column ``name`` of every evaluated row (``n`` runs), as a list; no Arrow compute."""
        if name == self.output_column and self.post_values is not None:
            values = self.post_values
        elif name in self.source.column_names:
            values = column_values(self.source, name)
            if self.indices is not None:
                values = [values[i] for i in self.indices]
        elif name == "subdivision":
            values = [self.abbr] * self.size
        elif name == "idx":
            values = list(range(self.size))
        else:
            raise KeyError(f"no column {name!r} in the test set (columns: {', '.join(self.column_names)})")
        return values * self.n if self.n > 1 and not self.runs_in_source else values

    @cached_property
    def table(self) -> Any:
        """The evaluated rows as one Arrow table."""
        import pyarrow as pa

        table = self.source.to_arrow() if isinstance(self.source, RowTable) else self.source
        if self.indices is not None:
            table = table.take(self.indices)
        if self.post_values is not None and self.output_column is not None:
            table = table.set_column(table.column_names.index(self.output_column), self.output_column, pa.array(self.post_values))
        if "subdivision" not in table.column_names:
            table = table.append_column("subdivision", pa.array([self.abbr] * table.num_rows, pa.string()))
        if "idx" not in table.column_names:
            table = table.append_column("idx", pa.array(range(table.num_rows), pa.int64()))
        return pa.concat_tables([table] * self.n) if self.n > 1 and not self.runs_in_source else table

    @cached_property
    def dataset(self) -> Any:
        """The test set as a ``datasets.Dataset`` (built, and ``datasets`` imported, on first use)."""
        return hf_dataset(self.table, self.features, self.replaced, self.fingerprint)

    @cached_property
    def view(self) -> TableView:
        """A light read-only view (see :class:`~assay.datasets.table.TableView`); columns are read when asked for."""
        return TableView(dict.fromkeys(self.column_names), num_rows=self.size * self.n, column=self.column)

    def rows(self, indices: list[int]) -> TestSet:
        """The test set of the given rows of :attr:`table` (e.g. one shard's, from every run);
        its ``size`` and ``n`` are the caller's to set."""
        digest = hashlib.sha256(repr(indices).encode()).hexdigest()
        return TestSet(
            source=self.table.take(indices),
            references=[self.references[i] for i in indices] if self.references is not None else None,
            output_column=self.output_column,
            size=len(indices),
            n=1,
            runs_in_source=True,
            abbr=self.abbr,
            files=self.files,
            features=self.features,
            replaced=self.replaced,
            fingerprint=_fingerprint(self.fingerprint, "rows", digest),
        )


def build_test_set(
    dataset_cfg: dict[str, Any],
    *,
    resolve_path: Callable[[str], Path] | None = None,
    where: str = "dataset",
) -> TestSet:
    """Load and prepare the test set of one dataset config.

    Args:
        dataset_cfg: the dataset's config dict.
        resolve_path: maps a relative ``path`` option to a file (default: as
            is); a dataset id (``'opencompass/gsm8k'``) is given to the loader
            unchanged, which resolves it with
            :func:`~assay.datasets.location.get_data_path`, and so is the path
            of a loader with a ``data_location(path)`` of its own (a Hugging
            Face Hub id).
        where: how to name this dataset in error messages.
    """
    abbr = dataset_cfg.get("abbr", "dataset")
    loader = resolve_type(dataset_cfg.get("type"), LOAD_DATASET, key=f"{where}.type")
    kwargs = {k: v for k, v in dataset_cfg.items() if k not in FRAMEWORK_KEYS}
    files: list[Path] = []
    if isinstance(kwargs.get("path"), str):
        if is_dataset_id(kwargs["path"]):  # the loader resolves it, as OpenCompass's loaders do; never rewritten
            files.append(Path(get_data_path(kwargs["path"])))
        elif callable(getattr(loader, "data_location", None)):  # a loader whose path is no file location: never rewritten
            files.append(loader.data_location(kwargs["path"]).path)
        else:
            resolved = resolve_path(kwargs["path"]) if resolve_path else Path(kwargs["path"])
            kwargs["path"] = str(resolved)
            files.append(resolved)
    reader_cfg = dict(dataset_cfg.get("reader_cfg") or {})
    load_table = getattr(loader, "load_table", None)
    load = getattr(loader, "load", None)
    try:
        if callable(load_table):
            raw = load_table(**kwargs)
        else:
            raw = load(**kwargs) if callable(load) else loader(**kwargs)
    except TypeError as exc:
        raise ConfigError(f"{where}: loader {getattr(loader, '__name__', loader)} rejected its arguments {sorted(kwargs)}: {exc}") from exc
    source, features = to_table(_test_split(raw, reader_cfg, where), where)
    fingerprint = _fingerprint(getattr(raw, "_fingerprint", None) or _source_key(files, dataset_cfg), "test")

    n = dataset_cfg.get("n", 1)
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ConfigError(f"{where}: n={n!r} must be a positive integer")
    indices = select_indices(source.num_rows, reader_cfg.get("test_range"))
    selected = None if indices == list(range(source.num_rows)) else indices  # None: every row, in order
    size = source.num_rows if selected is None else len(selected)
    test = TestSet(
        source=source, references=None, output_column=None, size=size, n=n, abbr=str(abbr), indices=selected,
        files=files, features=features,
    )
    if selected is not None:
        fingerprint = _fingerprint(fingerprint, "test_range", str(reader_cfg.get("test_range")))

    output_column = reader_cfg.get("output_column")
    if output_column is not None:
        if output_column not in source.column_names:
            raise InputFileError(
                f"{where}: reader_cfg.output_column={output_column!r} is not a column of the test set "
                f"(columns: {', '.join(c for c in source.column_names if c not in ('subdivision', 'idx'))})"
            )
        test.output_column = output_column
        one_run = TestSet(source=source, references=None, output_column=None, size=size, n=1, indices=selected)
        raw_values = one_run.column(output_column)
        _check_references(raw_values, selected, output_column, where, f"the test set ({', '.join(map(str, files)) or 'its loader'})")
        eval_cfg = dataset_cfg.get("eval_cfg") or {}
        post = build_postprocessor(eval_cfg.get("dataset_postprocessor"), where=f"{where}.eval_cfg.dataset_postprocessor")
        if post is not None:
            test.post_values = [post(v) for v in raw_values]
            _check_column(test.post_values, where)
            test.replaced = (output_column,)
            fingerprint = _fingerprint(fingerprint, "post", output_column, _digest_cfg(eval_cfg.get("dataset_postprocessor")))
        test.references = test.column(output_column)
    test.fingerprint = _fingerprint(fingerprint, "rows", str(abbr), str(n))
    return test


def build_gold_test_set(
    dataset_cfg: dict[str, Any],
    gold: Sequence[Any] | None,
    *,
    length: int | None = None,
    needs_references: bool = True,
    where: str = "dataset",
    source: str = "the prediction files",
    reason: str | None = None,
) -> TestSet:
    """The test set of a dataset whose files are not read: references from the predictions' ``gold``.

    OpenCompass's inferencers write each row's reference (the test set's
    ``output_column``, before any ``dataset_postprocessor``) into the
    prediction record as ``gold``.  This builds the test set the evaluator sees
    from those values: one row per prediction record (``n`` runs, run-major),
    with the ``output_column`` holding ``gold`` after ``dataset_postprocessor``
    (as :func:`build_test_set` applies it to the test set) and the
    ``subdivision``/``idx`` columns.  ``test_range`` is not applied: the
    prediction files hold the rows that were inferred.

    Args:
        dataset_cfg: the dataset's config dict.
        gold: each prediction record's ``gold`` (``None`` where a record has none).
        length: the number of prediction records (default: ``len(gold)``).
        needs_references: fail when the records have no ``gold`` (when
            ``False``, the evaluator takes no references and ``references`` is ``None``).
        where: how to name this dataset in error messages.
        source: the prediction file(s), for messages.
        reason: why the test set is not read (where it was looked for), for messages.

    Raises:
        InputFileError: the records cannot be split into ``n`` runs, or have no ``gold``.

    >>> ts = build_gold_test_set({'abbr': 'd', 'n': 2, 'reader_cfg': {'output_column': 'answer'},
    ...                          'eval_cfg': {'dataset_postprocessor': {'type': 'first-capital'}}},
    ...                         ['a B', 'C', 'a B', 'C'])
    >>> ts.size, ts.n, ts.references, ts.column('idx')
    (2, 2, ['B', 'C', 'B', 'C'], [0, 1, 0, 1])
    """
    abbr = str(dataset_cfg.get("abbr", "dataset"))
    n = dataset_cfg.get("n", 1)
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ConfigError(f"{where}: n={n!r} must be a positive integer")
    total = len(gold) if gold is not None else (length or 0)
    if total % n:
        raise InputFileError(f"{where}: {source} holds {total} records, which cannot be split into n={n} runs of equal size")
    size = total // n
    reader_cfg = dict(dataset_cfg.get("reader_cfg") or {})
    output_column = reader_cfg.get("output_column")
    has_gold = gold is not None and any(g is not None for g in gold)
    if output_column is not None and not has_gold and needs_references:
        why = f" ({reason})" if reason else ""
        raise InputFileError(
            f"{where}: the references must come from the prediction files' `gold`{why}, "
            f"but the records of {source} have no `gold` field"
        )
    if output_column is not None and gold is not None and has_gold and needs_references:
        _check_references(list(gold), None, "gold", where, source, record=True)
    rows: list[dict[str, Any]] = [{"subdivision": abbr, "idx": i % size if size else 0} for i in range(total)]
    values: list[Any] | None = None
    if output_column is not None and gold is not None and has_gold:
        values = list(gold)
        for row, value in zip(rows, values):
            row[output_column] = value
    digest = hashlib.sha256(repr(values).encode()).hexdigest()
    test = TestSet(
        source=RowTable(rows, f"{where}: the `gold` references of {source}"),
        references=None,
        output_column=None,
        size=size,
        n=n,
        abbr=abbr,
        runs_in_source=True,
        fingerprint=_fingerprint(_digest_cfg(dataset_cfg), "gold", digest),
    )
    if values is not None and isinstance(output_column, str):
        test.output_column = output_column
        eval_cfg = dataset_cfg.get("eval_cfg") or {}
        post = build_postprocessor(eval_cfg.get("dataset_postprocessor"), where=f"{where}.eval_cfg.dataset_postprocessor")
        if post is not None:
            test.post_values = [post(v) for v in values]
            _check_column(test.post_values, where)
            test.replaced = (output_column,)
        test.references = test.column(output_column)
    return test


def _check_references(
    values: list[Any], rows: list[int] | None, column: str, where: str, source: str, *, record: bool = False
) -> None:
    """Fail, naming the rows, the column and where they come from, when some row has no reference (R-12.2).

    OpenCompass 0.5.4 reads a test set with ``datasets``, which fills a
    column some rows lack with ``None`` (and fails when the first row lacks
    it); its evaluators then score those rows against ``None``, as wrong.
    assay does not score a number on references that are not there: the task
    fails instead.  ``rows`` maps each value to its row in the loaded table
    (``None``: the same position); ``record``: the values are the prediction
    records' ``gold``.
    """
    if None not in values:
        return
    missing = [i for i, v in enumerate(values) if v is None]
    at = [rows[i] if rows is not None else i for i in missing]
    shown = ", ".join(map(str, at[:5])) + (f" and {len(at) - 5} more" if len(at) > 5 else "")
    if record:
        raise InputFileError(
            f"{where}: record(s) {shown} of {source} have no `gold` (the reference), while others have one; "
            "OpenCompass would score them against None, as wrong answers"
        )
    raise InputFileError(
        f"{where}: row(s) {shown} (counted from 0) of {source} have no value in the reference column {column!r} "
        f"(reader_cfg.output_column), {len(at)} of {len(values)} rows; OpenCompass would score them against None, as wrong answers"
    )


def _check_column(values: list[Any], where: str) -> None:
    """Fail early, naming the dataset, when postprocessed values cannot form one Arrow column."""
    kinds = {type(v) for v in values if v is not None}
    if len(kinds) <= 1 or kinds <= {int, float, bool}:
        return
    import pyarrow as pa

    try:
        pa.array(values)
    except (pa.ArrowException, TypeError, ValueError, OverflowError) as exc:
        raise InputFileError(f"{where}: the dataset_postprocessor's values cannot form a column: {exc}") from exc


def _fingerprint(base: str, *parts: str) -> str:
    """A fingerprint for a derived table, so that ``datasets`` need not hash its values."""
    h = hashlib.sha256(str(base).encode())
    for part in parts:
        h.update(b"\0" + part.encode())
    return h.hexdigest()[:16]


def _source_key(files: list[Path], dataset_cfg: dict[str, Any]) -> str:
    """What identifies a loaded table without hashing it: its files' names, sizes and times, and the config."""
    parts = [repr(sorted((k, repr(v)) for k, v in dataset_cfg.items() if k not in ("eval_cfg", "infer_cfg")))]
    for path in files:
        try:
            st = path.stat()
            parts.append(f"{path.resolve()}\0{st.st_size}\0{st.st_mtime_ns}")
        except OSError:
            parts.append(str(path))
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _digest_cfg(cfg: Any) -> str:
    return hashlib.sha256(repr(cfg).encode()).hexdigest()[:16]


def _test_split(raw: Any, reader_cfg: dict[str, Any], where: str) -> Any:
    if isinstance(raw, RowTable) or (hasattr(raw, "column_names") and hasattr(raw, "select")):
        return raw
    if isinstance(raw, list):
        return raw
    test_attr = getattr(raw, "test", None)
    if test_attr is not None and not callable(test_attr):
        return test_attr
    if hasattr(raw, "keys"):
        split = reader_cfg.get("test_split", "test")
        if split not in raw:
            raise InputFileError(f"{where}: the loaded dataset has no split {split!r} (splits: {', '.join(raw.keys())}); set reader_cfg.test_split")
        return raw[split]
    return raw

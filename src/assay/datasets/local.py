"""Loaders for local files: JSONL, JSON, CSV, Parquet and ``save_to_disk`` folders.

Nothing is fetched from a hub: every loader reads a local path (R-3.2).
"""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import Any

import orjson

from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path, is_dataset_id
from assay.datasets.table import RowTable
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "CsvDataset",
    "CustomDataset",
    "DiskDataset",
    "JsonDataset",
    "JsonlDataset",
    "LocalDataset",
    "ParquetDataset",
    "load_local",
    "load_local_table",
    "read_jsonl_rows",
]


def _existing(path: str | Path, what: str, *, ids: bool = True) -> Path:
    """``path`` as a ``Path`` that exists; with ``ids``, a dataset id (``'opencompass/gsm8k'``)
    is first resolved as OpenCompass resolves it (:func:`~assay.datasets.location.get_data_path`)."""
    if ids and is_dataset_id(path):
        path = get_data_path(str(path))
    p = Path(path)
    if not p.exists():
        raise InputFileError(f"{what} {p} does not exist")
    return p


def _file_fingerprint(path: Path) -> str:
    """A cheap fingerprint for a dataset read from ``path`` (name, size, modification time).

    Given explicitly, it spares ``datasets`` from hashing the whole table.
    """
    import hashlib

    st = path.stat()
    return hashlib.sha256(f"{path.resolve()}\0{st.st_size}\0{st.st_mtime_ns}".encode()).hexdigest()[:16]


def _table_from_rows(rows: list[dict[str, Any]], path: Path) -> RowTable:
    if not rows:
        raise InputFileError(f"dataset file {path} holds no rows")
    return RowTable(rows, f"dataset file {path}")


class _FileLoader(BaseDataset):
    """A loader of one local file: ``load_table`` reads it for assay (no ``datasets`` import), and
    ``load`` gives the same table as a ``datasets.Dataset``."""

    @staticmethod
    def load_table(path: str, **kwargs: Any) -> Any:
        raise NotImplementedError

    @classmethod
    def load(cls, path: str, **kwargs: Any) -> Any:
        import datasets

        table = cls.load_table(path, **kwargs)
        if isinstance(table, RowTable):
            table = table.to_arrow()
        return datasets.Dataset(table, fingerprint=_file_fingerprint(Path(path)))


def read_jsonl_rows(path: Path, *, what: str = "dataset file") -> list[dict[str, Any]]:
    """The JSON objects of a ``.jsonl`` (or ``.jsonl.gz``) file, one per non-blank line.

    Errors name ``what``, the file and the line.
    """
    from assay.fileio import iter_jsonl

    opener: Any = open
    if path.suffix == ".gz":
        import gzip

        opener = gzip.open
    try:
        with opener(path, "rb") as fh:
            lines = fh.read().splitlines()
    except (OSError, EOFError) as exc:
        raise InputFileError(f"{what} {path} cannot be read: {exc}") from None
    if all(map(bytes.strip, lines)):  # the usual case, parsed in one sweep: no blank line, each line an object
        with suppress(orjson.JSONDecodeError):
            rows = list(map(orjson.loads, lines))
            if set(map(type, rows)) <= {dict}:
                return rows
    rows = []
    for lineno, row in iter_jsonl(lines, what=what, path=path):  # line by line, for the message
        if not isinstance(row, dict):
            raise InputFileError(f"{what} {path}, line {lineno}: expected a JSON object, got {type(row).__name__}")
        rows.append(row)
    return rows


@LOAD_DATASET.register_module()
class JsonlDataset(_FileLoader):
    """One JSON object per line (``.jsonl``, or ``.jsonl.gz``).

    As OpenCompass's loader of this name, a relative ``path`` is read below
    ``$COMPASS_DATA_CACHE`` when that is set (``get_data_path(path, local_mode=True)``).
    """

    @staticmethod
    def load_table(path: str, **kwargs: Any) -> Any:
        """The file as a table for assay to evaluate (no ``datasets`` import).

        A small file is read as Python values into a
        :class:`~assay.datasets.table.RowTable`; a large one straight into a
        ``pyarrow.Table``, which holds it compactly.
        """
        p = _existing(get_data_path(str(path), local_mode=True), "dataset file", ids=False)
        if p.stat().st_size > _SMALL_JSONL:
            table = _read_jsonl_arrow(p)
            if table is not None:
                return table
        return _table_from_rows(read_jsonl_rows(p), p)


#: JSONL files up to this size are read as Python values (no Arrow import); larger ones by Arrow.
_SMALL_JSONL = 16 << 20


def _read_jsonl_arrow(path: Path) -> Any:
    """Read JSONL straight into an Arrow table (fast, one copy); ``None`` when Arrow cannot.

    Files Arrow rejects (a malformed line, columns of mixed types, compressed
    files) are read row by row instead, which also gives line-numbered errors.
    """
    if path.suffix != ".jsonl":
        return None
    import pyarrow as pa
    import pyarrow.json as pa_json

    def read(parse_options: Any = None) -> Any:
        reader = pa_json.open_json(path, read_options=pa_json.ReadOptions(block_size=1 << 22), parse_options=parse_options)
        return pa.Table.from_batches(list(reader))

    try:
        table = read()
        # Arrow turns strings that look like dates into timestamps; a test set keeps what the file says
        dated = [f for f in table.schema if _has_timestamp(f.type)]
        if dated:
            if any(not (pa.types.is_timestamp(f.type) or pa.types.is_date(f.type)) for f in dated):
                return None  # a date inside a nested value: the row-by-row reader keeps it a string
            strings = pa.schema([(f.name, pa.string()) for f in dated])
            table = read(pa_json.ParseOptions(explicit_schema=strings, unexpected_field_behavior="infer"))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError):
        return None
    if table.num_rows == 0:
        return None
    return table


def _has_timestamp(kind: Any) -> bool:
    """Whether an Arrow type is, or holds, a timestamp or date."""
    import pyarrow as pa

    if pa.types.is_timestamp(kind) or pa.types.is_date(kind):
        return True
    if pa.types.is_struct(kind):
        return any(_has_timestamp(kind.field(i).type) for i in range(kind.num_fields))
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind):
        return _has_timestamp(kind.value_type)
    return False


@LOAD_DATASET.register_module()
class JsonDataset(_FileLoader):
    """A JSON array of row objects, or an object whose ``key`` holds that array."""

    @staticmethod
    def load_table(path: str, key: str | None = None, **kwargs: Any) -> Any:
        """The file as a table for assay to evaluate (no ``datasets`` import)."""
        from assay.fileio import read_json

        p = _existing(path, "dataset file")
        data = read_json(p, what="dataset file")
        if key is not None:
            if not isinstance(data, dict) or key not in data:
                raise InputFileError(f"dataset file {p} has no top-level key {key!r}")
            data = data[key]
        if isinstance(data, dict) and all(isinstance(v, dict) for v in data.values()):
            data = list(data.values())
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise InputFileError(f"dataset file {p} must hold a JSON array of objects")
        return _table_from_rows(data, p)


@LOAD_DATASET.register_module()
class CsvDataset(_FileLoader):
    """A CSV file with a header row; every cell is read as a string."""

    @staticmethod
    def load_table(path: str, delimiter: str = ",", **kwargs: Any) -> Any:
        """The file as a table for assay to evaluate (no ``datasets`` import)."""
        import csv

        p = _existing(path, "dataset file")
        with p.open(newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh, delimiter=delimiter))
        return _table_from_rows(rows, p)


@LOAD_DATASET.register_module()
class ParquetDataset(_FileLoader):
    """A Parquet file."""

    @staticmethod
    def load_table(path: str, **kwargs: Any) -> Any:
        """The file as a ``pyarrow.Table`` (what assay evaluates; no ``datasets`` import)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        p = _existing(path, "dataset file")
        try:
            return pq.read_table(p)
        except (pa.ArrowException, OSError) as exc:
            raise InputFileError(f"dataset file {p} is not a readable Parquet file: {exc}") from exc


@LOAD_DATASET.register_module()
class DiskDataset(BaseDataset):
    """A folder written by ``datasets``' ``save_to_disk`` (a Dataset or a DatasetDict)."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        import datasets

        p = _existing(path, "dataset folder")
        try:
            return datasets.load_from_disk(str(p), keep_in_memory=True)
        except Exception as exc:
            raise InputFileError(f"{p} is not a folder written by datasets' save_to_disk: {exc}") from exc


def _local_loader(path: str, kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The loader class for a local path, chosen by its extension (or folder), and the options to give it."""
    p = _existing(path, "dataset path")
    if p.is_dir():
        return DiskDataset, {}
    name = p.name.lower()
    if name.endswith((".jsonl", ".jsonl.gz")):
        return JsonlDataset, {}
    if name.endswith(".json"):
        return JsonDataset, {"key": kwargs.get("key")}
    if name.endswith((".csv", ".tsv")):
        return CsvDataset, {"delimiter": "\t" if name.endswith(".tsv") else ","}
    if name.endswith(".parquet"):
        return ParquetDataset, {}
    raise InputFileError(f"dataset file {p}: unknown format (expected .jsonl, .json, .csv, .tsv, .parquet or a save_to_disk folder)")


def load_local(path: str, **kwargs: Any) -> Any:
    """Load a local dataset, choosing the reader by the path's extension (or folder).

    A dataset id (``'opencompass/gsm8k'``) is read where OpenCompass keeps it.
    """
    path = get_data_path(path) if is_dataset_id(path) else path
    loader, options = _local_loader(path, kwargs)
    return loader.load(str(path), **options)


def load_local_table(path: str, **kwargs: Any) -> Any:
    """Like :func:`load_local`, as a table for assay to evaluate: a ``pyarrow.Table`` or a
    :class:`~assay.datasets.table.RowTable` (a ``save_to_disk`` folder still gives a ``datasets`` object)."""
    path = get_data_path(path) if is_dataset_id(path) else path
    loader, options = _local_loader(path, kwargs)
    read = getattr(loader, "load_table", loader.load)
    return read(str(path), **options)


@LOAD_DATASET.register_module()
class LocalDataset(BaseDataset):
    """Any local format, chosen by extension (see :func:`load_local`)."""

    @staticmethod
    def load_table(path: str, **kwargs: Any) -> Any:
        """The file as a table for assay to evaluate (see :func:`load_local_table`)."""
        return load_local_table(path, **kwargs)

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        return load_local(path, **kwargs)


@LOAD_DATASET.register_module()
class CustomDataset(LocalDataset):
    """OpenCompass's name for a local ``.jsonl``/``.csv`` dataset (read as :class:`LocalDataset` reads it).

    As OpenCompass's loader of this name, ``path`` goes through
    ``get_data_path(path, local_mode=local_mode)`` (a dataset id, or a path
    below ``$COMPASS_DATA_CACHE``), then ``file_name``, if given, is joined to it.
    """

    @staticmethod
    def load_table(path: str, file_name: str | None = None, local_mode: bool = False, **kwargs: Any) -> Any:
        """The file as a table for assay to evaluate (see :func:`load_local_table`)."""
        return load_local_table(_custom_path(path, file_name, local_mode), **kwargs)

    @staticmethod
    def load(path: str, file_name: str | None = None, local_mode: bool = False, **kwargs: Any) -> Any:
        return load_local(_custom_path(path, file_name, local_mode), **kwargs)


def _custom_path(path: str, file_name: str | None, local_mode: bool) -> str:
    import os

    resolved = get_data_path(path, local_mode=local_mode)
    return os.path.join(resolved, file_name) if file_name is not None else resolved

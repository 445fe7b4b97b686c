"""Loaders for local files: JSONL, JSON, CSV, Parquet and ``save_to_disk`` folders.

Nothing is fetched from a hub: every loader reads a local path (R-3.2).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assay.datasets.base import BaseDataset
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
    "read_jsonl_rows",
]


def _existing(path: str | Path, what: str) -> Path:
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


def _rows_to_dataset(rows: list[dict[str, Any]], path: Path) -> Any:
    import datasets
    import pyarrow as pa

    if not rows:
        raise InputFileError(f"dataset file {path} holds no rows")
    keys = dict.fromkeys(key for row in rows for key in row)  # every column of any row, in order
    try:
        table = pa.Table.from_pydict({key: [row.get(key) for row in rows] for key in keys})
    except Exception as exc:  # pyarrow type errors: mixed column types
        raise InputFileError(f"dataset file {path} cannot be turned into a table: {exc}") from exc
    return datasets.Dataset(table, fingerprint=_file_fingerprint(path))


def read_jsonl_rows(path: Path, *, what: str = "dataset file") -> list[dict[str, Any]]:
    """The JSON objects of a ``.jsonl`` (or ``.jsonl.gz``) file, one per non-blank line.

    Errors name ``what``, the file and the line.
    """
    import gzip

    import orjson

    rows: list[dict[str, Any]] = []
    opener: Any = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rb") as fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    row = orjson.loads(line)
                except orjson.JSONDecodeError as exc:
                    raise InputFileError(f"{what} {path}, line {lineno}: not valid JSON ({exc})") from None
                if not isinstance(row, dict):
                    raise InputFileError(f"{what} {path}, line {lineno}: expected a JSON object, got {type(row).__name__}")
                rows.append(row)
    except (OSError, EOFError) as exc:
        raise InputFileError(f"{what} {path} cannot be read: {exc}") from None
    return rows


@LOAD_DATASET.register_module()
class JsonlDataset(BaseDataset):
    """One JSON object per line (``.jsonl``, or ``.jsonl.gz``)."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        p = _existing(path, "dataset file")
        fast = _read_jsonl_arrow(p)
        if fast is not None:
            return fast
        return _rows_to_dataset(read_jsonl_rows(p), p)


def _read_jsonl_arrow(path: Path) -> Any:
    """Read JSONL straight into an Arrow table (fast, one copy); ``None`` when Arrow cannot.

    Files Arrow rejects (a malformed line, columns of mixed types, compressed
    files) are read row by row instead, which also gives line-numbered errors.
    """
    if path.suffix != ".jsonl":
        return None
    import datasets
    import pyarrow as pa
    import pyarrow.json as pa_json

    try:
        reader = pa_json.open_json(path, read_options=pa_json.ReadOptions(block_size=1 << 22))
        table = pa.Table.from_batches(list(reader))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, OSError):
        return None
    if table.num_rows == 0:
        return None
    return datasets.Dataset(table, fingerprint=_file_fingerprint(path))


@LOAD_DATASET.register_module()
class JsonDataset(BaseDataset):
    """A JSON array of row objects, or an object whose ``key`` holds that array."""

    @staticmethod
    def load(path: str, key: str | None = None, **kwargs: Any) -> Any:
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
        return _rows_to_dataset(data, p)


@LOAD_DATASET.register_module()
class CsvDataset(BaseDataset):
    """A CSV file with a header row; every cell is read as a string."""

    @staticmethod
    def load(path: str, delimiter: str = ",", **kwargs: Any) -> Any:
        import csv

        p = _existing(path, "dataset file")
        with p.open(newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh, delimiter=delimiter))
        return _rows_to_dataset(rows, p)


@LOAD_DATASET.register_module()
class ParquetDataset(BaseDataset):
    """A Parquet file."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        import datasets

        p = _existing(path, "dataset file")
        try:
            return datasets.Dataset.from_parquet(str(p), keep_in_memory=True)
        except Exception as exc:
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


def load_local(path: str, **kwargs: Any) -> Any:
    """Load a local dataset, choosing the reader by the path's extension (or folder)."""
    p = _existing(path, "dataset path")
    if p.is_dir():
        return DiskDataset.load(str(p))
    name = p.name.lower()
    if name.endswith((".jsonl", ".jsonl.gz")):
        return JsonlDataset.load(str(p))
    if name.endswith(".json"):
        return JsonDataset.load(str(p), **{k: v for k, v in kwargs.items() if k == "key"})
    if name.endswith((".csv", ".tsv")):
        return CsvDataset.load(str(p), delimiter="\t" if name.endswith(".tsv") else ",")
    if name.endswith(".parquet"):
        return ParquetDataset.load(str(p))
    raise InputFileError(f"dataset file {p}: unknown format (expected .jsonl, .json, .csv, .tsv, .parquet or a save_to_disk folder)")


@LOAD_DATASET.register_module()
class LocalDataset(BaseDataset):
    """Any local format, chosen by extension (see :func:`load_local`)."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        return load_local(path, **kwargs)


@LOAD_DATASET.register_module()
class CustomDataset(BaseDataset):
    """OpenCompass's name for a local ``.jsonl``/``.csv`` dataset."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        return load_local(path, **kwargs)

"""Plain-text corpora and question lists, as OpenCompass 0.5.4 reads them.

* ``LLMCompressionDataset``: ``<data path>/<name>.json`` (else ``<name>.jsonl``),
  read by ``datasets.load_dataset('json')``; with ``samples`` only the first
  ``samples`` records; then the records whose ``content`` is empty are dropped
  (after the cut, as OpenCompass drops them, so fewer than ``samples`` rows
  can remain).
* ``InferencePPLDataset``: the same for ``<data path>/<name>.jsonl`` (no
  ``.json``) and the column ``text``.
* ``HungarianExamMathDataset``: a CSV file read by pandas, its first line a
  header whatever it says; its one column becomes ``question`` (a file of more
  columns is an error, as in OpenCompass; a cell pandas reads as missing is an
  error naming its row, where OpenCompass fails building the table).  There is
  no reference column: the library's config scores with a placeholder
  ``AccEvaluator``, the exam being meant for human grading.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

from assay.datasets._oc_files import dataset, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["HungarianExamMathDataset", "InferencePPLDataset", "LLMCompressionDataset"]


def _corpus(loader: str, path: str, name: Any, samples: Any, extensions: tuple[str, ...], column: str) -> Any:
    """The records of ``<path>/<name>.<ext>`` (the first extension found), the first ``samples`` of them, those
    whose ``column`` is not empty."""
    import datasets

    folder = get_data_path(path, local_mode=True)
    tried = [os.path.join(folder, f"{name}.{ext}") for ext in extensions]
    found = next((f for f in tried if os.path.exists(f)), None)
    if found is None:
        raise InputFileError(f"{loader}: no such file: {' or '.join(tried)}")
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int)):
        raise InputFileError(f"{loader}: 'samples' must be a whole number of records or None, got {samples!r}")
    split = "test" if samples is None else f"test[:{samples}]"
    try:
        with tempfile.TemporaryDirectory(prefix="assay-json-") as cache:
            table = datasets.load_dataset("json", data_files={"test": found}, split=split, cache_dir=cache, keep_in_memory=True)
    except Exception as exc:  # the datasets library's own errors name the file
        raise InputFileError(f"{loader}: {found} cannot be read as JSON records: {exc}") from None
    if column not in table.column_names:
        raise InputFileError(f"{loader}: {found} has no {column!r} field (fields: {', '.join(table.column_names) or 'none'})")
    values = table[column]
    for i, value in enumerate(values):
        if not hasattr(value, "__len__"):
            raise InputFileError(f"{loader}: {found}, record {i + 1}: {column!r} is {value!r:.80}, expected text")
    return table.select([i for i, value in enumerate(values) if len(value) > 0])


@LOAD_DATASET.register_module()
class LLMCompressionDataset(BaseDataset):
    """The corpus ``name`` (``arxiv_math``, ``cc``, ``python``) of LLM compression: one ``content`` text per record."""

    @staticmethod
    def load(path: str, name: Any = None, samples: int | None = None, **kwargs: Any) -> Any:
        return _corpus("LLMCompressionDataset", path, name, samples, ("json", "jsonl"), "content")


@LOAD_DATASET.register_module()
class InferencePPLDataset(BaseDataset):
    """The corpus ``name`` of inference perplexity: one ``text`` per record."""

    @staticmethod
    def load(path: str, name: Any = None, samples: int | None = None, **kwargs: Any) -> Any:
        return _corpus("InferencePPLDataset", path, name, samples, ("jsonl",), "text")


@LOAD_DATASET.register_module()
class HungarianExamMathDataset(BaseDataset):
    """The 2023 Hungarian national maths exam's questions, one per CSV row, in the column ``question``."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        import pandas as pd

        loader = "HungarianExamMathDataset"
        file = require_file(get_data_path(path, local_mode=True), loader)
        try:
            frame = pd.read_csv(file)
        except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:
            raise InputFileError(f"{loader}: {file} cannot be read as CSV: {exc}") from None
        if len(frame.columns) != 1:
            raise InputFileError(f"{loader}: {file} must have one column (the question), found {len(frame.columns)}: "
                                 f"{', '.join(map(str, frame.columns))[:200]}")
        questions = frame.iloc[:, 0].tolist()
        for i, q in enumerate(questions):
            if pd.isna(q):
                raise InputFileError(f"{loader}: {file}, row {i + 1} after the header: the question is empty")
        return dataset([{"question": q} for q in questions])

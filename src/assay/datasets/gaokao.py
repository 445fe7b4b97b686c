"""GAOKAO-Bench as OpenCompass 0.5.4 reads it (``GaokaoBenchDataset``).

Layout (id ``opencompass/GAOKAO-BENCH`` → ``./data/GAOKAO-BENCH/data``; the
``mixed`` configs give ``./data/GAOKAO-BENCH/data`` itself)::

    <path><filename>    e.g. data/GAOKAO-BENCH/data/Multiple-choice_Questions/2010-2022_Math_II_MCQs.json
                        {"keywords": ..., "example": [{"year", "category", "question", "answer": [...],
                                                      "analysis", "index", "score"}, ...]}

The configs' ``filename`` begins with ``/``: it is appended to ``path`` as a
string, as OpenCompass does.  ``name`` (the file's keyword) names the subset on
ModelScope only; ``DATASET_SOURCE=ModelScope`` is refused.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import as_datasets, read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.datasets.table import RowTable
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["GaokaoBenchDataset"]


@LOAD_DATASET.register_module()
class GaokaoBenchDataset(BaseDataset):
    """The file's ``example`` list, one row per question, its keys as they are (the first's decide the columns)."""

    @staticmethod
    def load_table(path: str, filename: str, name: str | None = None) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        file = get_data_path(path) + filename
        data = read_json(file, "GaokaoBenchDataset")
        examples = data.get("example") if isinstance(data, dict) else None
        if not isinstance(examples, list) or not all(isinstance(e, dict) for e in examples):
            raise InputFileError(f"GaokaoBenchDataset: file {file} has no 'example' list of objects")
        return rows_table(examples, file)

    @staticmethod
    def load(path: str, filename: str, name: str | None = None) -> Any:
        return as_datasets(GaokaoBenchDataset.load_table(path, filename, name))

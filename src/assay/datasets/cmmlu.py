"""CMMLU: OpenCompass's ``CMMLUDataset`` loader.

Layout read (OpenCompass's ``opencompass/cmmlu`` → ``./data/cmmlu/``)::

    data/cmmlu/dev/<name>.csv    few-shot questions
    data/cmmlu/test/<name>.csv   the evaluated questions

Each CSV starts with a header record (skipped) and has seven fields per record:
an index, the question, the four options and the answer letter.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import as_datasets, csv_rows, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["CMMLUDataset"]

_COLUMNS = ("question", "A", "B", "C", "D", "answer")


def _read(root: str, name: str, split: str, what: str) -> list[dict[str, Any]]:
    path = os.path.join(root, split, f"{name}.csv")
    records = csv_rows(path, what)
    if not records:
        raise InputFileError(f"{what}: file {path} is empty (a header record is expected)")
    rows = []
    for i, record in enumerate(records[1:], 1):
        if len(record) != 7:
            raise InputFileError(f"{what}: file {path}, record {i} has {len(record)} fields, expected 7 (index, question, A, B, C, D, answer)")
        rows.append(dict(zip(_COLUMNS, record[1:])))
    return rows


@LOAD_DATASET.register_module()
class CMMLUDataset(BaseDataset):
    """CMMLU, one subject: splits ``dev`` and ``test`` with the columns
    ``question``, ``A``–``D`` and ``answer``.

    ``path`` goes through :func:`~assay.datasets.location.get_data_path`
    (``'opencompass/cmmlu'`` → ``./data/cmmlu/``); ``name`` is the subject
    (``agronomy``).  See the module docstring for the files read.
    """

    @staticmethod
    def load_table(path: str, name: str, **kwargs: Any) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        root = get_data_path(path)
        what = f"CMMLUDataset({name!r})"
        return {split: rows_table(_read(root, name, split, what), what) for split in ("dev", "test")}

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        return as_datasets(CMMLUDataset.load_table(path, name, **kwargs))

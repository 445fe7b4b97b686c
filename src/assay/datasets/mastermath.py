"""Mastermath 2024 v1 as OpenCompass 0.5.4 reads it (``MastermathDatasetv1``).

Layout (the library's config: ``path='./data/mastermath2024v1/'``,
``name='kaoyan_math_1_mcq_Sheet1.csv'``)::

    <path>/<name>    a CSV file: id, question, A, B, C, D, answer (further columns ignored)

``path`` is joined to ``name`` as it is: relative to the working directory,
not under ``$COMPASS_DATA_CACHE`` (OpenCompass does not resolve it either).
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import csv_rows, rows_table
from assay.datasets.base import BaseDataset
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MastermathDatasetv1"]

_COLUMNS = ("question", "A", "B", "C", "D", "answer")


@LOAD_DATASET.register_module()
class MastermathDatasetv1(BaseDataset):
    """One row per CSV record whose second field is not the text ``question`` (the header, wherever
    it appears): ``question``, ``A``–``D`` and ``answer`` from its fields 2 to 7, as text.

    A record with fewer than seven fields is an error naming the file and the record.

    >>> MastermathDatasetv1.load('./data/mastermath2024v1/', 'kaoyan_math_1_mcq_Sheet1.csv')[0]['answer']  # doctest: +SKIP
    'B'
    """

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        loader = "MastermathDatasetv1"
        filename = os.path.join(path, name)
        rows = []
        for number, record in enumerate(csv_rows(filename, loader), 1):
            if len(record) > 1 and record[1] == "question":
                continue
            if len(record) < 7:
                raise InputFileError(f"{loader}: file {filename}, record {number} has {len(record)} field(s), expected at least 7 "
                                     f"(id, question, A, B, C, D, answer): {record!r}"[:300])
            rows.append(dict(zip(_COLUMNS, record[1:7])))
        return rows_table(rows, filename)

"""AIME 2024 as OpenCompass 0.5.4 reads it (``Aime2024Dataset``).

Layout (id ``opencompass/aime2024`` → ``./data/aime.jsonl``): one problem per
line with ``origin_prompt`` (the question) and ``gold_answer``.  AIME 2025's
configs read ``aime2025.jsonl`` with ``CustomDataset`` (``question``, ``answer``).
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset, field, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.registry import LOAD_DATASET

__all__ = ["Aime2024Dataset"]


@LOAD_DATASET.register_module()
class Aime2024Dataset(BaseDataset):
    """AIME problems: every field of the line, plus ``question`` (= ``origin_prompt``) and
    ``answer`` (= ``gold_answer``, its type kept: an int stays an int).

    ``path`` goes through :func:`~assay.datasets.location.get_data_path`.

    >>> Aime2024Dataset.load('opencompass/aime2024')[0]['answer']  # doctest: +SKIP
    '204'
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        file = get_data_path(path)
        rows = jsonl_rows(file, "Aime2024Dataset")
        for i, row in enumerate(rows, 1):
            where = f"{file}, line {i}"
            row["question"] = field(row, "origin_prompt", "Aime2024Dataset", where)
            row["answer"] = field(row, "gold_answer", "Aime2024Dataset", where)
        return dataset(rows)

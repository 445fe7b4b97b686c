"""KCLE as OpenCompass 0.5.4 reads it (``KCLEDataset``).

Layout: one JSON-lines file, the dataset id resolved by
:func:`~assay.datasets.location.get_data_path` (``opencompass/kcle`` →
``./data/kcle_diamond.jsonl``, ``opencompass/kcle_fix`` →
``./data/kcle_diamond_fix_251029.jsonl``).  The library configs have an LLM
judge grade the replies (``GenericLLMEvaluator``).
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset, field, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.registry import LOAD_DATASET

__all__ = ["KCLEDataset"]


@LOAD_DATASET.register_module()
class KCLEDataset(BaseDataset):
    """One row per line with only its ``input`` and ``target`` (other fields are dropped);
    a line without either is an error naming the file and the line."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        file = get_data_path(path)
        rows = jsonl_rows(file, "KCLEDataset")
        return dataset([{key: field(row, key, "KCLEDataset", f"{file} line {i}") for key in ("input", "target")}
                        for i, row in enumerate(rows, 1)])

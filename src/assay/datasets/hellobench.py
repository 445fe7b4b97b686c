"""HelloBench as OpenCompass 0.5.4 reads it (``HelloBenchDataset``).

Layout: ``<path>/<category_name>.jsonl``, one task per line with ``category``
(the subcategory) and ``num_checklist`` among its fields.  ``path`` is taken
as it is (relative to the working directory), as OpenCompass takes it.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset, field, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.registry import LOAD_DATASET

__all__ = ["HelloBenchDataset"]


@LOAD_DATASET.register_module()
class HelloBenchDataset(BaseDataset):
    """Each task as it is, plus ``judgement``: ``category`` (the file's category), ``subcategory`` (its
    ``category``) and ``num_checklist``."""

    @staticmethod
    def load(path: str, category_name: str, *args: Any, **kwargs: Any) -> Any:
        file = f"{path}/{category_name}.jsonl"
        rows = jsonl_rows(file, "HelloBenchDataset")
        for n, row in enumerate(rows, 1):
            where = f"{file}, line {n}"
            row["judgement"] = {"category": category_name,
                                "subcategory": field(row, "category", "HelloBenchDataset", where),
                                "num_checklist": field(row, "num_checklist", "HelloBenchDataset", where)}
        return dataset(rows)

"""LAMBADA as OpenCompass 0.5.4 reads it (``lambadaDataset``).

Layout (id ``opencompass/lambada`` → ``./data/lambada/test.jsonl``)::

    <file>.jsonl    {"prompt": "<passage without its last word>", "label": "<the last word>"} per line
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import json_objects, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.registry import LOAD_DATASET

__all__ = ["lambadaDataset"]


@LOAD_DATASET.register_module()
class lambadaDataset(BaseDataset):
    """Split ``test``: each line's fields as they are (the configs read ``prompt`` and ``label``).

    ``DATASET_SOURCE=ModelScope`` (where OpenCompass loads the hub's copy) is
    refused: assay reads local files only.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        filename = get_data_path(path)
        return {"test": rows_table(json_objects(filename, "lambadaDataset"), filename)}

"""RACE: OpenCompass's ``RaceDataset`` loader.

Layout read (OpenCompass's ``opencompass/race`` → ``./data/race/``)::

    data/race/validation/<name>.jsonl
    data/race/test/<name>.jsonl

with ``name`` ``middle`` or ``high``; each line
``{"article", "question", "options": [four], "answer": "<letter>", ...}``.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import as_datasets, field, json_objects, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["RaceDataset"]


def _row(line: dict[str, Any], where: str) -> dict[str, Any]:
    options = field(line, "options", where)
    if not isinstance(options, list) or len(options) < 4:
        raise InputFileError(f"{where}: 'options' must be a list of four, got {str(options)[:80]!r}")
    return {
        "article": field(line, "article", where),
        "question": field(line, "question", where),
        **dict(zip("ABCD", options)),
        "answer": field(line, "answer", where),
    }


@LOAD_DATASET.register_module()
class RaceDataset(BaseDataset):
    """RACE, one level: splits ``validation`` and ``test`` with the columns
    ``article``, ``question``, ``A``–``D`` and ``answer``."""

    @staticmethod
    def load_table(path: str, name: str) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        root = get_data_path(path)
        what = f"RaceDataset({name!r})"
        out = {}
        for split in ("validation", "test"):
            file = os.path.join(root, split, f"{name}.jsonl")
            rows = [_row(line, f"{what}: file {file}, line {i + 1}") for i, line in enumerate(json_objects(file, what))]
            out[split] = rows_table(rows, what)
        return out

    @staticmethod
    def load(path: str, name: str) -> Any:
        return as_datasets(RaceDataset.load_table(path, name))

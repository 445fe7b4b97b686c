"""MolecularIQ's tasks, as OpenCompass 0.5.4 reads them (``MoleculariqDataset``).

Layout (id ``opencompass/MolecularIQ`` → ``./data/MolecularIQ/test_task``):
``<name>.jsonl`` (``count``, ``index``, ``generation``), one question a line:
``uid``, ``question`` and ``target`` (the counts or atom indices by property)
or, for generation, ``constraints``.
"""

from __future__ import annotations

import json
import os
from typing import Any

from assay.datasets._oc_files import dataset, field, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MoleculariqDataset"]


@LOAD_DATASET.register_module()
class MoleculariqDataset(BaseDataset):
    """One MolecularIQ task file (``name``, ``.jsonl`` added unless given): rows ``id`` (the ``uid``), ``prompt``
    (the ``question``) and ``ground_truth``: the ``target``, or the ``constraints`` when the target is empty or
    missing.  Blank lines are skipped.
    """

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        file = os.path.join(get_data_path(path), name if name.endswith(".jsonl") else f"{name}.jsonl")
        rows = []
        with open(require_file(file, "MoleculariqDataset"), encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                where = f"{file}, line {number}"
                try:
                    item = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputFileError(f"MoleculariqDataset: {where} is not JSON: {exc}") from None
                rows.append({"id": field(item, "uid", "MoleculariqDataset", where),
                             "prompt": field(item, "question", "MoleculariqDataset", where),
                             "ground_truth": item.get("target") or item.get("constraints")})
        return dataset(rows)

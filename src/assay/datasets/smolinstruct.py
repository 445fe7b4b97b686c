"""SMolInstruct and Mol-Instructions (chemistry), as OpenCompass 0.5.4 reads them.

* ``SmolInstructDataset``: ``datasets.load_dataset(path)`` of the dataset
  ``osunlp/SMolInstruct`` — a local folder of that path (relative to the working
  folder) or its copy in the Hugging Face Hub's cache, never downloaded — whose
  ``validation`` and ``test`` splits hold every task's rows, told apart by
  their ``task`` column (``name_conversion-i2f``, ``forward_synthesis``, …).
* ``MolInstructionsDataset`` (``opencompass.datasets.mol_instructions_chem``):
  ``<data path of opencompass/mol-instructions>/<name>`` (``./data/mol-instructions/``),
  one JSON object a line with ``id_ddm`` and ``dialogs`` (the question, then
  the answer).
"""

from __future__ import annotations

import os
import random
from typing import Any

from assay.datasets._oc_files import dataset, dataset_dict, field, hub_location, hub_splits, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation, get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MolInstructionsDataset", "SmolInstructDataset"]

#: The seed OpenCompass draws the 500-question ``mini_set`` test sample with.
MINI_SET_SEED = 1024
MINI_SET_SIZE = 500


@LOAD_DATASET.register_module()
class SmolInstructDataset(BaseDataset):
    """The ``validation`` and ``test`` rows whose ``task`` is ``name``, every column kept, in file order.

    With ``mini_set=True`` the test split is ``random.sample`` of those rows
    (at most 500) drawn after ``random.seed(1024)``, as OpenCompass draws it;
    the validation split (the few-shot examples) stays whole.
    """

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, name: str, mini_set: bool = False, **kwargs: Any) -> Any:
        raw = hub_splits("SmolInstructDataset", path)
        splits: dict[str, list[dict[str, Any]]] = {}
        for split in ("validation", "test"):
            if split not in raw:
                raise InputFileError(f"SmolInstructDataset: {path} has no {split!r} split (splits: {', '.join(raw) or 'none'})")
            table = raw[split]
            if "task" not in table.column_names:
                raise InputFileError(f"SmolInstructDataset: the {split!r} split of {path} has no 'task' column "
                                     f"(columns: {', '.join(table.column_names)})")
            keep = [i for i, task in enumerate(table["task"]) if task == name]
            rows = [dict(r) for r in table.select(keep)]
            if mini_set and split == "test":
                rows = random.Random(MINI_SET_SEED).sample(rows, min(MINI_SET_SIZE, len(rows)))
            splits[split] = rows
        return dataset_dict(splits)


@LOAD_DATASET.register_module()
class MolInstructionsDataset(BaseDataset):
    """The file ``name`` in ``get_data_path(path)``: per line ``id`` (``id_ddm``), ``input``
    (the first dialog turn's ``content``) and ``output`` (the second's)."""

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        file = os.path.join(get_data_path(path), name)
        rows = []
        for index, entry in enumerate(jsonl_rows(file, "MolInstructionsDataset")):
            where = f"{file}, line {index + 1}"
            dialogs = field(entry, "dialogs", "MolInstructionsDataset", where)
            if not isinstance(dialogs, list) or len(dialogs) < 2:
                raise InputFileError(f"MolInstructionsDataset: {where}: 'dialogs' must hold the question and the answer, "
                                     f"got {str(dialogs)[:80]!r}")
            rows.append({
                "id": field(entry, "id_ddm", "MolInstructionsDataset", where),
                "input": field(dialogs[0], "content", "MolInstructionsDataset", f"{where}, dialog 1"),
                "output": field(dialogs[1], "content", "MolInstructionsDataset", f"{where}, dialog 2"),
            })
        return dataset(rows)

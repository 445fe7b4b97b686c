"""The Game of 24 as OpenCompass 0.5.4 reads it (``Game24Dataset``).

A ``path`` starting with ``/``, ``./`` or ``../`` is a CSV file (through
:func:`~assay.datasets.location.get_data_path`) whose ``Puzzles`` column is
read; any other is a Hugging Face dataset (``test-time-compute/game-of-24``
in the library's config) whose ``train`` split's ``Puzzles`` column is read —
a local folder of that name, else the Hub's cache, never downloaded.  Of the
puzzles, OpenCompass keeps the 901st to the 905th only.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import csv_rows, rows_table
from assay.datasets._oc_files import hub_location, hub_splits
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation, get_data_path, locate_data
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["Game24Dataset"]

_LOADER = "Game24Dataset"
_LOCAL = ("/", "./", "../")


def _csv_puzzles(path: str) -> list[Any]:
    import pandas as pd

    file = get_data_path(path, local_mode=True)
    csv_rows(file, _LOADER)  # a missing or unreadable file named
    table = pd.read_csv(file)
    if "Puzzles" not in table.columns:
        raise InputFileError(f"{_LOADER}: file {file} has no 'Puzzles' column (columns: {', '.join(map(str, table.columns))})")
    return list(table["Puzzles"])


@LOAD_DATASET.register_module()
class Game24Dataset(BaseDataset):
    """Puzzles 901 to 905 (``[900:905]``), each as ``input`` and ``output`` (the four numbers, e.g. ``'1 1 4 6'``)."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """A local CSV file as :func:`~assay.datasets.location.locate_data` finds it; else the Hub dataset's local
        folder or cached copy."""
        return locate_data(path) if path.startswith(_LOCAL) else hub_location(path)

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        if path.startswith(_LOCAL):
            puzzles = _csv_puzzles(path)
        else:
            train = hub_splits(_LOADER, path, split="train")
            if "Puzzles" not in train.column_names:
                raise InputFileError(f"{_LOADER}: the 'train' split of {path!r} has no 'Puzzles' column "
                                     f"(columns: {', '.join(train.column_names)})")
            puzzles = list(train["Puzzles"])
        return rows_table([{"input": p, "output": p} for p in puzzles][900:905], f"{path} (puzzles 901-905)")

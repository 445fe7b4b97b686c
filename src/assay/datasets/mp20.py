"""MP-20's crystal structure questions, as OpenCompass 0.5.4 reads them (``MP20Dataset``).

Layout (id ``opencompass/mp20`` → ``./data/mp20/mp20_test.jsonl``): one question a
line, with ``id_ddm``, ``system_prompt``, ``user_input`` and ``ground_truth`` (the
structure: ``lattice``, a 3×3 matrix, and ``sites``, each with ``element`` and
``fractional_coordinates``).
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset, field, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.registry import LOAD_DATASET

__all__ = ["MP20Dataset"]

_COLUMNS = ("id_ddm", "system_prompt", "user_input", "ground_truth")


@LOAD_DATASET.register_module()
class MP20Dataset(BaseDataset):
    """The questions of ``get_data_path(path)``, a JSON Lines file (blank lines skipped), with
    ``id_ddm``, ``system_prompt``, ``user_input`` and ``ground_truth`` only; a line without one of
    them is an error naming the file and the line (OpenCompass stops with a ``KeyError``)."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        file = get_data_path(path)
        rows = jsonl_rows(file, "MP20Dataset")
        return dataset([{k: field(row, k, "MP20Dataset", f"{file}, question {i}") for k in _COLUMNS}
                        for i, row in enumerate(rows, start=1)])

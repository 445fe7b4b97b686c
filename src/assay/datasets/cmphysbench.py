"""CMPhysBench as OpenCompass 0.5.4 reads it (``CMPhysBenchDataset``).

OpenCompass hands the config's ``path`` (``weidawang/CMPhysBench``) to
``datasets.load_dataset(path, split='train')``; assay reads the same local
folder (relative to the working folder), else the dataset's copy in the
Hugging Face Hub's cache (``HF_HUB_CACHE``), and never downloads it.  Each row
has ``question``, ``final_answer`` (a list of LaTeX answers) and ``topic``.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import rows_table
from assay.datasets._oc_files import hub_location, hub_splits, require_columns
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["CMPhysBenchDataset"]

_LOADER = "CMPhysBenchDataset"


@LOAD_DATASET.register_module()
class CMPhysBenchDataset(BaseDataset):
    """The ``train`` split's rows with an answer, as ``prompt`` (the question) and ``ground_truth``
    (``[first final answer, topic]``), in file order.

    A row whose ``final_answer`` is empty is left out.  As in OpenCompass, a
    ``final_answer`` given as text rather than a list gives its first character.
    """

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        train = hub_splits(_LOADER, path, split="train")
        where = f"the 'train' split of {path!r}"
        require_columns(train, ("question", "final_answer", "topic"), _LOADER, where)
        rows = []
        for i, row in enumerate(train):
            answers = row["final_answer"]
            if not isinstance(answers, (list, str)):
                raise InputFileError(f"{_LOADER}: {where}, row {i}: final_answer is {type(answers).__name__} "
                                     f"{answers!r:.80}, expected a list of answers")
            if len(answers) == 0:
                continue
            rows.append({"prompt": row["question"], "ground_truth": [answers[0], row["topic"]]})
        return rows_table(rows, f"{path} (train)")

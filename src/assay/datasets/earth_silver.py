"""Earth-Silver's multiple-choice questions as OpenCompass 0.5.4 reads them (``Earth_Silver_MCQDataset``).

OpenCompass hands the config's ``path`` (``ai-earth/Earth-Silver``) to
``datasets.load_dataset(path, split='multiple_choice')``; assay reads the same
local folder (relative to the working folder), else the dataset's copy in the
Hugging Face Hub's cache (``HF_HUB_CACHE``), and never downloads it.  The
folder declares its ``multiple_choice`` split as a Hugging Face dataset does
(its ``README.md``'s ``configs``).
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import hub_location, hub_splits
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["Earth_Silver_MCQDataset"]


@LOAD_DATASET.register_module()
class Earth_Silver_MCQDataset(BaseDataset):
    """The ``multiple_choice`` split as it is (it must have ``question`` and
    ``answer``).  ``prompt_mode`` must be ``'zero-shot'``: OpenCompass has no
    other (``'few-shot'`` is not implemented there either).
    """

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, prompt_mode: str = "zero-shot", **kwargs: Any) -> Any:
        if prompt_mode != "zero-shot":
            raise ConfigError(f"Earth_Silver_MCQDataset: prompt_mode={prompt_mode!r} is not supported; OpenCompass 0.5.4 "
                              "implements only 'zero-shot'")
        table = hub_splits("Earth_Silver_MCQDataset", path, split="multiple_choice")
        missing = [c for c in ("question", "answer") if c not in table.column_names]
        if missing:
            raise InputFileError(f"Earth_Silver_MCQDataset: the 'multiple_choice' split of {path!r} has no column "
                                 f"{', '.join(map(repr, missing))} (columns: {', '.join(table.column_names)})")
        return table

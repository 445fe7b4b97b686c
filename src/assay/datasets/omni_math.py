"""Omni-MATH as OpenCompass 0.5.4 reads it (``OmniMathDataset``).

OpenCompass takes no ``path``: it reads the ``test`` split of
``datasets.load_dataset('KbsdJames/Omni-MATH')``; assay reads the same local
folder (relative to the working folder), else the dataset's copy in the
Hugging Face Hub's cache (``HF_HUB_CACHE``), and never downloads it.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import rows_table
from assay.datasets._oc_files import hub_location, hub_splits
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["OmniMathDataset"]

REPO = "KbsdJames/Omni-MATH"


@LOAD_DATASET.register_module()
class OmniMathDataset(BaseDataset):
    """The ``test`` split's rows as the dataset holds them (``problem``, ``answer``, ``domain``, ``difficulty``, …)."""

    @staticmethod
    def config_data_location(options: dict[str, Any], config_dir: Any) -> DataLocation:
        """The local folder ``KbsdJames/Omni-MATH`` (relative to the working folder), else the dataset in the Hub's cache
        (the config names no ``path``)."""
        return hub_location(REPO)

    @staticmethod
    def load(**kwargs: Any) -> Any:
        splits = hub_splits("OmniMathDataset", REPO)
        if "test" not in splits:
            raise InputFileError(f"OmniMathDataset: {REPO!r} has no 'test' split (splits: {', '.join(splits) or 'none'})")
        return rows_table(list(splits["test"]), f"{REPO} (test)")

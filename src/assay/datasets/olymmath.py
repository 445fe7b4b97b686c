"""OlymMATH and BeyondAIME as OpenCompass 0.5.4 reads them (``OlymMATHDataset``, ``BeyondAIMEDataset``).

OpenCompass hands the config's ``path`` (``RUC-AIBOX/OlymMATH``,
``ByteDance-Seed/BeyondAIME``) to ``datasets.load_dataset``; assay reads the
same local folder (relative to the working folder), else the dataset's copy in
the Hugging Face Hub's cache (``HF_HUB_CACHE``), and never downloads it.  The
library configs grade the replies with an LLM judge (``GenericLLMEvaluator``),
alone or after a rule (``CascadeEvaluator`` with ``MATHVerifyEvaluator``).
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import hub_location, hub_splits, require_columns
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.registry import LOAD_DATASET

__all__ = ["BeyondAIMEDataset", "OlymMATHDataset"]


@LOAD_DATASET.register_module()
class OlymMATHDataset(BaseDataset):
    """Every split of the dataset's configuration ``subset`` (``en-hard``, ``zh-hard``, ``en-easy``,
    ``zh-easy``; the folder declares them as a Hugging Face dataset does, in its ``README.md``'s
    ``configs``), as they are; the library configs read ``test``."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, subset: str) -> Any:
        return hub_splits("OlymMATHDataset", path, name=subset)


@LOAD_DATASET.register_module()
class BeyondAIMEDataset(BaseDataset):
    """The ``test`` split, its ``problem`` column renamed ``question`` in its place."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        table = hub_splits("BeyondAIMEDataset", path, split="test")
        require_columns(table, ("problem",), "BeyondAIMEDataset", f"the 'test' split of {path!r}")
        return table.rename_column("problem", "question")

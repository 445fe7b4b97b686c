"""ATLAS as OpenCompass 0.5.4 reads it (``ATLASDataset``).

OpenCompass hands the Hugging Face id ``opencompass/ATLAS`` (fixed: the
loader takes only ``split``) to ``datasets.load_dataset``; assay reads the same
local folder (relative to the working folder), else the dataset's copy in the
Hugging Face Hub's cache, and never downloads it.  Row: ``problem`` (the
``question``, made a string) and ``answer`` (``refined_standard_answer`` made a
string: a missing one is ``'None'``, as ``str(None)`` is).  The library
configs grade the replies with several LLM judges by majority
(:class:`assay.evaluators.atlas.ATLASLLMEvaluator`).
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset, hub_location, hub_splits, require_columns
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.registry import LOAD_DATASET

__all__ = ["ATLASDataset"]

_REPO = "opencompass/ATLAS"


@LOAD_DATASET.register_module()
class ATLASDataset(BaseDataset):
    """ATLAS's ``split`` (the library's configs read ``val``): ``problem`` and ``answer``, as strings."""

    @staticmethod
    def data_location(**kwargs: Any) -> DataLocation:
        """The local folder ``opencompass/ATLAS`` (relative to the working folder), else the dataset in the Hub's cache."""
        return hub_location(_REPO)

    @staticmethod
    def load(split: str = "val") -> Any:
        table = hub_splits("ATLASDataset", _REPO, split=split)
        require_columns(table, ("question",), "ATLASDataset", f"the {split!r} split of {_REPO!r}")
        return dataset([{"problem": str(row["question"]), "answer": str(row.get("refined_standard_answer", ""))} for row in table])

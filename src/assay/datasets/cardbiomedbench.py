"""CARDBiomedBench as OpenCompass 0.5.4 reads it (``CARDBiomedBenchDataset``).

OpenCompass reads ``data/CARDBiomedBench.csv`` of the config's ``path``
(``NIH-CARD/CARDBiomedBench``) with ``datasets.load_dataset``; assay reads the
same file of the local folder (relative to the working folder), else of the
dataset's copy in the Hugging Face Hub's cache (``HF_HUB_CACHE``), and never
downloads it.  The library configs have an LLM judge grade the replies
(``GenericLLMEvaluator``).
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import hub_location, hub_splits, require_columns
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["CARDBiomedBenchDataset"]


@LOAD_DATASET.register_module()
class CARDBiomedBenchDataset(BaseDataset):
    """The rows of ``data/CARDBiomedBench.csv``.

    With ``prompt_mode='zero-shot'`` (the library configs') four columns follow
    the file's: ``expert`` (the row's ``Bio_Category``), ``start`` (``'A'``),
    ``end`` and ``prompt_mode``.  ``end`` is the letter of the last of the
    row's ``choices`` labels; the file has no ``choices`` column, so, as in
    OpenCompass, it is ``'@'`` (the letter before ``A``) on every row.  Any
    other ``prompt_mode`` (OpenCompass's ``'few-shot'`` is unimplemented)
    leaves the rows as they are.
    """

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, prompt_mode: str, **kwargs: Any) -> Any:
        table = hub_splits("CARDBiomedBenchDataset", path, split="test", data_files={"test": "data/CARDBiomedBench.csv"})
        if prompt_mode != "zero-shot":
            return table
        require_columns(table, ("Bio_Category",), "CARDBiomedBenchDataset", f"{path}/data/CARDBiomedBench.csv")
        ends = []
        for i, choices in enumerate(table["choices"] if "choices" in table.column_names else [{"label": []}] * len(table)):
            labels = choices.get("label") if isinstance(choices, dict) else None
            if not isinstance(labels, list):
                raise InputFileError(f"CARDBiomedBenchDataset: {path}/data/CARDBiomedBench.csv row {i}: choices must "
                                     f"hold a 'label' list, got {choices!r}")
            ends.append(chr(65 + len(labels) - 1))
        extra = {"expert": table["Bio_Category"], "start": ["A"] * len(table), "end": ends, "prompt_mode": [prompt_mode] * len(table)}
        # a column the file already has is replaced in its place, as datasets' map replaces it
        return table.map(lambda row, i: {k: v[i] for k, v in extra.items()}, with_indices=True, load_from_cache_file=False,
                         keep_in_memory=True)

"""ProcessBench as OpenCompass 0.5.4 reads it (``ProcessBenchEvalDataset``).

OpenCompass hands the config's ``path`` (``Qwen/ProcessBench``) to
``datasets.load_dataset(path, split=subset)``; assay reads the same local
folder (relative to the working folder), else the dataset's copy in the
Hugging Face Hub's cache (``HF_HUB_CACHE``), and never downloads it.  The
folder declares its splits (``gsm8k``, ``math``, ``olympiadbench``,
``omnimath``) as the Hub's dataset does (its ``README.md``'s ``configs``).
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import rows_table
from assay.datasets._oc_files import hub_location, hub_splits
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["ProcessBenchEvalDataset"]


@LOAD_DATASET.register_module()
class ProcessBenchEvalDataset(BaseDataset):
    """One row per solution of the ``subset`` split: ``problem``, ``tagged_response`` (each step
    wrapped as ``<paragraph_i>\\nstep\\n</paragraph_i>``, the steps joined by a blank line) and
    ``label`` (the index of the first wrong step, ``-1`` for a right solution).
    """

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, subset: str, **kwargs: Any) -> Any:
        loader = "ProcessBenchEvalDataset"
        table = hub_splits(loader, path, split=subset)
        missing = [c for c in ("problem", "steps", "label") if c not in table.column_names]
        if missing:
            raise InputFileError(f"{loader}: the {subset!r} split of {path!r} has no column {', '.join(map(repr, missing))} "
                                 f"(columns: {', '.join(table.column_names)})")
        rows = []
        for i, item in enumerate(table):
            steps = item["steps"]
            if not isinstance(steps, list):
                raise InputFileError(f"{loader}: the {subset!r} split of {path!r}, row {i}: steps is {type(steps).__name__}, "
                                     "expected a list of texts")
            tagged = "".join(f"<paragraph_{k}>\n{step}\n</paragraph_{k}>\n\n" for k, step in enumerate(steps)).strip()
            rows.append({"problem": item["problem"], "tagged_response": tagged, "label": item["label"]})
        return rows_table(rows, f"{path} ({subset})")

"""Humanity's Last Exam as OpenCompass 0.5.4 reads it: ``HLEDataset`` and ``HLEVerifiedDataset``.

OpenCompass hands the config's ``path`` (``cais/hle``, ``skylenage-ai/HLE-Verified``)
to ``datasets.load_dataset``, which reads a local folder of that path (relative
to the working folder) when there is one, else the Hugging Face dataset of that
id.  assay reads the same local folder, else the dataset's copy in the Hugging
Face Hub's cache (``HF_HUB_CACHE``); it never downloads it.  The questions with
an image are left out (the configs are text-only), ``question`` is renamed
``problem``, and the rows kept are both the ``train`` and the ``test`` split.
The configs grade the replies with an LLM judge (``GenericLLMEvaluator``).
"""

from __future__ import annotations

import json
from typing import Any

from assay.datasets._oc_files import hub_location, hub_splits
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["HLEDataset", "HLEVerifiedDataset"]


def _split(loader: str, splits: Any, name: str, path: str, columns: tuple[str, ...]) -> Any:
    if name not in splits:
        raise InputFileError(f"{loader}: the dataset {path!r} has no {name!r} split (splits: {', '.join(splits) or 'none'})")
    table = splits[name]
    missing = [c for c in columns if c not in table.column_names]
    if missing:
        raise InputFileError(f"{loader}: the {name!r} split of {path!r} has no column {', '.join(map(repr, missing))} "
                             f"(columns: {', '.join(table.column_names)})")
    return table


def _keep(splits: Any, table: Any, keep: list[int], category: str | None) -> Any:
    """The rows ``keep`` (then of ``category``), ``question`` renamed ``problem``, as both ``train`` and ``test``."""
    if category:
        categories = table["category"]
        keep = [i for i in keep if categories[i] == category]
    table = table.select(keep).rename_column("question", "problem")
    splits["train"] = table
    splits["test"] = table
    return splits


@LOAD_DATASET.register_module()
class HLEDataset(BaseDataset):
    """HLE's ``test`` split: the questions whose ``image`` is ``''`` (then, with
    ``category``, only that category's), ``question`` renamed ``problem``.

    The loaded dataset's other splits are kept beside ``train`` and ``test``,
    as OpenCompass keeps them.
    """

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, category: str | None = None, **kwargs: Any) -> Any:
        splits = hub_splits("HLEDataset", path)
        table = _split("HLEDataset", splits, "test", path, ("image", "question") + (("category",) if category else ()))
        keep = [i for i, image in enumerate(table["image"]) if image == ""]
        return _keep(splits, table, keep, category)


@LOAD_DATASET.register_module()
class HLEVerifiedDataset(BaseDataset):
    """HLE-Verified's ``train`` split: the questions whose ``json`` column holds
    an object with ``image`` ``''`` (then, with ``verified_classes``, only
    those of that ``Verified_Classes``; with ``category``, only that
    category's), ``question`` renamed ``problem``.
    """

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, verified_classes: str | None = None, category: str | None = None, **kwargs: Any) -> Any:
        loader = "HLEVerifiedDataset"
        splits = hub_splits(loader, path)
        columns = ("json", "question") + (("Verified_Classes",) if verified_classes else ()) + (("category",) if category else ())
        table = _split(loader, splits, "train", path, columns)
        keep = []
        for i, text in enumerate(table["json"]):
            try:
                record = json.loads(text)
                image = record["image"]
            except (TypeError, ValueError, KeyError) as exc:
                raise InputFileError(f"{loader}: row {i} of {path!r}'s 'train' split: its 'json' column is not a JSON "
                                     f"object with an 'image' field ({type(exc).__name__}: {exc}; value {str(text)[:80]!r})") from None
            if image == "":
                keep.append(i)
        if verified_classes:
            classes = table["Verified_Classes"]
            keep = [i for i in keep if classes[i] == verified_classes]
        return _keep(splits, table, keep, category)

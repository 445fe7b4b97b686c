"""ZebraLogic as OpenCompass 0.5.4 reads it (``ZebraLogicDataset``).

OpenCompass hands the config's ``path`` (``WildEval/ZebraLogic``) and
``config`` (``mc_mode`` or ``grid_mode``) to ``datasets.load_dataset``;
assay reads the same local folder (relative to the working folder, its
``README.md`` naming the configurations' files), else the dataset's copy in
the Hugging Face Hub's cache, and never downloads it.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import rows_table
from assay.datasets._oc_files import hub_location, hub_splits
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["ZebraLogicDataset"]

_LOADER = "ZebraLogicDataset"
_LABELS = "ABCDEFGHIJ"


def _multiple_choice(row: dict[str, Any], where: str) -> dict[str, Any]:
    choices, answer = row.get("choices"), row.get("answer")
    if not isinstance(choices, list) or len(choices) > len(_LABELS):
        raise InputFileError(f"{_LOADER}: {where}: choices must be a list of at most {len(_LABELS)}, got {choices!r}")
    label = _LABELS[choices.index(answer)] if answer in choices else answer
    return dict(row, formatted_choices=" ".join(f"({_LABELS[i]}) {c}" for i, c in enumerate(choices)), answer_label=label)


@LOAD_DATASET.register_module()
class ZebraLogicDataset(BaseDataset):
    """The ``test`` split of configuration ``config``, as both ``train`` and ``test``; in ``mc_mode`` each row
    gains ``formatted_choices`` (``(A) first (B) second …``) and ``answer_label`` (the answer's letter, or the
    answer itself when it is none of the choices)."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, config: str = "mc_mode", **kwargs: Any) -> Any:
        splits = hub_splits(_LOADER, path, name=config)
        if "test" not in splits:
            raise InputFileError(f"{_LOADER}: configuration {config!r} of {path!r} has no 'test' split "
                                 f"(splits: {', '.join(splits) or 'none'})")
        rows = [dict(r) for r in splits["test"]]
        if config == "mc_mode":
            rows = [_multiple_choice(r, f"{path} ({config}), row {i}") for i, r in enumerate(rows)]
        table = rows_table(rows, f"{path} ({config})")
        out = {split: rows_table(list(splits[split]), f"{path} ({config}, {split})") for split in splits if split not in ("train", "test")}
        out.update(train=table, test=table)
        return out

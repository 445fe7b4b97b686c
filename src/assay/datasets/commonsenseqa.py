"""CommonsenseQA: OpenCompass's ``commonsenseqaDataset`` loader.

Layout read (OpenCompass's ``opencompass/commonsense_qa`` → ``./data/commonsenseqa``)::

    data/commonsenseqa/train_rand_split.jsonl   (split train)
    data/commonsenseqa/dev_rand_split.jsonl     (split validation)

Each line: ``{"answerKey", "question": {"stem", "choices": [{"label", "text"} × 5]}, ...}``.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import as_datasets, field, json_objects, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["commonsenseqaDataset"]


def _row(line: dict[str, Any], where: str) -> dict[str, Any]:
    question = field(line, "question", where)
    choices = field(question, "choices", where)
    if not isinstance(choices, list) or len(choices) < 5:
        raise InputFileError(f"{where}: 'question.choices' must list five choices, got {str(choices)[:80]!r}")
    row: dict[str, Any] = {"question": field(question, "stem", where)}
    for letter, choice in zip("ABCDE", choices):
        row[letter] = field(choice, "text", where)
    row["answerKey"] = field(line, "answerKey", where)
    return row


@LOAD_DATASET.register_module()
class commonsenseqaDataset(BaseDataset):
    """Splits ``train`` and ``validation`` with the columns ``question``, ``A``–``E``
    (the choices' texts in file order) and ``answerKey``."""

    @staticmethod
    def load_table(path: str) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        root = get_data_path(path)
        what = "commonsenseqaDataset"
        out = {}
        for split, name in (("train", "train_rand_split.jsonl"), ("validation", "dev_rand_split.jsonl")):
            file = os.path.join(root, name)
            out[split] = rows_table([_row(line, f"{what}: file {file}, line {i + 1}") for i, line in enumerate(json_objects(file, what))], what)
        return out

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(commonsenseqaDataset.load_table(path))

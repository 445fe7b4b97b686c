"""WinoGrande: OpenCompass's ``WinograndeDataset``, ``WinograndeDatasetV2`` and ``WinograndeDatasetV3`` loaders.

Layout read (OpenCompass's ``opencompass/winogrande`` → ``./data/winogrande/``)::

    data/winogrande/dev.jsonl        (all three)
    data/winogrande/train_xs.jsonl   (V3 only, split train_xs)

Each line: ``{"sentence": "... _ ...", "option1", "option2", "answer": "1" | "2" | ""}``.
Derived columns: ``prompt`` (the sentence), ``only_option1``/``only_option2``,
``opt1``/``opt2`` (the sentence with every ``_`` replaced by the option),
``answer`` and ``cont`` (the text between the first and second ``_``: for a
sentence with one blank, what follows it).
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import as_datasets, field, json_objects, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["WinograndeDataset", "WinograndeDatasetV2", "WinograndeDatasetV3"]


def _letter(answer: Any, where: str) -> str:
    """``'1'`` → ``'A'``, ``'2'`` → ``'B'``, ``''`` → ``'NULL'`` (and ``'0'`` → ``' '``, as OpenCompass gives it)."""
    if answer == "":
        return "NULL"
    try:
        return " AB"[int(answer)]
    except (ValueError, TypeError, IndexError):
        raise InputFileError(f"{where}: answer {answer!r} is not 1, 2 or empty") from None


def _rows(path: str, what: str, letters: bool) -> list[dict[str, Any]]:
    rows = []
    for i, line in enumerate(json_objects(path, what)):
        where = f"{what}: file {path}, line {i + 1}"
        sentence = field(line, "sentence", where)
        option1, option2 = field(line, "option1", where), field(line, "option2", where)
        parts = sentence.split("_")
        if len(parts) < 2:
            raise InputFileError(f"{where}: the sentence has no blank '_': {sentence[:80]!r}")
        answer = field(line, "answer", where)
        rows.append(
            {
                "prompt": sentence,
                "only_option1": option1,
                "only_option2": option2,
                "opt1": sentence.replace("_", option1),
                "opt2": sentence.replace("_", option2),
                "answer": _letter(answer, where) if letters else answer,
                "cont": parts[1],
            }
        )
    return rows


@LOAD_DATASET.register_module()
class WinograndeDataset(BaseDataset):
    """``dev.jsonl`` with the derived columns; ``answer`` as the file gives it (``'1'``/``'2'``)."""

    @staticmethod
    def load_table(path: str) -> Any:
        """The examples as a table (what assay evaluates; no ``datasets`` import)."""
        file = os.path.join(get_data_path(path), "dev.jsonl")
        return rows_table(_rows(file, "WinograndeDataset", letters=False), "WinograndeDataset")

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(WinograndeDataset.load_table(path))


@LOAD_DATASET.register_module()
class WinograndeDatasetV2(BaseDataset):
    """``dev.jsonl`` with the derived columns; ``answer`` a letter (``'A'``/``'B'``, ``'NULL'`` when empty)."""

    @staticmethod
    def load_table(path: str) -> Any:
        """The examples as a table (what assay evaluates; no ``datasets`` import)."""
        file = os.path.join(get_data_path(path), "dev.jsonl")
        return rows_table(_rows(file, "WinograndeDatasetV2", letters=True), "WinograndeDatasetV2")

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(WinograndeDatasetV2.load_table(path))


@LOAD_DATASET.register_module()
class WinograndeDatasetV3(BaseDataset):
    """Splits ``train_xs`` and ``dev`` (``train_xs.jsonl``, ``dev.jsonl``) with :class:`WinograndeDatasetV2`'s columns."""

    @staticmethod
    def load_table(path: str) -> dict[str, Any]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        root = get_data_path(path)
        what = "WinograndeDatasetV3"
        return {split: rows_table(_rows(os.path.join(root, f"{split}.jsonl"), what, letters=True), what) for split in ("train_xs", "dev")}

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(WinograndeDatasetV3.load_table(path))

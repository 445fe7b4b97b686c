"""ARC (AI2 Reasoning Challenge): OpenCompass's ``ARCDataset`` and ``ARCDatasetClean`` loaders.

Layout read (OpenCompass's dataset ids → files)::

    opencompass/ai2_arc-dev        → data/ARC/ARC-c/ARC-Challenge-Dev.jsonl
    opencompass/ai2_arc-test       → data/ARC/ARC-c/ARC-Challenge-Test.jsonl
    opencompass/ai2_arc-easy-dev   → data/ARC/ARC-e/ARC-Easy-Dev.jsonl
    data/ARC/ARC-c/ARC_c_test_contamination_annotations.json   (ARCDatasetClean, next to the file)

Each line: ``{"id", "question": {"stem", "choices": [{"text", "label"}, ...]}, "answerKey"}``.
Questions without exactly four choices are skipped; the answer key (``'A'``
or ``'1'``…) becomes the letter of its position.  Bytes that are not UTF-8
are dropped, as OpenCompass opens the file with ``errors='ignore'``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from assay.datasets._oc import as_datasets, clean_status, field, json_objects, read_annotations, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["ARCDataset", "ARCDatasetClean"]


def _row(item: dict[str, Any], where: str) -> dict[str, Any] | None:
    question = field(item, "question", where)
    choices = field(question, "choices", where)
    if len(choices) != 4:
        return None
    labels = [field(c, "label", where) for c in choices]
    key = field(item, "answerKey", where)
    if key not in labels:
        raise InputFileError(f"{where}: answerKey {key!r} is none of the choice labels {labels}")
    row = {"question": field(question, "stem", where), "answerKey": "ABCD"[labels.index(key)]}
    for letter, choice in zip("ABCD", choices):
        row[f"text{letter}"] = field(choice, "text", where)
    return row


def _read(path: str, what: str, notes: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    rows = []
    for i, item in enumerate(json_objects(path, what, strip=True, errors="ignore")):
        where = f"{what}: file {path}, line {i + 1}"
        status = clean_status(notes, field(item, "id", where)) if notes is not None else None
        row = _row(item, where)
        if row is None:
            continue
        if notes is not None:
            row["is_clean"] = status
        rows.append(row)
    return rows


@LOAD_DATASET.register_module()
class ARCDataset(BaseDataset):
    """ARC questions with four choices: columns ``question``, ``answerKey`` (a letter),
    ``textA``–``textD``.

    ``path`` (a dataset id or the ``.jsonl`` file) goes through
    :func:`~assay.datasets.location.get_data_path`; ``name`` is not used.
    """

    @staticmethod
    def load_table(path: str, name: str) -> Any:
        """The questions as a table (what assay evaluates; no ``datasets`` import)."""
        what = f"ARCDataset({name!r})"
        return rows_table(_read(get_data_path(path), what), what)

    @staticmethod
    def load(path: str, name: str) -> Any:
        return as_datasets(ARCDataset.load_table(path, name))


@LOAD_DATASET.register_module()
class ARCDatasetClean(BaseDataset):
    """ARC with each question's contamination status in an ``is_clean`` column.

    The status is the first entry of the annotation keyed by the question's
    ``id`` in ``ARC_c_test_contamination_annotations.json`` (in the data
    file's folder), else ``'not labeled'``.  OpenCompass downloads that file
    when it is missing; assay reports it instead.
    """

    @staticmethod
    def load_table(path: str, name: str) -> Any:
        """The questions as a table (what assay evaluates; no ``datasets`` import)."""
        what = f"ARCDatasetClean({name!r})"
        file = get_data_path(path)
        notes = read_annotations(Path(os.path.dirname(file)) / "ARC_c_test_contamination_annotations.json", what)
        return rows_table(_read(file, what, notes), what)

    @staticmethod
    def load(path: str, name: str) -> Any:
        return as_datasets(ARCDatasetClean.load_table(path, name))



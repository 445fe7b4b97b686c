"""CMRC 2018 and DRCD as OpenCompass 0.5.4 reads them (``CMRCDataset``, ``DRCDDataset``).

Layout: both are in SQuAD's JSON layout (read as SQuAD 2.0's loader reads it,
:func:`~assay.datasets.squad20.squad_questions`), found through OpenCompass's id table::

    opencompass/cmrc_dev → ./data/CLUE/CMRC/dev.json
    opencompass/drcd_dev → ./data/CLUE/DRCD/dev.json

    {"data": [{"paragraphs": [{"context": ..., "qas": [{"question": ..., "answers": [{"text": ...}, ...]}]}]}]}
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.datasets.squad20 import distinct_texts, listed_under, squad_questions
from assay.datasets.table import RowTable
from assay.registry import LOAD_DATASET

__all__ = ["CMRCDataset", "DRCDDataset"]


def _load(loader: str, path: str) -> RowTable:
    filename = get_data_path(path)
    rows = [
        {"context": context, "question": qa["question"], "answers": distinct_texts(listed_under(qa, "answers", at, loader), at, loader)}
        for context, qa, at in squad_questions(read_json(filename, loader), filename, loader)
    ]
    return rows_table(rows, filename)


@LOAD_DATASET.register_module()
class CMRCDataset(BaseDataset):
    """One row per question: ``context`` (its paragraph), ``question``, ``answers``.

    ``answers`` holds each distinct answer text once.  OpenCompass lists them
    in a Python ``set``'s order, which changes from one process to the next;
    assay keeps their first occurrence's order (``EMEvaluator`` accepts any of
    them, so the score is the same).  ``DATASET_SOURCE`` asking for a hub is refused.
    """

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        return _load("CMRCDataset", path)

    @staticmethod
    def load(path: str) -> Any:
        from assay.datasets._oc import as_datasets

        return as_datasets(CMRCDataset.load_table(path))


@LOAD_DATASET.register_module()
class DRCDDataset(BaseDataset):
    """DRCD's rows, read as :class:`CMRCDataset` reads CMRC's."""

    @staticmethod
    def load_table(path: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        return _load("DRCDDataset", path)

    @staticmethod
    def load(path: str) -> Any:
        from assay.datasets._oc import as_datasets

        return as_datasets(DRCDDataset.load_table(path))

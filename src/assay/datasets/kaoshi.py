"""Kaoshi's exam questions, as OpenCompass 0.5.4 reads them (``KaoshiDataset``).

Layout (the library's ``path``, read below ``$COMPASS_DATA_CACHE``):
``./data/Kaoshi/<exam>/<question type>.jsonl``, one question a line with
``question``, ``answer`` and, for choice questions, ``options``.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset, field, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["KaoshiDataset"]

_WITH_OPTIONS = ("single_choice", "multi_choice")


def _lettered(options: Any, where: str) -> str:
    if not isinstance(options, list):
        raise InputFileError(f"KaoshiDataset: {where}: 'options' must be a list, got {options!r:.80}")
    return "".join(f"{chr(65 + i)}. {option}\n" for i, option in enumerate(options))


@LOAD_DATASET.register_module()
class KaoshiDataset(BaseDataset):
    """One Kaoshi file (``path``, in ``$COMPASS_DATA_CACHE`` when relative), every line a row as it is.

    For ``name`` ``single_choice`` and ``multi_choice`` the ``question`` becomes the stripped
    question, a newline and the options lettered from ``A`` (``'A. …\\n'`` each, the last
    newline kept).  The table's columns are the first line's, as ``datasets.Dataset.from_list``
    builds them.  A choice question without a ``question`` text or an ``options`` list is an
    error naming the file and the line (OpenCompass stops with a ``KeyError``).
    """

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        file = get_data_path(path, local_mode=True)
        rows = jsonl_rows(file, "KaoshiDataset")
        if name in _WITH_OPTIONS:
            for i, row in enumerate(rows, start=1):
                where = f"{file}, line {i}"
                question = field(row, "question", "KaoshiDataset", where)
                if not isinstance(question, str):
                    raise InputFileError(f"KaoshiDataset: {where}: 'question' must be text, got {question!r:.80}")
                row["question"] = question.strip() + "\n" + _lettered(field(row, "options", "KaoshiDataset", where), where)
        return dataset(rows)

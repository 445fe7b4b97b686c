"""OpenBookQA as OpenCompass 0.5.4 reads it (``OBQADataset``, ``OBQADatasetV2``).

Layout: ``opencompass/openbookqa_test`` → ``./data/openbookqa/Main/test.jsonl``
and ``opencompass/openbookqa_fact`` → ``./data/openbookqa/Additional/test_complete.jsonl``,
one question per line: ``question`` (``stem``, ``choices``: objects with
``text``), ``answerKey`` and, in the "Additional" file, ``fact1``.
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset, field, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["OBQADataset", "OBQADatasetV2"]


def _rows(loader: str, path: str, what_stem: bool) -> list[dict[str, Any]]:
    file = get_data_path(path)
    rows = []
    for i, line in enumerate(jsonl_rows(file, loader), 1):
        where = f"{file}, line {i}"
        question = field(line, "question", loader, where)
        choices = field(question, "choices", loader, f"{where}: 'question'")
        if not isinstance(choices, list) or len(choices) < 4:
            raise InputFileError(f"{loader}: {where}: 'question.choices' must list at least 4 choices, got {choices!r}")
        texts = [field(c, "text", loader, f"{where}: choice {k}") for k, c in enumerate(choices[:4])]
        stem = field(question, "stem", loader, f"{where}: 'question'")
        if what_stem and not stem.endswith("?"):
            stem += " what?"
        item = dict(zip("ABCD", texts))
        item["question_stem"] = stem
        item["answerKey"] = field(line, "answerKey", loader, where)
        if "fact1" in line:
            item["fact1"] = line["fact1"]
        rows.append(item)
    return rows


@LOAD_DATASET.register_module()
class OBQADataset(BaseDataset):
    """Rows ``A``–``D`` (the first four choices' texts), ``question_stem``,
    ``answerKey`` and, where the line has it, ``fact1``; ``name`` (the
    Hugging Face subset) changes nothing for local files.

    ``path`` goes through :func:`~assay.datasets.location.get_data_path`.
    """

    @staticmethod
    def load(path: str, name: str = "main", **kwargs: Any) -> Any:
        return dataset(_rows("OBQADataset", path, what_stem=False))


@LOAD_DATASET.register_module()
class OBQADatasetV2(BaseDataset):
    """As :class:`OBQADataset`, with ``' what?'`` appended to a stem that does not end with ``?``."""

    @staticmethod
    def load(path: str, name: str = "main", **kwargs: Any) -> Any:
        return dataset(_rows("OBQADatasetV2", path, what_stem=True))

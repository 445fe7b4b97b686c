"""OlympiadBench as OpenCompass 0.5.4 reads it (``OlympiadBenchDataset``).

Layout (id ``opencompass/OlympiadBench`` → ``./data/OlympiadBench``)::

    <path>/<name>.json     e.g. OE_TO_maths_en_COMP.json: a JSON list of problems with
                           question, final_answer (a list), language, subject,
                           question_type, answer_type, is_multiple_answer, unit, error
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset_dict, field, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["OlympiadBenchDataset"]

_COPIED = ("language", "subject", "question_type", "answer_type", "is_multiple_answer", "unit", "error")


@LOAD_DATASET.register_module()
class OlympiadBenchDataset(BaseDataset):
    """Splits ``test`` and ``train`` (the same rows) of the problems of ``<path>/<name>.json``.

    Columns: ``problem`` (the question), ``solution`` (the first final
    answer), ``language``, ``subject``, ``question_type``, ``answer_type``,
    ``is_multiple_answer``, ``unit``, ``error`` and ``questions`` (the whole
    problem).  ``name`` is required.  ``path`` goes through
    :func:`~assay.datasets.location.get_data_path`.
    """

    @staticmethod
    def load(path: str, name: str | None = None, **kwargs: Any) -> Any:
        if name is None:
            raise ConfigError("OlympiadBenchDataset: 'name' is required (the JSON file of the folder, e.g. 'OE_TO_maths_en_COMP')")
        file = os.path.join(get_data_path(path), f"{name}.json")
        data = json_value(file, "OlympiadBenchDataset")
        if not isinstance(data, list):
            raise InputFileError(f"OlympiadBenchDataset: {file} must hold a JSON list of problems, got {type(data).__name__}")
        rows = []
        for i, item in enumerate(data):
            where = f"{file}, problem {i}"
            answers = field(item, "final_answer", "OlympiadBenchDataset", where)
            if not isinstance(answers, list) or not answers:
                raise InputFileError(f"OlympiadBenchDataset: {where}: 'final_answer' must be a non-empty list, got {answers!r:.80}")
            row = {"problem": field(item, "question", "OlympiadBenchDataset", where), "solution": answers[0]}
            row.update({key: field(item, key, "OlympiadBenchDataset", where) for key in _COPIED})
            row["questions"] = item
            rows.append(row)
        return dataset_dict({"test": rows, "train": rows})

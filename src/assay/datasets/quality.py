"""QuALITY as OpenCompass 0.5.4 reads it (``QuALITYDataset``).

Layout (the library's config: ``path='./data/QuALITY/QuALITY.v1.0.1.htmlstripped.dev'``,
read with ``local_mode``, under ``$COMPASS_DATA_CACHE`` when set)::

    one article per line: {"article": ..., "questions": [{"question", "options": [4 texts],
                                                          "gold_label": 1-4, "difficult": 0 or 1}, ...], ...}
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import json_objects, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["QuALITYDataset"]


@LOAD_DATASET.register_module()
class QuALITYDataset(BaseDataset):
    """One row per question: ``article``, ``question``, ``A``–``D`` (its first four options),
    ``gold_label`` and ``difficult``.

    ``gold_label`` is the letter ``'ABCD'[gold_label - 1]``, as OpenCompass indexes it: a label of
    0 reads as ``'D'`` (Python's index -1); a label outside -3 … 4 is an error naming the line.

    >>> QuALITYDataset.load('./data/QuALITY/QuALITY.v1.0.1.htmlstripped.dev')[0]['gold_label']  # doctest: +SKIP
    'C'
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "QuALITYDataset"
        filename = get_data_path(path, local_mode=True)
        rows = []
        for lineno, line in enumerate(json_objects(filename, loader), 1):
            try:
                article = line["article"]
                for i, question in enumerate(line["questions"]):
                    where = f"{filename}, line {lineno}, question {i}"
                    options = question["options"]
                    label = question["gold_label"]
                    if not isinstance(label, int) or isinstance(label, bool) or not -3 <= label <= 4:
                        raise InputFileError(f"{loader}: {where}: gold_label {label!r} is not a number from 1 to 4")
                    rows.append({"article": article, "question": question["question"], "A": options[0], "B": options[1],
                                 "C": options[2], "D": options[3], "gold_label": "ABCD"[label - 1],
                                 "difficult": question["difficult"]})
            except (KeyError, IndexError, TypeError) as exc:
                raise InputFileError(f"{loader}: file {filename}, line {lineno} lacks what a QuALITY article holds "
                                     f"(article, questions with question, four options, gold_label, difficult): "
                                     f"{type(exc).__name__}: {exc}") from None
        return rows_table(rows, filename)

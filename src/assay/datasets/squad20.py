"""SQuAD 2.0 as OpenCompass 0.5.4 reads it (``SQuAD20Dataset``).

Layout: the configs' ``path`` (``./data/SQuAD2.0/dev-v2.0.json``, read below
``$COMPASS_DATA_CACHE`` with no id table) is SQuAD's own JSON file::

    {"data": [{"paragraphs": [{"context": ..., "qas": [
        {"question": ..., "is_impossible": false, "answers": [{"text": ...}, ...]},
        {"question": ..., "is_impossible": true, "plausible_answers": [{"text": ...}, ...]}]}]}]}
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc import read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["SQuAD20Dataset"]

_LOADER = "SQuAD20Dataset"

#: The answer a question the passage cannot answer accepts, besides its plausible answers.
IMPOSSIBLE = "impossible to answer"


def _list(value: Any, key: str, where: str) -> list[Any]:
    if not isinstance(value, dict) or not isinstance(value.get(key), list):
        raise InputFileError(f"{_LOADER}: {where} has no {key!r} list (got {str(value)[:120]!r})")
    return list(value[key])


def _texts(answers: list[Any], where: str) -> list[Any]:
    texts = []
    for j, answer in enumerate(answers):
        if not isinstance(answer, dict) or "text" not in answer:
            raise InputFileError(f"{_LOADER}: {where}, answer {j} has no 'text' (got {str(answer)[:120]!r})")
        texts.append(answer["text"])
    return list(dict.fromkeys(texts))


@LOAD_DATASET.register_module()
class SQuAD20Dataset(BaseDataset):
    """One row per question: ``context`` (its paragraph), ``question``, ``answers``.

    ``answers`` holds each distinct answer text once; for a question marked
    ``is_impossible``, its distinct ``plausible_answers`` followed by
    ``'impossible to answer'``.  OpenCompass lists the distinct texts in the
    order of a Python ``set`` (which changes from one process to the next);
    assay keeps their first occurrence's order.  The evaluator reads them as a
    set, so the score is the same.  A question without ``is_impossible``, or
    without the answer list it names, is an error naming the file and the
    question.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        filename = get_data_path(path, local_mode=True)
        rows: list[dict[str, Any]] = []
        for a, article in enumerate(_list(read_json(filename, _LOADER), "data", filename)):
            for p, paragraph in enumerate(_list(article, "paragraphs", f"{filename}, article {a}")):
                where = f"{filename}, article {a}, paragraph {p}"
                context = paragraph.get("context") if isinstance(paragraph, dict) else None
                for q, qa in enumerate(_list(paragraph, "qas", where)):
                    at = f"{where}, question {q}"
                    if not isinstance(qa, dict) or "is_impossible" not in qa or "question" not in qa:
                        raise InputFileError(f"{_LOADER}: {at} needs 'question' and 'is_impossible' (got {str(qa)[:120]!r})")
                    if context is None:
                        raise InputFileError(f"{_LOADER}: {where} has no 'context'")
                    if qa["is_impossible"]:
                        answers = [*_texts(_list(qa, "plausible_answers", at), at), IMPOSSIBLE]
                    else:
                        answers = _texts(_list(qa, "answers", at), at)
                    rows.append({"context": context, "question": qa["question"], "answers": answers})
        return rows_table(rows, filename)

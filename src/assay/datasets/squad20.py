"""SQuAD 2.0 as OpenCompass 0.5.4 reads it (``SQuAD20Dataset``).

Layout: the configs' ``path`` (``./data/SQuAD2.0/dev-v2.0.json``, read below
``$COMPASS_DATA_CACHE`` with no id table) is SQuAD's own JSON file::

    {"data": [{"paragraphs": [{"context": ..., "qas": [
        {"question": ..., "is_impossible": false, "answers": [{"text": ...}, ...]},
        {"question": ..., "is_impossible": true, "plausible_answers": [{"text": ...}, ...]}]}]}]}
"""

from __future__ import annotations

from collections.abc import Iterator
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


def listed_under(value: Any, key: str, where: str, loader: str = _LOADER) -> list[Any]:
    """``value[key]``, which must be a list; else an error naming ``loader`` and ``where``."""
    if not isinstance(value, dict) or not isinstance(value.get(key), list):
        raise InputFileError(f"{loader}: {where} has no {key!r} list (got {str(value)[:120]!r})")
    return list(value[key])


def distinct_texts(answers: list[Any], where: str, loader: str = _LOADER) -> list[Any]:
    """The ``text`` of each answer object, each distinct text once, in the order of its first occurrence."""
    texts = []
    for j, answer in enumerate(answers):
        if not isinstance(answer, dict) or "text" not in answer:
            raise InputFileError(f"{loader}: {where}, answer {j} has no 'text' (got {str(answer)[:120]!r})")
        texts.append(answer["text"])
    return list(dict.fromkeys(texts))


def squad_questions(data: Any, filename: str, loader: str) -> Iterator[tuple[Any, dict[str, Any], str]]:
    """``(context, question object, where)`` for each question of a file in SQuAD's layout.

    ``data["data"]`` lists articles, each with ``paragraphs``, each with a
    ``context`` and ``qas``; a missing list or context is an error naming the
    file, the article and the paragraph.
    """
    for a, article in enumerate(listed_under(data, "data", filename, loader)):
        for p, paragraph in enumerate(listed_under(article, "paragraphs", f"{filename}, article {a}", loader)):
            where = f"{filename}, article {a}, paragraph {p}"
            context = paragraph.get("context") if isinstance(paragraph, dict) else None
            for q, qa in enumerate(listed_under(paragraph, "qas", where, loader)):
                if context is None:
                    raise InputFileError(f"{loader}: {where} has no 'context'")
                if not isinstance(qa, dict) or "question" not in qa:
                    raise InputFileError(f"{loader}: {where}, question {q} has no 'question' (got {str(qa)[:120]!r})")
                yield context, qa, f"{where}, question {q}"


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
        for context, qa, at in squad_questions(read_json(filename, _LOADER), filename, _LOADER):
            if "is_impossible" not in qa:
                raise InputFileError(f"{_LOADER}: {at} needs 'question' and 'is_impossible' (got {str(qa)[:120]!r})")
            if qa["is_impossible"]:
                answers = [*distinct_texts(listed_under(qa, "plausible_answers", at), at), IMPOSSIBLE]
            else:
                answers = distinct_texts(listed_under(qa, "answers", at), at)
            rows.append({"context": context, "question": qa["question"], "answers": answers})
        return rows_table(rows, filename)

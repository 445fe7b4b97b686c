"""GPQA: OpenCompass's ``GPQADataset`` and ``GPQASimpleEvalDataset`` loaders.

Layout read (the configs' ``path='./data/gpqa/'``, ``name='gpqa_diamond.csv'``)::

    data/gpqa/gpqa_diamond.csv   (also gpqa_main.csv, gpqa_extended.csv)

the CSV released with GPQA: a header record and one record per question, of
which fields 7–11 are read: ``Question``, ``Correct Answer`` and the three
``Incorrect Answer`` fields.  A record whose field 7 is ``'Question'`` (the
header) is skipped.
"""

from __future__ import annotations

import os
import random
from typing import Any

from assay.datasets._oc import as_datasets, csv_rows, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["GPQADataset", "GPQASimpleEvalDataset"]

#: The option orders GPQADataset cycles through: question k (from 1) uses ``_ROTATIONS[k % 4]``.
_ROTATIONS = ("ABCD", "BCDA", "CDAB", "DABC")


def _questions(path: str, name: str, what: str) -> list[tuple[str, list[str]]]:
    """``(question, [correct, wrong, wrong, wrong])`` for each question record."""
    file = os.path.join(path, name)
    out = []
    for i, record in enumerate(csv_rows(file, what)):
        if len(record) < 12:
            raise InputFileError(f"{what}: file {file}, record {i} has {len(record)} fields; fields 7-11 (question and answers) are needed")
        if record[7] == "Question":
            continue
        out.append((record[7], record[8:12]))
    return out


@LOAD_DATASET.register_module()
class GPQADataset(BaseDataset):
    """GPQA questions with the options ``A``–``D`` rotated and ``answer`` the correct letter.

    Question k (counting from 1) takes the options in the order
    ``'ABCD'``, ``'BCDA'``, ``'CDAB'``, ``'DABC'`` for k mod 4 = 0, 1, 2, 3,
    where A is the correct answer and B–D the incorrect ones, so the first
    question's answer is D.  ``answer`` is the first letter whose text equals
    the correct answer (an incorrect option with the same text wins when it
    comes first).  ``path`` goes through
    :func:`~assay.datasets.location.get_data_path` with ``local_mode``.
    """

    @staticmethod
    def load_table(path: str, name: str, **kwargs: Any) -> Any:
        """The questions as a table (what assay evaluates; no ``datasets`` import)."""
        root = get_data_path(path, local_mode=True)
        what = f"GPQADataset({name!r})"
        rows = []
        for k, (question, options) in enumerate(_questions(root, name, what), 1):
            row: dict[str, Any] = {"question": question}
            for letter, source in zip("ABCD", _ROTATIONS[k % 4]):
                row[letter] = options["ABCD".index(source)]
            for letter in "ABCD":
                if row[letter] == options[0]:
                    row["answer"] = letter
                    break
            rows.append(row)
        return rows_table(rows, what)

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        return as_datasets(GPQADataset.load_table(path, name, **kwargs))


@LOAD_DATASET.register_module()
class GPQASimpleEvalDataset(BaseDataset):
    """GPQA as simple-evals asks it: every question four times, each with its own shuffle.

    The list of questions is repeated four times over (all questions, then
    all again, …); entry i takes the permutation drawn by the i-th
    ``random.Random(0).sample(range(4), 4)``.  Columns: ``question``,
    ``answer`` (the correct letter), ``options`` (shuffled), ``permutation``,
    ``A``–``D``.
    """

    @staticmethod
    def load_table(path: str, name: str) -> Any:
        """The entries as a table (what assay evaluates; no ``datasets`` import)."""
        root = get_data_path(path, local_mode=True)
        what = f"GPQASimpleEvalDataset({name!r})"
        questions = _questions(root, name, what) * 4
        rng = random.Random(0)
        rows = []
        for question, options in questions:
            order = rng.sample(range(4), 4)
            shuffled = [options[i] for i in order]
            rows.append(
                {
                    "question": question,
                    "answer": "ABCD"[order.index(0)],
                    "options": shuffled,
                    "permutation": order,
                    **dict(zip("ABCD", shuffled)),
                }
            )
        return rows_table(rows, what)

    @staticmethod
    def load(path: str, name: str) -> Any:
        return as_datasets(GPQASimpleEvalDataset.load_table(path, name))

"""MathBench as OpenCompass 0.5.4 reads it (``MathBenchDataset``).

Layout (the configs' ``path``, e.g. ``data/mathbench_v1/college``, read below
``$COMPASS_DATA_CACHE`` with no id table)::

    <path>/<name>.jsonl    one question per line

``cloze_*`` files: ``{"question": ..., "answer": "..."}``, both stripped.
``single_choice_*`` files: ``{"question": ..., "options": [four options],
"answer": "A".."D", ...}``.  With ``with_circular`` (the configs' default),
each question gives four rows, its options rotated (``ABCD``, ``BCDA``,
``CDAB``, ``DABC``: the row's options are the original options in that
order), every field of the line kept, ``options`` rotated, ``question`` the
stripped question followed by ``'A. <option>\\n'`` … for the rotated options,
and ``answer`` ``'<line number>--<letter>--<rotation>'`` (the letter the
right option has in the row; line numbers count from 0), which openicl's
``CircularEvaluator`` (:class:`~assay.evaluators.circular_letters.CircularLetterEvaluator`)
reads.  Only the first four options are used, and the answer is not
stripped.  Without ``with_circular``: one row per line, ``question`` (with
every option listed) and ``answer`` (stripped) only.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import json_lines, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MathBenchDataset", "mathbench_options"]

_LOADER = "MathBenchDataset"
_ROTATIONS = ("ABCD", "BCDA", "CDAB", "DABC")


def mathbench_options(options: list[Any]) -> str:
    """The options listed as MathBench's questions end: ``'A. <option>\\n'`` per option.

    >>> mathbench_options(['1', '2'])
    'A. 1\\nB. 2\\n'
    """
    return "".join(f"{chr(ord('A') + i)}. {option}\n" for i, option in enumerate(options))


def _text(entry: dict[str, Any], key: str, where: str) -> str:
    if key not in entry:
        raise InputFileError(f"{_LOADER}: {where} has no {key!r} field (fields: {', '.join(map(str, entry)) or 'none'})")
    value = entry[key]
    if not isinstance(value, str):
        raise InputFileError(f"{_LOADER}: {where}: {key!r} is {value!r}, expected a string")
    return value


def _options(entry: dict[str, Any], where: str, least: int) -> list[Any]:
    options = entry.get("options")
    if not isinstance(options, list) or len(options) < least:
        raise InputFileError(f"{_LOADER}: {where}: 'options' is {options!r}, expected a list of {least} or more options")
    return options


def _circular(entry: dict[str, Any], qid: int, where: str) -> list[dict[str, Any]]:
    question = _text(entry, "question", where).strip()
    options = _options(entry, where, 4)
    answer = entry.get("answer")
    if answer not in ("A", "B", "C", "D"):
        raise InputFileError(f"{_LOADER}: {where}: 'answer' is {answer!r}, expected one of 'A', 'B', 'C', 'D'")
    rows = []
    for rotation in _ROTATIONS:
        turned = [options[ord(c) - ord("A")] for c in rotation]
        letter = "ABCD"[rotation.index(answer)]
        row = dict(entry)
        row["options"] = turned
        row["answer"] = f"{qid}--{letter}--{rotation}"
        row["question"] = question + "\n" + mathbench_options(turned)
        rows.append(row)
    return rows


@LOAD_DATASET.register_module()
class MathBenchDataset(BaseDataset):
    """One MathBench subset: ``<path>/<name>.jsonl`` (see the module's docstring for the rows).

    A file name containing ``cloze`` is read as cloze questions, any other as
    single-choice questions.  A line that is not a JSON object, lacks a field
    the rows need, or (circular) has fewer than four options or an answer
    other than ``A``–``D`` is an error naming the file and line.
    """

    @staticmethod
    def load(path: str, name: str, with_circular: bool = True, **kwargs: Any) -> Any:
        filename = os.path.join(get_data_path(path, local_mode=True), f"{name}.jsonl")
        rows: list[dict[str, Any]] = []
        for lineno, entry in json_lines(filename, _LOADER):
            where = f"{filename}, line {lineno}"
            if not isinstance(entry, dict):
                raise InputFileError(f"{_LOADER}: {where} holds {type(entry).__name__}, expected a JSON object")
            if "cloze" in name:
                rows.append({"question": _text(entry, "question", where).strip(), "answer": _text(entry, "answer", where).strip()})
            elif with_circular:
                rows.extend(_circular(entry, lineno - 1, where))
            else:
                question = _text(entry, "question", where).strip() + "\n" + mathbench_options(_options(entry, where, 0))
                rows.append({"question": question, "answer": _text(entry, "answer", where).strip()})
        return rows_table(rows, filename)

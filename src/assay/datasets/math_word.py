"""Math word-problem sets as OpenCompass 0.5.4 reads them: CMO fill-in-the-blank, SVAMP, GSM-Hard, MGSM and SciBench.

Each loader reads one local file and gives a single table of ``question`` and
``answer`` (CMO's rows keep their own fields too).  Layouts (``path`` as the
library's configs give it, resolved by
:func:`~assay.datasets.location.get_data_path`)::

    opencompass/cmo_fib        → ./data/cmo.jsonl             {"origin_prompt", "gold_answer", ...} per line
    opencompass/SVAMP          → ./data/svamp/SVAMP.jsonl     {"Body", "Question", "Answer", ...} per line
    ./data/gsm-hard/test.jsonl                                {"input", "target", ...} per line
    data/mgsm/mgsm_<lang>.tsv                                 question<TAB>answer per line
    ./data/scibench/<name>.json                               [{"problem_text", "answer_number", ...}, ...]

A file that is missing or unreadable, a line that is not JSON, a row without a
field the loader reads or with a value it cannot convert is an error naming
the loader, the file, the line (or row) and the value.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import json_objects, open_text, read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["CMOFibDataset", "GSMHardDataset", "MGSMSDataset", "SVAMPDataset", "ScibenchDataset"]


def _get(row: dict[str, Any], key: str, loader: str, where: str) -> Any:
    if key not in row:
        raise InputFileError(f"{loader}: {where} has no {key!r} field (fields: {', '.join(map(str, row)) or 'none'})")
    return row[key]


def _text(row: dict[str, Any], key: str, loader: str, where: str) -> str:
    value = _get(row, key, loader, where)
    if not isinstance(value, str):
        raise InputFileError(f"{loader}: {where}: {key!r} is {type(value).__name__} {value!r}, expected text")
    return value


@LOAD_DATASET.register_module()
class CMOFibDataset(BaseDataset):
    """The CMO fill-in-the-blank problems: every line's fields, plus ``question`` (a copy of
    ``origin_prompt``) and ``answer`` (a copy of ``gold_answer``), added after them unless the
    line already has those fields, whose place they then keep.

    >>> CMOFibDataset.load('opencompass/cmo_fib')[0]['answer']  # doctest: +SKIP
    '$\\\\frac{1}{2}$'
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "CMOFibDataset"
        filename = get_data_path(path)
        rows = []
        for lineno, line in enumerate(json_objects(filename, loader), 1):
            where = f"{filename}, line {lineno}"
            line["question"] = _get(line, "origin_prompt", loader, where)
            line["answer"] = _get(line, "gold_answer", loader, where)
            rows.append(line)
        return rows_table(rows, filename)


@LOAD_DATASET.register_module()
class SVAMPDataset(BaseDataset):
    """SVAMP: ``question`` is ``Body + ' ' + Question``; ``answer`` is ``str(int(Answer))``, so
    a fractional answer is cut towards zero (``2.5`` → ``'2'``), as OpenCompass reads it.

    >>> SVAMPDataset.load('opencompass/SVAMP')[0]['answer']  # doctest: +SKIP
    '145'
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "SVAMPDataset"
        filename = get_data_path(path)
        rows = []
        for lineno, line in enumerate(json_objects(filename, loader, strip=True), 1):
            where = f"{filename}, line {lineno}"
            body, question, answer = (_get(line, key, loader, where) for key in ("Body", "Question", "Answer"))
            try:
                rows.append({"question": body + " " + question, "answer": str(int(answer))})
            except (TypeError, ValueError, OverflowError) as exc:
                raise InputFileError(f"{loader}: {where}: Body {body!r}, Question {question!r}, Answer {answer!r}: {exc}") from None
        return rows_table(rows, filename)


@LOAD_DATASET.register_module()
class GSMHardDataset(BaseDataset):
    """GSM-Hard: ``question`` is ``input``; ``answer`` is ``str(target)`` — a number as Python
    writes it, so the JSON ``2125.0`` gives ``'2125.0'`` and ``7`` gives ``'7'``.

    ``path`` is read with ``local_mode`` (under ``$COMPASS_DATA_CACHE`` when set, no dataset id).

    >>> GSMHardDataset.load('./data/gsm-hard/test.jsonl')[0]['answer']  # doctest: +SKIP
    '2125.0'
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "GSMHardDataset"
        filename = get_data_path(path, local_mode=True)
        rows = []
        for lineno, line in enumerate(json_objects(filename, loader, strip=True), 1):
            where = f"{filename}, line {lineno}"
            rows.append({"question": _get(line, "input", loader, where), "answer": str(_get(line, "target", loader, where))})
        return rows_table(rows, filename)


@LOAD_DATASET.register_module()
class MGSMSDataset(BaseDataset):
    """One language of MGSM: each line of the TSV file, stripped, is ``question<TAB>answer``
    (both kept as text); a line without exactly one tab — a blank line included — is an error.

    ``path`` is read with ``local_mode``.

    >>> MGSMSDataset.load('data/mgsm/mgsm_en.tsv')[0]['answer']  # doctest: +SKIP
    '18'
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "MGSMSDataset"
        filename = get_data_path(path, local_mode=True)
        with open_text(filename, loader) as fh:
            try:
                lines = fh.readlines()
            except UnicodeDecodeError as exc:
                raise InputFileError(f"{loader}: file {filename} is not UTF-8 text: {exc}") from None
        rows = []
        for lineno, line in enumerate(lines, 1):
            parts = line.strip().split("\t")
            if len(parts) != 2:
                raise InputFileError(f"{loader}: file {filename}, line {lineno} has {len(parts)} tab-separated field(s), "
                                     f"expected question and answer: {line.strip()[:80]!r}")
            rows.append({"question": parts[0], "answer": parts[1]})
        return rows_table(rows, filename)


@LOAD_DATASET.register_module()
class ScibenchDataset(BaseDataset):
    """One SciBench subject: ``<path>/<name>.json``, a list of problems; ``question`` is
    ``problem_text`` and ``answer`` is ``answer_number``, both stripped.

    ``path`` is read with ``local_mode``.

    >>> ScibenchDataset.load('./data/scibench', 'atkins')[0]['answer']  # doctest: +SKIP
    '1.5'
    """

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        loader = "ScibenchDataset"
        filename = os.path.join(get_data_path(path, local_mode=True), f"{name}.json")
        raw = read_json(filename, loader)
        if not isinstance(raw, list):
            raise InputFileError(f"{loader}: file {filename} holds a JSON {type(raw).__name__}, expected a list of problems")
        rows = []
        for i, entry in enumerate(raw):
            where = f"{filename}, problem {i}"
            if not isinstance(entry, dict):
                raise InputFileError(f"{loader}: {where} is {type(entry).__name__}, expected a JSON object")
            rows.append({"question": _text(entry, "problem_text", loader, where).strip(),
                         "answer": _text(entry, "answer_number", loader, where).strip()})
        return rows_table(rows, filename)

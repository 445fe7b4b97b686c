"""WikiBench as OpenCompass 0.5.4 reads it (``WikiBenchDataset``).

Layout (id ``opencompass/WikiBench`` → ``./data/WikiBench/``): the config's
``filename`` (``single_choice_cn.jsonl``) in that folder, joined to it as text
(OpenCompass adds no separator), one question per line: ``question``,
``options`` (four texts) and ``answer`` (a letter).
"""

from __future__ import annotations

import copy
from typing import Any

from assay.datasets._oc_files import dataset, field, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["WikiBenchDataset", "choice_rows"]

_LOADER = "WikiBenchDataset"
#: The four orders of the circular evaluation, as OpenCompass's CircularEvaluator reads them.
CIRCULAR_PATTERNS = ("ABCD", "BCDA", "CDAB", "DABC")


def _lettered(options: list[Any]) -> str:
    return "".join(f"{chr(65 + i)}. {option}\n" for i, option in enumerate(options))


@LOAD_DATASET.register_module()
class WikiBenchDataset(BaseDataset):
    """WikiBench's questions, read by ``name``:

    * a name with ``cloze``: ``question`` and ``answer``, stripped;
    * a name with ``circular``: each question four times, its options in the
      orders ``ABCD``, ``BCDA``, ``CDAB``, ``DABC`` (the order's first letter
      names the option put first), ``question`` stripped and followed by the
      options as ``'A. …'`` lines, ``answer`` ``'<line index>--<letter>--<order>'``
      (what ``CircularEvaluator`` reads), the line's other fields kept;
    * otherwise: the line with ``question`` stripped and followed by the
      lettered options.
    """

    @staticmethod
    def load(path: str, filename: str, name: str, **kwargs: Any) -> Any:
        file = get_data_path(path) + filename
        return dataset(choice_rows(jsonl_rows(file, _LOADER), name, _LOADER, file))


def choice_rows(entries: list[dict[str, Any]], name: str, loader: str, file: str) -> list[dict[str, Any]]:
    """The rows of a file of choice questions read by ``name``, as :class:`WikiBenchDataset` describes
    (CompassBench v1.3's objective loader reads its files the same way); ``entries`` are the file's lines."""
    rows: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        where = f"{file}, line {index + 1}"
        question = field(entry, "question", loader, where)
        if "cloze" in name:
            rows.append({"question": question.strip(), "answer": field(entry, "answer", loader, where).strip()})
            continue
        options = field(entry, "options", loader, where)
        if "circular" not in name:
            entry["question"] = question.strip() + "\n" + _lettered(options)
            rows.append(entry)
            continue
        answer = field(entry, "answer", loader, where)
        if not isinstance(options, list) or len(options) < 4 or answer not in ("A", "B", "C", "D"):
            raise InputFileError(f"{loader}: {where}: a circular question needs four 'options' and an 'answer' "
                                 f"A–D, got options {options!r} and answer {answer!r}")
        for order in CIRCULAR_PATTERNS:
            line = copy.deepcopy(entry)
            line["options"] = [options[ord(letter) - ord("A")] for letter in order]
            letter = "ABCD"[order.index(answer)]
            line["answer"] = f"{index}--{letter}--{order}"
            line["question"] = question.strip() + "\n" + _lettered(line["options"])
            rows.append(line)
    return rows

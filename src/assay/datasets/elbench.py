"""ELBench as OpenCompass 0.5.4 reads it (``ELBenchSafetyDataset``, ``ELBenchHighLevelOmniDataset``,
``ELBenchHighLevelEduDataset``, ``ELBenchGeneralDataset``).

Layout: the data root is where ``opencompass/ELBench`` resolves
(``$COMPASS_DATA_CACHE/data/elbench`` locally; the configs' ``path`` is a
folder under it, ``name`` a file stem): ``<root>/<path>/<name>.jsonl``, one
JSON object per line, blank lines skipped.  Only local data is read: with
``DATASET_SOURCE`` set to a hub, the error says so.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from assay.datasets._oc_files import dataset, field, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["ELBenchGeneralDataset", "ELBenchHighLevelEduDataset", "ELBenchHighLevelOmniDataset", "ELBenchSafetyDataset"]


def _problems(loader: str, path: str, name: str) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
    root = get_data_path("opencompass/ELBench")
    if not os.path.isdir(root):
        raise InputFileError(f"{loader}: ELBench's data root {root} does not exist (COMPASS_DATA_CACHE holds data/elbench)")
    file = os.path.join(root, path, f"{name}.jsonl")
    rows = []
    with open(require_file(file, loader), encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.strip()
            if not line:
                continue
            where = f"{file}, line {n}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputFileError(f"{loader}: {where} is not JSON: {exc}") from None
            if not isinstance(row, dict):
                raise InputFileError(f"{loader}: {where} is not a JSON object")
            rows.append((where, row))
    return file, rows


@LOAD_DATASET.register_module()
class ELBenchSafetyDataset(BaseDataset):
    """Safety questions: ``question`` and ``judge`` (``task`` = ``name``, ``label`` (else the
    ``category``, else ``''``), ``subcategory``, ``question``)."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        _, problems = _problems("ELBenchSafetyDataset", path, name)
        rows = []
        for where, p in problems:
            question = field(p, "question", "ELBenchSafetyDataset", where)
            judge = {"task": name, "label": p.get("label") or p.get("category", ""),
                     "subcategory": p.get("subcategory", ""), "question": question}
            rows.append({"question": question, "judge": judge})
        return dataset(rows)


@LOAD_DATASET.register_module()
class ELBenchHighLevelOmniDataset(BaseDataset):
    """Choice questions: ``question`` and ``answer`` (the answer's distinct letters A–J, sorted)."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        _, problems = _problems("ELBenchHighLevelOmniDataset", path, name)
        rows = []
        for where, p in problems:
            gold = "".join(sorted(set(re.findall(r"[A-J]", str(p.get("answer", "")).upper()))))
            rows.append({"question": field(p, "question", "ELBenchHighLevelOmniDataset", where), "answer": gold})
        return dataset(rows)


@LOAD_DATASET.register_module()
class ELBenchHighLevelEduDataset(BaseDataset):
    """Teaching-quality questions: ``question`` (``question``, else ``Question``, else ``''``) and ``judge``
    (``task='highlevel_edu'``, ``subject``, ``reference``: the JSON text of its ``Score``,
    ``Scoring Details`` and ``Personalized Feedback``, ``question``)."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        _, problems = _problems("ELBenchHighLevelEduDataset", path, name)
        rows = []
        for _, p in problems:
            question = p.get("question") or p.get("Question", "")
            reference = {k: p[k] for k in ("Score", "Scoring Details", "Personalized Feedback") if k in p}
            judge = {"task": "highlevel_edu", "subject": p.get("Subject", ""),
                     "reference": json.dumps(reference, ensure_ascii=False), "question": question}
            rows.append({"question": question, "judge": judge})
        return dataset(rows)


@LOAD_DATASET.register_module()
class ELBenchGeneralDataset(BaseDataset):
    """General-capability items: ``question`` (the first ``input`` message's ``content``, else the
    ``input`` as text) and ``target`` (as text)."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        _, problems = _problems("ELBenchGeneralDataset", path, name)
        rows = []
        for _, p in problems:
            messages = p.get("input") or []
            question = messages[0].get("content", "") if isinstance(messages, list) and messages else str(messages)
            rows.append({"question": question, "target": str(p.get("target", ""))})
        return dataset(rows)

"""Multiple-choice exams kept in local files, as OpenCompass 0.5.4 reads them:
``MMLUArabicDataset``, ``FinanceIQDataset``, ``ChemBenchDataset``, ``CMBDataset``,
``XiezhiDataset``, ``MMMLULiteDataset``, ``OpenFinDataDataset``.

The configs name local folders (``./data/MMLUArabic/``, ``./data/FinanceIQ/``,
``./data/CMB/``, ``./data/xiezhi/``), read in local mode below
``$COMPASS_DATA_CACHE``, or dataset ids of OpenCompass's table
(``opencompass/ChemBench4K`` → ``./data/ChemBench4K``, ``opencompass/mmmlu_lite`` →
``./data/mmmlu_lite``).  Each loader's docstring lists the files it reads.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset, dataset_dict, field, json_value, jsonl_rows, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["CMBDataset", "ChemBenchDataset", "FinanceIQDataset", "MMLUArabicDataset", "MMMLULiteDataset", "OpenFinDataDataset",
           "XiezhiDataset"]


def _csv_rows(path: str | os.PathLike[str], loader: str, cells: int, header: bool) -> list[list[str]]:
    file = require_file(path, loader)
    with open(file, encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    if header:
        if not rows:
            raise InputFileError(f"{loader}: {file} is empty; expected a header row")
        rows = rows[1:]
    for i, row in enumerate(rows, 2 if header else 1):
        if len(row) != cells:
            raise InputFileError(f"{loader}: {file}, row {i} has {len(row)} cells, expected {cells}")
    return rows


@LOAD_DATASET.register_module()
class MMLUArabicDataset(BaseDataset):
    """``<path>/dev/<name>_dev.csv`` and ``<path>/test/<name>_test.csv``, no header, six cells a
    row: splits ``dev``, ``test`` with rows ``input``, ``A``–``D``, ``target``."""

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        root = get_data_path(path, local_mode=True)
        return dataset_dict({
            split: [dict(zip(("input", "A", "B", "C", "D", "target"), row))
                    for row in _csv_rows(os.path.join(root, split, f"{name}_{split}.csv"), "MMLUArabicDataset", 6, header=False)]
            for split in ("dev", "test")
        })


@LOAD_DATASET.register_module()
class FinanceIQDataset(BaseDataset):
    """``<path>/dev/<name>.csv`` and ``<path>/test/<name>.csv``, a header row then seven cells a
    row (the first, an id, is dropped): splits ``dev``, ``test`` with rows ``question``,
    ``A``–``D``, ``answer``."""

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        root = get_data_path(path, local_mode=True)
        return dataset_dict({
            split: [dict(zip(("question", "A", "B", "C", "D", "answer"), row[1:]))
                    for row in _csv_rows(os.path.join(root, split, f"{name}.csv"), "FinanceIQDataset", 7, header=True)]
            for split in ("dev", "test")
        })


@LOAD_DATASET.register_module()
class ChemBenchDataset(BaseDataset):
    """``<path>/dev/<name>_benchmark.json`` and ``<path>/test/<name>_benchmark.json``, each a
    JSON list of questions with ``question``, ``A``–``D``, ``answer``: splits ``dev``, ``test``
    with rows ``input``, ``A``–``D``, ``target``.  ``path`` goes through the dataset-id table
    (``opencompass/ChemBench4K`` → ``./data/ChemBench4K``)."""

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        root = get_data_path(path)
        splits = {}
        for split in ("dev", "test"):
            file = os.path.join(root, split, f"{name}_benchmark.json")
            items = json_value(file, "ChemBenchDataset")
            if not isinstance(items, list):
                raise InputFileError(f"ChemBenchDataset: {file} holds a JSON {type(items).__name__}, not a list")
            keys = (("input", "question"), ("A", "A"), ("B", "B"), ("C", "C"), ("D", "D"), ("target", "answer"))
            splits[split] = [{ours: field(item, theirs, "ChemBenchDataset", f"{file}, item {i}") for ours, theirs in keys}
                             for i, item in enumerate(items)]
        return dataset_dict(splits)


def _option_str(item: Any, where: str) -> str:
    options = field(item, "option", "CMBDataset", where)
    if not isinstance(options, dict):
        raise InputFileError(f"CMBDataset: {where}: 'option' must map letters to texts, got {options!r}")
    return "\n".join(f"{k}. {v}" for k, v in options.items() if len(v) > 1)


@LOAD_DATASET.register_module()
class CMBDataset(BaseDataset):
    """``<path>/val.json`` and ``<path>/test.json`` (JSON lists of questions, each with an
    ``option`` object): splits ``val``, ``test``, every field of a question kept, with
    ``option_str`` added — the options as ``'<letter>. <text>'`` lines, those whose text is a
    single character left out, as in OpenCompass.  The ``test`` split's ``answer`` is
    ``'NULL'`` (its answers are not public), so scoring it counts every answer wrong.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        root = Path(get_data_path(path, local_mode=True))
        splits = {}
        for split in ("val", "test"):
            file = root / f"{split}.json"
            items = json_value(file, "CMBDataset")
            if not isinstance(items, list):
                raise InputFileError(f"CMBDataset: {file} holds a JSON {type(items).__name__}, not a list")
            for i, item in enumerate(items):
                item["option_str"] = _option_str(item, f"{file}, item {i}")
                if split == "test":
                    item["answer"] = "NULL"
            splits[split] = items
        return dataset_dict(splits)


def _xiezhi_rows(file: Path, chinese: bool) -> list[dict[str, Any]]:
    rows = []
    for i, data in enumerate(jsonl_rows(file, "XiezhiDataset"), 1):
        where = f"{file}, line {i}"
        raw = field(data, "options", "XiezhiDataset", where)
        if raw.endswith('"\n'):
            raw = raw[:-2]
        options = raw.split("\n")
        if len(options) != 4:
            continue
        answer = field(data, "answer", "XiezhiDataset", where)
        if answer not in options:
            raise InputFileError(f"XiezhiDataset: {where}: the answer {answer!r} is none of the options {options!r}")
        labels = sorted(field(data, "labels" if chinese else "label", "XiezhiDataset", where), key=len, reverse=True)
        rows.append({"question": field(data, "question", "XiezhiDataset", where), "A": options[0], "B": options[1],
                     "C": options[2], "D": options[3], "labels": labels, "answer": "ABCD"[options.index(answer)]})
    return rows


@LOAD_DATASET.register_module()
class XiezhiDataset(BaseDataset):
    """``<path>/<name>/xiezhi.v1.json`` (the ``test`` split) and, for the ``train`` split,
    ``<path>/xiezhi_train_chn/xiezhi.v1.json`` when ``name`` contains ``chn``, else
    ``<path>/xiezhi_train_eng/xiezhi.v1.json``; JSON Lines.  A question's ``options`` is one
    string, the options on lines of their own (a trailing ``"`` and newline dropped); a
    question without exactly four options is left out.  Rows ``question``, ``A``–``D``,
    ``labels`` (the ``labels`` field for Chinese sets, ``label`` otherwise, longest first) and
    ``answer``, the letter of the option equal to the ``answer`` field.
    """

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        root = Path(get_data_path(path, local_mode=True))
        chinese = "chn" in name
        train = root / ("xiezhi_train_chn" if chinese else "xiezhi_train_eng") / "xiezhi.v1.json"
        return dataset_dict({"train": _xiezhi_rows(train, chinese), "test": _xiezhi_rows(root / name / "xiezhi.v1.json", chinese)})


@LOAD_DATASET.register_module()
class MMMLULiteDataset(BaseDataset):
    """``<path>/<language>/test.jsonl``, the language the part of ``name`` after its last ``_``
    (``openai_mmmlu_lite_AR-XY`` → ``AR-XY``): one split, ``test``, its lines as they are."""

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        file = os.path.join(get_data_path(path), name.split("_")[-1], "test.jsonl")
        with open(require_file(file, "MMMLULiteDataset"), encoding="utf-8") as handle:
            lines = handle.readlines()
        rows = []
        for i, line in enumerate(lines, 1):
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise InputFileError(f"MMMLULiteDataset: {file}, line {i} is not JSON: {exc}") from None
        return dataset_dict({"test": rows})



@LOAD_DATASET.register_module()
class OpenFinDataDataset(BaseDataset):
    """``<path>/<name>.json``, a JSON list of questions, as it is (``path``: ``./data/openfindata_release``,
    read in local mode)."""

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        file = Path(get_data_path(path, local_mode=True)) / f"{name}.json"
        items = json_value(file, "OpenFinDataDataset")
        if not isinstance(items, list):
            raise InputFileError(f"OpenFinDataDataset: {file} holds a JSON {type(items).__name__}, not a list")
        return dataset(items)

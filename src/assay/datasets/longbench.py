"""LongBench (v1) and LongBench v2 as OpenCompass 0.5.4 reads them.

Layouts::

    <path>/data/<name>.jsonl     one subset of LongBench per file, as in its data archive
                                 (id ``opencompass/Longbench`` → ``./data/Longbench``)
    <path>                       LongBench v2: one JSON file, a list of objects
                                 (id ``opencompass/longbenchv2`` → ``./data/longbenchv2/data.json``)

Every LongBench loader returns a ``test`` split of the fields its OpenCompass namesake keeps:
``input``, ``context``, ``answers`` (QA, summarization of a query, retrieval, few-shot QA),
``context``, ``answers`` (``gov_report``, ``lcc``, ``multi_news``, ``passage_count``, ``vcsum``),
or ``input``, ``context``, ``all_labels = {'answers', 'all_classes'}`` (``trec``, ``lsht``).
A missing file or field is an error naming the loader and the file.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import dataset_dict, field, json_value, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "LongBench2wikimqaDataset",
    "LongBenchdureaderDataset",
    "LongBenchgov_reportDataset",
    "LongBenchhotpotqaDataset",
    "LongBenchlccDataset",
    "LongBenchlshtDataset",
    "LongBenchmulti_newsDataset",
    "LongBenchmultifieldqa_enDataset",
    "LongBenchmultifieldqa_zhDataset",
    "LongBenchmusiqueDataset",
    "LongBenchnarrativeqaDataset",
    "LongBenchpassage_countDataset",
    "LongBenchpassage_retrieval_enDataset",
    "LongBenchpassage_retrieval_zhDataset",
    "LongBenchqasperDataset",
    "LongBenchqmsumDataset",
    "LongBenchrepobenchDataset",
    "LongBenchsamsumDataset",
    "LongBenchtrecDataset",
    "LongBenchtriviaqaDataset",
    "LongBenchv2Dataset",
    "LongBenchvcsumDataset",
]


def _subset_rows(loader: str, path: str, name: str) -> tuple[str, list[dict[str, Any]]]:
    if not isinstance(name, str) or not name:
        raise InputFileError(f"{loader}: name must be a LongBench subset name, got {name!r}")
    file = os.path.join(get_data_path(path), "data", f"{name}.jsonl")
    return file, jsonl_rows(file, loader)


class _LongBench(BaseDataset):
    """A LongBench subset: ``<path>/data/<name>.jsonl``, the fields of :attr:`fields` kept."""

    fields: tuple[str, ...] = ("input", "context", "answers")

    @classmethod
    def _load(cls, path: str, name: str) -> Any:
        loader = cls.__name__
        file, rows = _subset_rows(loader, path, name)
        out = []
        for number, row in enumerate(rows, 1):
            where = f"{file} line {number}"
            if cls.fields == ("classification",):
                out.append({
                    "input": field(row, "input", loader, where),
                    "context": field(row, "context", loader, where),
                    "all_labels": {"answers": field(row, "answers", loader, where), "all_classes": field(row, "all_classes", loader, where)},
                })
            else:
                out.append({key: field(row, key, loader, where) for key in cls.fields})
        return dataset_dict({"test": out})


def _loader(class_name: str, fields: tuple[str, ...], doc: str) -> type[_LongBench]:
    def load(path: str, name: str, **kwargs: Any) -> Any:
        return cls._load(path, name)

    cls: type[_LongBench] = type(class_name, (_LongBench,), {"fields": fields, "load": staticmethod(load), "__doc__": doc, "__module__": __name__})
    LOAD_DATASET.register_module(module=cls)
    return cls


_QA = ("input", "context", "answers")
_SUMMARY = ("context", "answers")
_CLASSES = ("classification",)

LongBench2wikimqaDataset = _loader("LongBench2wikimqaDataset", _QA, "LongBench 2WikiMultihopQA: ``input``, ``context``, ``answers``.")
LongBenchdureaderDataset = _loader("LongBenchdureaderDataset", _QA, "LongBench DuReader: ``input``, ``context``, ``answers``.")
LongBenchgov_reportDataset = _loader("LongBenchgov_reportDataset", _SUMMARY, "LongBench GovReport: ``context``, ``answers``.")
LongBenchhotpotqaDataset = _loader("LongBenchhotpotqaDataset", _QA, "LongBench HotpotQA: ``input``, ``context``, ``answers``.")
LongBenchlccDataset = _loader("LongBenchlccDataset", _SUMMARY, "LongBench LCC: ``context``, ``answers``.")
LongBenchlshtDataset = _loader("LongBenchlshtDataset", _CLASSES, "LongBench LSHT: ``input``, ``context``, ``all_labels``.")
LongBenchmulti_newsDataset = _loader("LongBenchmulti_newsDataset", _SUMMARY, "LongBench Multi-News: ``context``, ``answers``.")
LongBenchmultifieldqa_enDataset = _loader("LongBenchmultifieldqa_enDataset", _QA, "LongBench MultiFieldQA-en: ``input``, ``context``, ``answers``.")
LongBenchmultifieldqa_zhDataset = _loader("LongBenchmultifieldqa_zhDataset", _QA, "LongBench MultiFieldQA-zh: ``input``, ``context``, ``answers``.")
LongBenchmusiqueDataset = _loader("LongBenchmusiqueDataset", _QA, "LongBench MuSiQue: ``input``, ``context``, ``answers``.")
LongBenchnarrativeqaDataset = _loader("LongBenchnarrativeqaDataset", _QA, "LongBench NarrativeQA: ``input``, ``context``, ``answers``.")
LongBenchpassage_countDataset = _loader("LongBenchpassage_countDataset", _SUMMARY, "LongBench PassageCount: ``context``, ``answers``.")
LongBenchpassage_retrieval_enDataset = _loader("LongBenchpassage_retrieval_enDataset", _QA,
                                               "LongBench PassageRetrieval-en: ``input``, ``context``, ``answers``.")
LongBenchpassage_retrieval_zhDataset = _loader("LongBenchpassage_retrieval_zhDataset", _QA,
                                               "LongBench PassageRetrieval-zh: ``input``, ``context``, ``answers``.")
LongBenchqasperDataset = _loader("LongBenchqasperDataset", _QA, "LongBench Qasper: ``input``, ``context``, ``answers``.")
LongBenchqmsumDataset = _loader("LongBenchqmsumDataset", _QA, "LongBench QMSum: ``input``, ``context``, ``answers``.")
LongBenchrepobenchDataset = _loader("LongBenchrepobenchDataset", _QA, "LongBench RepoBench-P: ``input``, ``context``, ``answers``.")
LongBenchsamsumDataset = _loader("LongBenchsamsumDataset", _QA, "LongBench SAMSum: ``input``, ``context``, ``answers``.")
LongBenchtrecDataset = _loader("LongBenchtrecDataset", _CLASSES, "LongBench TREC: ``input``, ``context``, ``all_labels``.")
LongBenchtriviaqaDataset = _loader("LongBenchtriviaqaDataset", _QA, "LongBench TriviaQA: ``input``, ``context``, ``answers``.")
LongBenchvcsumDataset = _loader("LongBenchvcsumDataset", _SUMMARY, "LongBench VCSUM: ``context``, ``answers``.")

_V2_FIELDS = ("question", "context", "answer", "choice_A", "choice_B", "choice_C", "choice_D", "difficulty", "length")


@LOAD_DATASET.register_module()
class LongBenchv2Dataset(BaseDataset):
    """LongBench v2: one JSON file (a list of objects); splits ``train`` (every row as it is) and
    ``test`` (the fields ``question``, ``context``, ``answer``, ``choice_A``–``choice_D``,
    ``difficulty``, ``length``), as OpenCompass returns them.  ``path`` goes through
    :func:`~assay.datasets.location.get_data_path`."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        loader = "LongBenchv2Dataset"
        file = get_data_path(path)
        rows = json_value(file, loader)
        if isinstance(rows, dict):
            rows = [rows]
        if not isinstance(rows, list):
            raise InputFileError(f"{loader}: {file} holds {type(rows).__name__}, expected a list of objects")
        test = [{key: field(row, key, loader, f"{file} item {i}") for key in _V2_FIELDS} for i, row in enumerate(rows)]
        return dataset_dict({"train": rows, "test": test})

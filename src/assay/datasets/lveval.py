"""LV-Eval as OpenCompass 0.5.4 reads it (its eleven ``LVEval*Dataset`` loaders).

OpenCompass hands ``path='Infinigence/LVEval'`` and ``name='<task>_<length>'`` to
``datasets.load_dataset``; assay reads the same files locally, from the data archive's layout::

    <path>/<task>/<task>_<length>.jsonl      (e.g. hotpotwikiqa_mixup/hotpotwikiqa_mixup_16k.jsonl)
    <path>/<task>_<length>.jsonl             (the same files, unpacked side by side)

``path`` is resolved as OpenCompass resolves local data (``$COMPASS_DATA_CACHE``, then
``~/.cache/opencompass``); a ``data_files`` argument (a file, or ``{'test': file}``) names the file
itself.  Each loader returns a ``test`` split of ``input``, ``context``, ``answers`` and, per task,
``confusing_facts`` and ``answer_keywords``; where a task has answer keywords, they are appended to
``answers`` (the evaluators read the last reference as the keywords).
"""

from __future__ import annotations

import os
import re
from typing import Any

from assay.datasets._oc_files import dataset_dict, field, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "LVEvalcmrcDataset",
    "LVEvaldureaderDataset",
    "LVEvalfactrecallenDataset",
    "LVEvalfactrecallzhDataset",
    "LVEvalhotpotwikiqaDataset",
    "LVEvallicDataset",
    "LVEvallooglecrDataset",
    "LVEvallooglemirDataset",
    "LVEvallooglesdDataset",
    "LVEvalmultifieldqaenDataset",
    "LVEvalmultifieldqazhDataset",
]

_LENGTH = re.compile(r"_(\d+k)$")


def _file(loader: str, kwargs: dict[str, Any]) -> str:
    files = kwargs.get("data_files")
    if files is not None:
        if isinstance(files, dict):
            files = files.get("test")
        if isinstance(files, (list, tuple)) and len(files) == 1:
            files = files[0]
        if not isinstance(files, str):
            raise InputFileError(f"{loader}: data_files must be one file or {{'test': file}}, got {kwargs['data_files']!r}")
        return get_data_path(files, local_mode=True)
    path, name = kwargs.get("path"), kwargs.get("name")
    if not isinstance(path, str) or not isinstance(name, str) or not name:
        raise InputFileError(f"{loader}: needs path= (the LV-Eval folder) and name= ('<task>_<length>'), got path={path!r}, name={name!r}")
    root = get_data_path(path, local_mode=True)
    task = _LENGTH.sub("", name)
    nested = os.path.join(root, task, f"{name}.jsonl")
    flat = os.path.join(root, f"{name}.jsonl")
    return flat if not os.path.exists(nested) and os.path.exists(flat) else nested


class _LVEval(BaseDataset):
    extra: tuple[str, ...] = ()

    @classmethod
    def _load(cls, kwargs: dict[str, Any]) -> Any:
        loader = cls.__name__
        file = _file(loader, kwargs)
        rows = []
        for number, row in enumerate(jsonl_rows(file, loader), 1):
            where = f"{file} line {number}"
            answers = field(row, "answers", loader, where)
            item = {"input": field(row, "input", loader, where), "context": field(row, "context", loader, where)}
            extras = {key: field(row, key, loader, where) for key in cls.extra}
            if "answer_keywords" in extras:
                answers = [*answers, extras["answer_keywords"]]
            rows.append({**item, "answers": answers, **extras})
        return dataset_dict({"test": rows})


def _loader(class_name: str, extra: tuple[str, ...], task: str) -> type[_LVEval]:
    def load(**kwargs: Any) -> Any:
        return cls._load(kwargs)

    kept = ", ".join(f"``{k}``" for k in ("input", "context", "answers", *extra))
    doc = f"LV-Eval {task}: {kept}" + (" (the keywords also appended to ``answers``)." if "answer_keywords" in extra else ".")
    cls: type[_LVEval] = type(class_name, (_LVEval,), {"extra": extra, "load": staticmethod(load), "__doc__": doc, "__module__": __name__})
    LOAD_DATASET.register_module(module=cls)
    return cls


_CF = ("confusing_facts",)
_AK = ("answer_keywords",)
_CF_AK = ("confusing_facts", "answer_keywords")

LVEvalcmrcDataset = _loader("LVEvalcmrcDataset", _CF, "cmrc_mixup")
LVEvaldureaderDataset = _loader("LVEvaldureaderDataset", (), "dureader_mixup")
LVEvalfactrecallenDataset = _loader("LVEvalfactrecallenDataset", _CF, "factrecall_en")
LVEvalfactrecallzhDataset = _loader("LVEvalfactrecallzhDataset", _CF, "factrecall_zh")
LVEvalhotpotwikiqaDataset = _loader("LVEvalhotpotwikiqaDataset", _CF_AK, "hotpotwikiqa_mixup")
LVEvallicDataset = _loader("LVEvallicDataset", _CF_AK, "lic_mixup")
LVEvallooglecrDataset = _loader("LVEvallooglecrDataset", _AK, "loogle_CR_mixup")
LVEvallooglemirDataset = _loader("LVEvallooglemirDataset", _AK, "loogle_MIR_mixup")
LVEvallooglesdDataset = _loader("LVEvallooglesdDataset", _AK, "loogle_SD_mixup")
LVEvalmultifieldqaenDataset = _loader("LVEvalmultifieldqaenDataset", _CF_AK, "multifieldqa_en_mixup")
LVEvalmultifieldqazhDataset = _loader("LVEvalmultifieldqazhDataset", _CF_AK, "multifieldqa_zh_mixup")

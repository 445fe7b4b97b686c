"""P-MMEval's multilingual tasks as OpenCompass 0.5.4 reads them (``PMMEvalFloresDataset``,
``PMMEvalHumanEvalXLDataset``, ``PMMEvalMGSMDataset``, ``PMMEvalMIFEvalDataset``, ``PMMEvalMHellaswagDataset``,
``PMMEvalMLogiQADataset``, ``PMMEvalMMMLUDataset``, ``PMMEvalXNLIDataset``).

Layout (the library's configs: ``path='P-MMEval'``, OpenCompass's table placing it at
``./data/P-MMEval/``, under ``$COMPASS_DATA_CACHE`` when set)::

    flores/test/<language name>.jsonl        (lang_fullname='Chinese', ...)
    mgsm/test/<lang>.jsonl                   (lang='en', 'zh', ...)
    mhellaswag/test/<lang>.jsonl
    mlogiqa/test/<lang>.jsonl
    xnli/test/<lang>.jsonl
    mifeval/test/<lang>.jsonl
    mmmlu/easy/test/mmlu_<code>.jsonl        (lang='EN-US', ...; difficulty 'easy', 'hard' or 'all')
    mmmlu/hard/test/mmlu_<code>.jsonl
    humaneval-xl/test/<program_lang>/<lang>.jsonl   (program_lang='python', 'java', 'javascript'; lang='English', ...)

Each line is one JSON object, read whole as a row (its surrounding white space
stripped first, so a blank line is an error, as it is for OpenCompass); the
columns are the first row's keys.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import json_objects, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError
from assay.registry import LOAD_DATASET

__all__ = [
    "PMMEvalFloresDataset",
    "PMMEvalHumanEvalXLDataset",
    "PMMEvalMGSMDataset",
    "PMMEvalMIFEvalDataset",
    "PMMEvalMHellaswagDataset",
    "PMMEvalMLogiQADataset",
    "PMMEvalMMMLUDataset",
    "PMMEvalXNLIDataset",
]


def _rows(loader: str, path: str, *parts: str) -> list[dict[str, Any]]:
    return json_objects(os.path.join(get_data_path(path), *parts), loader, strip=True)


def _table(loader: str, path: str, *parts: str) -> Any:
    return rows_table(_rows(loader, path, *parts), os.path.join(get_data_path(path), *parts))


@LOAD_DATASET.register_module()
class PMMEvalFloresDataset(BaseDataset):
    """FLORES sentences into one language: ``flores/test/<lang_fullname>.jsonl``."""

    @staticmethod
    def load(path: str, lang_fullname: str, **kwargs: Any) -> Any:
        return _table("PMMEvalFloresDataset", path, "flores", "test", f"{lang_fullname}.jsonl")


@LOAD_DATASET.register_module()
class PMMEvalMGSMDataset(BaseDataset):
    """MGSM in one language: ``mgsm/test/<lang>.jsonl``."""

    @staticmethod
    def load(path: str, lang: str, **kwargs: Any) -> Any:
        return _table("PMMEvalMGSMDataset", path, "mgsm", "test", f"{lang}.jsonl")


@LOAD_DATASET.register_module()
class PMMEvalMHellaswagDataset(BaseDataset):
    """HellaSwag in one language: ``mhellaswag/test/<lang>.jsonl``."""

    @staticmethod
    def load(path: str, lang: str, **kwargs: Any) -> Any:
        return _table("PMMEvalMHellaswagDataset", path, "mhellaswag", "test", f"{lang}.jsonl")


@LOAD_DATASET.register_module()
class PMMEvalMLogiQADataset(BaseDataset):
    """LogiQA in one language: ``mlogiqa/test/<lang>.jsonl``."""

    @staticmethod
    def load(path: str, lang: str, **kwargs: Any) -> Any:
        return _table("PMMEvalMLogiQADataset", path, "mlogiqa", "test", f"{lang}.jsonl")


@LOAD_DATASET.register_module()
class PMMEvalXNLIDataset(BaseDataset):
    """XNLI in one language: ``xnli/test/<lang>.jsonl``."""

    @staticmethod
    def load(path: str, lang: str, **kwargs: Any) -> Any:
        return _table("PMMEvalXNLIDataset", path, "xnli", "test", f"{lang}.jsonl")


@LOAD_DATASET.register_module()
class PMMEvalMIFEvalDataset(BaseDataset):
    """Multilingual instruction following in one language: ``mifeval/test/<lang>.jsonl``
    (``prompt``, ``instruction_id_list``, ``kwargs``)."""

    @staticmethod
    def load(path: str, lang: str, **kwargs: Any) -> Any:
        return _table("PMMEvalMIFEvalDataset", path, "mifeval", "test", f"{lang}.jsonl")


@LOAD_DATASET.register_module()
class PMMEvalMMMLUDataset(BaseDataset):
    """MMMLU in one language: the easy questions (``mmmlu/easy/test/mmlu_<lang>.jsonl``), the
    hard ones (``mmmlu/hard/...``) or both, easy first (``difficulty='all'``).

    >>> PMMEvalMMMLUDataset.load('P-MMEval', lang='EN-US', difficulty='medium')
    Traceback (most recent call last):
    ...
    assay.errors.ConfigError: PMMEvalMMMLUDataset: difficulty 'medium' is not one of 'easy', 'hard', 'all'
    """

    @staticmethod
    def load(path: str, lang: str, difficulty: str, **kwargs: Any) -> Any:
        loader = "PMMEvalMMMLUDataset"
        if difficulty not in ("easy", "hard", "all"):
            raise ConfigError(f"{loader}: difficulty {difficulty!r} is not one of 'easy', 'hard', 'all'")
        rows: list[dict[str, Any]] = []
        for level in ("easy", "hard"):
            if difficulty in (level, "all"):
                rows += _rows(loader, path, "mmmlu", level, "test", f"mmlu_{lang}.jsonl")
        return rows_table(rows, os.path.join(get_data_path(path), "mmmlu"))


@LOAD_DATASET.register_module()
class PMMEvalHumanEvalXLDataset(BaseDataset):
    """HumanEval-XL's problems of one program language, described in one natural language:
    ``humaneval-xl/test/<program_lang>/<lang>.jsonl``, each row as it is (``task_id``, ``prompt``,
    ``entry_point``, ``test``, ``declaration``, …)."""

    @staticmethod
    def load(path: str, lang: str, program_lang: str, **kwargs: Any) -> Any:
        return _table("PMMEvalHumanEvalXLDataset", path, "humaneval-xl", "test", program_lang, f"{lang}.jsonl")

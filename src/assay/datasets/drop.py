"""DROP as OpenCompass 0.5.4 reads it (``dropDataset``, ``DropOpenAIDataset``).

Layouts::

    <file>.json     {"<passage id>": {"passage": ..., "qa_pairs": [{"question": ...,
                     "validated_answers": [{"number": "5", "date": {"day": "", "month": "", "year": ""},
                     "spans": [...]}, ...]}, ...]}, ...}                          (dropDataset)
    data/drop_simple_eval/dev.jsonl   {"context": ..., "ref_text": "a|b", ...}     (DropOpenAIDataset)
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset_dict, field, json_value, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["DropOpenAIDataset", "dropDataset"]

_DATE_PARTS = ("day", "month", "year")


@LOAD_DATASET.register_module()
class dropDataset(BaseDataset):
    """Split ``validation`` of ``{'prompt': passage, 'question', 'answers'}``, one row per question.

    ``path`` is opened as given (OpenCompass does not resolve it).  With
    ``only_number`` (the default) questions none of whose validated answers
    is a number are left out.  ``answers`` collects, for each validated
    answer, its number, else its date (``'day month year'``, stripped), else
    all its spans; duplicates are dropped.  OpenCompass dedups through a
    ``set``, so its order changes from run to run; here the first-seen order
    is kept (the scores do not depend on it).
    """

    @staticmethod
    def get_answers(validated_answers: list[dict[str, Any]]) -> list[Any]:
        """The answers of one question, deduplicated in first-seen order.

        >>> dropDataset.get_answers([{'number': '4', 'date': {}, 'spans': []},
        ...                          {'number': '', 'date': {'day': '', 'month': 'May', 'year': '1990'}, 'spans': []},
        ...                          {'number': '4', 'date': {}, 'spans': []}])
        ['4', 'May 1990']
        """
        answers: list[Any] = []
        for item in validated_answers:
            date = item.get("date") or {}
            if item["number"]:
                answers.append(item["number"])
            elif any(date[k] for k in _DATE_PARTS):
                answers.append(" ".join(date[k] for k in _DATE_PARTS).strip())
            else:
                answers.extend(item["spans"])
        return list(dict.fromkeys(answers))

    @staticmethod
    def load(path: str, only_number: bool = True, **kwargs: Any) -> Any:
        data = json_value(path, "dropDataset")
        if not isinstance(data, dict):
            raise InputFileError(f"dropDataset: {path} must hold a JSON object of passages, got {type(data).__name__}")
        rows = []
        for pid, passage in data.items():
            where = f"{path}, passage {pid!r}"
            for qa in field(passage, "qa_pairs", "dropDataset", where):
                validated = field(qa, "validated_answers", "dropDataset", where)
                if only_number and not any(v["number"] for v in validated):
                    continue
                try:
                    answers = dropDataset.get_answers(validated)
                except (KeyError, TypeError) as exc:
                    raise InputFileError(f"dropDataset: {where}: malformed validated_answers ({type(exc).__name__}: {exc})") from None
                rows.append({"prompt": passage["passage"], "question": qa["question"], "answers": answers})
        return dataset_dict({"validation": rows})


@LOAD_DATASET.register_module()
class DropOpenAIDataset(BaseDataset):
    """Split ``validation`` of ``{'prompt': context, 'answers': ref_text}`` (answers joined by ``|``).

    ``path`` goes through :func:`~assay.datasets.location.get_data_path` with
    ``local_mode=True`` (joined to ``$COMPASS_DATA_CACHE`` when set).
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        file = get_data_path(path, local_mode=True)
        rows = []
        for i, line in enumerate(jsonl_rows(file, "DropOpenAIDataset"), 1):
            where = f"{file}, line {i}"
            rows.append({"prompt": field(line, "context", "DropOpenAIDataset", where), "answers": field(line, "ref_text", "DropOpenAIDataset", where)})
        return dataset_dict({"validation": rows})

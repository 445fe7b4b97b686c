"""Open QA sets as OpenCompass 0.5.4 reads them: ``TriviaQArcDataset``, ``TydiQADataset``, ``NaturalQuestionDatasetCN``.

Layouts (under ``$COMPASS_DATA_CACHE`` or the working directory)::

    data/triviaqa-rc/qa/verified-web-dev.json          {"Data": [{"Question", "Answer": {"Aliases", "HumanAnswers"},
    data/triviaqa-rc/qa/verified-wikipedia-dev.json              "SearchResults"|"EntityPages": [{"Filename"}]}]}
    data/triviaqa-rc/evidence/{web,wikipedia}/<Filename>  the first evidence document of a question
    data/tydiqa/dev/<lang>-dev.jsonl                    {"passage_text", "question_text", "answers": [{"text"}], ...}
    data/nq_cn/{dev,test}.jsonl                         {"question", "answer": [...]}

``TriviaQArcDataset`` gives one split, ``dev``: the web questions (answers: the
aliases, then the human answers) then the Wikipedia ones (the aliases), each with
the first 100,000 characters of its first evidence document (``''`` without one).
``TydiQADataset`` gives each line with ``answer``, the distinct texts of
``answers`` — in the order they first appear (OpenCompass takes them through a
``set``, whose order varies from run to run; its evaluator takes the best match,
so scores do not depend on it).  ``NaturalQuestionDatasetCN`` gives the splits
``dev`` (each ``answer`` its first entry) and ``test`` (as in the file).
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import as_datasets, field, json_objects, open_text, read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.datasets.table import RowTable
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["NaturalQuestionDatasetCN", "TriviaQArcDataset", "TydiQADataset"]

#: how much of an evidence document OpenCompass reads (characters)
EVIDENCE_CHARS = 100000


def _evidence(path: str, what: str) -> str:
    with open_text(path, what) as fh:
        text: str = fh.read(EVIDENCE_CHARS)
    return text


def _trivia_rows(root: str, kind: str, results_key: str, human: bool) -> list[dict[str, Any]]:
    what = "TriviaQArcDataset"
    file = os.path.join(root, "qa", f"verified-{kind}-dev.json")
    data = field(read_json(file, what), "Data", f"{what}: file {file}")
    rows = []
    for i, item in enumerate(data):
        where = f"{what}: file {file}, question {i}"
        answer = field(item, "Answer", where)
        candidates = list(field(answer, "Aliases", where))
        if human:
            candidates += list(field(answer, "HumanAnswers", where))
        documents = field(item, results_key, where)
        evidence = ""
        if documents:
            evidence = _evidence(os.path.join(root, "evidence", kind, str(field(documents[0], "Filename", where))), what)
        rows.append({"answer": candidates, "question": field(item, "Question", where), "evidence": evidence})
    return rows


@LOAD_DATASET.register_module()
class TriviaQArcDataset(BaseDataset):
    """One split, ``dev``: ``answer`` (the candidate answers), ``question`` and ``evidence`` of the verified web, then
    Wikipedia, questions."""

    @staticmethod
    def load_table(path: str) -> dict[str, RowTable]:
        """The split as a table (what assay evaluates; no ``datasets`` import)."""
        root = get_data_path(path, local_mode=True)
        rows = _trivia_rows(root, "web", "SearchResults", human=True) + _trivia_rows(root, "wikipedia", "EntityPages", human=False)
        return {"dev": rows_table(rows, root)}

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(TriviaQArcDataset.load_table(path))


@LOAD_DATASET.register_module()
class TydiQADataset(BaseDataset):
    """Each line of ``dev/<lang>-dev.jsonl`` with ``answer``, the distinct texts of its ``answers``."""

    @staticmethod
    def load_table(path: str, lang: str) -> RowTable:
        """The rows as a table (what assay evaluates; no ``datasets`` import)."""
        what = "TydiQADataset"
        file = os.path.join(get_data_path(path), "dev", f"{lang}-dev.jsonl")
        rows = []
        for i, line in enumerate(json_objects(file, what), 1):
            where = f"{what}: file {file}, line {i}"
            answers = field(line, "answers", where)
            if not isinstance(answers, list):
                raise InputFileError(f"{where}: answers {str(answers)[:80]!r} is not a list")
            line["answer"] = list(dict.fromkeys(field(a, "text", where) for a in answers))
            rows.append(line)
        return rows_table(rows, file)

    @staticmethod
    def load(path: str, lang: str) -> Any:
        return as_datasets(TydiQADataset.load_table(path, lang))


@LOAD_DATASET.register_module()
class NaturalQuestionDatasetCN(BaseDataset):
    """Splits ``dev`` (``answer`` its first entry) and ``test`` (``answer`` as in the file) of ``{dev,test}.jsonl``."""

    @staticmethod
    def load_table(path: str) -> dict[str, RowTable]:
        """The splits as tables (what assay evaluates; no ``datasets`` import)."""
        what = "NaturalQuestionDatasetCN"
        root = get_data_path(path, local_mode=True)
        out = {}
        for split in ("dev", "test"):
            file = os.path.join(root, f"{split}.jsonl")
            rows = json_objects(file, what)
            if split == "dev":
                for i, row in enumerate(rows, 1):
                    answers = field(row, "answer", f"{what}: file {file}, line {i}")
                    try:
                        row["answer"] = answers[0]
                    except (TypeError, IndexError, KeyError):
                        raise InputFileError(f"{what}: file {file}, line {i}: answer {answers!r} has no first entry") from None
            out[split] = rows_table(rows, file)
        return out

    @staticmethod
    def load(path: str) -> Any:
        return as_datasets(NaturalQuestionDatasetCN.load_table(path))

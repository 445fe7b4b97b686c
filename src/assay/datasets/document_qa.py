"""Questions on long documents as OpenCompass 0.5.4 reads them: ``NarrativeQADataset``,
``QASPERDataset``, ``QASPERCUTDataset``.

The configs name local folders (``./data/narrativeqa/``, ``./data/QASPER/``), read in
local mode below ``$COMPASS_DATA_CACHE`` (``qasper_rawprompt_gen``'s
``opencompass/QASPER`` too: it is read as the folder ``./opencompass/QASPER``, as in
OpenCompass).  Rows are ``answer`` (a list of accepted answers), ``question``,
``evidence``; the configs score them with ``TriviaQAEvaluator``.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset_dict, field, json_value, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["NarrativeQADataset", "QASPERCUTDataset", "QASPERDataset"]


@LOAD_DATASET.register_module()
class NarrativeQADataset(BaseDataset):
    """``<path>/qaps.csv`` (columns ``document_id``, ``set``, ``question``, ``answer1``,
    ``answer2``; the header is the row whose second cell is ``set``) and each document's text
    in ``<path>/tmp/<document_id>.content``, of which the first 100,000 characters are the
    ``evidence``.  Splits ``train``, ``valid``, ``test`` as the ``set`` column says.

    As in OpenCompass, a question whose document file is missing or cannot be read is left
    out without a word; a ``set`` other than the three is an error (naming the row).
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        root = Path(get_data_path(path, local_mode=True))
        table = require_file(root / "qaps.csv", "NarrativeQADataset")
        splits: dict[str, list[dict[str, Any]]] = {"train": [], "valid": [], "test": []}
        with open(table, encoding="utf-8") as handle:
            for line, row in enumerate(csv.reader(handle, delimiter=","), 1):
                if len(row) < 5:
                    raise InputFileError(f"NarrativeQADataset: {table}, row {line} has {len(row)} cells, "
                                         "expected document_id, set, question, answer1, answer2")
                if row[1] == "set":
                    continue
                if row[1] not in splits:
                    raise InputFileError(f"NarrativeQADataset: {table}, row {line}: set {row[1]!r} is none of "
                                         "'train', 'valid', 'test'")
                try:
                    with open(root / "tmp" / f"{row[0]}.content", encoding="utf-8") as doc:
                        evidence = doc.read(100000)
                except (OSError, UnicodeDecodeError):
                    continue
                splits[row[1]].append({"answer": [row[3], row[4]], "question": row[2], "evidence": evidence})
        return dataset_dict(splits)


def _articles(path: str, loader: str) -> tuple[Path, dict[str, Any]]:
    file = Path(get_data_path(path, local_mode=True)) / "qasper-dev-v0.3.json"
    data = json_value(file, loader)
    if not isinstance(data, dict):
        raise InputFileError(f"{loader}: {file} holds a JSON {type(data).__name__}, not an object of articles")
    return file, data


def _full_text(article: Any, loader: str, where: str) -> str:
    sections = field(article, "full_text", loader, where)
    return "\n".join((s["section_name"] if s.get("section_name") else "") + "\n" + "\n".join(s["paragraphs"]) + "\n"
                     for s in sections)


def _qasper_rows(path: str, loader: str, cut: bool) -> Any:
    file, articles = _articles(path, loader)
    rows = []
    for article_id, article in articles.items():
        where = f"{file}: article {article_id!r}"
        text = _full_text(article, loader, where)
        for qa in field(article, "qas", loader, where):
            answers: list[str] = []
            clues: list[str] = []
            for given in field(qa, "answers", loader, where):
                answer = field(given, "answer", loader, where)
                answers.extend(field(answer, "extractive_spans", loader, where))
                if cut:
                    clues.extend(field(answer, "evidence", loader, where))
            if not answers:
                continue
            evidence = text
            if cut:
                start = min([text.find(clue) for clue in clues] + [100000000])
                evidence = text[0 if start in (-1, 100000000) else start:]
            rows.append({"answer": answers, "question": field(qa, "question", loader, where), "evidence": evidence})
    return dataset_dict({"dev": rows})


@LOAD_DATASET.register_module()
class QASPERDataset(BaseDataset):
    """``<path>/qasper-dev-v0.3.json`` (articles by id, each with ``full_text`` sections and
    ``qas``): one row per question with at least one extractive span among its answers;
    ``answer`` lists every span, ``evidence`` is the whole article (each section's name and
    paragraphs, the sections joined by newlines).  One split, ``dev``.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        return _qasper_rows(path, "QASPERDataset", cut=False)


@LOAD_DATASET.register_module()
class QASPERCUTDataset(BaseDataset):
    """As :class:`QASPERDataset`, the ``evidence`` starting where the first of the answers'
    evidence passages is found in the article.  As in OpenCompass, when *any* passage is not
    found verbatim (its position is -1, the smallest), the whole article is kept.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        return _qasper_rows(path, "QASPERCUTDataset", cut=True)


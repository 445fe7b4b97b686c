"""The tab-separated question/answers files of TriviaQA and Natural Questions (private)."""

from __future__ import annotations

import ast
import csv
from typing import Any

from assay.datasets._oc_files import require_file
from assay.errors import InputFileError

__all__: list[str] = []


def read_qa_csv(file: str, loader: str, *, first_answer_only: bool) -> list[dict[str, Any]]:
    """Rows ``{'question', 'answer'}`` of a two-column tab-separated file.

    The second column is a Python list literal of answers, read with
    ``ast.literal_eval`` (OpenCompass ``eval``s it: anything but a literal is
    refused here).  With ``first_answer_only`` the first element is kept, as
    OpenCompass does for one split of each dataset.
    """
    path = require_file(file, loader)
    rows = []
    with open(path, encoding="utf-8") as fh:
        for lineno, row in enumerate(csv.reader(fh, delimiter="\t"), 1):
            if len(row) != 2:
                raise InputFileError(f"{loader}: {path}, row {lineno}: expected 2 tab-separated columns, got {len(row)}")
            try:
                answers = ast.literal_eval(row[1])
            except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
                raise InputFileError(f"{loader}: {path}, row {lineno}: the answers {row[1][:80]!r} are not a Python literal ({exc})") from None
            if first_answer_only:
                try:
                    answers = answers[0]
                except (TypeError, IndexError, KeyError) as exc:
                    raise InputFileError(f"{loader}: {path}, row {lineno}: no first answer in {row[1][:80]!r} ({exc})") from None
            rows.append({"question": row[0], "answer": answers})
    return rows

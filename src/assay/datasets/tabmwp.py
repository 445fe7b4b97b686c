"""TabMWP as OpenCompass 0.5.4 reads it (``TabMWPDataset``).

Layout (``path`` as the library's config gives it, ``./data/tabmwp/``, through
:func:`~assay.datasets.location.get_data_path`)::

    problems_dev.json, problems_test.json, problems_train.json
        {"<id>": {"question", "unit", "choices", "table", "table_title", "answer", "solution", ...}, ...}
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["TabMWPDataset"]

_LOADER = "TabMWPDataset"
_OPTION_LETTERS = "ABCDEFGH"


def _row(problem: Any, where: str) -> dict[str, Any]:
    try:
        question, unit, choices = problem["question"], problem["unit"], problem["choices"]
        table, title, answer, solution = problem["table"], problem["table_title"], problem["answer"], problem["solution"]
    except (KeyError, TypeError) as exc:
        raise InputFileError(f"{_LOADER}: {where} lacks the field {exc}") from None
    if unit:
        question = f"{question} (Unit: {unit})"
    if choices:
        if len(choices) > len(_OPTION_LETTERS):
            raise InputFileError(f"{_LOADER}: {where} has {len(choices)} choices, more than {len(_OPTION_LETTERS)}")
        question += "\nOptions: " + " ".join(f"({_OPTION_LETTERS[i]}) {c}" for i, c in enumerate(choices))
    if title:
        table = f"[TITLE]: {title}\n{table}"
    solution = solution.replace("\n", "\\n")
    return {"question": question, "table": table, "test_elements": {"answer": answer, "unit": unit, "choices": choices},
            "answer": f"Answer: The answer is {answer}.", "solution": f"Solution: {solution}",
            "answer_and_solution": f"Answer: The answer is {answer}. BECAUSE: {solution}",
            "solution_and_answer": f"Answer: {solution} The answer is {answer}."}


@LOAD_DATASET.register_module()
class TabMWPDataset(BaseDataset):
    """The ``dev``, ``test`` and ``train`` splits: per problem ``question`` (with its unit and lettered options),
    ``table`` (with its title), ``test_elements`` (``answer``, ``unit``, ``choices``: what the evaluator reads)
    and the answer and solution texts the prompt formats use."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        base = get_data_path(path, local_mode=True)
        splits = {}
        for split in ("dev", "test", "train"):
            file = os.path.join(base, f"problems_{split}.json")
            problems = read_json(file, _LOADER)
            if not isinstance(problems, dict):
                raise InputFileError(f"{_LOADER}: file {file} must hold an object of problems by id")
            splits[split] = rows_table([_row(p, f"{file}, problem {k!r}") for k, p in problems.items()], f"{file}")
        return splits

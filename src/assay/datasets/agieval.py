"""AGIEval: OpenCompass's ``AGIEvalDataset`` and ``AGIEvalDataset_v2`` loaders.

Layout read (OpenCompass's ``opencompass/agieval`` → ``./data/AGIEval/data/v1/``)::

    data/AGIEval/data/v1/<name>.jsonl

one file per task (``gaokao-chinese``, ``lsat-ar``, ``math``, …); each line
``{"passage", "question", "options", "label", "answer", "other"}`` (``passage``,
``options``, ``label`` or ``answer`` may be ``null``).  Only the zero-shot
setting exists.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc import as_datasets, field, json_lines, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "AGIEVAL_CHINESE_CLOZE",
    "AGIEVAL_CHINESE_QA",
    "AGIEVAL_ENGLISH_CLOZE",
    "AGIEVAL_ENGLISH_QA",
    "AGIEvalDataset",
    "AGIEvalDataset_v2",
    "agieval_zero_shot_prompt",
]

#: AGIEval's task groups, which decide the zero-shot prompt's language and form.
AGIEVAL_ENGLISH_QA = ("lsat-ar", "lsat-lr", "lsat-rc", "logiqa-en", "sat-math", "sat-en", "aqua-rat", "sat-en-without-passage", "gaokao-english")
AGIEVAL_CHINESE_QA = (
    "logiqa-zh", "jec-qa-kd", "jec-qa-ca", "gaokao-chinese", "gaokao-geography", "gaokao-history",
    "gaokao-biology", "gaokao-chemistry", "gaokao-physics", "gaokao-mathqa",
)
AGIEVAL_ENGLISH_CLOZE = ("math",)
AGIEVAL_CHINESE_CLOZE = ("gaokao-mathcloze",)


def agieval_zero_shot_prompt(line: dict[str, Any], name: str) -> str | None:
    """AGIEval's zero-shot problem text for a line of task ``name`` (``None`` for a task of no group).

    Multiple-choice prompts end with "Among A through X, the answer is" (or
    its Chinese form), X the letter of the last option: with one option the
    English form says E and the Chinese D, with none both say G.

    >>> agieval_zero_shot_prompt({'passage': None, 'question': 'Q?', 'options': ['(A)x', '(B)y']}, 'lsat-ar')
    'Q: Q? Answer Choices: (A)x (B)y\\nA: Among A through B, the answer is'
    """
    passage = line.get("passage")
    passage = "" if passage is None else passage
    question = line["question"]
    if name in AGIEVAL_ENGLISH_QA or name in AGIEVAL_CHINESE_QA:
        options = line["options"]
        count = len(options)
        if count == 1:
            count = 5 if name in AGIEVAL_ENGLISH_QA else 4
        last = "ABCDEFG"[count - 1]
        choices = " ".join(options)
        if name in AGIEVAL_ENGLISH_QA:
            return f"{passage}Q: {question} Answer Choices: {choices}\nA: Among A through {last}, the answer is"
        return f"{passage}问题：{question} 选项：{choices}\n答案：从A到{last}, 我们应选择"
    if name in AGIEVAL_ENGLISH_CLOZE:
        return f"{passage}Q: {question}\nA: The answer is"
    if name in AGIEVAL_CHINESE_CLOZE:
        return f"{passage}问题：{question}\n答案："
    return None


def _lines(path: str, name: str, what: str) -> tuple[str, list[Any]]:
    file = os.path.join(get_data_path(path), name + ".jsonl")
    return file, [value for _, value in json_lines(file, what, strip=True)]


def _check_setting(setting_name: Any, what: str) -> None:
    if not isinstance(setting_name, str) or setting_name not in "zero-shot":
        raise ConfigError(f"{what}: setting_name={setting_name!r}; only the 'zero-shot' setting is supported")
    if setting_name != "zero-shot":
        raise ConfigError(
            f"{what}: setting_name={setting_name!r} passes OpenCompass's check (a part of 'zero-shot') "
            "but gives it no prompts, hence an empty dataset; use 'zero-shot'"
        )


def _label(line: Any, where: str) -> Any:
    label = field(line, "label", where)
    return label if label else field(line, "answer", where)


@LOAD_DATASET.register_module()
class AGIEvalDataset(BaseDataset):
    """AGIEval (first form): columns ``id`` (the line's index), ``problem_input`` (the
    zero-shot prompt, see :func:`agieval_zero_shot_prompt`) and ``label`` (the line's
    ``label`` when truthy, else its ``answer``, kept as is: a list stays a list).

    A task whose labels mix lists and strings cannot form a column, in
    OpenCompass as in assay (an error).
    """

    @staticmethod
    def load_table(path: str, name: str, setting_name: str) -> Any:
        """The problems as a table (what assay evaluates; no ``datasets`` import)."""
        what = f"AGIEvalDataset({name!r})"
        _check_setting(setting_name, what)
        file, lines = _lines(path, name, what)
        rows = []
        for i, line in enumerate(lines):
            where = f"{what}: file {file}, line {i + 1}"
            if not isinstance(line, dict):
                raise InputFileError(f"{where}: expected a JSON object")
            try:
                prompt = agieval_zero_shot_prompt(line, name)
            except (KeyError, TypeError, IndexError) as exc:
                raise InputFileError(f"{where}: cannot build the zero-shot prompt: {exc!r}") from None
            rows.append({"id": i, "problem_input": prompt, "label": _label(line, where)})
        return rows_table(rows, what)

    @staticmethod
    def load(path: str, name: str, setting_name: str) -> Any:
        return as_datasets(AGIEvalDataset.load_table(path, name, setting_name))


def _format_label(label: Any) -> Any:
    """A label as text: a list joined (``['A', 'C']`` → ``'AC'``), ``None`` kept, anything else ``str``.

    >>> _format_label(['A', 'C']), _format_label(3), _format_label(None)
    ('AC', '3', None)
    """
    if isinstance(label, list):
        return "".join(map(str, label))
    return label if label is None else str(label)


@LOAD_DATASET.register_module()
class AGIEvalDataset_v2(BaseDataset):
    """AGIEval: columns ``question`` (passage + question), ``options`` (the options one per
    line, ``''`` when there are none) and ``label`` (the line's ``label`` when truthy,
    else its ``answer``, as text: ``['A', 'C']`` → ``'AC'``)."""

    @staticmethod
    def load_table(path: str, name: str, setting_name: str) -> Any:
        """The problems as a table (what assay evaluates; no ``datasets`` import)."""
        what = f"AGIEvalDataset_v2({name!r})"
        if not isinstance(setting_name, str) or setting_name not in "zero-shot":
            raise ConfigError(f"{what}: setting_name={setting_name!r}; only the 'zero-shot' setting is supported")
        file, lines = _lines(path, name, what)
        rows = []
        for i, line in enumerate(lines):
            where = f"{what}: file {file}, line {i + 1}"
            passage = field(line, "passage", where)
            options = field(line, "options", where)
            rows.append(
                {
                    "question": (passage if passage else "") + field(line, "question", where),
                    "options": "\n".join(options) if options else "",
                    "label": _format_label(_label(line, where)),
                }
            )
        return rows_table(rows, what)

    @staticmethod
    def load(path: str, name: str, setting_name: str) -> Any:
        return as_datasets(AGIEvalDataset_v2.load_table(path, name, setting_name))

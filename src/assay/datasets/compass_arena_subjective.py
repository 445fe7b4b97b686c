"""CompassArena's subjective bench and CompassBench's checklists as OpenCompass 0.5.4 reads them
(``CompassArenaSubjectiveBench``, ``CompassBenchCheklistDataset``).

``CompassArenaSubjectiveBench``: ``<path>/<name>.json`` (through
:func:`~assay.datasets.location.get_data_path`, local mode), a list of items
with ``category`` and ``difficulty``; a ``singleturn`` name has items with
``question.content`` and ``answer.content``, a ``multiturn`` name items with
``conversation``.  Each row carries its point-wise and pair-wise judge
prompts: the bench's templates with the category's rule (writing for 重写,
创作, 自然语言处理; knowledge for 领域知识问答; reasoning for 推理, 代码; alignment
for 人类对齐, 角色扮演, 日常对话) and the question filled in, ``{prediction}``
(and ``{prediction2}``) left for the judged answers.  The templates and rules
are benchmark data, kept in ``compass_arena_subjective_prompts.json`` beside
this module as OpenCompass 0.5.4 has them (recorded by
``scripts/record_oc_subjective_single.py``).  An item of another category has
no prompt: OpenCompass reuses the previous item's (or fails), assay raises an
error naming it.

``CompassBenchCheklistDataset``: ``<path>/<name>.json``, a list of problems
with ``instruction`` and optionally ``checklist``, ``category``, ``lan``, ``id``.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset, field, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["CompassArenaSubjectiveBench", "CompassBenchCheklistDataset", "compass_arena_subjective_prompts"]

_RULES = {
    "writing_rule": ("重写", "创作", "自然语言处理"),
    "qa_rule": ("领域知识问答",),
    "reasoning_rule": ("推理", "代码"),
    "align_rule": ("人类对齐", "角色扮演", "日常对话"),
}


@cache
def compass_arena_subjective_prompts() -> dict[str, str]:
    """The bench's templates and rules by their OpenCompass names."""
    with open(Path(__file__).with_name("compass_arena_subjective_prompts.json"), encoding="utf-8") as handle:
        texts: dict[str, str] = json.load(handle)
    return texts


def _list(path: str, name: str, loader: str) -> tuple[str, list[Any]]:
    file = os.path.join(get_data_path(path, local_mode=True), f"{name}.json")
    items = json_value(file, loader)
    if not isinstance(items, list):
        raise InputFileError(f"{loader}: {file} must hold a JSON list, got {type(items).__name__}")
    return file, items


@LOAD_DATASET.register_module()
class CompassArenaSubjectiveBench(BaseDataset):
    """One row per item (see the module): ``singleturn``: ``question``, both judge prompts and ``judge``
    (``question``, ``answer``, ``category``, ``difficulty``); ``multiturn``: ``dialogue`` (its
    ``conversation``), both judge prompts and ``judge`` (``category``, ``difficulty``)."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        loader = "CompassArenaSubjectiveBench"
        file, items = _list(path, name, loader)
        texts = compass_arena_subjective_prompts()
        single, multi = "singleturn" in name, "multiturn" in name
        rows = []
        for i, item in enumerate(items if single or multi else []):
            where = f"{file}, item {i}"
            category = field(item, "category", loader, where)
            rule = next((texts[r] for r, cats in _RULES.items() if category in cats), None)
            if rule is None:
                raise InputFileError(f"{loader}: {where} has the category {category!r}, which the bench has no rule for")
            if single:
                question = field(field(item, "question", loader, where), "content", loader, where)
                point = texts["pointwise_singleturn_base_prompt"].format(rule=rule, question=question, prediction="{prediction}")
                pair = texts["pairwise_singleturn_base_prompt"].format(rule=rule, question=question, prediction="{prediction}",
                                                                       prediction2="{prediction2}")
                rows.append({"question": question, "pointwise_judge_prompt": point, "pairwise_judge_prompt": pair,
                             "judge": {"question": question, "answer": field(item, "answer", loader, where)["content"],
                                       "category": category, "difficulty": field(item, "difficulty", loader, where)}})
            else:
                point = texts["pointwise_multiturn_base_prompt"].format(rule=rule, prediction="{prediction}")
                pair = texts["pairwise_multiturn_base_prompt"].format(rule=rule, prediction="{prediction}",
                                                                      prediction2="{prediction2}")
                rows.append({"dialogue": field(item, "conversation", loader, where), "pointwise_judge_prompt": point,
                             "pairwise_judge_prompt": pair,
                             "judge": {"category": category, "difficulty": field(item, "difficulty", loader, where)}})
        return dataset(rows)


@LOAD_DATASET.register_module()
class CompassBenchCheklistDataset(BaseDataset):
    """One row per problem: ``question`` (its ``instruction``), ``checklist`` (its items as ``- item`` lines,
    ``''`` without) and ``judge`` (``category``, ``lan``, ``id`` — ``None`` when missing — and ``question``)."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        loader = "CompassBenchCheklistDataset"
        file, problems = _list(path, name, loader)
        rows = []
        for i, problem in enumerate(problems):
            question = field(problem, "instruction", loader, f"{file}, problem {i}")
            checklist = "".join(f"- {entry}\n" for entry in problem.get("checklist", None) or [])
            rows.append({"question": question, "checklist": checklist, "judge": {
                "category": problem.get("category", None), "lan": problem.get("lan", None),
                "id": problem.get("id", None), "question": question}})
        return dataset(rows)

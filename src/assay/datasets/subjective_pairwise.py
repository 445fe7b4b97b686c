"""The loaders of the pairwise subjective benchmarks, as OpenCompass 0.5.4 reads their files.

Layouts read:

* ``CompassArenaDataset`` — ``<path>/<name>.json`` (``path`` through
  :func:`~assay.datasets.location.get_data_path`, local): a JSON list of
  ``{"question", "capability", "others"}``; each row gets ``ref``, the
  ``others['reference']`` when it is set, else OpenCompass's default
  ``满足用户需求，言之有理即可``, and ``judge`` (``capability``, ``question``).
* ``WildBenchDataset`` / ``WildBenchWithRawPromptDataset`` — the ``.jsonl`` file
  ``path`` (through ``get_data_path``, local): one session a line, ``{"session_id",
  "turn": [{"role", "content"}...], "checklist", "primary_tag", "secondary_tag"}``;
  each row holds the ``dialogue`` (``WildBenchDataset``: roles ``HUMAN``/``assistant``
  and an empty assistant turn at the end; the raw-prompt one: the roles as they
  are), the ``history`` before the last turn, the judge ``prompt`` (WildBench's
  pairwise prompt with ``eval_mode='pair'``, its single-score prompt with
  ``'single'``) filled with the history, the last query and the checklist, and
  ``judge`` (the tags and the session id).
* ``CompassBenchDataset`` / ``CompassBenchControlLengthBiasDataset`` —
  ``<path>/<name>.json`` (``path`` taken as it is, as OpenCompass takes it): a JSON
  list of ``{"question", "language", "others": {"level"}, "category"}``; each row
  holds the ``judge_prompt`` (Chinese for ``language == 'zh'``, else English;
  the second loader's asks for the answers' lengths too) with the question in it.

The judge prompts are OpenCompass's texts, recorded from its modules into
``subjective_pairwise_prompts.json`` (``scripts/record_oc_subjective_pairwise.py``).

Each loader's ``judge_verdict`` names how its family's summarizers read a
judge reply (:mod:`assay.subjective.verdicts`: CompassArena's ``选择：X``,
WildBench's and CompassBench's ``"choice": "…"``), so that the subjective task
counts the replies they cannot read as unjudged.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from assay.datasets._oc import as_datasets, field, json_objects, read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "CompassArenaDataset",
    "CompassBenchControlLengthBiasDataset",
    "CompassBenchDataset",
    "WildBenchDataset",
    "WildBenchWithRawPromptDataset",
]

#: CompassArena's reference when a question has none.
DEFAULT_REFERENCE = "满足用户需求，言之有理即可"


@cache
def _prompts() -> dict[str, str]:
    with open(Path(__file__).with_name("subjective_pairwise_prompts.json"), encoding="utf-8") as fh:
        texts: dict[str, str] = json.load(fh)
    return texts


def _problems(file: str, loader: str) -> list[Any]:
    problems = read_json(file, loader)
    if not isinstance(problems, list):
        raise InputFileError(f"{loader}: {file} must hold a JSON list of questions, got {type(problems).__name__}")
    return problems


@LOAD_DATASET.register_module()
class CompassArenaDataset(BaseDataset):
    """CompassArena's questions: ``question``, ``capability``, ``others``, ``judge``, ``ref``."""

    judge_verdict = "compassarena"

    @staticmethod
    def load_table(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        loader = f"CompassArenaDataset({name!r})"
        file = os.path.join(get_data_path(path, local_mode=True), f"{name}.json")
        rows = []
        for i, problem in enumerate(_problems(file, loader)):
            where = f"{loader}: file {file}, question {i}"
            question = field(problem, "question", where)
            capability = field(problem, "capability", where)
            others = field(problem, "others", where)
            reference = others.get("reference") if isinstance(others, dict) else None
            rows.append({"question": question, "capability": capability, "others": others,
                         "judge": {"capability": capability, "question": question},
                         "ref": reference if reference is not None else DEFAULT_REFERENCE})
        return rows_table(rows, loader)

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        return as_datasets(CompassArenaDataset.load_table(path, name))


def _wildbench_rows(path: str, eval_mode: str, loader: str, raw_roles: bool) -> list[dict[str, Any]]:
    file = get_data_path(path, local_mode=True)
    if eval_mode not in ("pair", "single"):
        # OpenCompass writes `assert NotImplementedError(...)`, which never fails, and then uses an unset prompt
        raise InputFileError(f"{loader}: eval_mode must be 'pair' or 'single', got {eval_mode!r}")
    template = _prompts()["wildbench_pair" if eval_mode == "pair" else "wildbench_single"]
    roles = {"user": "HUMAN", "assistant": "assistant"}
    rows = []
    for i, item in enumerate(json_objects(file, loader)):
        where = f"{loader}: file {file}, line {i + 1}"
        conversation = field(item, "turn", where)
        if not isinstance(conversation, list) or not conversation:
            raise InputFileError(f"{where}: 'turn' must be a non-empty list of turns, got {str(conversation)[:80]!r}")
        history = ""
        dialogue = []
        for turn in conversation[:-1]:
            role, content = field(turn, "role", where), field(turn, "content", where)
            if role == "user":
                history += "USER: " + content + "\n\n"
            elif role == "assistant":
                history += "ASSISTANT: " + content + "\n\n"
            if not raw_roles and role not in roles:
                raise InputFileError(f"{where}: a turn's role must be 'user' or 'assistant', got {role!r}")
            dialogue.append({"role": role if raw_roles else roles[role], "content": content})
        last = conversation[-1]
        last_role, last_query = field(last, "role", where), field(last, "content", where)
        if not raw_roles and last_role not in roles:
            raise InputFileError(f"{where}: a turn's role must be 'user' or 'assistant', got {last_role!r}")
        dialogue.append({"role": last_role if raw_roles else roles[last_role], "content": last_query})
        if not raw_roles:
            dialogue.append({"role": "assistant", "content": ""})
        checklist = "".join(f"- {entry}\n" for entry in field(item, "checklist", where))
        prompt = template.replace("{history}", history).replace("{user_query}", last_query).replace("{checklist}", checklist)
        rows.append({
            "dialogue": dialogue,
            "history": history,
            "prompt": prompt,
            "judge": {"other": None, "primary_tag": field(item, "primary_tag", where),
                      "secondary_tag": field(item, "secondary_tag", where), "question_id": field(item, "session_id", where)},
        })
    return rows


@LOAD_DATASET.register_module()
class WildBenchDataset(BaseDataset):
    """WildBench's sessions: ``dialogue`` (roles ``HUMAN``/``assistant``, an empty answer turn last), ``history``, ``prompt``, ``judge``."""

    judge_verdict = "wildbench"

    @staticmethod
    def load(path: str, K: int = -1, eval_mode: str = "pair", *args: Any, **kwargs: Any) -> Any:
        loader = "WildBenchDataset"
        return as_datasets(rows_table(_wildbench_rows(path, eval_mode, loader, raw_roles=False), loader))


@LOAD_DATASET.register_module()
class WildBenchWithRawPromptDataset(BaseDataset):
    """WildBench's sessions with the turns' own roles (``user``/``assistant``) and no empty turn at the end."""

    judge_verdict = "wildbench"

    @staticmethod
    def load(path: str, K: int = -1, eval_mode: str = "pair", *args: Any, **kwargs: Any) -> Any:
        loader = "WildBenchWithRawPromptDataset"
        return as_datasets(rows_table(_wildbench_rows(path, eval_mode, loader, raw_roles=True), loader))


def _compassbench_rows(path: str, name: str, loader: str, prompts: str) -> list[dict[str, Any]]:
    file = os.path.join(path, f"{name}.json")
    rows = []
    for i, problem in enumerate(_problems(file, loader)):
        where = f"{loader}: file {file}, question {i}"
        question = field(problem, "question", where)
        language = field(problem, "language", where)
        others = field(problem, "others", where)
        template = _prompts()[f"{prompts}_{'zh' if language == 'zh' else 'en'}"]
        rows.append({
            "question": question,
            "judge_prompt": template.replace("{question}", question),
            "judge": {"lan": language, "level": field(others, "level", where), "category": field(problem, "category", where),
                      "question": question},
        })
    return rows


@LOAD_DATASET.register_module()
class CompassBenchDataset(BaseDataset):
    """CompassBench's questions: ``question``, ``judge_prompt``, ``judge`` (``lan``, ``level``, ``category``, ``question``)."""

    judge_verdict = "wildbench"

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        loader = f"CompassBenchDataset({name!r})"
        return as_datasets(rows_table(_compassbench_rows(path, name, loader, "compassbench"), loader))


@LOAD_DATASET.register_module()
class CompassBenchControlLengthBiasDataset(BaseDataset):
    """CompassBench's questions with the judge prompt that shows the answers' lengths."""

    judge_verdict = "wildbench"

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        loader = f"CompassBenchControlLengthBiasDataset({name!r})"
        return as_datasets(rows_table(_compassbench_rows(path, name, loader, "compassbench_length"), loader))

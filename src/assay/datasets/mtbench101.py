"""MT-Bench-101 as OpenCompass 0.5.4 reads it (``MTBench101Dataset``, ``MTBench101WithRawPromptDataset``).

Layout: ``<path>/<name>.jsonl`` (through
:func:`~assay.datasets.location.get_data_path`, local mode), one dialogue per
line: ``id``, ``task`` (``CM``, ``SI``, ``AR``, …) and ``history``, a list of
turns ``{'user': …, 'bot': …}``.

Each turn judged is one row (for the tasks ``FR, CR, AR, SA, SC, CM`` the
first turn is context only): the dialogue up to it (``dialogue``, as chat
messages), ``task``, ``multi_id``, ``turn_id`` (1-based, text), the judge's
``system_prompt`` and ``prompt_template`` (the history as ``Human:`` /
``Assistant:`` text, ``{prediction}`` left for the judged reply; tasks ``MR``
and ``GR`` also show the dialogue as the reference solution), and ``judge``
(``task``, ``multi_id``, ``turn_id``).  ``MTBench101WithRawPromptDataset``
leaves the turn's own reply out of ``dialogue``.

The judge's instructions per task are benchmark data, kept in
``mtbench101_prompts.json`` beside this module as OpenCompass 0.5.4 has them
(recorded by ``scripts/record_oc_subjective_single.py``).
"""

from __future__ import annotations

import copy
import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset, field, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MTBench101Dataset", "MTBench101WithRawPromptDataset", "mtbench101_prompts"]

#: The tasks whose first turn is context, not judged.
SKIP_FIRST = ("FR", "CR", "AR", "SA", "SC", "CM")
#: The tasks whose judge also sees the dialogue as reference solution.
WITH_REFERENCE = ("MR", "GR")


@cache
def mtbench101_prompts() -> dict[str, Any]:
    """The judge's texts: ``{'judge': …, 'score_format': …, 'tasks': {task: criteria}}``."""
    with open(Path(__file__).with_name("mtbench101_prompts.json"), encoding="utf-8") as handle:
        texts: dict[str, Any] = json.load(handle)
    return texts


def _judge_prompts(task: str, reference: Any, history: str, loader: str, where: str) -> tuple[str, str]:
    texts = mtbench101_prompts()
    if task not in texts["tasks"]:
        raise InputFileError(f"{loader}: {where} has the task {task!r}, which MT-Bench-101 does not have "
                             f"(tasks: {', '.join(texts['tasks'])})")
    system = texts["judge"] + texts["tasks"][task] + texts["score_format"]
    if task in WITH_REFERENCE:
        template = (f"The dialogue need to be judged is: \n *** \n {history} {{prediction}} \n ***\n\n"
                    f"                    The reference solution is: \n ### \n {reference} \n ###\n\n")
    else:
        template = f"The dialogue need to be judged is: \n *** \n {history} {{prediction}} \n ***"
    return system, template


def _turn(question: str, answer: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": question}, *([{"role": "assistant", "content": answer}] if answer else [])]


def _rows(loader: str, path: str, name: str, *, hide_reply: bool) -> list[dict[str, Any]]:
    file = get_data_path(os.path.join(path, f"{name}.jsonl"), local_mode=True)
    rows = []
    for n, dialogue in enumerate(jsonl_rows(file, loader), 1):
        where = f"{file}, line {n}"
        multi_id = field(dialogue, "id", loader, where)
        task = field(dialogue, "task", loader, where)
        messages: list[dict[str, str]] = []
        history = ""
        for index, turn in enumerate(field(dialogue, "history", loader, where)):
            human = field(turn, "user", loader, f"{where}, turn {index + 1}")
            assistant = field(turn, "bot", loader, f"{where}, turn {index + 1}")
            if task in SKIP_FIRST and index == 0:
                messages = _turn(human, assistant)
                history = "\n\n Human: " + human + "\n\nAssistant: " + assistant
                continue
            history += "\n\n Human: " + human + "\n\nAssistant: "
            messages += _turn(human, assistant)
            shown = copy.deepcopy(messages)
            if hide_reply and shown and shown[-1]["role"] == "assistant":
                shown = shown[:-1]
            system, template = _judge_prompts(task, messages, history, loader, where)
            turn_id = str(index + 1)
            rows.append({
                "dialogue": shown, "task": task, "multi_id": multi_id, "turn_id": turn_id,
                "system_prompt": system, "prompt_template": template,
                "judge": {"task": task, "multi_id": multi_id, "turn_id": turn_id},
            })
            history += assistant
    return rows


@LOAD_DATASET.register_module()
class MTBench101Dataset(BaseDataset):
    """One row per judged turn (see the module), ``dialogue`` ending with the turn's reply."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        return dataset(_rows("MTBench101Dataset", path, name, hide_reply=False))


@LOAD_DATASET.register_module()
class MTBench101WithRawPromptDataset(BaseDataset):
    """As :class:`MTBench101Dataset`, ``dialogue`` without the turn's own reply (what the model answers)."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        return dataset(_rows("MTBench101WithRawPromptDataset", path, name, hide_reply=True))

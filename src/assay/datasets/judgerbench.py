"""JudgerBench as OpenCompass 0.5.4 reads it (``JudgerBenchDataset``).

Layout: ``<path>/<name>.json`` (through :func:`~assay.datasets.location.get_data_path`,
local mode), a list of items.

* ``judgerbench_A_en`` / ``judgerbench_A_cn``: pairs of conversations
  (``conversation_a``, ``conversation_b``, ``model_a``, ``model_b``,
  ``winner``, ``category``, ``turn``); the judge prompt shows the user's turns
  and both assistants' answers between JudgerBench's prefix and suffix (English
  or Chinese, as the name says).
* ``judgerbench_B``: verdicts to reproduce in other benchmarks' formats
  (``dataset_name``: ``alignment_bench_v1_1``, ``alpaca_eval``, ``arenahard``,
  ``wildbench``, ``fofo_test_prompts``, ``fofo_test_prompts_cn``), each with
  its ``prediction``, ``others`` and ``gpt4o_pred``; the judge prompt is that
  benchmark's (WildBench's with the conversation's history and last query).
* any other name: no rows.

The prompts are benchmark data, kept in ``judgerbench_prompts.json`` beside
this module as OpenCompass 0.5.4 has them (recorded by
``scripts/record_oc_subjective_single.py``).  Where OpenCompass would reuse
the previous item's prompt or stop the process (a name with neither ``_en``
nor ``_cn``, an unknown ``dataset_name``, a conversation role it does not
know), assay raises an error naming the file, the item and the value.
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

__all__ = ["JudgerBenchDataset", "judgerbench_prompts"]

_LOADER = "JudgerBenchDataset"


@cache
def judgerbench_prompts() -> dict[str, str]:
    """JudgerBench's prompt texts by their OpenCompass names (``base_prompt_prefix_en``, ``wild_judge_prompt``, …)."""
    with open(Path(__file__).with_name("judgerbench_prompts.json"), encoding="utf-8") as handle:
        texts: dict[str, str] = json.load(handle)
    return texts


def _conversation(conversation: list[Any], where: str) -> tuple[str, str]:
    """(the history before the last turn as ``USER:``/``ASSISTANT:`` text, the last turn's content)."""
    history = ""
    for turn in conversation[:-1]:
        role = field(turn, "role", _LOADER, where)
        if role in ("user", "HUMAN"):
            history += "USER: " + turn["content"] + "\n\n"
        elif role == "assistant":
            history += "ASSISTANT: " + turn["content"] + "\n\n"
        else:
            raise InputFileError(f"{_LOADER}: {where}: a conversation turn has the role {role!r} "
                                 "(JudgerBench knows 'user', 'HUMAN' and 'assistant')")
    if not conversation:
        raise InputFileError(f"{_LOADER}: {where}: the conversation is empty")
    return history, field(conversation[-1], "content", _LOADER, where)


def _part_a(items: list[Any], name: str, file: str) -> list[dict[str, Any]]:
    texts = judgerbench_prompts()
    lan = "en" if "_en" in name else "cn" if "_cn" in name else None
    if lan is None:
        raise InputFileError(f"{_LOADER}: {name!r} names no language ('_en' or '_cn'): no prompt for {file}")
    rows = []
    for i, item in enumerate(items):
        where = f"{file}, item {i}"
        text = ""
        for a, b in zip(field(item, "conversation_a", _LOADER, where), field(item, "conversation_b", _LOADER, where)):
            if a["role"] == "user":
                text += ("### User: " if lan == "en" else "### 用户： ") + a["content"] + "\n"
            elif a["role"] == "assistant":
                if lan == "en":
                    text += "### Assistant A: " + a["content"] + "\n" + "### Assistant B: " + b["content"] + "\n"
                else:
                    text += "### 助手A： " + a["content"] + "\n" + "### 助手B： " + b["content"] + "\n"
            else:
                raise InputFileError(f"{_LOADER}: {where}: a turn has the role {a['role']!r} (expected user or assistant)")
        rows.append({"judge_prompt": texts[f"base_prompt_prefix_{lan}"] + text + texts[f"base_prompt_suffix_{lan}"],
                     "judge": {k: field(item, k, _LOADER, where) for k in ("category", "turn", "winner", "model_a", "model_b")}
                     | {"dataset_name": "judgerbench_A", "lan": lan}})
    return rows


def _part_b(items: list[Any], file: str) -> list[dict[str, Any]]:
    texts = judgerbench_prompts()
    plain = {"alignment_bench_v1_1": "alignbench_judge_prompt", "alpaca_eval": "alpacaeval_judge_prompt",
             "arenahard": "arenahard_judge_prompt"}
    rows = []
    for i, item in enumerate(items):
        where = f"{file}, item {i}"
        name = field(item, "dataset_name", _LOADER, where)
        question = item.get("question", None)
        prediction = field(item, "prediction", _LOADER, where)
        others = field(item, "others", _LOADER, where)
        ref = others.get("ref", None)
        if name in plain:
            prompt = texts[plain[name]].format(question=question, prediction=prediction, ref=ref)
        elif name == "wildbench":
            history, last = _conversation(field(item, "conversation", _LOADER, where), where)
            prompt = texts["wild_judge_prompt"].format(history=history, user_query=last, prediction=prediction, ref=ref,
                                                       checklist=others["checklist"]) + texts["wildbench_suffix"]
        elif name in ("fofo_test_prompts", "fofo_test_prompts_cn"):
            lan = "cn" if name.endswith("_cn") else "en"
            prompt = (texts[f"fofo_{lan}_judge_prompt"].format(question=question, prediction=prediction)
                      + texts[f"fofo_{lan}_suffix"])
        else:
            raise InputFileError(f"{_LOADER}: {where} has the dataset_name {name!r}, which JudgerBench has no prompt for")
        rows.append({"judge_prompt": prompt, "judge": {"others": others, "meta_judge": field(item, "gpt4o_pred", _LOADER, where),
                                                       "dataset_name": name}})
    return rows


@LOAD_DATASET.register_module()
class JudgerBenchDataset(BaseDataset):
    """One row per item: ``judge_prompt`` and ``judge`` (see the module)."""

    @staticmethod
    def load(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        file = os.path.join(get_data_path(path, local_mode=True), f"{name}.json")
        items = json_value(file, _LOADER)
        if not isinstance(items, list):
            raise InputFileError(f"{_LOADER}: {file} must hold a JSON list, got {type(items).__name__}")
        if "judgerbench_A" in name:
            rows = _part_a(items, name, file)
        elif "judgerbench_B" in name:
            rows = _part_b(items, file)
        else:
            rows = []
        return dataset(rows)

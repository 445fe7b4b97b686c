"""MuSR as OpenCompass 0.5.4 reads it (``MusrDataset``).

Layout (id ``opencompass/musr`` → ``./data/musr``): ``murder_mysteries.json``,
``object_placements.json`` and ``team_allocation.json``, each a JSON list of
stories with ``context`` and ``questions`` (each with ``question``,
``choices``, the 0-based ``answer`` and optionally ``intermediate_trees`` and
``intermediate_data``).  Each question becomes one row per self-consistency
run, its prompt written as OpenCompass's "cot+" prompt: the story, the
question, the numbered choices and the task's hint (before the question for
object placements, in the closing instructions for the other two; the texts in
``musr_prompts.json``).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset, field, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MusrDataset", "musr_prompt"]

_LOADER = "MusrDataset"
_CLOSING = 'Finally, the last thing you generate should be "ANSWER: (your answer here, including the choice number)"'


@functools.cache
def _tasks() -> dict[str, dict[str, Any]]:
    return dict(json.loads(Path(__file__).with_name("musr_prompts.json").read_text(encoding="utf-8")))


def musr_prompt(task: str, context: str, question: str, choices_str: str) -> str:
    """The prompt OpenCompass 0.5.4 writes for one MuSR question of ``task`` ("cot+", no worked example).

    >>> print(musr_prompt('team_allocation', 'Story.', 'Who?', '1 - A\\n2 - B')[:48])
    Story.
    <BLANKLINE>
    Who?
    <BLANKLINE>
    Pick one of the following choices:
    """
    spec = _tasks()[task]
    pick = f"Pick one of the following choices:\n{choices_str}\n\n"
    if spec["hint_before_question"]:
        return (f"{context}\n\n{spec['hint']}\n\n{question}\n\n{pick}"
                f"You must pick one option. Explain your reasoning step by step before you answer. {_CLOSING}")
    return (f"{context}\n\n{question}\n\n{pick}"
            f"You must pick one option. {spec['hint']} Explain your reasoning step by step before you answer. {_CLOSING}")


def _story_hash(story: dict[str, Any]) -> Any:
    """The first question's first ``intermediate_data`` entry's ``story_hash_id``, else ``None``."""
    questions = story.get("questions") or [{}]
    data = questions[0].get("intermediate_data") if isinstance(questions[0], dict) else None
    if data and isinstance(data[0], dict) and data[0].get("story_hash_id"):
        return data[0]["story_hash_id"]
    return None


@LOAD_DATASET.register_module()
class MusrDataset(BaseDataset):
    """MuSR's questions of one task (``name``: ``murder_mysteries``, ``object_placements``, ``team_allocation``).

    Each row: ``context``, ``question_text``, ``question`` (the question's
    whole object), ``answer`` (0-based), ``choices``, ``choices_str``
    (``'1 - …'`` lines), ``intermediate_trees``, ``intermediate_data``,
    ``prompt`` (:func:`musr_prompt`), ``system_prompt``, ``gold_answer``
    (``answer + 1``: the configs' reference), ``scidx``,
    ``self_consistency_n`` and ``ablation_name`` (``'cot+'``).

    As in OpenCompass: ``exclude_contrastive_examples`` keeps only the first
    story of each ``story_hash_id`` (``reverse_contrastive_sample``: only the
    later ones); ``offset`` and ``sample_size`` then cut the stories to
    ``[offset, offset + min(len, sample_size))`` (no ``sample_size``: from
    ``offset`` on); ``skip_ablated`` and ``randomize`` change nothing for the
    "cot+" prompt.
    """

    @staticmethod
    def load(path: str, name: str, self_consistency_n: int = 1, exclude_contrastive_examples: bool = False,
             reverse_contrastive_sample: bool = False, skip_ablated: bool = False, randomize: bool = False,
             offset: int = 0, sample_size: int | None = None, **kwargs: Any) -> Any:
        tasks = _tasks()
        if name not in tasks:
            raise ConfigError(f"{_LOADER}: name={name!r} is not a MuSR task; one of {', '.join(map(repr, tasks))}")
        spec = tasks[name]
        file = Path(get_data_path(path)) / spec["file_name"]
        stories = json_value(file, _LOADER)
        if not isinstance(stories, list):
            raise InputFileError(f"{_LOADER}: {file} holds a JSON {type(stories).__name__}, not a list of stories")
        kept: list[Any] = []
        seen: list[Any] = []
        for i, story in enumerate(stories):
            if not isinstance(story, dict):
                raise InputFileError(f"{_LOADER}: {file}, story {i} is not a JSON object (got {type(story).__name__})")
            story_hash = _story_hash(story) if exclude_contrastive_examples else None
            if story_hash is None:
                kept.append(story)
                continue
            if story_hash in seen:
                if reverse_contrastive_sample:
                    kept.append(story)
            elif not reverse_contrastive_sample:
                kept.append(story)
            seen.append(story_hash)
        kept = kept[offset:offset + min(len(kept), sample_size) if sample_size else None]
        rows: list[dict[str, Any]] = []
        for i, story in enumerate(kept):
            where = f"{file}, story {offset + i} kept"
            context = field(story, "context", _LOADER, where)
            for j, question in enumerate(field(story, "questions", _LOADER, where)):
                at = f"{where}, question {j}"
                choices = field(question, "choices", _LOADER, at)
                answer = field(question, "answer", _LOADER, at)
                text = field(question, "question", _LOADER, at)
                if not isinstance(answer, int) or isinstance(answer, bool):
                    raise InputFileError(f"{_LOADER}: {at}: 'answer' must be a choice's 0-based index, got {answer!r}")
                choices_str = "\n".join(f"{k + 1} - {choice}" for k, choice in enumerate(choices))
                prompt = musr_prompt(name, context, text, choices_str)
                for run in range(self_consistency_n):
                    rows.append({
                        "context": context, "question_text": text, "question": question, "answer": answer,
                        "choices": choices, "choices_str": choices_str,
                        "intermediate_trees": question.get("intermediate_trees", []),
                        "intermediate_data": question.get("intermediate_data", []), "prompt": prompt,
                        "system_prompt": spec["system_prompt"], "gold_answer": answer + spec["answer_index_modifier"],
                        "scidx": run, "self_consistency_n": self_consistency_n, "ablation_name": "cot+",
                    })
        return dataset(rows)

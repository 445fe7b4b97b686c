"""KOR-Bench as OpenCompass 0.5.4 reads it (``korbenchDataset``).

Layout (``path`` as the library's configs give it, ``opencompass/korbench``,
resolved by :func:`~assay.datasets.location.get_data_path` to ``./data/korbench``)::

    <category>/rule.json(l)         [{"idx", "rule_content", ...}, ...]
    <category>/sample.json(l)       [{"rule_id", "question", "answer", ...}, ...]
    <category>/three-shot.json(l)   [{"rule_id", "question", "answer"}, ...]  (3-shot prompts)
    mixed/<Multi-Q|Multi-R|Multi-RQ>.json(l)
                                    [{"rule_list": ["cipher_3", ...], "question_list": ["logic_7", ...]}, ...]

Of the two spellings the ``.json`` file is read first.  The prompt texts are
the benchmark's own, kept in ``korbench_prompts.json`` beside this module.
A missing file, a line that is not JSON, a record without a field the loader
reads or a rule or question a mixed task names that does not exist is an
error naming the loader, the file and the value.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

from assay.datasets._oc import json_objects, read_json, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["korbench_records", "korbenchDataset"]

_LOADER = "korbenchDataset"
PROMPT_MODES = ("0_shot", "3_shot", "mixed")


@cache
def _prompts() -> dict[str, dict[str, str]]:
    """The benchmark's prompt texts per prompt mode: ``{'0_shot': {'<category>_prompt_format': …}, 'mixed': {…}}``."""
    with open(Path(__file__).with_name("korbench_prompts.json"), encoding="utf-8") as handle:
        texts: dict[str, dict[str, str]] = json.load(handle)
    return texts


def _find(base: str, sub: str) -> str | None:
    """``base/sub.json``, else ``base/sub.jsonl``, else ``None``."""
    for ext in ("json", "jsonl"):
        candidate = os.path.join(base, f"{sub}.{ext}")
        if os.path.exists(candidate):
            return candidate
    return None


def korbench_records(base: str, sub: str, what: str = _LOADER) -> list[dict[str, Any]]:
    """The records of ``base/sub.json`` (a JSON list) or ``base/sub.jsonl`` (one object a line).

    An empty file's list (or a JSON ``null``) gives no records; a missing file is an error.
    """
    found = _find(base, sub)
    if found is None:
        raise InputFileError(f"{what}: neither {os.path.join(base, sub)}.json nor .jsonl exists")
    if found.endswith(".jsonl"):
        return json_objects(found, what)
    value = read_json(found, what)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise InputFileError(f"{what}: file {found} must hold a JSON list of objects, got {type(value).__name__}")
    return value


def _get(record: dict[str, Any], key: str, where: str) -> Any:
    if key not in record:
        raise InputFileError(f"{_LOADER}: {where} has no {key!r} field (fields: {', '.join(map(str, record)) or 'none'})")
    return record[key]


def korbench_entry(base: str, name: str, kind: str) -> dict[str, Any]:
    """The record a mixed task names: ``name`` is ``<category>_<idx>``, looked up in ``<category>/<kind>``
    by its ``idx`` (compared as text, as OpenCompass compares it)."""
    category, idx = name.rsplit("_", 1) if "_" in name else ("", name)
    for record in korbench_records(base, os.path.join(category, kind)):
        if record.get("idx") == idx:
            return record
    raise InputFileError(f"{_LOADER}: {os.path.join(base, category, kind)}.json(l) has no record with idx {idx!r} "
                         f"(named {name!r} by a mixed task)")


def _template(mode: str, key: str) -> str:
    texts = _prompts()[mode]
    if key not in texts:
        raise ConfigError(f"{_LOADER}: prompt_mode {mode!r} has no prompt for category {key.removesuffix('_prompt_format')!r} "
                          f"(categories: {', '.join(k.removesuffix('_prompt_format') for k in texts)})")
    return texts[key]


@LOAD_DATASET.register_module()
class korbenchDataset(BaseDataset):
    """One KOR-Bench category (``0_shot``/``3_shot``) or mixed task (``mixed``).

    Single modes give, per sample whose ``rule_id`` matches a rule's ``idx``
    (others are skipped, as OpenCompass skips them): ``rule_content``,
    ``question``, ``answer``, ``prompt`` (the category's prompt filled with
    the rule and the question; in ``3_shot`` the rule's three-shot
    questions and answers in between), ``rule_id``, ``prompt_mode`` and
    ``category``.  ``mixed`` gives per task ``rule_list``, ``question_list``,
    ``prompt`` (the rules and the questions, numbered), ``prompt_mode``,
    ``answer`` (empty: the evaluator looks each question's answer up) and
    ``base_path`` (the data folder, which the evaluator reads).
    """

    @staticmethod
    def load(path: str, prompt_mode: str, category: str, **kwargs: Any) -> Any:
        base = get_data_path(path)
        if prompt_mode not in PROMPT_MODES:
            raise ConfigError(f"{_LOADER}: unsupported prompt_mode {prompt_mode!r} (one of {', '.join(PROMPT_MODES)})")
        if prompt_mode == "mixed":
            return rows_table(_mixed_rows(base, category), f"{base} (mixed/{category})")
        template = _template(prompt_mode, f"{category}_prompt_format")
        rules = korbench_records(base, os.path.join(category, "rule"))
        samples = korbench_records(base, os.path.join(category, "sample"))
        shots = korbench_records(base, os.path.join(category, "three-shot")) if prompt_mode == "3_shot" else []
        rows = []
        for i, sample in enumerate(samples):
            where = f"{category}/sample, record {i}"
            rule_id = _get(sample, "rule_id", where)
            rule = next((r for r in rules if _get(r, "idx", f"{category}/rule") == rule_id), None)
            if rule is None:
                continue
            shot_texts = [text for shot in shots if shot.get("rule_id") == rule_id for text in (shot["question"], shot["answer"])]
            args = [_get(rule, "rule_content", f"{category}/rule {rule_id!r}"), *shot_texts, _get(sample, "question", where)]
            try:
                prompt = template.format(*args)
            except IndexError:
                raise InputFileError(f"{_LOADER}: {category}: rule {rule_id!r} has {len(shot_texts) // 2} three-shot "
                                     f"example(s); the {prompt_mode} prompt needs more") from None
            rows.append({"rule_content": rule["rule_content"], "question": sample["question"], "answer": _get(sample, "answer", where),
                         "prompt": prompt, "rule_id": rule["idx"], "prompt_mode": prompt_mode, "category": category})
        return rows_table(rows, f"{base} ({category})")


def _mixed_rows(base: str, task: str) -> list[dict[str, Any]]:
    template = _template("mixed", "prompt_format")
    rows = []
    for i, item in enumerate(korbench_records(base, os.path.join("mixed", task))):
        where = f"mixed/{task}, record {i}"
        rule_list, question_list = _get(item, "rule_list", where), _get(item, "question_list", where)
        rules = [korbench_entry(base, name, "rule")["rule_content"] for name in rule_list]
        questions = [korbench_entry(base, name, "sample")["question"] for name in question_list]
        prompt = template.format("\n".join(f"Rule {n}: {text}" for n, text in enumerate(rules, 1)),
                                 "\n".join(f"Question {n}: {text}" for n, text in enumerate(questions, 1)))
        rows.append({"rule_list": rule_list, "question_list": question_list, "prompt": prompt, "prompt_mode": "mixed",
                     "answer": "", "base_path": base})
    return rows

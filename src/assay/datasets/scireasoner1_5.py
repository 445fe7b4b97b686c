"""SciReasoner 1.5's tasks, as OpenCompass 0.5.4 reads them (``SciReasoner15Dataset``).

Layout (id ``opencompass/SciReasoner1.5`` → ``./data/SciReasoner1.5/test-1.5``):
``oqmd_test.json`` and ``jarvis_dft_test.json`` (materials: ``input``, ``output``
holding ``{<property>: <value>}``), ``go_test_bp.json``, ``tmscore_test.json``
and ``dude_count.jsonl`` (a JSON list, or one object; ``.jsonl`` one object a line).
"""

from __future__ import annotations

import json
import math
import os
import random
import re
from collections.abc import Iterator
from typing import Any

from assay.datasets._oc_files import dataset, json_value, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["SciReasoner15Dataset", "read_float", "read_property", "strip_reasoning"]

MATERIAL_FILES = {"oqmd": "oqmd_test.json", "jarvis_dft": "jarvis_dft_test.json"}
TASK_FILES = {"go_bp": "go_test_bp.json", "tmscore": "tmscore_test.json", "dude_count": "dude_count.jsonl"}


_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
# OpenCompass's pattern is ^```(?:json)?\s*|\s*```$; a closing fence with white space before it is matched from the
# start of that white space only (the same matches, in linear time on long runs of white space)
_FENCES = re.compile(r"^```(?:json)?\s*|(?<!\s)\s*```$|(?<=\s)```$", re.IGNORECASE | re.MULTILINE)
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_FIRST_NUMBER = re.compile(_NUMBER)


def strip_reasoning(text: Any) -> str:
    """The reply without ``<think>…</think>`` blocks (any case) and code fences, stripped; ``''`` for a non-text.

    >>> strip_reasoning('<THINK>hm</THINK>```json\\n{"a": 1}\\n```')
    '{"a": 1}'
    """
    if not isinstance(text, str):
        return ""
    return _FENCES.sub("", _THINK.sub("", text).strip()).strip()


def read_float(text: Any) -> float | None:
    """The first number of the reply (after :func:`strip_reasoning`) when finite, else ``None``.

    >>> read_float('about 0.75, maybe 0.8'), read_float('none')
    (0.75, None)
    """
    found = _FIRST_NUMBER.search(strip_reasoning(text))
    if not found:
        return None
    value = float(found.group(0))
    return value if math.isfinite(value) else None


def read_property(text: Any, name: Any) -> float | None:
    """The value of property ``name`` a reply gives: a JSON object's, else the first ``{… name: number``
    (any case, quotes or none), else the reply's first number; ``None`` when there is none.

    >>> read_property('{"bandgap": 1.5}', 'bandgap'), read_property("{'e_form' : -0.3 eV}", 'e_form')
    (1.5, -0.3)
    """
    text = strip_reasoning(text)
    if not text:
        return None
    try:
        parsed = json.loads(text)
        if isinstance(parsed, dict) and name in parsed:
            return float(parsed[name])
    except Exception:  # not JSON, or its value not a number: read with the pattern below, as OpenCompass does
        pass
    found = re.search(r"\{[^{}]*[\"']?" + re.escape(str(name)) + r"[\"']?\s*:\s*[\"']?(" + _NUMBER + ")", text,
                      flags=re.DOTALL | re.IGNORECASE)
    if found:
        return float(found.group(1))
    return read_float(text)


def _items(file: str) -> Iterator[Any]:
    if file.endswith(".jsonl"):
        yield from jsonl_rows(file, "SciReasoner15Dataset")
        return
    data = json_value(file, "SciReasoner15Dataset")
    yield from ([data] if isinstance(data, dict) else data)


def _row(item: Any, i: int, name: str, task_type: str, source: Any, property_name: Any, count: int,
         where: str) -> dict[str, Any] | None:
    if not isinstance(item, dict) or "input" not in item:
        raise InputFileError(f"SciReasoner15Dataset: {where} needs an 'input'")
    if task_type == "material":
        gold = read_property(item.get("output", ""), property_name)
        if gold is None:
            return None
        return {"id": f"{name}-{count}", "prompt": item["input"], "subset": name,
                "answer": {"value": gold, "property": property_name, "source": source, "task_type": task_type}}
    if task_type == "go_bp":
        return {"id": item.get("name") or f"{name}-{i}", "prompt": item["input"], "subset": name,
                "answer": {"value": item.get("output", ""), "task_type": task_type, "name": item.get("name"),
                           "chain": item.get("chain")}}
    fields: Any = item
    try:
        if task_type == "tmscore":
            meta = item.get("meta", {})
            return {"id": f"{meta.get('sid1', i)}-{meta.get('sid2', i)}", "prompt": item["input"], "subset": name,
                    "answer": {"value": float(fields.get("output")), "task_type": task_type, "meta": meta}}
        metadata = item.get("metadata", {})
        return {"id": f"{metadata.get('target', 'target')}-{i}", "prompt": item["input"], "subset": name,
                "answer": {"value": int(fields.get("label")), "task_type": task_type, "target": metadata.get("target"),
                           "metadata": metadata}}
    except (TypeError, ValueError, AttributeError) as exc:
        raise InputFileError(f"SciReasoner15Dataset: {where}: {exc}") from None


@LOAD_DATASET.register_module()
class SciReasoner15Dataset(BaseDataset):
    """One SciReasoner 1.5 task: ``task_type`` ``material`` (``source`` ``oqmd`` or ``jarvis_dft``, the
    items whose ``output`` gives ``property_name``), ``go_bp``, ``tmscore`` or ``dude_count`` (the file
    of ``name``).  Rows: ``id``, ``prompt`` (the ``input``), ``subset`` (``name``) and ``answer``, a record
    of the reference ``value`` (the property, the GO terms' text, the TM-score as a float, the DUD-E
    label as an int) with the task's fields.  With ``mini_set`` (150) or ``sample_size``, that many rows
    drawn with ``random.Random(seed).sample`` of their positions, kept in file order.
    """

    @staticmethod
    def load(path: str, name: str, task_type: str, source: Any = None, property_name: Any = None,
             mini_set: bool = False, sample_size: Any = None, seed: int = 1024, **kwargs: Any) -> Any:
        files = MATERIAL_FILES if task_type == "material" else TASK_FILES
        key = source if task_type == "material" else name
        if key not in files:
            raise ConfigError(f"SciReasoner15Dataset: no file for {'source' if task_type == 'material' else 'name'} "
                              f"{key!r} (known: {', '.join(files)})")
        if task_type not in ("material", "go_bp", "tmscore", "dude_count"):
            raise ConfigError(f"SciReasoner15Dataset: unsupported task_type {task_type!r}")
        file = os.path.join(get_data_path(path), files[key])
        rows: list[dict[str, Any]] = []
        for i, item in enumerate(_items(file)):
            row = _row(item, i, name, task_type, source, property_name, len(rows), f"{file}, item {i}")
            if row is not None:
                rows.append(row)
        if sample_size is not None or mini_set:
            limit = min(len(rows), int(sample_size if sample_size is not None else 150))
            rows = [rows[i] for i in sorted(random.Random(seed).sample(range(len(rows)), limit))]
        return dataset(rows)

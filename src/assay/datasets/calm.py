"""CaLM (causal evaluation of language models) as OpenCompass 0.5.4 reads it (``CaLMDataset``).

Layout (what the library config ``calm/calm.py`` names, relative to the
working folder, as OpenCompass reads it — not through ``get_data_path``)::

    ./data/calm/<hierarchy>/<task>.json    one JSON object per line

``<task>`` is one of CaLM's 92 task files (46 tasks, each in English ``…_EN``
and Chinese ``…_CN``), e.g. ``association/correlation/CORR-B_correlation_EN.json``.
Each line becomes one row ``{'question': prompt, 'gt_item': the line's object}``
(``gt_item`` is the reference :class:`assay.evaluators.calm.CaLMEvaluator`
reads).  The prompt is the task family's template of the prompt style filled
``%``-style with the sample's fields — for most families top-level fields
(e.g. ``given_info``, ``question``); for the numeric families (ATE, CDE, ETT,
NDE, NIE, PN, PS) ``given_info``, ``Background.data_info``, ``Instruction``
and ``Question``; for event causality (ECI) in English the words of
``words`` joined by spaces and the two events of ``events`` (word positions)
joined likewise, in Chinese ``sent``, ``event1`` and ``event2``.  A value is
written as Python's ``%s`` writes it (a list as its ``repr``).

The prompt style must match the file's language (``basic`` for ``_EN``,
``basic-CN`` for ``_CN``), as OpenCompass asserts.  The templates are
benchmark data, kept in ``calm_prompts.json`` beside this module (recorded by
``scripts/record_oc_calm.py``) for the two styles the library config uses;
OpenCompass's other prompt styles (in-context examples, chain of thought, …)
are refused with an error naming them.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset, require_file
from assay.datasets.base import BaseDataset
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["CaLMDataset", "calm_rows", "prompt_family"]

#: Families whose prompt reads ``given_info``, ``Background.data_info``, ``Instruction``, ``Question``.
_NUMERIC = ("ATE", "CDE", "ETT", "NDE", "NIE", "PN", "PS")

#: Prompt family → the top-level fields its template is filled with, in order.
_FIELDS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("CORR-B_correlation", "EAE-B_exp-away", "CR-B_det-counterfactual", "BAS-B_backadj", "CB-B_collider-bias"),
                    ("given_info", "question")),
    "AR-B_CaLM-AR": ("ar_edges", "former", "latter"),
    "CA-B_FA": ("edges", "sampled_ancestor", "attribution"),
    "CA-B_FP": ("edges", "sampled_parent", "attribution"),
    **dict.fromkeys(("PCD-B_COPA", "PCD-B_E-CARE"), ("premise", "hypothesis")),
    **dict.fromkeys(("PCD-C_COPA", "PCD-C_E-CARE"), ("premise", "ask-for", "hypothesis1", "hypothesis2")),
    "AC-B_causal_judgement": ("input",),
    "CEG-O_E-CARE": ("cause", "effect"),
    "CR-C_CRASS": ("premise", "QCC", "Answer1", "Answer2", "Answer3", "Answer4"),
    **dict.fromkeys(("BAS-C_max-BAS", "BAS-C_min-BAS", "BAS-C_mix-BAS", "FAS-C_FAS", "IV-C_CaLM-IV"),
                    ("edges", "treatment", "outcome", "option1", "option2", "option3")),
    "CEI-B": ("di_edges", "bi_edges", "treatment", "outcome"),
    **dict.fromkeys(("ECI-B_CTB", "ECI-B_ESC", "ECI-B_MAVEN-ERE"), ("sent", "event1", "event2")),
}


@cache
def prompt_templates() -> dict[str, dict[str, str]]:
    """CaLM's prompt templates: ``{family: {'basic': …, 'basic-CN': …}}``."""
    with open(Path(__file__).with_name("calm_prompts.json"), encoding="utf-8") as handle:
        templates: dict[str, dict[str, str]] = json.load(handle)
    return templates


def prompt_family(task: str) -> str | None:
    """The prompt family of a CaLM task name (``'ATE-P_ATE-basic_EN'`` → ``'ATE'``); ``None`` for an unknown task.

    >>> prompt_family('ATE-P_ATE-basic_EN'), prompt_family('CEI-B_0.2-UC_CN'), prompt_family('ECI-B_CTB_EN')
    ('ATE', 'CEI-B', 'ECI-B_CTB')
    >>> prompt_family('XYZ_EN') is None
    True
    """
    if not task.endswith(("_CN", "_EN")):
        return None
    kind = task.split("-")[0]
    if kind in _NUMERIC and task[len(kind):].startswith(("-B_", "-P_")):
        return kind
    if task.startswith("CEI-B_") and task.endswith(("-UC_CN", "-UC_EN")):
        return "CEI-B"
    base = task[:-3]
    return base if base in _FIELDS else None


def _field(item: dict[str, Any], key: str, where: str) -> Any:
    if key not in item:
        raise InputFileError(f"CaLMDataset: {where} has no {key!r}")
    return item[key]


def _values(family: str, style: str, item: Any, where: str) -> tuple[Any, ...]:
    if not isinstance(item, dict):
        raise InputFileError(f"CaLMDataset: {where} is not a JSON object")
    if family in _NUMERIC:
        background = _field(item, "Background", where)
        if not isinstance(background, dict) or "data_info" not in background:
            raise InputFileError(f"CaLMDataset: {where} has no 'Background.data_info'")
        return (_field(item, "given_info", where), background["data_info"], _field(item, "Instruction", where),
                _field(item, "Question", where))
    if family.startswith("ECI-B_") and style == "basic":
        words, events = _field(item, "words", where), _field(item, "events", where)
        try:
            return (" ".join(words), " ".join(words[t] for t in events[0]), " ".join(words[t] for t in events[1]))
        except (TypeError, IndexError, KeyError) as exc:
            raise InputFileError(f"CaLMDataset: {where}: 'words' and 'events' do not fit ({exc})") from None
    return tuple(_field(item, key, where) for key in _FIELDS[family])


def calm_rows(path: str | Path, prompt_style: str) -> list[dict[str, Any]]:
    """The rows of one CaLM task file (see the module); errors name the file, the line and what is wrong."""
    where = require_file(path, "CaLMDataset")
    name = where.name
    task = name[: -len(".json")] if name.endswith(".json") else name
    family = prompt_family(task)
    if family is None:
        raise InputFileError(f"CaLMDataset: {where}: {task!r} is not one of CaLM's task files")
    if task.endswith("CN") != prompt_style.endswith("-CN"):
        raise InputFileError(f"CaLMDataset: {where}: prompt_style {prompt_style!r} does not match the task's language "
                             f"(OpenCompass asserts that Chinese tasks use a '-CN' style and English ones not)")
    templates = prompt_templates()[family]
    if prompt_style not in templates:
        raise InputFileError(f"CaLMDataset: {where}: prompt_style {prompt_style!r} is not implemented "
                             f"(assay has CaLM's {', '.join(sorted(templates))} prompts)")
    template = templates[prompt_style]
    rows = []
    with open(where, encoding="utf-8") as handle:
        for number, line in enumerate(handle.readlines(), 1):
            try:
                item = json.loads(line)
            except ValueError as exc:
                raise InputFileError(f"CaLMDataset: {where} line {number} is not JSON: {exc}") from None
            values = _values(family, prompt_style, item, f"{where} line {number}")
            try:
                question = template % values
            except (TypeError, ValueError) as exc:
                raise InputFileError(f"CaLMDataset: {where} line {number}: the prompt cannot be filled: {exc}") from None
            rows.append({"question": question, "gt_item": item})
    return rows


@LOAD_DATASET.register_module()
class CaLMDataset(BaseDataset):
    """One CaLM task file: rows ``{'question', 'gt_item'}`` (see the module)."""

    @staticmethod
    def load(path: str, prompt_style: str, **kwargs: Any) -> Any:
        return dataset(calm_rows(path, prompt_style), source=f"CaLMDataset: {path}")

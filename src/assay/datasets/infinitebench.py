"""InfiniteBench as OpenCompass 0.5.4 reads it: its twelve ``InfiniteBench*Dataset`` loaders.

Layout read (the configs' ``path``, e.g. ``./data/InfiniteBench/passkey.jsonl``,
joined to ``$COMPASS_DATA_CACHE`` when that is set)::

    data/InfiniteBench/code_debug.jsonl       InfiniteBenchcodedebugDataset
    data/InfiniteBench/code_run.jsonl         InfiniteBenchcoderunDataset
    data/InfiniteBench/longdialogue_qa_eng.jsonl  InfiniteBenchendiaDataset
    data/InfiniteBench/longbook_choice_eng.jsonl  InfiniteBenchenmcDataset
    data/InfiniteBench/longbook_qa_eng.jsonl  InfiniteBenchenqaDataset
    data/InfiniteBench/longbook_sum_eng.jsonl InfiniteBenchensumDataset
    data/InfiniteBench/math_calc.jsonl        InfiniteBenchmathcalcDataset
    data/InfiniteBench/math_find.jsonl        InfiniteBenchmathfindDataset
    data/InfiniteBench/kv_retrieval.jsonl     InfiniteBenchretrievekvDataset
    data/InfiniteBench/number_string.jsonl    InfiniteBenchretrievenumberDataset
    data/InfiniteBench/passkey.jsonl          InfiniteBenchretrievepasskeyDataset
    data/InfiniteBench/longbook_qa_chn.jsonl  InfiniteBenchzhqaDataset

Each line is one JSON object with ``context``, ``input``, ``answer`` and
``options`` (InfiniteBench's own files); each loader keeps the columns its
prompt reads and ``answer``, as OpenCompass's does.  One table (no splits).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from assay.datasets._oc import as_datasets, field, json_objects, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.datasets.table import RowTable
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "InfiniteBenchcodedebugDataset",
    "InfiniteBenchcoderunDataset",
    "InfiniteBenchendiaDataset",
    "InfiniteBenchenmcDataset",
    "InfiniteBenchenqaDataset",
    "InfiniteBenchensumDataset",
    "InfiniteBenchmathcalcDataset",
    "InfiniteBenchmathfindDataset",
    "InfiniteBenchretrievekvDataset",
    "InfiniteBenchretrievenumberDataset",
    "InfiniteBenchretrievepasskeyDataset",
    "InfiniteBenchzhqaDataset",
]

_FUNC_CALL = re.compile(r"func_[0-9]+\(\-?[0-9]+\)")
_TARGET = re.compile(r"The .+ of")

Row = Callable[[dict[str, Any], str], dict[str, Any]]


def _table(path: str, what: str, make: Row) -> RowTable:
    file = get_data_path(path, local_mode=True)
    items = json_objects(file, what)
    return rows_table([make(item, f"{what}: file {file}, line {i}") for i, item in enumerate(items, 1)], what)


def _context_question(item: dict[str, Any], where: str) -> dict[str, Any]:
    return {"context": field(item, "context", where), "question": field(item, "input", where), "answer": field(item, "answer", where)}


def _context_input(item: dict[str, Any], where: str) -> dict[str, Any]:
    return {"context": field(item, "context", where), "input": field(item, "input", where), "answer": field(item, "answer", where)}


def _context_answer(item: dict[str, Any], where: str) -> dict[str, Any]:
    return {"context": field(item, "context", where), "answer": field(item, "answer", where)}


def _choice(item: dict[str, Any], where: str) -> dict[str, Any]:
    options = field(item, "options", where)
    answer = field(item, "answer", where)
    if not isinstance(options, list) or len(options) < 4:
        raise InputFileError(f"{where}: 'options' must list at least four options, got {str(options)[:120]!r}")
    first = field(answer, 0, where)
    if first not in options:
        raise InputFileError(f"{where}: the answer {str(first)[:80]!r} is not one of the options {str(options)[:120]!r}")
    return {
        "context": field(item, "context", where),
        "question": field(item, "input", where),
        "option_A": options[0],
        "option_B": options[1],
        "option_C": options[2],
        "option_D": options[3],
        "answer": chr(options.index(first) + ord("A")),
    }


def _code_run(item: dict[str, Any], where: str) -> dict[str, Any]:
    question = field(item, "input", where)
    calls = _FUNC_CALL.findall(str(question))
    if not calls:
        raise InputFileError(f"{where}: 'input' names no call like func_1(-2): {str(question)[:120]!r}")
    return {"context": field(item, "context", where), "func": calls[0].split("(")[0], "func_call": calls[0], "answer": field(item, "answer", where)}


def _math_find(item: dict[str, Any], where: str) -> dict[str, Any]:
    question = field(item, "input", where)
    found = _TARGET.findall(str(question))
    if not found:
        raise InputFileError(f"{where}: 'input' has no 'The … of' naming what to find: {str(question)[:120]!r}")
    target = found[0].lower()[:-3]
    return {"prefix": f"What is {target} in the following list?", "context": field(item, "context", where), "answer": field(item, "answer", where)}


def _loader(name: str, make: Row, doc: str) -> type[BaseDataset]:
    def load_table(path: str) -> RowTable:
        return _table(path, name, make)

    def load(path: str) -> Any:
        return as_datasets(_table(path, name, make))

    cls = type(name, (BaseDataset,), {
        "__module__": __name__, "__qualname__": name, "__doc__": doc,
        "load_table": staticmethod(load_table), "load": staticmethod(load),
    })
    return LOAD_DATASET.register_module()(cls)


InfiniteBenchcodedebugDataset = _loader(
    "InfiniteBenchcodedebugDataset", _choice,
    """Code.Debug: ``context``, ``question`` (the ``input``), ``option_A``–``option_D`` (the first four
    ``options``) and ``answer``, the letter of the option equal to the answer list's first element.""")
InfiniteBenchenmcDataset = _loader(
    "InfiniteBenchenmcDataset", _choice,
    """En.MC: ``context``, ``question``, ``option_A``–``option_D`` and ``answer`` (a letter), as Code.Debug.""")
InfiniteBenchcoderunDataset = _loader(
    "InfiniteBenchcoderunDataset", _code_run,
    """Code.Run: ``context``, ``func_call`` (the first ``func_<n>(<int>)`` of the ``input``), ``func``
    (its name) and ``answer`` as the file gives it.""")
InfiniteBenchendiaDataset = _loader(
    "InfiniteBenchendiaDataset", _context_question,
    """En.Dia: ``context``, ``question`` (the ``input``) and ``answer`` as the file gives it (a list of names).""")
InfiniteBenchenqaDataset = _loader(
    "InfiniteBenchenqaDataset", _context_question,
    """En.QA: ``context``, ``question`` (the ``input``) and ``answer`` as the file gives it.""")
InfiniteBenchzhqaDataset = _loader(
    "InfiniteBenchzhqaDataset", _context_question,
    """Zh.QA: ``context``, ``question`` (the ``input``) and ``answer`` as the file gives it.""")
InfiniteBenchensumDataset = _loader(
    "InfiniteBenchensumDataset", _context_answer,
    """En.Sum: ``context`` and ``answer`` as the file gives them.""")
InfiniteBenchmathcalcDataset = _loader(
    "InfiniteBenchmathcalcDataset", _context_answer,
    """Math.Calc: ``context`` (the expression) and ``answer`` (the list of running values).""")
InfiniteBenchmathfindDataset = _loader(
    "InfiniteBenchmathfindDataset", _math_find,
    """Math.Find: ``prefix`` (``'What is <target> in the following list?'``, the target taken from the
    ``input``'s ``'The … of'``, lower-cased — the greedy match runs to the input's last ``' of'``, as in
    OpenCompass), ``context`` and ``answer``.""")
InfiniteBenchretrievekvDataset = _loader(
    "InfiniteBenchretrievekvDataset", _context_input,
    """Retrieve.KV: ``context``, ``input`` and ``answer`` as the file gives them.""")
InfiniteBenchretrievenumberDataset = _loader(
    "InfiniteBenchretrievenumberDataset", _context_input,
    """Retrieve.Number: ``context``, ``input`` and ``answer`` as the file gives them.""")
InfiniteBenchretrievepasskeyDataset = _loader(
    "InfiniteBenchretrievepasskeyDataset", _context_input,
    """Retrieve.PassKey: ``context``, ``input`` and ``answer`` as the file gives them.""")

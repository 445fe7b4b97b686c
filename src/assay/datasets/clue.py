"""CLUE, FewCLUE, SuperGLUE and SummEdits label loaders as OpenCompass 0.5.4 reads them.

Each reads one JSON Lines file (one object per line) and maps its ``label`` to
the option letter the generation configs score:

==========================  ==============================================  ===================================
loader                      file (OpenCompass's id or the configs' path)    ``label``
==========================  ==============================================  ===================================
``AFQMCDatasetV2``          ``opencompass/afqmc-dev`` → ``./data/CLUE/      ``'AB'[int(label)]``
                            AFQMC/dev.json``; FewCLUE's bustm files
``CMNLIDataset``            ``opencompass/cmnli-dev``                       kept; rows labelled ``'-'`` dropped
``CMNLIDatasetV2``          ``opencompass/cmnli-dev``, ``…/OCNLI-dev``,     entailment A, contradiction B,
                            FewCLUE's ocnli files                           neutral C; ``'-'`` rows dropped
``EprstmtDatasetV2``        ``./data/FewCLUE/eprstmt/*.json``               Positive A, Negative B (only
                                                                            ``sentence`` and ``label`` kept)
``AXDatasetV2``             ``./data/SuperGLUE/AX-b/AX-b.jsonl``, AX-g,     entailment A, not_entailment B
                            RTE
``CBDatasetV2``             ``./data/SuperGLUE/CB/val.jsonl``               contradiction A, entailment B,
                                                                            neutral C
``COPADatasetV2``           ``./data/SuperGLUE/COPA/val.jsonl``             ``'AB'[label]`` (an int)
``SummeditsDataset_V2``     ``opencompass/summedits``                       ``'BA'[label]`` (an int)
==========================  ==============================================  ===================================

Where OpenCompass indexes a string with the label, so does assay, quirks
included: ``'AB'[-1]`` is ``'B'``, and ``'AB'[True]`` is ``'B'``.  A label
outside the mapping is an error naming the file, the line and the value
(OpenCompass stops on a ``KeyError``).  ``local_mode`` (the FewCLUE configs
pass it) reads ``path`` as a path under ``$COMPASS_DATA_CACHE`` without
OpenCompass's id table; ``AXDatasetV2``, ``SummeditsDataset_V2`` and, unless
``local_mode`` is given, the CLUE loaders look ``path`` up in the table.  Every
loader gives one split, the table itself (the configs' ``test_split='train'``
reads it as OpenCompass's reader does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from assay.datasets._oc import as_datasets, json_objects, rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.datasets.table import RowTable
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = [
    "AFQMCDatasetV2",
    "AXDatasetV2",
    "CBDatasetV2",
    "CMNLIDataset",
    "CMNLIDatasetV2",
    "COPADatasetV2",
    "EprstmtDatasetV2",
    "SummeditsDataset_V2",
]

_NLI = {"entailment": "A", "contradiction": "B", "neutral": "C"}
_CB = {"contradiction": "A", "entailment": "B", "neutral": "C"}
_AX = {"entailment": "A", "not_entailment": "B"}
_SENTIMENT = {"Positive": "A", "Negative": "B"}

#: (line's object, where) → the row, or ``None`` to drop the line
Make = Callable[[dict[str, Any], str], "dict[str, Any] | None"]


def _read(what: str, path: str, local_mode: bool, make: Make) -> RowTable:
    filename = get_data_path(path, local_mode=local_mode)
    rows = []
    for i, line in enumerate(json_objects(filename, what), 1):
        row = make(line, f"{what}: file {filename}, line {i}")
        if row is not None:
            rows.append(row)
    return rows_table(rows, filename)


def _label(line: dict[str, Any], where: str) -> Any:
    if "label" not in line:
        raise InputFileError(f"{where}: no 'label' in {str(line)[:120]!r}")
    return line["label"]


def _map_label(mapping: dict[str, str], line: dict[str, Any], where: str) -> str:
    label = _label(line, where)
    if not isinstance(label, str) or label not in mapping:
        raise InputFileError(f"{where}: label {label!r} is not one of {', '.join(map(repr, mapping))}")
    return mapping[label]


def _mapped(mapping: dict[str, str]) -> Make:
    def make(line: dict[str, Any], where: str) -> dict[str, Any]:
        return {**line, "label": _map_label(mapping, line, where)}

    return make


def _indexed(letters: str, *, as_int: bool) -> Make:
    """``letters[label]``: with ``as_int``, ``int(label)`` first (a numeric string reads as its number)."""

    def make(line: dict[str, Any], where: str) -> dict[str, Any]:
        label = _label(line, where)
        try:
            index = int(label) if as_int else label
            letter = letters[index]
        except (TypeError, ValueError, IndexError):
            kind = "an integer" if as_int else "an int"
            raise InputFileError(f"{where}: label {label!r} is not {kind} indexing {letters!r}") from None
        return {**line, "label": letter}

    return make


def _nli_without_dash(line: dict[str, Any], where: str) -> dict[str, Any] | None:
    return None if _label(line, where) == "-" else _mapped(_NLI)(line, where)


def _without_dash(line: dict[str, Any], where: str) -> dict[str, Any] | None:
    return None if _label(line, where) == "-" else line


def _sentiment(line: dict[str, Any], where: str) -> dict[str, Any]:
    if "sentence" not in line:
        raise InputFileError(f"{where}: no 'sentence' in {str(line)[:120]!r}")
    return {"sentence": line["sentence"], "label": _map_label(_SENTIMENT, line, where)}


def _loader(name: str, make: Make, doc: str, *, local_default: bool | None) -> type[BaseDataset]:
    """A loader class ``name``: ``local_default`` is ``local_mode``'s default (``None``: the loader has no such option)."""
    load_table: Any
    load: Any
    if local_default is None:
        local = name not in _TABLE_LOOKUP

        def table_of(path: str) -> RowTable:
            return _read(name, path, local, make)

        def load_path(path: str) -> Any:
            return as_datasets(table_of(path))

        load_table, load = table_of, load_path
    else:
        default: bool = local_default

        def table_in_mode(path: str, local_mode: bool = default) -> RowTable:
            return _read(name, path, local_mode, make)

        def load_in_mode(path: str, local_mode: bool = default) -> Any:
            return as_datasets(table_in_mode(path, local_mode))

        load_table, load = table_in_mode, load_in_mode
    load_table.__doc__ = "The rows as a table (what assay evaluates; no ``datasets`` import)."
    namespace = {"__module__": __name__, "__qualname__": name, "__doc__": doc,
                 "load_table": staticmethod(load_table), "load": staticmethod(load)}
    cls = type(name, (BaseDataset,), namespace)
    return LOAD_DATASET.register_module()(cls)


#: loaders without ``local_mode`` that still look ``path`` up in OpenCompass's id table
_TABLE_LOOKUP = {"AXDatasetV2", "SummeditsDataset_V2"}

AFQMCDatasetV2 = _loader(
    "AFQMCDatasetV2", _indexed("AB", as_int=True),
    "Each object with ``label`` ``'AB'[int(label)]`` (``'0'`` → A, ``'1'`` → B).", local_default=False,
)
CMNLIDataset = _loader(
    "CMNLIDataset", _without_dash, "Each object as it is; objects labelled ``'-'`` are dropped.", local_default=False,
)
CMNLIDatasetV2 = _loader(
    "CMNLIDatasetV2", _nli_without_dash,
    "Each object with ``label`` entailment → A, contradiction → B, neutral → C; ``'-'`` objects dropped.",
    local_default=False,
)
EprstmtDatasetV2 = _loader(
    "EprstmtDatasetV2", _sentiment, "``sentence`` and ``label`` (Positive → A, Negative → B) of each object.",
    local_default=None,
)
AXDatasetV2 = _loader(
    "AXDatasetV2", _mapped(_AX), "Each object with ``label`` entailment → A, not_entailment → B.", local_default=None,
)
CBDatasetV2 = _loader(
    "CBDatasetV2", _mapped(_CB), "Each object with ``label`` contradiction → A, entailment → B, neutral → C.",
    local_default=None,
)
COPADatasetV2 = _loader(
    "COPADatasetV2", _indexed("AB", as_int=False),
    "Each object with ``label`` ``'AB'[label]`` (an int: 0 → A, 1 → B, and -1 → B as in OpenCompass).",
    local_default=None,
)
SummeditsDataset_V2 = _loader(
    "SummeditsDataset_V2", _indexed("BA", as_int=False),
    "Each object with ``label`` ``'BA'[label]`` (an int: 1 → A, 0 → B).", local_default=None,
)

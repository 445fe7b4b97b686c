"""S²-TOMG-Bench's molecule generation tasks, as OpenCompass 0.5.4 reads them (``S2TOMGBenchDataset``).

Layout (id ``opencompass/S2-TOMG-Bench`` → ``./data/S2-TOMG-Bench``): one CSV file
per task (``MolCustom_AtomNum.csv``, …, ``MolOpt_QED.csv``) with an ``Instruction``
column and the task's own columns (target counts, ``molecule``, the property).
"""

from __future__ import annotations

import csv
import os
from typing import Any

from assay.datasets._oc_files import dataset, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["S2TOMGBenchDataset"]

ATOM_COLUMNS = ("carbon", "oxygen", "nitrogen", "sulfur", "fluorine", "chlorine", "bromine", "iodine", "phosphorus",
                "boron", "silicon", "selenium", "tellurium", "arsenic", "antimony", "bismuth", "polonium")
BOND_COLUMNS = ("single", "double", "triple", "rotatable", "aromatic")
FUNCTIONAL_GROUP_COLUMNS = ("benzene_ring", "hydroxyl", "anhydride", "aldehyde", "ketone", "carboxyl", "ester", "amide",
                            "amine", "nitro", "halo", "thioether", "nitrile", "thiol", "sulfide", "disulfide",
                            "sulfoxide", "sulfone", "borane")
#: task file → (family, subtask)
TASKS = {
    "MolCustom_AtomNum": ("MolCustom", "AtomNum"), "MolCustom_BondNum": ("MolCustom", "BondNum"),
    "MolCustom_FunctionalGroup": ("MolCustom", "FunctionalGroup"), "MolEdit_AddComponent": ("MolEdit", "AddComponent"),
    "MolEdit_DelComponent": ("MolEdit", "DelComponent"), "MolEdit_SubComponent": ("MolEdit", "SubComponent"),
    "MolOpt_LogP": ("MolOpt", "LogP"), "MolOpt_MR": ("MolOpt", "MR"), "MolOpt_QED": ("MolOpt", "QED"),
}
_CONSTRAINTS = {"AtomNum": ATOM_COLUMNS, "BondNum": BOND_COLUMNS, "FunctionalGroup": FUNCTIONAL_GROUP_COLUMNS}


def _number(value: Any, where: str, integer: bool) -> Any:
    if value in (None, ""):
        return 0 if integer else 0.0
    try:
        return int(float(value)) if integer else float(value)
    except ValueError:
        raise InputFileError(f"S2TOMGBenchDataset: {where}: {value!r} is not a number") from None


def _column(item: dict[str, Any], key: str, where: str) -> Any:
    if key not in item:
        raise InputFileError(f"S2TOMGBenchDataset: {where} has no {key!r} column")
    return item[key]


@LOAD_DATASET.register_module()
class S2TOMGBenchDataset(BaseDataset):
    """One task's CSV file (``name``, ``.csv`` added when missing) in ``get_data_path(path)``.

    Each row gives ``id`` (its ``index`` column, else its position), ``prompt`` (the
    ``Instruction``), ``task_name`` (the file's stem) and ``reference``: the task's
    ``task_name``, ``task_family``, ``subtask`` and ``instruction``, with the target
    ``constraints`` of a ``MolCustom`` task (every column of the subtask's list, an
    empty cell 0), the ``source_molecule`` (and ``added_group``/``removed_group`` when
    the file has them) of a ``MolEdit`` task, or the ``source_molecule``,
    ``property_name``, ``source_property`` (the subtask's column, ``logP`` for
    ``LogP`` when missing; ``None`` when empty) and ``increase`` (``False`` when the
    instruction says ``lower`` or ``decrease``) of a ``MolOpt`` task.  The family and
    subtask are the config's, else those of the file's name.  ``max_samples`` keeps
    the first rows.  A missing column or a cell that is not a number is an error naming
    the file and the row; an unknown task a ``ConfigError``.
    """

    @staticmethod
    def load(path: str, name: str, task_family: str | None = None, subtask: str | None = None,
             max_samples: int | None = None, **kwargs: Any) -> Any:
        filename = name if name.endswith(".csv") else f"{name}.csv"
        file = require_file(os.path.join(get_data_path(path), filename), "S2TOMGBenchDataset")
        stem = os.path.splitext(filename)[0]
        inferred = TASKS.get(stem, (task_family, subtask))
        family, sub = task_family or inferred[0], subtask or inferred[1]
        if not ((family == "MolCustom" and sub in _CONSTRAINTS) or family in ("MolEdit", "MolOpt")):
            raise ConfigError(f"S2TOMGBenchDataset: unsupported task {family}/{sub} ({file})")
        rows: list[dict[str, Any]] = []
        with open(file, encoding="utf-8", newline="") as f:
            for i, item in enumerate(csv.DictReader(f)):
                where = f"{file}, row {i + 1}"
                instruction = _column(item, "Instruction", where)
                reference: dict[str, Any] = {"task_name": stem, "task_family": family, "subtask": sub,
                                             "instruction": instruction}
                if family == "MolCustom":
                    reference["constraints"] = {c: _number(item.get(c), f"{where}, column {c}", True)
                                                for c in _CONSTRAINTS[str(sub)]}
                elif family == "MolEdit":
                    reference["source_molecule"] = _column(item, "molecule", where)
                    for key in ("added_group", "removed_group"):
                        if key in item:
                            reference[key] = item[key]
                else:
                    reference["source_molecule"] = _column(item, "molecule", where)
                    reference["property_name"] = sub
                    source = item.get(sub or "")
                    if source is None and sub == "LogP":
                        source = item.get("logP")
                    reference["source_property"] = None if source in (None, "") else _number(source, where, False)
                    low = instruction.lower()
                    reference["increase"] = not ("lower" in low or "decrease" in low)
                rows.append({"id": item.get("index") or str(i), "prompt": instruction, "reference": reference,
                             "task_name": stem})
                if max_samples and len(rows) >= max_samples:
                    break
        return dataset(rows)

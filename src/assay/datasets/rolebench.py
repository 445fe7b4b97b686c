"""RoleBench as OpenCompass 0.5.4 reads it: ``InstructionGeneralizationEnglishDataset``,
``RoleGeneralizationEnglishDataset``, ``InstructionGeneralizationChineseDataset``.

Layout under ``path`` (``ZenMoore/RoleBench``): the roles' descriptions in
``profiles-eng/desc.json`` / ``profiles-zh/desc.json`` (role → text) and the questions,
JSON Lines with ``role``, ``question`` and ``generated`` (answers; the first counts), in
``<part>/general/{train,test}.jsonl`` and ``<part>/role_specific/{train,test}.jsonl``, the
part being ``rolebench-eng/instruction-generalization``,
``rolebench-eng/role-generalization`` or ``rolebench-zh``.
"""

from __future__ import annotations

import os
from typing import Any

from assay.datasets._oc_files import field, json_value, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["InstructionGeneralizationChineseDataset", "InstructionGeneralizationEnglishDataset", "RoleGeneralizationEnglishDataset"]


def _rows(file: str, descriptions: dict[str, str], loader: str) -> list[dict[str, Any]]:
    rows = []
    for i, item in enumerate(jsonl_rows(file, loader), 1):
        where = f"{file}, line {i}"
        role = field(item, "role", loader, where)
        if role not in descriptions:
            raise InputFileError(f"{loader}: {where}: the role {role!r} has no description")
        generated = field(item, "generated", loader, where)
        if not isinstance(generated, list) or not generated:
            raise InputFileError(f"{loader}: {where}: 'generated' must list at least one answer, got {generated!r}")
        rows.append({"role": role, "desc": descriptions[role], "question": field(item, "question", loader, where),
                     "answer": generated[0]})
    return rows


def _splits(root: str, part: str, descriptions_file: str, loader: str) -> Any:
    import datasets

    descriptions = json_value(descriptions_file, loader)
    if not isinstance(descriptions, dict):
        raise InputFileError(f"{loader}: {descriptions_file} holds a JSON {type(descriptions).__name__}, not an object of roles")
    folder = os.path.join(root, part)
    out = {}
    for split in ("train", "test"):
        rows = [row for kind in ("general", "role_specific")
                for row in _rows(os.path.join(folder, kind, f"{split}.jsonl"), descriptions, loader)]
        out[split] = datasets.Dataset.from_list(rows).shuffle(seed=42)  # as OpenCompass orders them
    return datasets.DatasetDict(out)


@LOAD_DATASET.register_module()
class InstructionGeneralizationEnglishDataset(BaseDataset):
    """Splits ``train`` and ``test`` of ``rolebench-eng/instruction-generalization``: rows ``role``, ``desc`` (the
    role's description), ``question``, ``answer`` (the first generated answer), the general questions then the
    role-specific ones, shuffled with ``datasets``' seed 42 as OpenCompass does.  ``path`` is read in local mode;
    the descriptions' file goes through it a second time, as in OpenCompass (the same file unless
    ``$COMPASS_DATA_CACHE`` is a relative path)."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        root = get_data_path(path, local_mode=True)
        desc = get_data_path(os.path.join(root, "profiles-eng/desc.json"), local_mode=True)
        return _splits(root, "rolebench-eng/instruction-generalization", desc, "InstructionGeneralizationEnglishDataset")


@LOAD_DATASET.register_module()
class RoleGeneralizationEnglishDataset(BaseDataset):
    """As :class:`InstructionGeneralizationEnglishDataset`, from ``rolebench-eng/role-generalization``."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        root = get_data_path(path, local_mode=True)
        desc = get_data_path(os.path.join(root, "profiles-eng/desc.json"), local_mode=True)
        return _splits(root, "rolebench-eng/role-generalization", desc, "RoleGeneralizationEnglishDataset")


@LOAD_DATASET.register_module()
class InstructionGeneralizationChineseDataset(BaseDataset):
    """As :class:`InstructionGeneralizationEnglishDataset`, from ``rolebench-zh`` with ``profiles-zh/desc.json``;
    as in OpenCompass, ``path`` is taken as it is (relative to the working folder), not below
    ``$COMPASS_DATA_CACHE``, and only the descriptions' file is looked up there."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        desc = get_data_path(os.path.join(path, "profiles-zh/desc.json"), local_mode=True)
        return _splits(path, "rolebench-zh", desc, "InstructionGeneralizationChineseDataset")

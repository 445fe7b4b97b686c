"""SciReasoner's GUE, LLM4Mat and materials generation tasks, as OpenCompass 0.5.4 reads them.

Layout (id ``opencompass/SciReasoner-GUE`` → ``./data/SciReasoner/GUE-test/``):
``<task>/dev/data.json`` and ``<task>/test/data.json``, JSON lists of objects
with ``input``, ``output`` and ``meta_data.label``.
"""

from __future__ import annotations

import os
import random
from typing import Any

from assay.datasets._oc_files import dataset, dataset_dict, json_value
from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["Bulk_modulus_material_Dataset", "Composition_material_Dataset", "GUE_Dataset", "LLM4ChemDataset",
           "LLM4MatDataset", "Mol_Instructions_Dataset", "Mol_Instructions_Dataset_Protein_Design", "OpiDataset",
           "PEER_Dataset", "Uncond_material_Dataset"]

#: The seed and size of OpenCompass's ``mini_set`` sample of GUE's test questions.
MINI_SET_SEED = 1024
MINI_SET_SIZE = 150


def _labelled(items: Any, file: str) -> list[dict[str, Any]]:
    if not isinstance(items, list):
        raise InputFileError(f"GUE_Dataset: {file} must hold a JSON list, got {type(items).__name__}")
    rows = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("output"), str):
            raise InputFileError(f"GUE_Dataset: {file}, item {i} needs an 'output' text")
        meta = item.get("meta_data", {})
        label = meta.get("label", "") if isinstance(meta, dict) else ""
        rows.append({**item, "output": item["output"] + f" The prediction result is {label}."})
    return rows


@LOAD_DATASET.register_module()
class GUE_Dataset(BaseDataset):
    """GUE's ``task``: ``train`` the first five questions of ``dev``, ``test`` every question of ``test``;
    each ``output`` followed by ``' The prediction result is <meta_data.label>.'`` (the label ``''`` when
    missing).  With ``mini_set=True`` the test split is ``random.sample`` of 150 questions drawn after
    ``random.seed(1024)``, as OpenCompass draws it (fewer than 150 fail, as there)."""

    @staticmethod
    def load(path: str, task: str, mini_set: bool = False, **kwargs: Any) -> Any:
        root = get_data_path(path)
        train_file = os.path.join(root, f"{task}/dev/data.json")
        test_file = os.path.join(root, f"{task}/test/data.json")
        train_items = json_value(train_file, "GUE_Dataset")
        test = _labelled(json_value(test_file, "GUE_Dataset"), test_file)
        train = _labelled(train_items[:5] if isinstance(train_items, list) else train_items, train_file)
        if mini_set:
            if len(test) < MINI_SET_SIZE:
                raise InputFileError(f"GUE_Dataset: mini_set draws {MINI_SET_SIZE} questions and {test_file} holds {len(test)}")
            test = random.Random(MINI_SET_SEED).sample(test, MINI_SET_SIZE)
        return dataset_dict({"train": train, "test": test})


def _llm4mat_rows(file: str, prop: str) -> list[dict[str, Any]]:
    items = json_value(file, "LLM4MatDataset")
    if isinstance(items, dict):
        items = [items]
    if not isinstance(items, list):
        raise InputFileError(f"LLM4MatDataset: {file} must hold a JSON list, got {type(items).__name__}")
    rows = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("output"), str) or "input" not in item:
            raise InputFileError(f"LLM4MatDataset: {file}, item {i} needs 'input' and an 'output' text")
        if "{" + f"{prop} :" in item["output"]:
            rows.append({"input": item["input"], "output": item["output"]})
    return rows


@LOAD_DATASET.register_module()
class LLM4MatDataset(BaseDataset):
    """LLM4Mat's questions about ``property``: the items of ``train_path`` and ``test_path`` (in
    ``get_data_path(path)``, id ``opencompass/SciReasoner-LLM4Mat``; a JSON list, or one object) whose
    ``output`` holds ``'{<property> :'``, ``input`` and ``output`` kept; ``train`` the first five,
    ``test`` all (the first 150 with ``mini_set=True``)."""

    @staticmethod
    def load(path: str, property: str, train_path: str, test_path: str, mini_set: bool = False,
             **kwargs: Any) -> Any:
        root = get_data_path(path)
        train = _llm4mat_rows(os.path.join(root, train_path), property)[:5]
        test = _llm4mat_rows(os.path.join(root, test_path), property)
        return dataset_dict({"train": train, "test": test[:150] if mini_set else test})


def _json_list(file: str, loader: str) -> list[Any]:
    items = json_value(file, loader)
    if not isinstance(items, list):
        raise InputFileError(f"{loader}: {file} must hold a JSON list, got {type(items).__name__}")
    return items


def _material_splits(root: str, folder: str, mini_set: bool, loader: str) -> Any:
    train = _json_list(os.path.join(root, folder, "dev", "data.json"), loader)[:5]
    test_file = os.path.join(root, folder, "test", "data.json")
    test = _json_list(test_file, loader)
    if mini_set:
        if len(test) < MINI_SET_SIZE:
            raise InputFileError(f"{loader}: mini_set draws {MINI_SET_SIZE} questions and {test_file} holds {len(test)}")
        test = random.Random(MINI_SET_SEED).sample(test, MINI_SET_SIZE)
    return dataset_dict({"train": train, "test": test})


@LOAD_DATASET.register_module()
class Composition_material_Dataset(BaseDataset):
    """Materials from a composition: ``conditional_generation/composition_material/{dev,test}/data.json``
    in ``get_data_path(path)`` (id ``opencompass/SciReasoner-Conditional_generation``), JSON lists of
    objects kept as they are; ``train`` the first five of ``dev``, ``test`` all of ``test`` (with
    ``mini_set=True`` 150 drawn as GUE's are)."""

    @staticmethod
    def load(path: str, mini_set: bool = False, **kwargs: Any) -> Any:
        return _material_splits(get_data_path(path), "conditional_generation/composition_material", mini_set,
                                "Composition_material_Dataset")


@LOAD_DATASET.register_module()
class Bulk_modulus_material_Dataset(BaseDataset):
    """Materials with a bulk modulus: ``bulk_modulus_material/{dev,test}/data.json`` in ``get_data_path(path)``
    (not below ``conditional_generation``, as OpenCompass reads them), read as
    ``Composition_material_Dataset`` reads its files."""

    @staticmethod
    def load(path: str, mini_set: bool = False, **kwargs: Any) -> Any:
        return _material_splits(get_data_path(path), "bulk_modulus_material", mini_set, "Bulk_modulus_material_Dataset")


@LOAD_DATASET.register_module()
class Uncond_material_Dataset(BaseDataset):
    """Unconditional material generation: ``num`` rows, each ``{'input': prompt, 'output': ''}`` (no file read)."""

    @staticmethod
    def load(num: int, prompt: str, **kwargs: Any) -> Any:
        if not isinstance(num, int) or isinstance(num, bool) or num < 0:
            raise ConfigError(f"Uncond_material_Dataset: num must be a count of rows, got {num!r}")
        return dataset([{"input": prompt, "output": ""} for _ in range(num)])


@LOAD_DATASET.register_module()
class OpiDataset(BaseDataset):
    """OPI's ``task``: ``<task>/dev/data.json`` and ``<task>/test/data.json`` in ``get_data_path(path)``
    (id ``opencompass/SciReasoner-OPI``), JSON lists of objects kept as they are; ``train`` every item of
    ``dev``, ``test`` every item of ``test`` (with ``mini_set=True``, ``min(150, all)`` drawn after
    ``random.seed(1024)``, as OpenCompass draws them).  ``max_cut`` and ``hf_hub`` are accepted and not
    read, as in OpenCompass."""

    @staticmethod
    def load(path: str, task: str, max_cut: int = -1, mini_set: bool = False, hf_hub: bool = False,
             **kwargs: Any) -> Any:
        root = get_data_path(path)
        train = _json_list(os.path.join(root, task, "dev", "data.json"), "OpiDataset")
        test = _json_list(os.path.join(root, task, "test", "data.json"), "OpiDataset")
        if mini_set:
            test = random.Random(MINI_SET_SEED).sample(test, min(len(test), MINI_SET_SIZE))
        return dataset_dict({"train": train, "test": test})


@LOAD_DATASET.register_module()
class LLM4ChemDataset(BaseDataset):
    """LLM4Chem's ``task`` (SciReasoner's ``smol`` and USPTO-50K retrosynthesis): ``<task>/dev/data.json`` and
    ``<task>/test/data.json`` in ``get_data_path(path)`` (id ``opencompass/SciReasoner-smol``), JSON lists of
    objects kept as they are; ``train`` the first five of ``dev``, ``test`` the first ``max_cut`` of ``test``
    (all with ``-1``), and with ``mini_set=True`` ``min(150, all)`` of those drawn after ``random.seed(1024)``,
    as OpenCompass draws them.  ``hf_hub`` is accepted and not read, as in OpenCompass."""

    @staticmethod
    def load(path: str, task: str, max_cut: int = -1, mini_set: bool = False, hf_hub: bool = False,
             **kwargs: Any) -> Any:
        root = get_data_path(path)
        train = _json_list(os.path.join(root, task, "dev", "data.json"), "LLM4ChemDataset")[:5]
        test = _json_list(os.path.join(root, task, "test", "data.json"), "LLM4ChemDataset")
        if max_cut != -1:
            test = test[:max_cut]
        if mini_set:
            test = random.Random(MINI_SET_SEED).sample(test, min(len(test), MINI_SET_SIZE))
        return dataset_dict({"train": train, "test": test})


def _mol_instructions(name: str, path: str, task: str, max_cut: int, mini_set: bool) -> Any:
    root = get_data_path(path)
    train = _json_list(os.path.join(root, task, "dev", "data.json"), name)[:5]
    test_file = os.path.join(root, task, "test", "data.json")
    test = _json_list(test_file, name)
    if max_cut != -1:
        test = test[:max_cut]
    if mini_set:
        if len(test) < MINI_SET_SIZE:
            raise InputFileError(f"{name}: mini_set draws {MINI_SET_SIZE} questions and "
                                 f"{test_file} holds {len(test)} (after max_cut)")
        test = random.Random(MINI_SET_SEED).sample(test, MINI_SET_SIZE)
    return dataset_dict({"train": train, "test": test})


@LOAD_DATASET.register_module()
class Mol_Instructions_Dataset(BaseDataset):
    """Mol-Instructions' ``task`` (SciReasoner): ``<task>/dev/data.json`` and ``<task>/test/data.json`` in
    ``get_data_path(path)`` (id ``opencompass/SciReasoner-Mol_Instructions``), read as ``LLM4ChemDataset``
    reads its files, except that ``mini_set=True`` draws exactly 150 test items (fewer fail, as in
    OpenCompass)."""

    @staticmethod
    def load(path: str, task: str, max_cut: int = -1, mini_set: bool = False, hf_hub: bool = False,
             **kwargs: Any) -> Any:
        return _mol_instructions("Mol_Instructions_Dataset", path, task, max_cut, mini_set)


@LOAD_DATASET.register_module()
class Mol_Instructions_Dataset_Protein_Design(BaseDataset):
    """Mol-Instructions' ``protein_design`` (SciReasoner), read exactly as :class:`Mol_Instructions_Dataset`
    reads a task."""

    @staticmethod
    def load(path: str, task: str, max_cut: int = -1, mini_set: bool = False, hf_hub: bool = False,
             **kwargs: Any) -> Any:
        return _mol_instructions("Mol_Instructions_Dataset_Protein_Design", path, task, max_cut, mini_set)


@LOAD_DATASET.register_module()
class PEER_Dataset(BaseDataset):
    """PEER's ``task`` (SciReasoner: ``solubility``, ``stability``, ``human_ppi``, ``yeast_ppi``):
    ``<task>/dev/data.json`` and ``<task>/test/data.json`` in ``get_data_path(path)`` (id
    ``opencompass/SciReasoner-PEER`` → ``./data/SciReasoner/PEER-test``), read exactly as
    :class:`Mol_Instructions_Dataset` reads a task."""

    @staticmethod
    def load(path: str, task: str, max_cut: int = -1, mini_set: bool = False, hf_hub: bool = False,
             **kwargs: Any) -> Any:
        return _mol_instructions("PEER_Dataset", path, task, max_cut, mini_set)

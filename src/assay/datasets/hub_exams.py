"""Multiple-choice exams OpenCompass 0.5.4 reads from the Hugging Face Hub with ``datasets.load_dataset``:
``MMLUCFDataset``, ``MMMLUDataset``, ``MedQADataset``, ``RBenchDataset``, ``BuySideFinBenchDataset``.

assay reads the same dataset from the local folder the config's ``path`` names
(``microsoft/MMLU-CF``, ``openai/MMMLU``, …, relative to the working folder), else
from the dataset's copy in the Hugging Face Hub's cache (``HF_HUB_CACHE``); it never
downloads it.  A local folder declares its configurations and splits as a Hugging Face
dataset does (its ``README.md``'s ``configs``).
"""

from __future__ import annotations

from typing import Any

from assay.datasets._oc_files import dataset, dataset_dict, hub_location, hub_splits
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["BuySideFinBenchDataset", "MMLUCFDataset", "MMMLUDataset", "MedQADataset", "RBenchDataset"]


def _split(loader: str, path: str, splits: Any, split: str) -> Any:
    if split not in splits:
        raise InputFileError(f"{loader}: {path!r} has no split {split!r} (splits: {', '.join(splits)})")
    return splits[split]


def _require(loader: str, where: str, table: Any, columns: tuple[str, ...]) -> None:
    missing = [c for c in columns if c not in table.column_names]
    if missing:
        raise InputFileError(f"{loader}: {where} has no column {', '.join(map(repr, missing))} "
                             f"(columns: {', '.join(table.column_names)})")


class _HubDataset(BaseDataset):
    @staticmethod
    def data_location(path: str, **kwargs: Any) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)


_MC = ("A", "B", "C", "D")


@LOAD_DATASET.register_module()
class MMLUCFDataset(_HubDataset):
    """The splits ``<name>_dev`` and ``<name>_val`` of ``path`` (``microsoft/MMLU-CF``) as ``dev`` and ``test``:
    every column kept, ``input`` (the ``Question``) and ``target`` (the ``Answer``) added after them."""

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        splits = hub_splits("MMLUCFDataset", path)
        out = {}
        for ours, theirs in (("dev", f"{name}_dev"), ("test", f"{name}_val")):
            table = _split("MMLUCFDataset", path, splits, theirs)
            _require("MMLUCFDataset", f"the {theirs!r} split of {path!r}", table, ("Question", *_MC, "Answer"))
            out[ours] = table.map(lambda ex: {"input": ex["Question"], "A": ex["A"], "B": ex["B"], "C": ex["C"], "D": ex["D"],
                                              "target": ex["Answer"]})
        return _dict(out)


def _dict(splits: dict[str, Any]) -> Any:
    import datasets

    return datasets.DatasetDict(splits)


@LOAD_DATASET.register_module()
class MMMLUDataset(_HubDataset):
    """The ``test`` split of the configuration named by ``name``'s second ``_``-part with ``-`` made ``_``
    (``mmlu_AR-XY`` → ``AR_XY``) of ``path`` (``openai/MMMLU``): rows ``input`` (``Question``), ``A``–``D``,
    ``target`` (``Answer``), ``subject`` (``Subject``, ``_`` made spaces)."""

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        parts = name.split("_")
        if len(parts) < 2:
            raise InputFileError(f"MMMLUDataset: name {name!r} has no language part ('mmlu_<LANG>')")
        subset = parts[1].replace("-", "_")
        table = hub_splits("MMMLUDataset", path, split="test", name=subset)
        _require("MMMLUDataset", f"the 'test' split of {path!r} ({subset})", table, ("Question", *_MC, "Answer", "Subject"))
        rows = [{"input": r["Question"], "A": r["A"], "B": r["B"], "C": r["C"], "D": r["D"], "target": r["Answer"],
                 "subject": r["Subject"].replace("_", " ")} for r in table]
        return dataset_dict({"test": rows})


@LOAD_DATASET.register_module()
class MedQADataset(_HubDataset):
    """The ``train`` split of ``path`` (``xuxuxuxuxu/MedQA_US_test`` and the other two regions), every column
    kept, with ``label`` (the ``answer_idx``) and ``choices`` (``'<letter>. <text>\\n'`` per entry of
    ``options``, in its order) added."""

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        table = _split("MedQADataset", path, hub_splits("MedQADataset", path), "train")
        _require("MedQADataset", f"the 'train' split of {path!r}", table, ("answer_idx", "options"))
        rows = []
        for row in table:
            row["label"] = row["answer_idx"]
            row["choices"] = "".join(f"{letter}. {text}\n" for letter, text in row["options"].items())
            rows.append(row)
        return dataset(rows)


@LOAD_DATASET.register_module()
class RBenchDataset(_HubDataset):
    """The ``test`` split of the configuration ``rbench-t_<subset>`` (``subset``: ``'en'`` or ``'zh'``) of
    ``path`` (``R-Bench/R-Bench``): rows ``RBench_Question_Input``, ``RBench_Option_A``–``F``, ``target``."""

    @staticmethod
    def load(path: str, subset: str = "en", **kwargs: Any) -> Any:
        config = f"rbench-t_{subset}"
        table = _split("RBenchDataset", path, hub_splits("RBenchDataset", path, name=config), "test")
        _require("RBenchDataset", f"the 'test' split of {path!r} ({config})", table, ("question", *"ABCDEF", "answer"))
        rows = [{"RBench_Question_Input": r["question"], **{f"RBench_Option_{k}": r[k] for k in "ABCDEF"}, "target": r["answer"]}
                for r in table]
        return dataset(rows)


@LOAD_DATASET.register_module()
class BuySideFinBenchDataset(_HubDataset):
    """The splits ``dev`` and ``test`` of the configuration ``name`` of ``path`` (``cindy90/BuySideFinBench``;
    an empty ``path`` stands for it, as in OpenCompass), as they are."""

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        repo = path or "cindy90/BuySideFinBench"
        splits = hub_splits("BuySideFinBenchDataset", repo, name=name)
        return _dict({split: _split("BuySideFinBenchDataset", f"{repo}/{name}", splits, split) for split in ("dev", "test")})

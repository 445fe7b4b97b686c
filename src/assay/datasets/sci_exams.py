"""OpenSWI, ProteinLMBench and SciKnowEval, as OpenCompass 0.5.4 reads them.

* ``OpenSWIDataset``: every ``*.jsonl`` file of ``<data path of path>/<name>/``
  (``opencompass/openswi`` → ``./data/OpenSWI-1k-v1/``), in the order ``os.listdir``
  gives them, as OpenCompass reads them (so the order is the file system's);
  per line ``id`` (``id_ddm``), ``prompt`` (the first dialog turn's
  ``content``), ``ground_truth`` (a list of numbers) and ``subset`` (the file's
  name up to its first dot).
* ``ProteinLMBenchDataset``: the ``train`` split of the configuration
  ``evaluation`` of the dataset ``tsynbio/ProteinLMBench``, read with
  ``datasets.load_dataset`` from a local folder of that path (or the Hugging
  Face Hub's cache, never downloaded).
* ``SciKnowEvalDataset``: ``data/<Subset>/sciknoweval_<subset>_test.jsonl`` of
  the dataset folder ``hicai-zju/SciKnowEval`` (local, or the Hub's cache).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset, field, hub_location, jsonl_rows
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation, get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["OpenSWIDataset", "ProteinLMBenchDataset", "SciKnowEvalDataset"]


@LOAD_DATASET.register_module()
class OpenSWIDataset(BaseDataset):
    """OpenSWI's dispersion curves of the subset folder ``name`` (``shallow``, ``deep``)."""

    @staticmethod
    def load(path: str, name: str, **kwargs: Any) -> Any:
        folder = os.path.join(get_data_path(path), name)
        if not os.path.isdir(folder):
            raise InputFileError(f"OpenSWIDataset: no such folder: {folder}")
        rows = []
        for file in os.listdir(folder):
            if not file.endswith(".jsonl"):
                continue
            where_file = os.path.join(folder, file)
            for index, entry in enumerate(jsonl_rows(where_file, "OpenSWIDataset")):
                where = f"{where_file}, line {index + 1}"
                dialogs = field(entry, "dialogs", "OpenSWIDataset", where)
                if not isinstance(dialogs, list) or not dialogs:
                    raise InputFileError(f"OpenSWIDataset: {where}: 'dialogs' must hold the question, got {str(dialogs)[:80]!r}")
                rows.append({
                    "id": field(entry, "id_ddm", "OpenSWIDataset", where),
                    "prompt": field(dialogs[0], "content", "OpenSWIDataset", f"{where}, dialog 1"),
                    "ground_truth": field(entry, "ground_truth", "OpenSWIDataset", where),
                    "subset": file.split(".")[0],
                })
        return dataset(rows)


def _hub_folder(loader: str, path: str) -> Path:
    where = hub_location(path)
    if not where.exists:
        raise InputFileError(
            f"{loader}: {path!r} is neither a local folder nor a dataset in the Hugging Face Hub's cache "
            f"(looked for {', '.join(where.looked_at)}); assay does not download it: put the dataset's files in "
            f"the folder {Path(path).expanduser().absolute()} or fetch it once (huggingface-cli download {path} --repo-type dataset)"
        )
    return Path(where.path)


def _load(loader: str, folder: Path, **options: Any) -> Any:
    import datasets

    try:
        with tempfile.TemporaryDirectory(prefix="assay-hub-") as cache:
            return datasets.load_dataset(str(folder), cache_dir=cache, keep_in_memory=True, **options)
    except Exception as exc:  # the datasets library's own errors name the file
        raise InputFileError(f"{loader}: {folder} cannot be read as a dataset: {exc}") from None


def _protein_row(row: dict[str, Any], where: str) -> dict[str, Any]:
    options = row.get("options")
    answer = row.get("answer")
    if not isinstance(options, list) or not isinstance(answer, str):
        raise InputFileError(f"ProteinLMBenchDataset: {where} needs 'options' (a list) and 'answer' (text), "
                             f"got {str(options)[:60]!r} and {answer!r}")
    texts = [str(option).split(": ")[-1] for option in options]
    try:
        number = int(answer.split(" ")[-1])
    except ValueError:
        raise InputFileError(f"ProteinLMBenchDataset: {where}: 'answer' {answer!r} does not end in the option's number") from None
    choices = "".join(f"{chr(65 + i)}. {text}\n" for i, text in enumerate(texts))
    return {
        **row,
        "start": "A",
        "end": chr(65 + len(options) - 1),
        "question": f"\nQuestion: {row.get('question')}\nAnswer Choices: \n{choices}",
        "options": texts,
        "label": chr(65 + number - 1),
    }


@LOAD_DATASET.register_module()
class ProteinLMBenchDataset(BaseDataset):
    """ProteinLMBench's questions: ``options`` (``'option 1: text'``) cut to the text after their last
    ``': '``, ``question`` with the lettered options after it, ``start`` ``'A'``, ``end`` the last
    letter, ``label`` the letter of ``answer``'s last word (``'option 2'`` → ``'B'``), other columns kept."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        table = _load("ProteinLMBenchDataset", _hub_folder("ProteinLMBenchDataset", path), name="evaluation", split="train")
        rows = [_protein_row(dict(r), f"{path}, row {i}") for i, r in enumerate(table)]
        return dataset(rows)


def _sciknoweval_row(row: dict[str, Any], discipline: str, prompt_mode: str, where: str) -> dict[str, Any]:
    choices = row.get("choices")
    prompt = row.get("prompt")
    if not isinstance(choices, dict) or not isinstance(prompt, dict) or "default" not in prompt:
        raise InputFileError(f"SciKnowEvalDataset: {where} needs 'choices' ({{'label': [...], 'text': [...]}}) and "
                             f"'prompt' ({{'default': ...}}), got {str(choices)[:60]!r} and {str(prompt)[:60]!r}")
    lines = [f"{label}. {text}" for label, text in zip(choices.get("label") or [], choices.get("text") or [])]
    q4 = f"You are an expert in {discipline}.\n{prompt['default']}\n{row.get('question')}\n" + "\n".join(lines)
    return {**row, "q4": q4, "prompt_mode": prompt_mode}


@LOAD_DATASET.register_module()
class SciKnowEvalDataset(BaseDataset):
    """SciKnowEval's test questions of ``subset`` (``biology``, ``chemistry``, ``material``, ``physics``).

    With ``prompt_mode='zero-shot'`` (every library config) each row gains
    ``q4``: ``'You are an expert in <subset>.'``, the row's ``prompt['default']``,
    its ``question`` and its choices as ``'<label>. <text>'`` lines, and
    ``prompt_mode``; another mode leaves the rows as they are (OpenCompass
    implements no other), and its evaluator then fails naming the missing column.
    """

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, prompt_mode: str, **kwargs: Any) -> Any:
        subset = kwargs.get("subset")
        if not isinstance(subset, str):
            raise InputFileError(f"SciKnowEvalDataset: the config's 'subset' must name a discipline, got {subset!r}")
        folder = _hub_folder("SciKnowEvalDataset", path)
        test_file = f"data/{subset[:1].upper() + subset[1:]}/sciknoweval_{subset}_test.jsonl"
        if not (folder / test_file).is_file():
            raise InputFileError(f"SciKnowEvalDataset: no such file: {folder / test_file}")
        table = _load("SciKnowEvalDataset", folder, data_files={"test": test_file}, split="test")
        if prompt_mode != "zero-shot":
            return table
        return dataset([_sciknoweval_row(dict(r), subset, prompt_mode, f"{test_file}, line {i + 1}") for i, r in enumerate(table)])

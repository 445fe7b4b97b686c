"""Loaders of rubric- and verdict-judged families, as OpenCompass 0.5.4 reads them.

Their library configs grade replies with an LLM judge (``GenericLLMEvaluator``);
the judge-reply readers (dict postprocessors) are in
:mod:`assay.evaluators.rubric_judged`.  OpenCompass hands each ``path`` (a
Hugging Face dataset id) to ``datasets.load_dataset`` or ``hf_hub_download``;
assay reads the same local folder (relative to the working folder), else the
dataset's copy in the Hugging Face Hub's cache (``HF_HUB_CACHE``), and never
downloads it.

* ``CLBenchDataset`` (``tencent/CL-bench``, ``tencent/CL-bench-Life``): the
  ``split`` as it is, each row given ``rubrics_text`` (the rubrics numbered
  ``1. …`` one per line — a rubric object's ``rubric_criteria``, a string as it
  is, each stripped, the empty ones left out but counted; ``No specific rubrics
  provided.`` without any), ``task_id`` and ``context_category`` (the row's own,
  else its ``metadata``'s);
* ``AALCRDataset`` (``ArtificialAnalysis/AA-LCR``): ``AA-LCR_Dataset.csv`` and
  the documents in ``extracted_text/AA-LCR_extracted-text.zip``
  (``lcr/<category>/<set id>/<file>``; a name stored in the archive's old code
  page, or in another Unicode normal form, is found too), in the folder or
  beside a CSV file given as ``path``; row: ``id`` (the CSV's unnamed first
  column, else the row's number), ``question_id``, ``document_category``,
  ``document_set_id``, ``question``, ``answer`` (the ``;``-separated answers),
  ``data_source_filenames``, ``data_source_urls``, ``input_tokens`` and
  ``prompt`` (the documents, each between ``BEGIN DOCUMENT i:`` and ``END
  DOCUMENT i``, then the question); the same rows as ``test`` and ``train``;
* ``AdvancedIFDataset`` (``facebook/AdvancedIF``): the ``train`` split's rows of
  benchmark ``name`` (all without one); row: ``conversation_history`` (the JSON
  of the column), ``full_conversation_text`` (the conversation without the last
  user turn, ``<role> [<turn>]: <content>`` per line, the turn counted by the
  assistant's replies), ``last_user_question``, ``system_prompt`` (the first
  message's when it is a system message), ``rubrics_text`` (``rubrics`` of the
  ``prompt_metadata`` JSON; ``''`` when it is not JSON) and ``benchmark_name``;
* ``InverseIFEvalDataset`` (``m-a-p/Inverse_IFEval``): the ``split``'s rows of
  one ``language`` and ``instruction_type`` (a name or a list; all when not
  given), at most ``max_samples``; row: ``instruction_types``, ``prompt``,
  ``response_reference``, ``language``, ``judge_prompt_template``,
  ``judge_system_prompt``.  (OpenCompass 0.5.4 cannot run the library's config
  as it is: its ``GenericLLMEvaluator`` requires a ``judge_cfg`` the config
  lacks.)
"""

from __future__ import annotations

import contextlib
import csv
import json
import posixpath
import unicodedata
import zipfile
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset, dataset_dict, hub_location, hub_splits, pick_split
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["AALCRDataset", "AdvancedIFDataset", "CLBenchDataset", "InverseIFEvalDataset", "clbench_rubrics_text"]


def clbench_rubrics_text(rubrics: Any) -> str:
    """CL-bench's rubrics as the judge reads them: numbered, one per line.

    >>> clbench_rubrics_text([{'rubric_criteria': ' Be brief. '}, '', 'Cite the rule.'])
    '1. Be brief.\\n3. Cite the rule.'
    >>> clbench_rubrics_text([])
    'No specific rubrics provided.'
    """
    lines = []
    for i, rubric in enumerate(rubrics or [], 1):
        text = str(rubric.get("rubric_criteria", "") if isinstance(rubric, dict) else rubric).strip()
        if text:
            lines.append(f"{i}. {text}")
    return "\n".join(lines) if lines else "No specific rubrics provided."


@LOAD_DATASET.register_module()
class CLBenchDataset(BaseDataset):
    """CL-bench's ``split``, each row given ``rubrics_text``, ``task_id`` and ``context_category``."""

    @staticmethod
    def data_location(path: str = "tencent/CL-bench", **kwargs: Any) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str = "tencent/CL-bench", split: str = "train", **kwargs: Any) -> Any:
        options = {k: v for k, v in kwargs.items() if k not in ("infer_cfg", "eval_cfg")}
        table = hub_splits("CLBenchDataset", path, split=split, name=options.get("name"), data_files=options.get("data_files"))

        def enrich(row: dict[str, Any]) -> dict[str, Any]:
            metadata = row.get("metadata") or {}
            return {"rubrics_text": clbench_rubrics_text(row.get("rubrics")),
                    "task_id": row.get("task_id") or metadata.get("task_id"),
                    "context_category": row.get("context_category") or metadata.get("context_category")}

        return table.map(enrich)


# -- AA-LCR ---------------------------------------------------------------------------------------

_AA_LCR_PROMPT = ("BEGIN INPUT DOCUMENTS\n\n{documents}\n\nEND INPUT DOCUMENTS\n\nAnswer the following question using the "
                  "input documents provided above.\n\nSTART QUESTION\n\n{question}\n\nEND QUESTION\n")


def _semicolon_list(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(";") if part.strip()]


def _beside(folder: Path, name: str) -> Path | None:
    for candidate in (folder / name, folder / Path(name).name):
        if candidate.is_file():
            return candidate
    return None


def _aa_lcr_files(path: str, csv_name: str, zip_name: str) -> tuple[Path, Path]:
    loader = "AALCRDataset"
    given = Path(path).expanduser()
    folders: list[tuple[Path, Path | None]] = []
    if given.is_dir():
        folders.append((given, None))
    elif given.is_file():
        folders.append((given.parent, given))
    else:
        where = hub_location(path)
        if where.exists:
            folders.append((Path(where.path), None))
    for folder, csv_file in folders:
        table = csv_file or _beside(folder, csv_name)
        archive = _beside(folder, zip_name)
        if table is not None and archive is not None:
            return table, archive
    raise InputFileError(
        f"{loader}: {path!r} holds no {csv_name} and {zip_name} (looked in {given.absolute()} and the Hugging Face Hub's "
        f"cache); assay does not download them: put both files in the folder {given.absolute()} or fetch the dataset once "
        f"(huggingface-cli download {path} --repo-type dataset)")


def _zip_name(name: str) -> str:
    """An archive member's name as written: names stored in the old code page (cp437) decoded as UTF-8, in NFC."""
    with contextlib.suppress(UnicodeEncodeError, UnicodeDecodeError):
        name = name.encode("cp437").decode("utf-8")
    return unicodedata.normalize("NFC", name)


def _document(archive: zipfile.ZipFile, category: str, set_id: str, filename: str, where: str) -> str:
    wanted = posixpath.join("lcr", category, set_id, filename)
    names = archive.namelist()
    member = wanted if wanted in names else {_zip_name(n): n for n in names}.get(_zip_name(wanted))
    if member is None:
        raise InputFileError(f"AALCRDataset: {where}: the archive {archive.filename} has no document {wanted!r}")
    with archive.open(member) as handle:
        return handle.read().decode("utf-8")


def _csv_field(row: dict[str, Any], key: str, where: str) -> str:
    if row.get(key) is None:
        raise InputFileError(f"AALCRDataset: {where} has no {key!r} column (columns: {', '.join(k for k in row if k) or 'none'})")
    return str(row[key])


def _csv_int(row: dict[str, Any], key: str, where: str) -> int:
    value = _csv_field(row, key, where)
    try:
        return int(value)
    except ValueError:
        raise InputFileError(f"AALCRDataset: {where}: {key} {value!r} is not an integer") from None


@LOAD_DATASET.register_module()
class AALCRDataset(BaseDataset):
    """AA-LCR's questions, each with its documents in the prompt; the same rows as ``test`` and ``train``."""

    @staticmethod
    def data_location(path: str = "ArtificialAnalysis/AA-LCR", **kwargs: Any) -> DataLocation:
        """The local folder (or CSV file) ``path``, else the dataset in the Hugging Face Hub's cache."""
        given = Path(path).expanduser()
        if given.exists():
            return DataLocation(path, given.absolute(), True, (str(given.absolute()),))
        return hub_location(path)

    @staticmethod
    def load(path: str = "ArtificialAnalysis/AA-LCR", csv_filename: str = "AA-LCR_Dataset.csv",
             zip_filename: str = "extracted_text/AA-LCR_extracted-text.zip") -> Any:
        table, archive_path = _aa_lcr_files(path, csv_filename, zip_filename)
        rows = []
        try:
            with open(table, encoding="utf-8", newline="") as handle, zipfile.ZipFile(archive_path) as archive:
                for i, line in enumerate(csv.DictReader(handle)):
                    where = f"{table}, row {i + 1}"
                    category = _csv_field(line, "document_category", where)
                    set_id = _csv_field(line, "document_set_id", where)
                    files = _semicolon_list(_csv_field(line, "data_source_filenames", where))
                    documents = [_document(archive, category, set_id, name, where) for name in files]
                    question = _csv_field(line, "question", where)
                    text = "\n\n".join(f"BEGIN DOCUMENT {k}:\n{doc}\nEND DOCUMENT {k}" for k, doc in enumerate(documents, 1))
                    rows.append({
                        "id": _csv_int(line, "", where) if "" in line else i,
                        "question_id": _csv_int(line, "question_id", where),
                        "document_category": category,
                        "document_set_id": set_id,
                        "question": question,
                        "answer": _semicolon_list(_csv_field(line, "answer", where)),
                        "data_source_filenames": files,
                        "data_source_urls": _semicolon_list(line.get("data_source_urls") or ""),
                        "input_tokens": _csv_int(line, "input_tokens", where),
                        "prompt": _AA_LCR_PROMPT.format(documents=text, question=question),
                    })
        except zipfile.BadZipFile as exc:
            raise InputFileError(f"AALCRDataset: {archive_path} is not a zip archive: {exc}") from None
        except UnicodeDecodeError as exc:
            raise InputFileError(f"AALCRDataset: {table} or a document of {archive_path} is not UTF-8: {exc}") from None
        return dataset_dict({"test": rows, "train": rows})


# -- AdvancedIF -----------------------------------------------------------------------------------

def _advancedif_row(item: dict[str, Any], where: str) -> dict[str, Any]:
    raw = item.get("conversation_history")
    try:
        history = json.loads(raw) if isinstance(raw, str) else None
    except json.JSONDecodeError as exc:
        raise InputFileError(f"AdvancedIFDataset: {where}: conversation_history is not JSON: {exc}") from None
    if not isinstance(history, list) or not all(isinstance(m, dict) for m in history):
        raise InputFileError(f"AdvancedIFDataset: {where}: conversation_history must be a JSON list of messages, got {raw!r:.80}")
    last_question, last_at = "", -1
    for i in range(len(history) - 1, -1, -1):
        if history[i].get("role") == "user":
            last_question, last_at = history[i].get("content", ""), i
            break
    shown = history[:last_at] + history[last_at + 1:] if last_at >= 0 else history
    system = history[0].get("content", "") if history and history[0].get("role") == "system" else ""
    lines, turn = [], 1
    for message in shown:
        role = message.get("role", "")
        lines.append(f"{role} [{turn}]: {message.get('content', '')}")
        if role == "assistant":
            turn += 1
    metadata = item.get("prompt_metadata", "")
    rubrics: Any = ""
    if isinstance(metadata, str) and metadata:
        try:
            parsed = json.loads(metadata)
            rubrics = parsed.get("rubrics", "")
        except (json.JSONDecodeError, TypeError):
            pass
        except AttributeError:  # JSON that is not an object: OpenCompass 0.5.4 stops here
            raise InputFileError(f"AdvancedIFDataset: {where}: prompt_metadata is JSON but not an object: {metadata!r:.80}") from None
    elif isinstance(metadata, dict):
        rubrics = metadata.get("rubrics", "")
    return {"conversation_history": history, "full_conversation_text": "\n".join(lines), "last_user_question": last_question,
            "system_prompt": system, "rubrics_text": rubrics, "benchmark_name": item.get("benchmark_name", "")}


@LOAD_DATASET.register_module()
class AdvancedIFDataset(BaseDataset):
    """AdvancedIF's ``train`` rows of one benchmark (``name``; all without one), prepared for the rubric judge."""

    @staticmethod
    def data_location(path: str = "facebook/AdvancedIF", **kwargs: Any) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, name: str | None = None, **kwargs: Any) -> Any:
        table = pick_split(hub_splits("AdvancedIFDataset", path), "train", "AdvancedIFDataset", repr(path))
        rows = []
        for i, item in enumerate(table):
            benchmark = item.get("benchmark_name", "")
            if name is not None and benchmark != name:
                continue
            rows.append(_advancedif_row(item, f"{path!r}, train row {i}"))
        return dataset(rows)


# -- Inverse IFEval -------------------------------------------------------------------------------

_INVERSE_IFEVAL_COLUMNS = ("instruction_types", "prompt", "response_reference", "language", "judge_prompt_template",
                           "judge_system_prompt")


@LOAD_DATASET.register_module()
class InverseIFEvalDataset(BaseDataset):
    """Inverse IFEval's ``split``, filtered by ``language`` and ``instruction_type``, at most ``max_samples`` rows."""

    @staticmethod
    def data_location(path: str = "m-a-p/Inverse_IFEval", **kwargs: Any) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, name: str | None = None, split: str = "train", language: str | None = None,
             instruction_type: str | list[str] | None = None, max_samples: int | None = None, **kwargs: Any) -> Any:
        table = hub_splits("InverseIFEvalDataset", path, split=split, name=name, data_files=kwargs.get("data_files"))
        kinds = {instruction_type} if isinstance(instruction_type, str) else None if instruction_type is None else set(instruction_type)
        rows: list[dict[str, Any]] = []
        for item in table:
            if language is not None and item.get("language") != language:
                continue
            if kinds is not None and item.get("instruction_types") not in kinds:
                continue
            rows.append({key: item.get(key, "") for key in _INVERSE_IFEVAL_COLUMNS})
            if max_samples is not None and len(rows) >= max_samples:
                break
        return dataset(rows)

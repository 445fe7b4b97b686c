"""CIBench as OpenCompass 0.5.4 reads it (``CIBenchDataset``).

A CIBench module is a folder of Jupyter notebooks (``cibench_template/pandas``,
``cibench_generation/matplotlib``, …), each notebook one experiment: markdown
cells ask, code cells answer, and the outputs the notebook keeps are the
references.  ``path`` is taken as OpenCompass takes it, relative to the working
folder and nowhere else; every file under it (sub-folders included, folders and
files in name order) whose name contains ``.ipynb`` is read, so
``draft.ipynb.json`` is read too, as OpenCompass reads it.

Per notebook, one row:

* ``questions``: the conversation, a user turn per markdown cell and an
  assistant turn per code cell (``thought**split**code``), paired in order
  (the shorter list decides how many pairs).  A markdown cell
  ``text\\n\\nThought: thought`` gives ``text`` and ``thought``; a cell with no
  such separator, or more than one, keeps its whole text and the thought
  ``' '``.  Where the notebook's metadata annotates ``modules`` (one entry per
  step, alternatives joined by ``&``), the step's modules are appended to its
  text, ``Please use a and b modules.`` — or ``请用 a 和 b 模块.`` when the
  file's path contains ``chinese`` anywhere (OpenCompass tests the whole path).
* ``references``: per code cell, its output and tag — the image (base64 PNG)
  of a ``display_data`` output (``vis``); else the last ``stdout`` stream or
  ``execute_result`` text (``general``); else ``None`` (``exec``) — with the
  notebook's ``metadata`` and the file's path (``experiment``, also a column).

The rows become one table, so a metadata key one notebook has is ``None`` in
the others' (as ``datasets.Dataset.from_list`` makes them).  ``internet_check``
(OpenCompass downloads NLTK's stopwords to test the network) is accepted and
ignored: assay never goes to the network.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from assay.datasets._oc import rows_table
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["CIBenchDataset", "read_experiment"]

_LOADER = "CIBenchDataset"
_THOUGHT = "\n\nThought: "


def _text(value: Any) -> str:
    """A notebook's multi-line string: a list of lines or one string."""
    return "".join(value)


def _question(cell: dict[str, Any], modules: list[list[str]], chinese: bool) -> tuple[str, str]:
    text = _text(cell["source"]).strip()
    parts = text.split(_THOUGHT)
    thought = " "
    if len(parts) == 2:
        text, thought = parts
    if modules:
        names = modules.pop(0)
        text += f"请用 {' 和 '.join(names)} 模块." if chinese else f"Please use {' and '.join(names)} modules."
    return text.strip() + "\n", thought


def _output(cell: dict[str, Any], where: str) -> tuple[str, str | None]:
    """The tag and the reference output of one code cell."""
    outputs = cell["outputs"] or []
    image = None
    for out in outputs:
        if out.get("output_type") == "display_data":
            if image is not None:
                raise InputFileError(f"{_LOADER}: {where}: a display_data output follows the cell's image; "
                                     "OpenCompass's loader allows no output of that kind after an image")
            if "image/png" in out.get("data", {}):
                image = out["data"]["image/png"]
    if image is not None:
        return "vis", image
    for out in reversed(outputs):
        kind = out.get("output_type")
        if kind == "stream" and out.get("name") == "stdout":
            return "general", _text(out.get("text", ""))
        if kind == "execute_result":
            data = out.get("data", {})
            if "text/plain" not in data:
                raise InputFileError(f"{_LOADER}: {where}: an execute_result output without 'text/plain' "
                                     f"(it has {', '.join(map(repr, data)) or 'no data'})")
            return "general", _text(data["text/plain"])
    return "exec", None


def read_experiment(file: str) -> dict[str, Any]:
    """One notebook as a row of CIBench's test set (``experiment``, ``questions``, ``references``)."""
    try:
        notebook = json.loads(Path(file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputFileError(f"{_LOADER}: {file} is not a readable notebook: {exc}") from exc
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list) or not isinstance(notebook.get("metadata"), dict):
        raise InputFileError(f"{_LOADER}: {file} is not a notebook: it needs a list 'cells' and a dict 'metadata'")
    metadata: dict[str, Any] = notebook["metadata"]
    annotated = metadata.get("modules") or []
    modules: list[list[str]] = []
    if annotated:
        step_types = metadata.get("step_types")
        if not isinstance(step_types, list) or len(step_types) != len(annotated):
            raise InputFileError(f"{_LOADER}: {file}: metadata 'modules' has {len(annotated)} entries and 'step_types' "
                                 f"{len(step_types) if isinstance(step_types, list) else repr(step_types)}; they must match")
        modules = [[m.strip() for m in str(entry).split("&")] for entry in annotated]
    chinese = "chinese" in file
    questions: list[str] = []
    thoughts: list[str] = []
    codes: list[str] = []
    outputs: list[str | None] = []
    tags: list[str] = []
    for number, cell in enumerate(notebook["cells"]):
        kind = cell.get("cell_type") if isinstance(cell, dict) else None
        needs = {"markdown": ("source",), "code": ("source", "outputs")}.get(str(kind), ())
        lacking = [key for key in needs if key not in cell]
        if lacking:
            raise InputFileError(f"{_LOADER}: {file}, cell {number}: a {kind} cell without {' or '.join(map(repr, lacking))}")
        if kind == "markdown":
            question, thought = _question(cell, modules, chinese)
            questions.append(question)
            thoughts.append(thought)
        elif kind == "code":
            codes.append(_text(cell["source"]))
            tag, output = _output(cell, f"{file}, cell {number}")
            tags.append(tag)
            outputs.append(output)
    conversation: list[dict[str, str]] = []
    for question, code, thought in zip(questions, codes, thoughts):
        conversation += [dict(role="user", content=question), dict(role="assistant", content=thought + "**split**" + code)]
    return dict(experiment=file, questions=conversation,
                references=dict(outputs=outputs, tags=tags, metadata=metadata, experiment=file))


@LOAD_DATASET.register_module()
class CIBenchDataset(BaseDataset):
    """Every notebook under the folder ``path`` (relative to the working folder), one row each."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The folder ``path`` as OpenCompass reads it: relative to the working folder, looked for nowhere else."""
        return DataLocation(path, Path(path), os.path.exists(path), (path,))

    @staticmethod
    def load(path: str, internet_check: bool = False, **kwargs: Any) -> Any:
        if not os.path.exists(path):
            raise InputFileError(f"{_LOADER}: no such folder: {path} (relative to the working folder {os.getcwd()})")
        rows = []
        for folder, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                if ".ipynb" in name:
                    rows.append(read_experiment(os.path.join(folder, name)))
        return rows_table(rows, path)

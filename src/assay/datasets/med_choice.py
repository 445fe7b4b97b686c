"""The medical multiple-choice loaders as OpenCompass 0.5.4 reads them: MedMCQA, MedXpertQA, Medbullets, NEJM AI.

Each row gets what the families' evaluators
(:mod:`assay.evaluators.med_choice`) read: ``options`` (the options, or
MedXpertQA's dict of them), ``label`` (the answer letter), ``prompt_mode``,
``start`` (``'A'``) and ``end`` (the last option's letter); MedMCQA,
Medbullets and NEJM AI also append the lettered options to ``question``.

* ``MedmcqaDataset``: the ``validation`` split of the Hugging Face dataset
  ``path`` (``openlifescienceai/medmcqa``: ``opa``..``opd``, ``cop`` the
  0-based answer; ``subject_name``'s underscores become spaces);
* ``MedXpertQADataset``: the ``test`` split of the ``Text`` configuration of
  ``path`` (``TsinghuaC3I/MedXpertQA``: ``options`` a dict of letters, ``label``);
  as in OpenCompass, ``options`` holds every letter any row has (``None`` where
  a row has none) and ``end`` counts them all;
* ``MedbulletsDataset``: a CSV file (id ``opencompass/medbullets`` →
  ``./data/medbullets/medbullets.csv``: ``opa``..``ope``, ``answer_idx``); an
  empty ``ope`` leaves four options;
* ``NejmaibenchDataset``: a CSV file (id ``opencompass/nejmaibench`` →
  ``./data/nejmaibench/NEJM_All_Questions_And_Answers.csv``: ``Question``,
  ``Choices`` one ``X. option`` per line, ``Answer``).

The CSV files are read with pandas, as OpenCompass reads them (a column of
numbers stays numbers; an empty cell becomes ``''``).  The Hugging Face
datasets are read from a local folder ``path`` (relative to the working
folder) or the Hub's cache, never downloaded.  ``prompt_mode`` must be
``'zero-shot'``: OpenCompass 0.5.4 leaves the rows unprepared otherwise, and its
evaluators then fail.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from assay.datasets._oc_files import dataset, hub_location, hub_splits, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation, get_data_path
from assay.errors import ConfigError, InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["MedXpertQADataset", "MedbulletsDataset", "MedmcqaDataset", "NejmaibenchDataset", "lettered_options"]

_CHOICE_PREFIX = re.compile(r"^[A-Z]\.\s*")


def lettered_options(options: list[Any]) -> str:
    """The options as the loaders append them to a question: ``'A. first\\nB. second'``.

    >>> lettered_options(['aspirin', 'heparin'])
    'A. aspirin\\nB. heparin'
    """
    return "\n".join(f"{chr(65 + i)}. {opt}" for i, opt in enumerate(options))


def _zero_shot(loader: str, prompt_mode: str) -> None:
    if prompt_mode != "zero-shot":
        raise ConfigError(f"{loader}: prompt_mode={prompt_mode!r} is not supported; OpenCompass 0.5.4 prepares the rows "
                          "only for 'zero-shot' (its evaluator fails on others)")


def _require(loader: str, where: str, row: dict[str, Any], keys: tuple[str, ...]) -> None:
    missing = [k for k in keys if k not in row]
    if missing:
        raise InputFileError(f"{loader}: {where} has no column {', '.join(map(repr, missing))} "
                             f"(columns: {', '.join(map(str, row)) or 'none'})")


def _marks(item: dict[str, Any], count: int, prompt_mode: str) -> None:
    item["prompt_mode"] = prompt_mode
    item["start"] = "A"
    item["end"] = chr(65 + count - 1)


def _csv_rows(loader: str, path: str) -> tuple[str, list[dict[str, Any]]]:
    """The records of the CSV file ``path`` resolves to, as pandas reads them with empty cells as ``''``."""
    import pandas as pd

    file = require_file(get_data_path(path), loader)
    try:
        frame = pd.read_csv(file, encoding="utf-8")
    except (ValueError, UnicodeDecodeError, pd.errors.ParserError) as exc:
        raise InputFileError(f"{loader}: {file} cannot be read as CSV: {exc}") from None
    return str(file), frame.fillna("").to_dict(orient="records")


def _mapped(loader: str, where: str, rows: list[dict[str, Any]], parse: Callable[[dict[str, Any]], None]) -> Any:
    out = []
    for i, row in enumerate(rows):
        item = dict(row)
        try:
            parse(item)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputFileError(f"{loader}: row {i} of {where} cannot be read: {type(exc).__name__}: {exc}") from None
        out.append(item)
    try:
        return dataset(out)
    except Exception as exc:  # pyarrow refuses a column of mixed types, as it does in OpenCompass
        raise InputFileError(f"{loader}: the rows of {where} do not make a table: {exc}") from None


@LOAD_DATASET.register_module()
class MedmcqaDataset(BaseDataset):
    """MedMCQA's ``validation`` split, each row with its four options, the answer letter ``chr(65 + cop)``
    and the options appended to ``question``."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path``, else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, prompt_mode: str = "zero-shot", **kwargs: Any) -> Any:
        loader = "MedmcqaDataset"
        _zero_shot(loader, prompt_mode)
        table = hub_splits(loader, path, split="validation")
        rows = table.to_list()
        if rows:
            _require(loader, f"the 'validation' split of {path!r}", rows[0],
                     ("question", "opa", "opb", "opc", "opd", "cop", "subject_name"))

        def parse(item: dict[str, Any]) -> None:
            options = [item["opa"], item["opb"], item["opc"], item["opd"]]
            item["options"] = options
            item["question"] = f"{item['question']}\n{lettered_options(options)}"
            item["label"] = chr(65 + item["cop"])
            item["subject_name"] = item["subject_name"].replace("_", " ")
            _marks(item, len(options), prompt_mode)

        return _mapped(loader, f"the 'validation' split of {path!r}", rows, parse)


@LOAD_DATASET.register_module()
class MedXpertQADataset(BaseDataset):
    """MedXpertQA's text questions (configuration ``Text``, split ``test``) as they are, plus
    ``prompt_mode``, ``start`` and ``end`` (the letter of the last of ``options``' keys)."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """The local folder ``path``, else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, prompt_mode: str, **kwargs: Any) -> Any:
        loader = "MedXpertQADataset"
        _zero_shot(loader, prompt_mode)
        table = hub_splits(loader, path, split="test", name="Text")
        rows = table.to_list()
        # OpenCompass's datasets read options as a struct of every letter any row has (a row lacking
        # one holds None there, and counts it); newer datasets versions keep each row's own keys
        fields: list[str] | None = None
        if rows and all(isinstance(r.get("options"), dict) for r in rows):
            fields = list(dict.fromkeys(k for r in rows for k in r["options"]))

        def parse(item: dict[str, Any]) -> None:
            options = item.get("options", [])
            if fields is not None and isinstance(options, dict):
                options = {k: options.get(k) for k in fields}
                item["options"] = options
            _marks(item, len(options), prompt_mode)

        return _mapped(loader, f"the 'test' split of {path!r}", rows, parse)


@LOAD_DATASET.register_module()
class MedbulletsDataset(BaseDataset):
    """Medbullets' CSV file, each row with ``options`` (``opa``..``opd``, and ``ope`` unless it is
    empty), ``label`` (``answer_idx``) and the options appended to ``question``."""

    @staticmethod
    def load(path: str, prompt_mode: str = "zero-shot", **kwargs: Any) -> Any:
        loader = "MedbulletsDataset"
        _zero_shot(loader, prompt_mode)
        file, rows = _csv_rows(loader, path)

        def parse(item: dict[str, Any]) -> None:
            keys = ["opa", "opb", "opc", "opd"] + (["ope"] if item.get("ope", "") != "" else [])
            options = [item.get(k, "") for k in keys]
            item["options"] = options
            item["question"] = f"{item.get('question', '')}\n{lettered_options(options)}"
            item["label"] = item.get("answer_idx")
            _marks(item, len(options), prompt_mode)

        return _mapped(loader, file, rows, parse)


@LOAD_DATASET.register_module()
class NejmaibenchDataset(BaseDataset):
    """NEJM AI's CSV file, each row with ``options`` (the non-empty lines of ``Choices``, a leading
    ``X.`` and the spaces after it removed), ``label`` (``Answer``) and ``question`` (``Question``
    and the options)."""

    @staticmethod
    def load(path: str, prompt_mode: str = "zero-shot", **kwargs: Any) -> Any:
        loader = "NejmaibenchDataset"
        _zero_shot(loader, prompt_mode)
        file, rows = _csv_rows(loader, path)
        if rows:
            _require(loader, file, rows[0], ("Question", "Answer"))

        def parse(item: dict[str, Any]) -> None:
            raw = item.get("Choices", "")
            lines = [line.strip() for line in raw.strip().splitlines() if line.strip()]
            options = [_CHOICE_PREFIX.sub("", line) for line in lines]
            item["options"] = options
            item["question"] = f"{item['Question']}\n{lettered_options(options)}"
            item["label"] = item["Answer"]
            _marks(item, len(options), prompt_mode)

        return _mapped(loader, file, rows, parse)

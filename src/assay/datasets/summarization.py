"""Summarization test sets as OpenCompass 0.5.4 reads them: ``LCSTSDataset``, ``XsumDataset``,
``GovRepcrsDataset``, ``SummScreenDataset``, ``XLSUMDataset``.

Every ``path`` goes through :func:`~assay.datasets.location.get_data_path`
(``opencompass/LCSTS`` → ``./data/LCSTS``, ``opencompass/xsum`` →
``./data/Xsum/dev.jsonl``; GovReport's and SummScreen's configs name local
folders, read in local mode).  Each loader's docstring lists the files it reads.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from assay.datasets._oc_files import dataset, dataset_dict, field, hub_location, hub_splits, json_value, require_file
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation, get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["GovRepcrsDataset", "LCSTSDataset", "SummScreenDataset", "XLSUMDataset", "XsumDataset"]

#: XL-Sum's languages, in the order OpenCompass concatenates their validation splits.
XLSUM_LANGUAGES = (
    "oromo", "french", "amharic", "arabic", "azerbaijani", "bengali", "burmese", "chinese_simplified", "chinese_traditional",
    "welsh", "english", "kirundi", "gujarati", "hausa", "hindi", "igbo", "indonesian", "japanese", "korean", "kyrgyz",
    "marathi", "spanish", "scottish_gaelic", "nepali", "pashto", "persian", "pidgin", "portuguese", "punjabi", "russian",
    "serbian_cyrillic", "serbian_latin", "sinhala", "somali", "swahili", "tamil", "telugu", "thai", "tigrinya", "turkish",
    "ukrainian", "urdu", "uzbek", "vietnamese", "yoruba",
)


def _lines(path: str | os.PathLike[str], loader: str) -> list[str]:
    """The lines of a text file as Python's ``readlines`` gives them (universal newlines)."""
    with open(require_file(path, loader), encoding="utf-8") as handle:
        return handle.readlines()


@LOAD_DATASET.register_module()
class LCSTSDataset(BaseDataset):
    """``<path>/test.src.txt`` (one article per line) and ``<path>/test.tgt.txt`` (its summary):
    rows ``content``, ``abst``, each line stripped.  As in OpenCompass, the two files are
    paired line by line and the longer one's extra lines are dropped.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        root = get_data_path(path)
        src = _lines(os.path.join(root, "test.src.txt"), "LCSTSDataset")
        tgt = _lines(os.path.join(root, "test.tgt.txt"), "LCSTSDataset")
        return dataset([{"content": s.strip(), "abst": t.strip()} for s, t in zip(src, tgt)])


@LOAD_DATASET.register_module()
class XsumDataset(BaseDataset):
    """A JSON Lines file (``opencompass/xsum`` → ``./data/Xsum/dev.jsonl``): rows ``dialogue``,
    ``summary``.  As in OpenCompass, only the first 1000 lines are read, bytes that are not
    UTF-8 are dropped, and a line whose ``dialogue`` or ``summary`` is a number (a missing
    value written as ``NaN``) is left out.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        file = require_file(get_data_path(path), "XsumDataset")
        rows = []
        with open(file, encoding="utf-8", errors="ignore") as handle:
            for i, line in enumerate(handle):
                if i == 1000:
                    break
                try:
                    sample = json.loads(line.strip())
                except json.JSONDecodeError as exc:
                    raise InputFileError(f"XsumDataset: {file}, line {i + 1} is not JSON: {exc}") from None
                where = f"{file}, line {i + 1}"
                dialogue = field(sample, "dialogue", "XsumDataset", where)
                summary = field(sample, "summary", "XsumDataset", where)
                if isinstance(dialogue, float) or isinstance(summary, float):
                    continue
                rows.append({"dialogue": dialogue, "summary": summary})
        return dataset(rows)


def _section(title: Any, paragraphs: list[str]) -> str:
    return (title if title else "") + "\n" + "\n".join(paragraphs)


@LOAD_DATASET.register_module()
class GovRepcrsDataset(BaseDataset):
    """GovReport's CRS reports: for each split ``train``, ``valid``, ``test``, the ids listed in
    ``<path>/gov-report/split_ids/crs_<split>.ids`` (one a line), each read from
    ``<path>/gov-report/crs/<id>.json``: ``content`` is the ``title``, then each of
    ``reports.subsections``' ``section_title`` and ``paragraphs`` on lines of their own;
    ``summary`` is the ``summary`` lines joined.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        root = Path(get_data_path(path, local_mode=True)) / "gov-report"
        splits: dict[str, list[dict[str, Any]]] = {}
        for split in ("train", "valid", "test"):
            rows = []
            for line in _lines(root / "split_ids" / f"crs_{split}.ids", "GovRepcrsDataset"):
                file = root / "crs" / f"{line.strip()}.json"
                data = json_value(file, "GovRepcrsDataset")
                where = str(file)
                reports = field(data, "reports", "GovRepcrsDataset", where)
                subsections = field(reports, "subsections", "GovRepcrsDataset", f"{where}: 'reports'")
                parts = [_section(field(s, "section_title", "GovRepcrsDataset", f"{where}: a subsection"),
                                  field(s, "paragraphs", "GovRepcrsDataset", f"{where}: a subsection")) for s in subsections]
                rows.append({"content": field(data, "title", "GovRepcrsDataset", where) + "\n" + "\n".join(parts),
                             "summary": "\n".join(field(data, "summary", "GovRepcrsDataset", where))})
            splits[split] = rows
        return dataset_dict(splits)


@LOAD_DATASET.register_module()
class SummScreenDataset(BaseDataset):
    """SummScreen's episodes: every JSON file of ``<path>/SummScreen_raw/fd``, then of
    ``<path>/SummScreen_raw/tms``, in the order the file system lists them (as OpenCompass
    reads them): ``content`` is the ``Transcript`` lines joined by newlines, ``summary`` the
    ``Recap`` lines joined with nothing between them.  One split, ``dev``.
    """

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        root = Path(get_data_path(path, local_mode=True)) / "SummScreen_raw"
        rows = []
        for sub in ("fd", "tms"):
            folder = root / sub
            if not folder.is_dir():
                raise InputFileError(f"SummScreenDataset: no such folder: {folder}")
            for name in os.listdir(folder):
                file = folder / name
                data = json_value(file, "SummScreenDataset")
                rows.append({"content": "\n".join(field(data, "Transcript", "SummScreenDataset", str(file))),
                             "summary": "".join(field(data, "Recap", "SummScreenDataset", str(file)))})
        return dataset_dict({"dev": rows})


@LOAD_DATASET.register_module()
class XLSUMDataset(BaseDataset):
    """The ``validation`` splits of XL-Sum's 45 languages (:data:`XLSUM_LANGUAGES`, one configuration each) of
    ``path`` (``csebuetnlp/xlsum``), concatenated in that order, every column kept (``text``, ``summary``, …).

    OpenCompass reads each with ``datasets.load_dataset(path, language)``; assay reads the local folder
    ``path`` (relative to the working folder), else the dataset's copy in the Hugging Face Hub's cache, and
    never downloads it.  A language missing is an error, as there.
    """

    @staticmethod
    def data_location(path: str, **kwargs: Any) -> DataLocation:
        """The local folder ``path`` (relative to the working folder), else the dataset in the Hugging Face Hub's cache."""
        return hub_location(path)

    @staticmethod
    def load(path: str, **kwargs: Any) -> Any:
        import datasets

        parts = []
        for language in XLSUM_LANGUAGES:
            splits = hub_splits("XLSUMDataset", path, name=language)
            if "validation" not in splits:
                raise InputFileError(f"XLSUMDataset: the {language!r} configuration of {path!r} has no 'validation' split "
                                     f"(splits: {', '.join(splits)})")
            parts.append(splits["validation"])
        return datasets.concatenate_datasets(parts)

"""DS-1000's loaders: ``DS1000Dataset`` and ``DS1000Dataset_Interperter``, as OpenCompass 0.5.4 reads them.

The data is the folder of ``ds1000_data.zip`` (the path taken as it is, under
``$COMPASS_DATA_CACHE`` when relative): ``<path>/<Library>/<mode>/q<N>/``, one
folder per problem, holding ``.cfg`` (``[library] lib``, ``[test] test_type``,
``test_case_cnt``, ``[perturbation] perturbation_type``, ``perturbation_origin_id``),
``reference_code.txt``, ``test_code.py``, ``code_context.txt``,
``test_generate_pickle.py``, ``prompt.txt`` and the test cases' files (``input/``,
``ans/``).  Problems are read library by library (``libs``: one name, a list, or
all seven), in the order of their numbers; each row holds the ``.cfg`` values,
the files' text (named without extension) and ``test_column``: ``problem_path``
(the folder, as a string), ``code_context``, ``test_case_cnt`` and ``test_type``.
The dataset has one split, ``test``.
"""

from __future__ import annotations

import configparser
import os
from pathlib import Path
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["DS1000_LIBRARIES", "DS1000Dataset", "DS1000Dataset_Interperter"]

#: The libraries of DS-1000, in OpenCompass's order of "all".
DS1000_LIBRARIES: tuple[str, ...] = ("Pandas", "Numpy", "Matplotlib", "Tensorflow", "Scipy", "Sklearn", "Pytorch")

_CFG_FIELDS = (
    ("library", "lib"),
    ("test", "test_type"),
    ("test", "test_case_cnt"),
    ("perturbation", "perturbation_type"),
    ("perturbation", "perturbation_origin_id"),
)
_FILES = ("reference_code.txt", "test_code.py", "code_context.txt", "test_generate_pickle.py", "prompt.txt")


def _problem(folder: Path) -> dict[str, Any]:
    config = configparser.RawConfigParser()
    config.read(folder / ".cfg")
    row: dict[str, Any] = {}
    for section, option in _CFG_FIELDS:
        try:
            row[option] = config.get(section, option)
        except (configparser.NoSectionError, configparser.NoOptionError) as exc:
            raise InputFileError(f"DS1000Dataset: {folder / '.cfg'}: {exc}") from None
    for name in _FILES:
        try:
            row[name.split(".")[0]] = (folder / name).read_text(encoding="utf-8")
        except OSError as exc:
            raise InputFileError(f"DS1000Dataset: problem {folder}: cannot read {name}: {exc}") from None
    row["test_column"] = {
        "problem_path": str(folder),
        "code_context": row.pop("code_context"),
        "test_case_cnt": row.pop("test_case_cnt"),
        "test_type": row.pop("test_type"),
    }
    return row


def _number(name: str, folder: Path) -> int:
    try:
        return int(name.replace("q", ""))
    except ValueError:
        raise InputFileError(f"DS1000Dataset: {folder} holds {name!r}, not a problem folder q<N>") from None


def load_ds1000_rows(path: str, libs: str | list[str] | None = None, mode: str = "Insertion") -> list[dict[str, Any]]:
    """The problems' rows (see the module's docstring)."""
    root = get_data_path(path, local_mode=True)
    wanted = [libs] if isinstance(libs, str) else list(libs or DS1000_LIBRARIES)
    for lib in wanted:
        if lib not in DS1000_LIBRARIES:
            raise InputFileError(f"DS1000Dataset: libs must name libraries of {list(DS1000_LIBRARIES)}, got {lib!r}")
    rows = []
    for lib in wanted:
        source = Path(root) / lib / mode
        if not source.is_dir():
            raise InputFileError(f"DS1000Dataset: folder {source} does not exist (path {path!r}, library {lib!r}, mode {mode!r})")
        for name in sorted(os.listdir(source), key=lambda n: _number(str(n), source)):
            rows.append(_problem(source / name))
    return rows


@LOAD_DATASET.register_module()
class DS1000Dataset(BaseDataset):
    """DS-1000 problems of some libraries, one ``test`` split.

    Example:
        >>> DS1000Dataset.load('./data/ds1000_data/', libs='Numpy')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, libs: str | list[str] | None = None, mode: str = "Insertion", **kwargs: Any) -> Any:
        import datasets

        return datasets.DatasetDict({"test": datasets.Dataset.from_list(load_ds1000_rows(path, libs, mode))})


@LOAD_DATASET.register_module()
class DS1000Dataset_Interperter(BaseDataset):
    """DS-1000 for a code interpreter: each ``prompt`` cut before its first ``'A:\\n'`` and stripped;
    a prompt without ``'A:\\n'`` loses its last character (OpenCompass cuts at ``find`` = -1).

    Example:
        >>> DS1000Dataset_Interperter.load('./data/ds1000_data/', libs='Numpy')  # doctest: +SKIP
    """

    @staticmethod
    def load(path: str, libs: str | list[str] | None = None, mode: str = "Insertion", **kwargs: Any) -> Any:
        import datasets

        rows = []
        for row in load_ds1000_rows(path, libs, mode):
            prompt = row["prompt"]
            row["prompt"] = prompt[: prompt.find("A:\n")].strip()
            rows.append(row)
        return datasets.DatasetDict({"test": datasets.Dataset.from_list(rows)})

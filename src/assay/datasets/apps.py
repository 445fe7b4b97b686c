"""The APPS and TACO loaders: ``APPSDataset``, ``APPS_miniDataset``, ``TACODataset``, as OpenCompass 0.5.4 reads them.

Each problem gains ``starter``: its ``starter_code``, then ``\\nUse Call-Based
format`` when it has starter code or its ``input_output`` names an
``fn_name``, else ``\\nUse Standard Input format`` (the two characters
backslash and ``n``, as OpenCompass writes them).  Only the ``test`` split is
returned, each problem repeated ``num_repeats`` times in a row.

* ``APPSDataset``: ``datasets.load_dataset(path)`` of a local folder (the
  Hugging Face dataset ``codeparrot/apps``'s files, ``test.jsonl`` …, in a folder
  of that path); assay does not fetch it from the Hub.
* ``APPS_miniDataset``: ``datasets.load_from_disk(path)``.
* ``TACODataset``: ``path`` must be ``'BAAI/TACO'``; its test file
  ``test/data-00000-of-00001.arrow`` is read from the Hugging Face Hub's cache
  (``HF_HUB_CACHE``), never downloaded; each problem also gains ``problem_id``
  (``test<i>``, ``i`` its position in the file) and, with ``difficulty`` other
  than ``'ALL'``, only the problems of that ``difficulty`` are kept.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["APPSDataset", "APPS_miniDataset", "TACODataset"]

TACO_REPO = "BAAI/TACO"
TACO_TEST_FILE = "test/data-00000-of-00001.arrow"


def _taco_cached_file(raise_errors: bool = False) -> str | None:
    """TACO's test file in the Hugging Face Hub's cache (``HF_HUB_CACHE`` read now), else ``None``."""
    import os

    from huggingface_hub import hf_hub_download

    cache = os.environ.get("HF_HUB_CACHE") or None  # read now, not when huggingface_hub was imported
    try:
        return str(hf_hub_download(repo_id=TACO_REPO, repo_type="dataset", filename=TACO_TEST_FILE, local_files_only=True,
                                   cache_dir=cache))
    except Exception:
        if raise_errors:
            raise
        return None


def _starter(sample: dict[str, Any]) -> str:
    starter_code = sample.get("starter_code") or None
    try:
        in_outs = json.loads(sample["input_output"])
        fn_name = in_outs.get("fn_name") or None
    except ValueError:
        fn_name = None
    starter = starter_code or ""
    if not fn_name and not starter_code:
        return starter + "\\nUse Standard Input format"
    return starter + "\\nUse Call-Based format"


def _test_split(loader: str, splits: Any, num_repeats: int, problem_ids: bool = False, difficulty: str = "ALL") -> Any:
    import datasets

    if not isinstance(num_repeats, int) or isinstance(num_repeats, bool) or num_repeats < 1:
        raise InputFileError(f"{loader}: num_repeats must be a positive int, got {num_repeats!r}")
    if "test" not in splits:
        raise InputFileError(f"{loader}: the data has no test split (splits: {', '.join(splits) or 'none'})")
    rows = []
    for idx, sample in enumerate(splits["test"]):
        if "ALL" not in difficulty and sample.get("difficulty") != difficulty:
            continue
        for column in ("starter_code", "input_output"):
            if column not in sample:
                raise InputFileError(f"{loader}: test problem {idx} has no {column!r}")
        row = dict(sample)
        row["starter"] = _starter(row)
        if problem_ids:
            row["problem_id"] = f"test{idx}"
        rows.extend([row] * num_repeats)
    if not rows:  # OpenCompass stops with an IndexError here
        raise InputFileError(f"{loader}: no test problem" + (f" of difficulty {difficulty!r}" if "ALL" not in difficulty else ""))
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(rows)})


@LOAD_DATASET.register_module()
class APPSDataset(BaseDataset):
    """APPS from a local copy of the Hugging Face dataset (a folder ``load_dataset`` reads)."""

    @staticmethod
    def load(path: str, num_repeats: int = 1, **kwargs: Any) -> Any:
        import datasets

        folder = Path(path).expanduser()
        if not folder.is_dir():
            raise InputFileError(
                f"APPSDataset: {path!r} is not a local folder; OpenCompass fetches it from the Hugging Face Hub, "
                f"assay reads a local copy: put the dataset's files (test.jsonl, train.jsonl) in the folder {folder}"
            )
        import tempfile

        try:
            with tempfile.TemporaryDirectory(prefix="assay-apps-") as cache:  # the rows are kept in memory
                splits = datasets.load_dataset(str(folder), cache_dir=cache, keep_in_memory=True)
        except Exception as exc:  # the datasets library's own errors name the file
            raise InputFileError(f"APPSDataset: the folder {folder} cannot be read as a dataset: {exc}") from None
        return _test_split("APPSDataset", splits, num_repeats)


@LOAD_DATASET.register_module()
class APPS_miniDataset(BaseDataset):
    """APPS-mini: a ``DatasetDict`` saved with ``save_to_disk``."""

    @staticmethod
    def load(path: str, num_repeats: int = 1, **kwargs: Any) -> Any:
        import datasets

        folder = Path(path).expanduser()
        if not folder.is_dir():
            raise InputFileError(f"APPS_miniDataset: folder {folder} does not exist (path {path!r})")
        try:
            splits = datasets.load_from_disk(str(folder))
        except Exception as exc:
            raise InputFileError(f"APPS_miniDataset: {folder} is not a dataset saved to disk: {exc}") from None
        return _test_split("APPS_miniDataset", splits, num_repeats)


@LOAD_DATASET.register_module()
class TACODataset(BaseDataset):
    """TACO's test problems from the Hugging Face Hub's cache, with ``problem_id`` and an optional ``difficulty``."""

    @staticmethod
    def data_location(path: str) -> DataLocation:
        """Where the test file is: the Hugging Face Hub's cache (``path`` is the dataset's id there)."""
        file = _taco_cached_file()
        looked = (f"{TACO_REPO}/{TACO_TEST_FILE} in the Hugging Face Hub's cache",)
        return DataLocation(path, Path(file or TACO_TEST_FILE), path == TACO_REPO and file is not None, looked)

    @staticmethod
    def load(path: str, num_repeats: int = 1, difficulty: str = "ALL", **kwargs: Any) -> Any:
        import datasets

        if path != TACO_REPO:
            raise InputFileError(f"TACODataset: path must be {TACO_REPO!r} (the Hugging Face dataset), got {path!r}")
        try:
            file = _taco_cached_file(raise_errors=True)
        except Exception as exc:
            raise InputFileError(
                f"TACODataset: {TACO_REPO}'s {TACO_TEST_FILE} is not in the Hugging Face Hub's cache ({exc}); "
                "assay does not download it: fetch it once (huggingface-cli download BAAI/TACO --repo-type dataset)"
            ) from None
        return _test_split("TACODataset", {"test": datasets.Dataset.from_file(file)}, num_repeats, problem_ids=True,
                           difficulty=difficulty)

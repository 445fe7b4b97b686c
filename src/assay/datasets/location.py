"""Where a dataset's files are: OpenCompass dataset ids and local paths.

OpenCompass configs name data by *dataset id* (``path='opencompass/gsm8k'``) or
by a path relative to the directory OpenCompass runs in (``'./data/gsm8k'``).
:func:`get_data_path` resolves both as OpenCompass 0.5.4 does for local data:

* an absolute path is returned as is;
* a dataset id listed in OpenCompass's table (``data_locations.json``, facts
  taken from its ``utils/datasets_info.py``) becomes its local path there
  (``opencompass/gsm8k`` → ``./data/gsm8k/``); any other value is a local path;
* the path is joined to ``$COMPASS_DATA_CACHE`` when that is set;
* if nothing exists there, ``~/.cache/opencompass/<path>`` is tried, as
  OpenCompass does before it would download.

Nothing is ever downloaded: ``DATASET_SOURCE=ModelScope`` or ``HF`` is refused
with an error, and a missing location is returned unchanged for the loader to
report (naming the path it looked for).

Example:
    >>> import os
    >>> _ = os.environ.pop('COMPASS_DATA_CACHE', None)
    >>> get_data_path('opencompass/gsm8k', local_mode=True) == os.path.join('', 'opencompass/gsm8k')
    True
    >>> get_data_path('/abs/data.jsonl')
    '/abs/data.jsonl'
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

from assay.errors import ConfigError, InputFileError

__all__ = ["get_data_path", "is_dataset_id", "local_location"]

_TABLE = Path(__file__).with_name("data_locations.json")


@functools.cache
def _locations() -> dict[str, str]:
    table: dict[str, str] = json.loads(_TABLE.read_text(encoding="utf-8"))
    return table


def is_dataset_id(value: object) -> bool:
    """True when ``value`` is a dataset id of OpenCompass's table (``'opencompass/gsm8k'``).

    Such a value is never rewritten relative to a config's folder.

    >>> is_dataset_id('opencompass/gsm8k'), is_dataset_id('./data/gsm8k')
    (True, False)
    """
    return isinstance(value, str) and value in _locations()


def local_location(dataset_id: str) -> str:
    """The local path OpenCompass's table gives ``dataset_id``, or ``dataset_id`` itself."""
    return _locations().get(dataset_id, dataset_id)


def get_data_path(dataset_id: str, local_mode: bool = False) -> str:
    """Resolve a dataset id or path to the local path OpenCompass would read.

    ``local_mode=True`` skips the table (OpenCompass's loaders pass it for data
    that is always local).  ``''`` (LiveMathBench's configs) stands for
    ``$COMPASS_DATA_CACHE`` itself.
    """
    if not isinstance(dataset_id, str):
        raise InputFileError(f"dataset path must be a string, got {dataset_id!r}")
    if os.path.isabs(dataset_id):
        return dataset_id
    cache_dir = os.environ.get("COMPASS_DATA_CACHE", "")
    if local_mode:
        return _existing_or_default(os.path.join(cache_dir, dataset_id))
    source = os.environ.get("DATASET_SOURCE")
    if source in ("ModelScope", "HF"):
        raise ConfigError(
            f"DATASET_SOURCE={source} asks to fetch {dataset_id!r} from a hub; assay reads local files only. "
            "Unset DATASET_SOURCE and put the data under ./data (or $COMPASS_DATA_CACHE) in OpenCompass's layout."
        )
    return _existing_or_default(os.path.join(cache_dir, local_location(dataset_id)))


def _existing_or_default(path: str) -> str:
    if os.path.exists(path):
        return path
    fallback = os.path.join(os.path.expanduser("~"), ".cache", "opencompass", path)
    if os.path.exists(fallback):
        return fallback
    return path

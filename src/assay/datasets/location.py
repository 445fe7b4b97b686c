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

:func:`locate_data` is what assay itself uses for a dataset config's ``path``:
a dataset id resolves as above and is never rewritten; any other relative path
is looked for in the working directory, then in the config file's folder, then
where OpenCompass would look (``$COMPASS_DATA_CACHE``, ``~/.cache/opencompass``).

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
from dataclasses import dataclass
from pathlib import Path

from assay._dataclass import FrozenMethods
from assay.errors import ConfigError, InputFileError

__all__ = ["DataLocation", "get_data_path", "is_dataset_id", "local_location", "locate_data"]

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
    """The local path OpenCompass's table gives ``dataset_id``, or ``dataset_id`` itself.

    >>> local_location('opencompass/gsm8k'), local_location('data/mine.jsonl')
    ('./data/gsm8k/', 'data/mine.jsonl')
    """
    return _locations().get(dataset_id, dataset_id)


def get_data_path(dataset_id: str, local_mode: bool = False) -> str:
    """Resolve a dataset id or path to the local path OpenCompass would read.

    ``local_mode=True`` skips the table (OpenCompass's loaders pass it for data
    that is always local) and, as in OpenCompass, does not consult
    ``DATASET_SOURCE``.  ``''`` (LiveMathBench's configs) stands for
    ``$COMPASS_DATA_CACHE`` itself.

    Raises:
        ConfigError: ``DATASET_SOURCE`` asks for a hub (``ModelScope``, ``HF``).
        InputFileError: ``dataset_id`` is not a string.

    >>> import os, tempfile
    >>> cache = tempfile.mkdtemp()
    >>> os.environ['COMPASS_DATA_CACHE'] = cache
    >>> get_data_path('opencompass/gsm8k') == os.path.join(cache, './data/gsm8k/')
    True
    >>> _ = os.environ.pop('COMPASS_DATA_CACHE')
    """
    if not isinstance(dataset_id, str):
        raise InputFileError(f"dataset path must be a string, got {dataset_id!r}")
    if os.path.isabs(dataset_id):
        return dataset_id
    cache_dir = os.environ.get("COMPASS_DATA_CACHE", "")
    if local_mode:
        return _existing_or_default(os.path.join(cache_dir, dataset_id))
    _refuse_hub(dataset_id)
    return _existing_or_default(os.path.join(cache_dir, local_location(dataset_id)))


def _refuse_hub(dataset_id: str) -> None:
    source = os.environ.get("DATASET_SOURCE")
    if source in ("ModelScope", "HF"):
        raise ConfigError(
            f"DATASET_SOURCE={source} asks to fetch {dataset_id!r} from a hub; assay reads local files only. "
            "Unset DATASET_SOURCE and put the data under ./data (or $COMPASS_DATA_CACHE) in OpenCompass's layout."
        )


def _fallback(path: str) -> str:
    return os.path.join(os.path.expanduser("~"), ".cache", "opencompass", path)


def _existing_or_default(path: str) -> str:
    if os.path.exists(path):
        return path
    fallback = _fallback(path)
    if os.path.exists(fallback):
        return fallback
    return path


@dataclass(init=False, repr=False, eq=False)
class DataLocation(FrozenMethods):
    """Where a dataset config's ``path`` points.

    Attributes:
        value: the ``path`` as the config gives it.
        path: the location found, or, when nothing exists, the one a loader
            will be given (a dataset id's location in OpenCompass's layout, or
            the path relative to the config's folder).
        exists: whether anything exists at ``path``.
        looked_at: every place looked at, in order.
        dataset_id: ``value`` is a dataset id of OpenCompass's table.
    """

    value: str
    path: Path
    exists: bool
    looked_at: tuple[str, ...]
    dataset_id: bool = False

    def __init__(
        self,
        value: str,
        path: Path,
        exists: bool,
        looked_at: tuple[str, ...],
        dataset_id: bool = False,
    ) -> None:
        self.value = value
        self.path = path
        self.exists = exists
        self.looked_at = looked_at
        self.dataset_id = dataset_id

    def describe(self) -> str:
        """Where the data is, or every place it was looked for.

        >>> DataLocation('d.jsonl', Path('/c/d.jsonl'), False, ('d.jsonl', '/c/d.jsonl')).describe()
        "'d.jsonl' not found (looked for d.jsonl, /c/d.jsonl)"
        """
        kind = "dataset id " if self.dataset_id else ""
        if self.exists:
            return f"{kind}{self.value!r} at {self.path}"
        return f"{kind}{self.value!r} not found (looked for {', '.join(self.looked_at)})"


def locate_data(value: str, config_dir: str | os.PathLike[str] | None = None) -> DataLocation:
    """Find the data a dataset config's ``path`` names.

    * A dataset id resolves as :func:`get_data_path` resolves it (OpenCompass's
      layout under the working directory or ``$COMPASS_DATA_CACHE``, then
      ``~/.cache/opencompass``); it is never taken relative to the config's folder.
    * An absolute path (``~`` expanded) is taken as is.
    * Any other path is looked for in the working directory, then in
      ``config_dir``, then under ``$COMPASS_DATA_CACHE`` and
      ``~/.cache/opencompass`` (where OpenCompass's loaders would look); when
      none exists, the path relative to ``config_dir`` is the one given.

    Raises:
        ConfigError: a dataset id while ``DATASET_SOURCE`` asks for a hub.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / 'x.jsonl').write_text('{}')
    >>> loc = locate_data('x.jsonl', d)
    >>> loc.exists, loc.path == d / 'x.jsonl'
    (True, True)
    >>> locate_data('opencompass/gsm8k', d).path.parts[-2:]
    ('data', 'gsm8k')
    """
    if is_dataset_id(value):
        _refuse_hub(value)
        first = os.path.join(os.environ.get("COMPASS_DATA_CACHE", ""), local_location(value))
        found = get_data_path(value)
        looked = (first, _fallback(first))
        return DataLocation(value, Path(found), os.path.exists(found), looked, dataset_id=True)
    p = Path(os.path.expanduser(value))
    if p.is_absolute():
        return DataLocation(value, p, p.exists(), (str(p),))
    candidates: list[Path] = [p]
    if config_dir is not None:
        candidates.append(Path(config_dir) / p)
    cache_dir = os.environ.get("COMPASS_DATA_CACHE", "")
    if cache_dir:
        candidates.append(Path(cache_dir) / p)
    candidates.append(Path(_fallback(str(p))))
    for candidate in candidates:
        if candidate.exists():
            return DataLocation(value, candidate, True, tuple(map(str, candidates)))
    given = Path(config_dir) / p if config_dir is not None else p
    return DataLocation(value, given, False, tuple(map(str, candidates)))

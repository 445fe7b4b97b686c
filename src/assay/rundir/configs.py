"""The configs dumped in a run directory (``configs/``), and which of them is the newest.

Every command that writes a run (``assay run``/``eval``, and OpenCompass)
dumps the full config it ran with as ``configs/<YYYYmmdd_HHMMSS>_<pid>.py``.
A later command given only the run directory (``assay eval -r``, the
statistics of ``assay report``, ``assay verify``) reads the newest of them,
chosen by one rule (:func:`newest_dumped_config`): the time in the file's
name, and, for a file whose name holds none (a config copied in by hand), its
modification time.
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path

from assay.errors import InputFileError
from assay.fileio import atomic_write_text
from assay.rundir.layout import RunDir, new_timestamp

__all__ = ["dump_config", "dumped_configs", "newest_dumped_config"]

_DUMP_NAME = re.compile(r"^(\d{8}_\d{6})_")


def dump_config(run_dir: RunDir, source: str, now: str | None = None) -> Path:
    """Write ``source`` as ``configs/<now>_<pid>.py`` (``_<n>`` added when that name is taken); the file written.

    ``now`` is the command's start time as ``YYYYmmdd_HHMMSS`` (default: the current time).
    """
    now = now or new_timestamp()
    dumped = run_dir.configs / f"{now}_{os.getpid()}.py"
    suffix = 1
    while dumped.exists():
        dumped = run_dir.configs / f"{now}_{os.getpid()}_{suffix}.py"
        suffix += 1
    atomic_write_text(dumped, source)
    return dumped


def _dump_time(path: Path) -> tuple[str, int, str]:
    """The order of dumped configs: the name's ``YYYYmmdd_HHMMSS`` (else the modification time in that
    form), then the modification time, then the name."""
    try:
        mtime_ns = path.stat().st_mtime_ns
    except OSError:
        mtime_ns = 0
    match = _DUMP_NAME.match(path.name)
    stamp = match.group(1) if match else datetime.fromtimestamp(mtime_ns / 1e9).strftime("%Y%m%d_%H%M%S")
    return (stamp, mtime_ns, path.name)


def dumped_configs(run_dir: RunDir) -> list[Path]:
    """The ``.py`` files in ``configs/``, oldest first (see :func:`newest_dumped_config`); none when there is no such folder.

    Example:
        >>> import os, tempfile
        >>> run = RunDir(Path(tempfile.mkdtemp()))
        >>> run.configs.mkdir()
        >>> for name in ("20240102_000000_7.py", "20240101_000000_9.py"):
        ...     _ = (run.configs / name).write_text("x = 1\\n")
        >>> os.utime(run.configs / "20240101_000000_9.py", (2e9, 2e9))  # touched later: the name still rules
        >>> [p.name for p in dumped_configs(run)]
        ['20240101_000000_9.py', '20240102_000000_7.py']
    """
    try:
        found = [p for p in run_dir.configs.iterdir() if p.suffix == ".py" and p.is_file()]
    except OSError:
        return []
    return sorted(found, key=_dump_time)


def newest_dumped_config(run_dir: RunDir) -> Path:
    """The newest config dumped in ``<run_dir>/configs/``.

    The newest is the one with the latest time in its name
    (``<YYYYmmdd_HHMMSS>_<pid>.py``); a name without a time counts with its
    modification time; configs of the same second go by modification time,
    then name.

    Raises:
        InputFileError: naming the folder, when it holds no ``.py`` file.
    """
    found = dumped_configs(run_dir)
    if not found:
        raise InputFileError(
            f"{run_dir.configs} holds no dumped config (<YYYYmmdd_HHMMSS>_<pid>.py); give the config file instead"
        )
    return found[-1]

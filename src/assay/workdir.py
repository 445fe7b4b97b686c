"""The work-directory layout: the one place that knows where each file lives.

``<work_dir>/<YYYYmmdd_HHMMSS>/`` is a *run directory* holding::

    predictions/<model_abbr>/<dataset_abbr>.json
    results/<model_abbr>/<dataset_abbr>.json
    summary/summary_<time>.{txt,csv,md,json}
    configs/<time>_<pid>.py
    logs/eval/<model_abbr>/<dataset_abbr>.out
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from assay.errors import InputFileError

__all__ = ["LATEST", "RunDir", "newest_dumped_config", "new_timestamp", "resolve_run_dir"]

LATEST = "latest"
_TIMESTAMP = re.compile(r"^\d{8}_\d{6}$")


def new_timestamp() -> str:
    """The current local time as ``YYYYmmdd_HHMMSS``."""
    return datetime.now().strftime("%Y%m%d_%H%M%S")


@dataclass(frozen=True)
class RunDir:
    """Paths inside one run directory."""

    root: Path

    @property
    def predictions(self) -> Path:
        return self.root / "predictions"

    @property
    def results(self) -> Path:
        return self.root / "results"

    @property
    def summary(self) -> Path:
        return self.root / "summary"

    @property
    def configs(self) -> Path:
        return self.root / "configs"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    def prediction_dir(self, model_abbr: str) -> Path:
        return self.predictions / model_abbr

    def result_path(self, model_abbr: str, dataset_abbr: str) -> Path:
        return self.results / model_abbr / f"{dataset_abbr}.json"

    def log_path(self, model_abbr: str, dataset_abbr: str) -> Path:
        return self.logs / "eval" / model_abbr / f"{dataset_abbr}.out"


def resolve_run_dir(work_dir: str | os.PathLike[str], reuse: str | None, *, must_exist: bool = False) -> RunDir:
    """Pick the run directory, as OpenCompass's ``-w``/``-r`` do.

    Args:
        work_dir: the parent of the timestamped run directories.
        reuse: ``None`` starts a new timestamped run; ``'latest'`` picks the
            lexicographically last timestamped run (a new one if there is none,
            unless ``must_exist``); any other string names the run directory.
        must_exist: raise instead of starting a new run when nothing can be reused.
    """
    wd = Path(work_dir)
    if reuse is None:
        if must_exist:
            runs = _runs(wd)
            if not runs:
                raise InputFileError(f"work dir {wd} holds no run directory (expected {wd}/<YYYYmmdd_HHMMSS>/)")
            return RunDir(wd / runs[-1])
        return RunDir(wd / new_timestamp())
    if reuse == LATEST:
        runs = _runs(wd)
        if runs:
            return RunDir(wd / runs[-1])
        if must_exist:
            raise InputFileError(f"work dir {wd} holds no run directory to reuse (expected {wd}/<YYYYmmdd_HHMMSS>/)")
        return RunDir(wd / new_timestamp())
    run = wd / reuse
    if must_exist and not run.is_dir():
        raise InputFileError(f"run directory {run} does not exist")
    return RunDir(run)


def _runs(work_dir: Path) -> list[str]:
    if not work_dir.is_dir():
        return []
    named = sorted(p.name for p in work_dir.iterdir() if p.is_dir() and _TIMESTAMP.match(p.name))
    if named:
        return named
    # other names (e.g. copied run folders) still count, as in OpenCompass
    return sorted(p.name for p in work_dir.iterdir() if p.is_dir() and not p.name.startswith("."))


_DUMP_NAME = re.compile(r"^(\d{8}_\d{6})_")


def newest_dumped_config(run_dir: RunDir) -> Path:
    """The newest config dumped in ``<run_dir>/configs/``.

    OpenCompass (and assay) write the full config of every invocation there as
    ``<YYYYmmdd_HHMMSS>_<pid>.py``; the newest is the one with the latest time
    in its name, then the latest modification time.

    Raises:
        InputFileError: naming the folder, when it holds no ``.py`` file.
    """
    folder = run_dir.configs
    try:
        found = [p for p in folder.iterdir() if p.suffix == ".py" and p.is_file()]
    except OSError:
        found = []
    if not found:
        raise InputFileError(f"{folder} holds no dumped config (<YYYYmmdd_HHMMSS>_<pid>.py); give the config file instead")

    def key(path: Path) -> tuple[str, int, str]:
        match = _DUMP_NAME.match(path.name)
        return (match.group(1) if match else "", path.stat().st_mtime_ns, path.name)

    return max(found, key=key)

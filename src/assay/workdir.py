"""The work-directory layout: the one place that knows where each file lives.

``<work_dir>/<YYYYmmdd_HHMMSS>/`` is a *run directory* holding::

    predictions/<model_abbr>/<dataset_abbr>.json
    results/<model_abbr>/<dataset_abbr>.json
    summary/summary_<time>.{txt,csv,md,json}
    configs/<time>_<pid>.py
    logs/eval/<model_abbr>/<dataset_abbr>.out
    logs/eval/<model_abbr>/<dataset_abbr>.kept
"""

from __future__ import annotations

import difflib
import logging
import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from assay.errors import InputFileError

logger = logging.getLogger(__name__)

__all__ = ["LATEST", "RunDir", "folders_in", "is_run_dir", "missing_folder_message", "newest_dumped_config", "new_timestamp", "resolve_run_dir"]

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

    def kept_path(self, model_abbr: str, dataset_abbr: str) -> Path:
        """The note of a task that failed and left the result already there in place (R-12.1)."""
        return self.logs / "eval" / model_abbr / f"{dataset_abbr}.kept"


def is_run_dir(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is a run directory: it holds ``results/`` or ``predictions/``.

    A timestamp-named folder that holds only ``configs/`` also counts: a run that
    was interrupted before its first result.

    Example:
        >>> import tempfile
        >>> root = Path(tempfile.mkdtemp())
        >>> (root / "20240101_000000" / "results").mkdir(parents=True)
        >>> is_run_dir(root / "20240101_000000"), is_run_dir(root), is_run_dir(root / "20240101_000000" / "results")
        (True, False, False)
    """
    p = Path(path)
    if (p / "results").is_dir() or (p / "predictions").is_dir():
        return True
    return bool(_TIMESTAMP.match(p.name)) and (p / "configs").is_dir()


def resolve_run_dir(work_dir: str | os.PathLike[str], reuse: str | None, *, must_exist: bool = False) -> RunDir:
    """Pick the run directory, as OpenCompass's ``-w``/``-r`` do.

    Args:
        work_dir: the parent of the timestamped run directories, or one run
            directory itself (see :func:`is_run_dir`), which is then the run
            whenever no ``TIMESTAMP`` is named.
        reuse: ``None`` starts a new timestamped run; ``'latest'`` picks the
            newest run (a new one if there is none, unless ``must_exist``);
            any other string names the run directory.
        must_exist: raise instead of starting a new run when nothing can be reused.

    The newest run is the last timestamp-named run folder (``YYYYmmdd_HHMMSS``)
    or, when there is none, the most recently modified folder that is a run.
    Folders that are not runs (``summary/``, ``logs/``, ``configs/``, …) never count.

    Example:
        >>> import tempfile
        >>> wd = Path(tempfile.mkdtemp())
        >>> for name in ("20240101_000000/results", "20240102_000000/predictions", "summary"):
        ...     (wd / name).mkdir(parents=True)
        >>> resolve_run_dir(wd, LATEST).root.name
        '20240102_000000'
        >>> resolve_run_dir(wd / "20240101_000000", LATEST).root.name
        '20240101_000000'
    """
    wd = Path(work_dir)
    if reuse is None and not must_exist:
        if (wd / "results").is_dir() or (wd / "predictions").is_dir():
            logger.warning("%s is itself a run directory; the new run goes into a folder inside it", wd)
        return RunDir(wd / new_timestamp())
    if reuse is None or reuse == LATEST:
        if (wd / "results").is_dir() or (wd / "predictions").is_dir():
            return RunDir(wd)
        runs = _runs(wd)
        if runs:
            return RunDir(runs[-1])
        if is_run_dir(wd):
            return RunDir(wd)
        if must_exist:
            raise InputFileError(_no_run_message(wd))
        return RunDir(wd / new_timestamp())
    run = wd / reuse
    if must_exist and not run.is_dir():
        hint = f" ({wd} is itself a run directory: leave out -r)" if is_run_dir(wd) else ""
        raise InputFileError(f"run directory {run} does not exist{hint}")
    return RunDir(run)


def _no_run_message(wd: Path) -> str:
    if not wd.is_dir():
        return f"work dir {wd} does not exist"
    return (
        f"{wd} is neither a run directory nor holds one: a run directory holds results/ or predictions/ "
        f"(expected {wd}/results/ or {wd}/<YYYYmmdd_HHMMSS>/results/)"
    )


def _runs(work_dir: Path) -> list[Path]:
    """The run folders in ``work_dir``, oldest first."""
    if not work_dir.is_dir():
        return []
    runs = [p for p in work_dir.iterdir() if p.is_dir() and not p.name.startswith(".") and is_run_dir(p)]
    named = sorted((p for p in runs if _TIMESTAMP.match(p.name)), key=lambda p: p.name)
    if named:
        return named
    # other names (e.g. copied run folders): the most recently modified is the newest

    def modified(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(runs, key=lambda p: (modified(p), p.name))


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


def folders_in(parent: Path) -> list[str]:
    """The names of the folders in ``parent``, sorted (none when it is not a readable folder)."""
    try:
        return sorted(p.name for p in parent.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return []


def missing_folder_message(folder: Path, what: str) -> str:
    """``'<what> <folder> does not exist'``, with the folders its parent holds and the closest one.

    Example:
        >>> import tempfile
        >>> root = Path(tempfile.mkdtemp())
        >>> for name in ("opencompass.models.OpenAI_eval_gpt-4", "other"):
        ...     (root / name).mkdir()
        >>> print(missing_folder_message(root / "opencompass.models.OpenAI_x_gpt-4", "prediction folder").split(": ", 1)[1])
        the folders there are 'opencompass.models.OpenAI_eval_gpt-4', 'other'; the closest is 'opencompass.models.OpenAI_eval_gpt-4'
    """
    there = folders_in(folder.parent)
    if not folder.parent.is_dir():
        return f"{what} {folder} does not exist (nor does {folder.parent})"
    if not there:
        return f"{what} {folder} does not exist: {folder.parent} holds no folders"
    listed = ", ".join(repr(n) for n in there[:20]) + (f", … ({len(there)} in all)" if len(there) > 20 else "")
    close = difflib.get_close_matches(folder.name, there, n=1, cutoff=0.0)
    return f"{what} {folder} does not exist: the folders there are {listed}" + (f"; the closest is {close[0]!r}" if close else "")

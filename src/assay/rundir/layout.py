"""The work-directory layout: the one place that knows where each file lives.

``<work_dir>/<YYYYmmdd_HHMMSS>/`` is a *run directory* holding::

    predictions/<model_abbr>/<dataset_abbr>.json
    results/<model_abbr>/<dataset_abbr>.json
    summary/summary_<time>.{txt,csv,md,json,html}
    configs/<time>_<pid>.py   the config of each command that wrote the run (see :mod:`assay.rundir.configs`)
    logs/eval/<model_abbr>/<dataset_abbr>.out
    logs/eval/<model_abbr>/<dataset_abbr>.kept
    .assay.lock          held by the one command writing the run (see :func:`writer_lock`)
    .scratch/            temporary files of that command, removed when the next one starts
    .shards/             the parts of split tasks (see :mod:`assay.rundir.shards`)
    .assay.import        there while other tools' results are being written in (see :mod:`assay.rundir.sources`)

Only one command writes a run directory at a time (R-12.4): ``assay run`` and
``assay eval`` hold an exclusive ``flock`` on ``.assay.lock`` while they work.
The kernel releases it when the holder (and every process it started) ends,
however it ends, so a killed run never leaves the directory locked.  The
holder records its pid, command line and start time in the file, for the
message a second writer gets.  Once it holds the lock, a writer removes what
killed writers left behind: the atomic writer's temporary files and
``.scratch/``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shlex
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from assay._dataclass import FrozenMethods
from assay.errors import AssayError, InputFileError

logger = logging.getLogger(__name__)

__all__ = [
    "INDEX_NAME",
    "LATEST",
    "LOCK_NAME",
    "STATS_SUFFIX",
    "RunDir",
    "RunDirBusy",
    "folders_in",
    "is_run_dir",
    "missing_folder_message",
    "new_timestamp",
    "remove_stale_temp_files",
    "resolve_run_dir",
    "run_dir_of_output",
    "stats_path_of",
    "writer_lock",
]

LATEST = "latest"
#: The file a run directory's one writer holds locked.
LOCK_NAME = ".assay.lock"
#: The folder of the writer's temporary folders (extraction audits' side files), emptied when a writer starts.
SCRATCH_NAME = ".scratch"
#: The folder of split tasks' parts.
SHARDS_NAME = ".shards"
#: The file that names the imports of other tools' results begun in the run and not finished yet.
IMPORT_NAME = ".assay.import"
#: The run index's file (see :mod:`assay.rundir.index`).
INDEX_NAME = "index.sqlite"
#: The suffix of the statistics file beside a result (``results/<model>/<dataset>.stats``).
STATS_SUFFIX = ".stats"
_TIMESTAMP = re.compile(r"^\d{8}_\d{6}$")
#: Files other summarizers write beside the summary: ``summary_<time>_<more>.json``.
_OTHER_SUMMARY = re.compile(r"^summary_\d{8}_\d{6}_.+\.json$")


def new_timestamp() -> str:
    """The current local time as ``YYYYmmdd_HHMMSS``."""
    return datetime.now().strftime("%Y%m%d_%H%M%S")


@dataclass(init=False, repr=False, eq=False)
class RunDir(FrozenMethods):
    """Paths inside one run directory."""

    root: Path

    def __init__(self, root: Path) -> None:
        self.root = root

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

    def stats_path(self, model_abbr: str, dataset_abbr: str) -> Path:
        """The statistics written beside the result (see :func:`stats_path_of`)."""
        return stats_path_of(self.result_path(model_abbr, dataset_abbr))

    def summary_stem(self, time_str: str) -> Path:
        """``summary/summary_<time>``, to which the summary's files add their suffixes."""
        return self.summary / f"summary_{time_str}"

    def newest_summary_json(self) -> Path | None:
        """The newest ``summary/summary_<time>.json`` (by the time in its name), or ``None``.

        Other summarizers' files there (``summary_<time>_all_scores.json``, ``summary_<time>_by_<judge>.json``)
        are not summaries of assay's.

        Example:
            >>> import tempfile
            >>> run = RunDir(Path(tempfile.mkdtemp()))
            >>> run.summary.mkdir()
            >>> for name in ("summary_20240101_000000.json", "summary_20240101_000000_all_scores.json"):
            ...     _ = (run.summary / name).write_text("{}")
            >>> run.newest_summary_json().name
            'summary_20240101_000000.json'
        """
        found = sorted(p for p in self.summary.glob("summary_*.json") if not _OTHER_SUMMARY.match(p.name))
        return found[-1] if found else None

    def eval_log_dir(self, model_abbr: str) -> Path:
        """The folder of one model's task logs (and kept-result notes)."""
        return self.logs / "eval" / model_abbr

    def log_path(self, model_abbr: str, dataset_abbr: str) -> Path:
        return self.eval_log_dir(model_abbr) / f"{dataset_abbr}.out"

    def kept_path(self, model_abbr: str, dataset_abbr: str) -> Path:
        """The note of a task that failed and left the result already there in place (R-12.1)."""
        return self.eval_log_dir(model_abbr) / f"{dataset_abbr}.kept"

    @property
    def index(self) -> Path:
        return self.root / INDEX_NAME

    @property
    def judge_cache(self) -> Path:
        """The LLM judge's reply cache shared by the run's tasks."""
        return self.root / "cache" / "judge.sqlite"

    @property
    def lock(self) -> Path:
        return self.root / LOCK_NAME

    @property
    def scratch(self) -> Path:
        return self.root / SCRATCH_NAME

    @property
    def shards(self) -> Path:
        return self.root / SHARDS_NAME

    @property
    def import_marker(self) -> Path:
        """Names the imports of other tools' results begun and not finished (see :mod:`assay.rundir.sources`)."""
        return self.root / IMPORT_NAME


def stats_path_of(result_path: str | os.PathLike[str]) -> Path:
    """The statistics file beside a result file: ``<dataset>.json`` → ``<dataset>.stats``.

    >>> stats_path_of("run/results/m/d.json").as_posix()
    'run/results/m/d.stats'
    """
    return Path(result_path).with_suffix(STATS_SUFFIX)


def run_dir_of_output(output_dir: str | os.PathLike[str]) -> RunDir:
    """The run directory of a task's output stem ``<run_dir>/results/<model>/<dataset>`` (what an
    evaluator is given); the stem's folder when it does not lie in a ``results/`` folder.

    >>> run_dir_of_output("/runs/20240101_000000/results/m/d").root.as_posix()
    '/runs/20240101_000000'
    >>> run_dir_of_output("/elsewhere/d").root.as_posix()
    '/elsewhere'
    """
    p = Path(output_dir)
    if len(p.parents) >= 3 and p.parents[1].name == "results":
        return RunDir(p.parents[2])
    return RunDir(p.parent)


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
    import difflib

    close = difflib.get_close_matches(folder.name, there, n=1, cutoff=0.0)
    return f"{what} {folder} does not exist: the folders there are {listed}" + (f"; the closest is {close[0]!r}" if close else "")


# -- one writer per run directory --------------------------------------------------------------


class RunDirBusy(AssayError):
    """Another command is writing the run directory."""


#: The temporary files of :func:`assay.fileio.atomic_write_chunks`: ``.<name>.<8 random characters>.tmp``.
_ATOMIC_TEMP = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")
#: Those of the prediction files assay writes (another tool's replies): ``.<dataset>.json.<8 random characters>.tmp``.
_PREDICTION_TEMP = re.compile(r"^\..+\.json\.[A-Za-z0-9_]{8}\.tmp$")
#: A report's sample folder being filled beside its place (``summary_<time>_files.<8 random characters>``).
_SAMPLES_TEMP = re.compile(r"^summary_.+_files\.[a-z0-9_]{8}$")


def _holder(fd: int) -> str:
    """Who holds the lock, from what the holder wrote into the lock file."""
    try:
        data = json.loads(os.pread(fd, 65536, 0) or b"null")
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict):
        return "a process that has not said who it is yet"
    return f"pid {data.get('pid')} on {data.get('host')} ({data.get('command')}), since {data.get('since')}"


@contextlib.contextmanager
def writer_lock(run_dir: RunDir, *, wait: bool = False, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the run directory's writer lock while the block runs (the directory is created if need be).

    The lock is an exclusive ``flock`` on :data:`LOCK_NAME`: the kernel drops
    it when the holder ends, killed or not (and its forked workers, which share
    it, have ended too).  Once held, the holder's pid, command line and start
    time are written into the file, and what killed writers left behind is
    removed (:func:`remove_stale_temp_files`, the scratch folder).

    Args:
        wait: wait for the holder to end instead of failing.
        on_wait: called with the holder's description before waiting.

    Raises:
        RunDirBusy: naming the run directory and the holder, when another
            process holds the lock and ``wait`` is false.
    """
    import fcntl

    root = run_dir.root
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(run_dir.lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            if not wait:
                raise RunDirBusy(
                    f"run directory {root} is being written by another assay command: {holder}; "
                    "one command writes a run directory at a time: wait for it to end (or pass --wait)"
                ) from None
            if on_wait is not None:
                on_wait(holder)
            fcntl.flock(fd, fcntl.LOCK_EX)
        record = {
            "pid": os.getpid(),
            "host": os.uname().nodename,  # the host name (socket.gethostname)
            "command": shlex.join(sys.argv) if sys.argv and sys.argv[0] else "assay",
            "since": datetime.now().isoformat(timespec="seconds"),
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(record).encode() + b"\n", 0)
        remove_stale_temp_files(run_dir)
        try:
            yield
        except BaseException:
            # interrupted or terminated: the workers are stopped by now, and their unfinished files are stale
            remove_stale_temp_files(run_dir)
            raise
        with contextlib.suppress(OSError):  # an empty scratch folder is not left behind
            run_dir.scratch.rmdir()
    finally:
        os.close(fd)


def remove_stale_temp_files(run_dir: RunDir) -> list[Path]:
    """Remove the atomic writer's temporary files in the run directory that no process is writing, a report's
    sample folders that no process is filling (:func:`assay.fileio.remove_folder_if_abandoned`), and its scratch
    folder; the files and folders removed.

    Only the holder of the writer lock may call this.  A temporary file is
    removed only when it is provably abandoned: its writer's lock on it is
    gone (:func:`assay.fileio.remove_if_abandoned`), so that those of a reader
    writing its own files at the same time (``assay summarize``, ``assay
    report`` and ``assay verify`` take no writer lock) are left to it.  In ``predictions/``, which
    holds other programs' files, only those of the prediction files assay
    writes there (another tool's replies a dataset scores again,
    :func:`assay.rundir.sources.write_source_predictions`) are removed.

    Example:
        >>> import tempfile
        >>> run = RunDir(Path(tempfile.mkdtemp()))
        >>> (run.results / "m").mkdir(parents=True)
        >>> _ = (run.results / "m" / ".d.json.ab_cd123.tmp").write_text("{")
        >>> _ = (run.results / "m" / "d.json").write_text("{}")
        >>> [p.name for p in remove_stale_temp_files(run)], sorted(p.name for p in (run.results / "m").iterdir())
        (['.d.json.ab_cd123.tmp'], ['d.json'])
    """
    from assay.fileio import remove_folder_if_abandoned, remove_if_abandoned

    removed: list[Path] = []
    stack = [run_dir.root]
    while stack:
        folder = stack.pop()
        pattern = _PREDICTION_TEMP if folder.is_relative_to(run_dir.predictions) else _ATOMIC_TEMP
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if folder == run_dir.root and entry.name == SCRATCH_NAME:
                    continue
                if folder == run_dir.summary and _SAMPLES_TEMP.match(entry.name):
                    if remove_folder_if_abandoned(entry.path):
                        removed.append(Path(entry.path))
                    continue  # its files are its writer's, with it
                stack.append(Path(entry.path))
            elif pattern.match(entry.name) and remove_if_abandoned(entry.path):
                removed.append(Path(entry.path))
    if run_dir.scratch.exists():
        shutil.rmtree(run_dir.scratch, ignore_errors=True)
    if removed:
        logger.info("removed %d temporary files and folders left by an earlier writer of %s", len(removed), run_dir.root)
    return removed

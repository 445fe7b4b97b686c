"""The note a failed task leaves beside its log when it kept the result already there (R-12.1).

A task that fails never replaces a result already in place (written by
OpenCompass, or by an earlier run): it writes
``logs/eval/<model>/<dataset>.kept`` (:meth:`assay.rundir.layout.RunDir.kept_path`)
with its error, who wrote the result kept, and that result's size and
modification time, so that the summary can mark the value as not re-scored
while the result is still that file.  The next task that writes or reuses
the result removes the note.

Example:
    >>> import pathlib, tempfile
    >>> run = RunDir(pathlib.Path(tempfile.mkdtemp()))
    >>> run.result_path("m", "d").parent.mkdir(parents=True)
    >>> _ = run.result_path("m", "d").write_text('{"accuracy": 50.0}')
    >>> write_kept_note(run, "m", "d", "the judge is down", "written by OpenCompass")
    >>> kept_notes(run, "m")["d"].reason
    'the judge is down; the result shown was already there (written by OpenCompass)'
    >>> _ = run.result_path("m", "d").write_text('{"accuracy": 75.0}')  # replaced since: the note no longer counts
    >>> kept_notes(run, "m")
    {}
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

from assay._dataclass import FrozenMethods
from assay.fileio import atomic_write_bytes, dumps_finite_json, loads_json
from assay.rundir.layout import RunDir

__all__ = ["KEPT_SUFFIX", "KeptNote", "clear_kept_note", "kept_notes", "write_kept_note"]

#: The suffix of a kept-result note.
KEPT_SUFFIX = ".kept"


@dataclass(init=False, repr=False, eq=False)
class KeptNote(FrozenMethods):
    """Why a task's last run did not re-score its result: its ``error``, and who wrote the result ``kept``."""

    error: str
    kept: str

    def __init__(self, error: str, kept: str) -> None:
        self.error = error
        self.kept = kept

    @property
    def reason(self) -> str:
        return f"{self.error}; the result shown was already there ({self.kept})"


def write_kept_note(run_dir: RunDir, model_abbr: str, dataset_abbr: str, error: str, kept: str) -> None:
    """Record that the task failed with ``error`` and kept the result there (``kept``: who wrote it).

    Raises:
        OSError: the note cannot be written.
    """
    try:
        st = run_dir.result_path(model_abbr, dataset_abbr).stat()
        size, mtime = st.st_size, st.st_mtime_ns
    except OSError:  # split results only
        size, mtime = None, None
    payload = {"error": error, "kept": kept, "size": size, "mtime_ns": mtime}
    atomic_write_bytes(run_dir.kept_path(model_abbr, dataset_abbr), dumps_finite_json(payload) + b"\n", durable=False)


def clear_kept_note(run_dir: RunDir, model_abbr: str, dataset_abbr: str) -> None:
    """Remove the note, if any: the task wrote or reused its result.

    Raises:
        OSError: the note is there and cannot be removed.
    """
    with contextlib.suppress(FileNotFoundError):
        run_dir.kept_path(model_abbr, dataset_abbr).unlink()


def kept_notes(run_dir: RunDir, model_abbr: str) -> dict[str, KeptNote]:
    """Dataset abbr → the note of each of the model's kept results that is still the file its note describes
    (same size and modification time); notes that cannot be read are left out."""
    try:
        names = [n for n in os.listdir(run_dir.eval_log_dir(model_abbr)) if n.endswith(KEPT_SUFFIX)]
    except OSError:
        return {}
    out: dict[str, KeptNote] = {}
    for name in sorted(names):
        abbr = name[: -len(KEPT_SUFFIX)]
        try:
            note = loads_json(run_dir.kept_path(model_abbr, abbr).read_bytes())
            st = run_dir.result_path(model_abbr, abbr).stat() if note.get("size") is not None else None
        except (OSError, ValueError, AttributeError):
            continue
        if st is not None and (st.st_size, st.st_mtime_ns) != (note.get("size"), note.get("mtime_ns")):
            continue  # the result changed since
        out[abbr] = KeptNote(str(note.get("error")), str(note.get("kept")))
    return out

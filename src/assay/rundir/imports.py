"""Whether an import of other tools' results into a run directory finished: the run's import marker read.

Kept apart from :mod:`assay.rundir.sources` (which writes the imports and the marker) so that every command
reading a run checks it without importing the other tools' readers.  A command that reads a run
(``report``, ``verify``, ``export``, ``compare``, ``index``; ``run``, ``eval`` and ``summarize`` reading the
run's dumped config) takes it from :func:`read_run`, which refuses one whose import did not finish; the
summary checks it after the config's own imports are written again (:func:`check_import_finished`).
"""

from __future__ import annotations

import os
from typing import Any

from assay.errors import InputFileError
from assay.rundir.layout import LATEST, RunDir, resolve_run_dir

__all__ = ["UnfinishedImport", "check_import_finished", "read_run", "unfinished_import"]


class UnfinishedImport(InputFileError):
    """An import of other tools' results into the run began and did not finish: the run is not read."""


def _read_marker(run_dir: RunDir) -> dict[str, Any] | None:
    """The run's import marker (``None``: no import unfinished); an unreadable one as naming no import."""
    from assay.fileio import read_json

    path = run_dir.import_marker
    if not path.exists():
        return None
    try:
        data = read_json(path)
    except (OSError, ValueError, InputFileError):
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("imports"), list):
        return {"imports": []}
    return data


def unfinished_import(run_dir: RunDir) -> str | None:
    """Why the run cannot be read as it is: an import of other tools' results into it began and did not finish
    (the command writing it was killed or failed); ``None`` when none did."""
    there = _read_marker(run_dir)
    if there is None:
        return None
    what = []
    for entry in there["imports"]:
        paths = [str(p) for p in entry.get("paths") or []] if isinstance(entry, dict) else []
        shown = ", ".join(paths[:3]) + (f", … ({len(paths)} files)" if len(paths) > 3 else "")
        what.append(f"{entry.get('tool') if isinstance(entry, dict) else '?'} results from {shown or '?'}")
    command = f" by `{there['command']}`" if there.get("command") else ""
    since = f" (begun {there['since']})" if there.get("since") else ""
    imports = "; ".join(what) or "other tools' results"
    return (f"{run_dir.root}: the import of {imports}{command}{since} did not finish: "
            "the run holds some of those results and lacks, or holds older versions of, the others. Run the import "
            "again (`assay summarize --from TOOL PATH` imports into a new run directory; a config's `sources` are "
            "imported again by its summary) — it removes "
            f"{run_dir.import_marker.name} once every file is written. If that import is no longer wanted (its "
            "files are gone, or the config now names others), check the results it left in the run, then delete "
            f"{run_dir.import_marker}")


def check_import_finished(run_dir: RunDir) -> None:
    """Raise :class:`UnfinishedImport` (:func:`unfinished_import`'s message) when an import into the run did not
    finish."""
    message = unfinished_import(run_dir)
    if message is not None:
        raise UnfinishedImport(message)


def read_run(work_dir: str | os.PathLike[str], reuse: str | None) -> RunDir:
    """The existing run directory a command reads: ``reuse`` in ``work_dir``, else the newest, or ``work_dir``
    itself (:func:`~assay.rundir.layout.resolve_run_dir`); :class:`~assay.errors.InputFileError` when there is
    none, :class:`UnfinishedImport` when an import into it did not finish."""
    run_dir = resolve_run_dir(work_dir, reuse or LATEST, must_exist=True)
    check_import_finished(run_dir)
    return run_dir

"""``assay export``: a run's results for other readers — JSON Lines, or an OpenCompass work dir.

``--format jsonl`` writes one JSON Lines file (``docs/export.md`` describes its schema):
a ``run`` line, then per result a ``result`` line (metrics, the per-sample field and scale
behind each, where the value came from) and its ``sample`` lines.  ``--format opencompass``
writes a folder in OpenCompass's run layout: ``results/<model>/<dataset>.json``,
``predictions/<model>/<dataset>.json``, ``configs/<time>.py`` (the run's config, its
imported models and datasets listed, its summary's rows) and
``summary/summary_<time>.{txt,csv,md}`` computed from those files.

The target (``--out``; default beside the run directory: ``<run>.jsonl`` or
``<run>_opencompass``) is written whole or not at all; an existing non-empty target is
replaced only with ``--force``; a target inside the run directory is refused, and nothing
in the run directory is written.  An export killed halfway leaves the target as it was, or
(killed once its output is in place) the new one; what it wrote beside the target (hidden
``.<target>.<random>.assay-export.new``/``.old`` folders, a ``.<target>.<random>.assay-export.tmp``
file: names no other program gives) is removed by the next export to the same target that is not
refused; nothing else beside the target is touched.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

NAME = "export"
HELP = "export a run's results and samples as JSON Lines or as an OpenCompass work dir"

logger = logging.getLogger(__name__)

#: What ends the names of the folders and files an export writes beside its target (``.<target>.<8 random
#: characters>`` before it): the folder the new output is written into, the old output's folder while it is
#: moved aside, a JSON Lines file being written.  Only entries named so are ever removed as an export's leftovers.
NEW_SUFFIX, OLD_SUFFIX, TMP_SUFFIX = ".assay-export.new", ".assay-export.old", ".assay-export.tmp"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``assay export``."""
    parser.add_argument("work_dir", metavar="WORK_DIR", help="a run directory, or the parent of the timestamped run directories")
    parser.add_argument("-r", "--reuse", metavar="TIMESTAMP", default=None, help="the run directory in WORK_DIR (default: the newest)")
    parser.add_argument("--format", choices=("jsonl", "opencompass"), required=True,
                        help="jsonl: one JSON Lines file (results and samples); opencompass: an OpenCompass work dir")
    parser.add_argument("--out", metavar="PATH", default=None,
                        help="the file (jsonl) or folder (opencompass) to write (default: beside the run directory, "
                             "<run>.jsonl or <run>_opencompass)")
    parser.add_argument("--force", action="store_true", help="replace an existing non-empty target")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")


def _target(args: argparse.Namespace, root: Path) -> Path:
    from assay.errors import InputFileError

    default = root.parent / (f"{root.name}.jsonl" if args.format == "jsonl" else f"{root.name}_opencompass")
    target = Path(args.out).absolute() if args.out else default
    resolved, run = target.resolve(), root.resolve()
    if resolved == run or run in resolved.parents:
        raise InputFileError(f"--out {target}: inside the run directory {root}; the export never writes there")
    if resolved in run.parents:  # replacing the target (--force) would delete the run being exported
        raise InputFileError(f"--out {target}: holds the run directory {root}; the export never replaces the run it reads")
    _refuse_existing(args, target)
    parent = target.parent
    if not parent.is_dir():
        raise InputFileError(f"--out {target}: its folder {parent} does not exist")
    if not _writable(parent):
        raise InputFileError(f"--out {target}: cannot write in {parent} (permission denied)")
    # only an export that goes ahead cleans up; the old output put back by it is then a target like any other
    there = target.exists()
    remove_leftovers(target)
    if not there and target.exists():
        _refuse_existing(args, target)
    return target


def _refuse_existing(args: argparse.Namespace, target: Path) -> None:
    """Refuse a target already there that the export may not replace (without ``--force``) or cannot (a file
    for a folder, a folder for a file)."""
    from assay.errors import InputFileError

    if target.exists() and not args.force:
        if target.is_dir() and any(target.iterdir()):
            raise InputFileError(f"--out {target}: a non-empty folder already there; --force replaces it")
        if target.is_file() and (args.format == "opencompass" or target.stat().st_size):
            raise InputFileError(f"--out {target}: a file already there; --force replaces it")
    if target.exists() and target.is_dir() != (args.format == "opencompass"):
        raise InputFileError(f"--out {target}: a {'folder' if target.is_dir() else 'file'} already there, "
                             f"the {args.format} export writes a {'folder' if args.format == 'opencompass' else 'file'}")


def _writable(folder: Path) -> bool:
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def remove_leftovers(target: Path) -> list[Path]:
    """Remove what exports to ``target`` that were killed left beside it, known by the names only an export
    gives them (:data:`NEW_SUFFIX`, :data:`OLD_SUFFIX`, :data:`TMP_SUFFIX`): the folder a new output was being
    written into (``.<name>.<random>.assay-export.new``: a partial output, or the old one once the new was
    exchanged for it), the old output moved aside (``.old``; put back first when the target is missing: the
    export was killed between its two renames), a JSON Lines file being written (``.tmp``); what was removed.
    Anything else — a user's ``.out.20240301.old`` — is left alone.

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / '.out.ab_cd123.assay-export.new').mkdir(); _ = (d / '.out.ab_cd123.assay-export.tmp').write_text('x')
    >>> (d / '.other.ab_cd123.assay-export.new').mkdir(); (d / '.out.backup_1.old').mkdir(); (d / 'out').mkdir()
    >>> [p.name for p in remove_leftovers(d / 'out')], sorted(p.name for p in d.iterdir())
    (['.out.ab_cd123.assay-export.new', '.out.ab_cd123.assay-export.tmp'], ['.other.ab_cd123.assay-export.new', '.out.backup_1.old', 'out'])
    """
    import re

    suffixes = "|".join(re.escape(s) for s in (NEW_SUFFIX, OLD_SUFFIX, TMP_SUFFIX))
    pattern = re.compile(rf"^\.{re.escape(target.name)}\.[a-z0-9_]{{8}}({suffixes})$")
    removed = []
    for entry in sorted(target.parent.iterdir()):
        if not pattern.match(entry.name):
            continue
        aside = entry / target.name
        if entry.name.endswith(OLD_SUFFIX) and aside.is_dir() and not target.exists():
            # killed between the two renames of a file system that cannot exchange folders: the old output back
            os.rename(aside, target)
            logger.warning("%s put back from %s, where an export that did not finish had moved it", target, aside)
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
        logger.info("removed %s, left by an export to %s that did not finish", entry, target)
        removed.append(entry)
    return removed


def run(args: argparse.Namespace) -> int:
    """Export; 0 on success."""
    from assay.rundir.imports import read_run

    run_dir = read_run(args.work_dir, args.reuse)  # not a run an import left half written
    target = _target(args, run_dir.root)
    if args.format == "jsonl":
        count = export_jsonl(run_dir, target)
        sys.stdout.write(f"{target}\n")
        logger.info("%d lines written", count)
        return 0
    export_opencompass(run_dir, target)
    sys.stdout.write(f"{target}\n")
    return 0


def export_jsonl(run_dir: Any, target: Path) -> int:
    """Write the JSON Lines export of ``run_dir`` to ``target`` atomically; the number of lines."""
    import orjson

    from assay.fileio import atomic_write_chunks, to_jsonable
    from assay.rundir.export import export_records

    summary = run_dir.newest_summary_json()
    lines = 0

    def chunks() -> Any:
        nonlocal lines
        for record in export_records(run_dir, summary=summary.name if summary is not None else None):
            lines += 1
            yield orjson.dumps(to_jsonable(record)) + b"\n"

    atomic_write_chunks(target, chunks(), temp_suffix=TMP_SUFFIX)
    return lines


def _summary_rows(board: Any) -> list[Any]:
    rows: list[Any] = []
    for row in board.rows:
        if not row.dataset:
            rows.append("")
        elif row.placeholder or row.metric is None:
            rows.append(row.dataset)
        else:
            rows.append([row.dataset, row.metric])
    return rows


def export_config(run_dir: Any, models: list[str], datasets: list[str]) -> dict[str, Any]:
    """The config of the exported work dir: the run's newest dumped config (when there is one) without
    its ``sources`` (their results are in the export) and ``work_dir``, every model and dataset of the
    results listed (a dataset the config lacks with an empty ``infer_cfg``, which OpenCompass's summarizer
    needs), the summarizer showing the rows and groups of the run's newest summary."""
    from assay.config.dump import plainify
    from assay.errors import AssayError
    from assay.summarize import Leaderboard

    variables: dict[str, Any] = {}
    try:
        import assay.opencompass  # noqa: F401 - dumped configs name opencompass.* types
        from assay.config import load_config
        from assay.rundir.configs import newest_dumped_config

        variables = dict(load_config(newest_dumped_config(run_dir)).variables)
    except (AssayError, OSError) as exc:
        logger.info("no dumped config read (%s); the export lists the results' models and datasets", exc)
    config: dict[str, Any] = {k: v for k, v in variables.items() if k in ("models", "datasets", "summarizer")}
    listed_models = [m for m in config.get("models") or [] if isinstance(m, dict)]
    known = {m.get("abbr") for m in listed_models}
    newest = run_dir.newest_summary_json()
    board = Leaderboard.from_json(newest) if newest is not None else None
    if board is not None:  # the summary's column order
        order = {c: i for i, c in enumerate(board.models)}
        models = sorted(models, key=lambda m: order.get(m, len(order)))
    config["models"] = listed_models + [{"abbr": m} for m in models if m not in known]
    listed = [d for d in config.get("datasets") or [] if isinstance(d, dict)]
    known = {d.get("abbr") for d in listed}
    # OpenCompass's summarizer hashes every dataset's infer_cfg (its retriever included) for the version column:
    # a dataset imported from another tool, which has none, gets an empty one (version: its hash, mode: unknown)
    config["datasets"] = listed + [{"abbr": d, "infer_cfg": {"retriever": {}}} for d in datasets if d not in known]
    summarizer = dict(config.get("summarizer") or {})
    if board is not None:
        summarizer["dataset_abbrs"] = _summary_rows(board)
        if board.group_definitions is not None:
            summarizer["summary_groups"] = board.group_definitions
    config["summarizer"] = summarizer
    return dict(plainify(config))


def export_opencompass(run_dir: Any, target: Path) -> None:
    """Write the OpenCompass work dir of ``run_dir`` into a folder beside ``target``, then put it in place."""
    from assay.config.dump import dump_config_source
    from assay.fileio import atomic_write_text, new_file_umask, replace_dir
    from assay.rundir.export import write_opencompass
    from assay.rundir.layout import RunDir, new_timestamp
    from assay.summarize import run_summarizer

    fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=NEW_SUFFIX, dir=target.parent))
    try:
        fresh.chmod(0o777 & ~new_file_umask())  # as a folder made with mkdir, not mkdtemp's 0o700
        written = write_opencompass(run_dir, fresh)
        config = export_config(run_dir, list(dict.fromkeys(m for m, _ in written)), list(dict.fromkeys(d for _, d in written)))
        out = RunDir(fresh)
        time_str = new_timestamp()
        atomic_write_text(out.configs / f"{time_str}.py", dump_config_source(config), durable=False)
        result = run_summarizer({**config, "work_dir": str(fresh)}, time_str=time_str, stats=False, index=False)
        json_path = result.paths.get("json")
        if json_path is not None:  # OpenCompass writes the .txt, .csv and .md only
            Path(json_path).unlink(missing_ok=True)
        replace_dir(fresh, target, aside_suffix=OLD_SUFFIX)
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise

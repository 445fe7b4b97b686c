"""``assay summarize [CONFIG]``: summarize the existing results of a run into tables (and its report).

``assay summarize --from TOOL PATH`` first writes another tool's results (``lm_eval``:
lm-evaluation-harness's output folder; ``inspect_ai``: inspect_ai's logs; ``helm``: HELM's run folders) into a new run directory under ``-w`` as assay's
own result files, with a config that lists them (see :mod:`assay.rundir.sources`), then
summarizes that run.

Exit status 1 when no model of the config has a result in the run (the message names
the folders looked for and those the run holds), 2 for a usage or configuration error,
and for a run whose import of another tool's results did not finish (a summary of a
config whose ``sources`` name that import imports it again and finishes it).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from assay.commands._options import (
    DEFAULT_WORK_DIR,
    add_common,
    add_summary_options,
    import_sources,
    load,
    read_sources,
    run_dir_as_work_dir,
    summarize,
    summary_config,
    terminated_by_signals,
    work_dir,
)

NAME = "summarize"
HELP = "summarize existing results into tables"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``assay summarize``."""
    add_common(parser)
    add_summary_options(parser)
    parser.add_argument(
        "--from", dest="source", nargs=2, metavar=("TOOL", "PATH"),
        help="summarize another tool's results: TOOL is lm_eval (lm-evaluation-harness's --output_path folder, "
        "a model folder in it, or one results_<time>.json), inspect_ai (a .eval or .json log, or a folder of them) "
        "or helm (HELM's benchmark_output, a suite or a run folder); they are written into a new run directory under -w first",
    )
    parser.add_argument(
        "--map", action="append", default=[], metavar="NAME=ABBR",
        help="with --from: show the tool's model or dataset NAME as ABBR (repeatable)",
    )
    parser.add_argument(
        "--tool-scale", action="store_true",
        help="with --from: keep the tool's own scale (lm-evaluation-harness's, inspect_ai's and HELM's 0-1) instead of percent",
    )


def _new_run_dir(work_dir: str) -> Any:
    """A new timestamped run directory under ``work_dir``, made here and now: another command starting in
    the same second waits for the next one rather than share it."""
    import time
    from pathlib import Path

    from assay.rundir.layout import RunDir, new_timestamp

    Path(work_dir).mkdir(parents=True, exist_ok=True)
    while True:
        root = Path(work_dir) / new_timestamp()
        try:
            root.mkdir()
        except FileExistsError:
            time.sleep(0.2)
            continue
        return RunDir(root)


def _import_source(args: argparse.Namespace) -> None:
    """``--from TOOL PATH``: the tool's results written into a new run directory with the config listing them;
    ``args`` then names that run, so that the summary reads it as any other."""
    from assay.errors import ConfigError
    from assay.rundir.configs import dump_config
    from assay.rundir.layout import new_timestamp, writer_lock
    from assay.rundir.sources import finish_import, source_config, write_sources
    from assay.sources import read_source

    if args.config is not None or args.reuse is not None:
        raise ConfigError("--from summarizes the tool's results in a new run directory: give no CONFIG and no -r")
    tool, path = args.source
    mapping = {}
    for item in args.map:
        name, sep, abbr = item.partition("=")
        if not sep or not name or not abbr:
            raise ConfigError(f"--map {item!r}: expected NAME=ABBR")
        mapping[name] = abbr
    runs = read_source(tool, path)
    run_dir = _new_run_dir(args.work_dir or DEFAULT_WORK_DIR)
    with writer_lock(run_dir):
        # the run is whole once its config is dumped: until then its import marker says the import did not finish
        imported = write_sources(run_dir, runs, models=mapping, datasets=mapping, percent=not args.tool_scale, finish=False)
        files = sorted({p for run in runs for p in run.paths})
        note = (f"Results of {', '.join(sorted({r.tool + (' ' + r.version if r.version else '') for r in runs}))} "
                f"read by assay from:\n" + "\n".join(files))
        dump_config(run_dir, source_config(imported, note=note), new_timestamp())
        finish_import(run_dir, imported)
    sys.stderr.write(f"run directory: {run_dir.root} ({len(imported.written)} results from {tool} {path})\n")
    args.work_dir, args.reuse = str(run_dir.root.parent), run_dir.root.name


def _no_results_message(config: Any, run_dir: Any) -> str | None:
    """Why a summary would be a table of ``-`` only: no model of the config has a result in the run; else ``None``.

    Names the result folders looked for and the folders the run holds, with
    the closest to each (a model named otherwise than when it was evaluated).
    """
    import difflib

    from assay.config import model_abbr
    from assay.rundir.layout import folders_in

    abbrs = list(dict.fromkeys(model_abbr(m) for m in config.models))
    if not abbrs or any(any((run_dir.results / a).glob("*.json")) for a in abbrs):
        return None
    # a subjective run: <model>_judged-by--<judge>/ (pairwise: <base>_<model>_judged-by--<judge>/)
    if any(any(run_dir.results.glob(f"{p}/*.json")) for a in abbrs for p in (f"{a}_judged-by--*", f"*_{a}_judged-by--*")):
        return None
    looked = ", ".join(str(run_dir.results / a) + "/" for a in abbrs)
    there = folders_in(run_dir.results)
    if not run_dir.results.is_dir():
        found = f"{run_dir.root} has no results/ folder"
    elif not there:
        found = f"{run_dir.results} holds no folders"
    else:
        found = f"{run_dir.results} holds {', '.join(repr(n) for n in there[:20])}" + (f", … ({len(there)} in all)" if len(there) > 20 else "")
        closest = [f"{a!r}: {c[0]!r}" for a in abbrs if (c := difflib.get_close_matches(a, there, n=1, cutoff=0.0))]
        found += f" (closest: {'; '.join(closest)})" if closest else ""
    return f"no model of the config has results in this run: looked for {looked} but {found}"


def run(args: argparse.Namespace) -> int:
    """Summarize the run; 0 on success, 1 when no model of the config has results in it.

    SIGTERM and SIGHUP stop it as Ctrl-C does: its child processes are stopped and no half-written file is left
    (:func:`assay.commands._options.terminated_by_signals`).
    """
    with terminated_by_signals():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """:func:`run`."""
    from assay.rundir.layout import resolve_run_dir
    from assay.summarize import validate_summarizer_config

    if getattr(args, "source", None):
        _import_source(args)
    else:
        run_dir_as_work_dir(args)
    config = load(args)
    run_dir = resolve_run_dir(work_dir(args, config), args.reuse or "latest", must_exist=True)
    validate_summarizer_config(summary_config(config, str(run_dir.root)))
    sources = read_sources(config)
    imported = None
    if sources:  # other tools' results (the config's `sources`): written into the run first
        from assay.rundir.layout import writer_lock

        with writer_lock(run_dir):
            imported = import_sources(run_dir, sources)
    else:
        missing = _no_results_message(config, run_dir)
        if missing:
            sys.stderr.write(f"assay: error: {missing}\n")
            return 1
    return summarize(config, str(run_dir.root), args, None, imported=imported)

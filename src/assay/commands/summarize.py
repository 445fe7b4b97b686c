"""``assay summarize [CONFIG]``: summarize the existing results of a run into tables (and its report).

Exit status 1 when no model of the config has a result in the run (the message names
the folders looked for and those the run holds), 2 for a usage or configuration error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from assay.commands._options import (
    add_common,
    add_summary_options,
    load,
    run_dir_as_work_dir,
    summarize,
    summary_config,
    work_dir,
)

NAME = "summarize"
HELP = "summarize existing results into tables"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``assay summarize``."""
    add_common(parser)
    add_summary_options(parser)


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
    """Summarize the run; 0 on success, 1 when no model of the config has results in it."""
    from assay.rundir.layout import resolve_run_dir
    from assay.summarize import validate_summarizer_config

    run_dir_as_work_dir(args)
    config = load(args)
    run_dir = resolve_run_dir(work_dir(args, config), args.reuse or "latest", must_exist=True)
    validate_summarizer_config(summary_config(config, str(run_dir.root)))
    missing = _no_results_message(config, run_dir)
    if missing:
        sys.stderr.write(f"assay: error: {missing}\n")
        return 1
    return summarize(config, str(run_dir.root), args, None)

"""``assay compare``: two models, sample by sample, with a paired test per dataset.

Prints a table (difference A − B with its interval, discordant pairs, the
test's p-value and its Holm-corrected value) and writes it as JSON to
``<run_dir>/summary/compare_<A>_vs_<B>_<time>.json``.

Samples pair by position for two results of assay's own; results imported from
another tool (:mod:`assay.rundir.sources`), or whose replies assay scored again
from a tool's output (``_meta.rescored``: by each reply's ``source_key``), pair by
the tool's sample ids when both come from one tool, by their question text when not (``--align``:
:mod:`assay.stats._align`), and the test runs on the samples that aligned; the
table is followed by each such dataset's alignment (how many samples aligned,
how many of each side did not, duplicates, ambiguous and conflicting pairs
refused, with example ids), also in the JSON (``alignment``).

A dataset where the run's newest summary marks either model's value (an
incomplete result, one changed after assay computed it, one not re-scored:
see :class:`assay.summarize.leaderboard.Leaderboard`) is followed by ``*`` in
the table, with the marks listed under it and kept in the JSON (``marks``).

The command exits with status 1 when it compared nothing — every dataset was
refused (too few aligned samples, a missing metric, …) —, after printing the
table and writing the JSON, which say why for each.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

NAME = "compare"
HELP = "paired comparison of two models: differences with intervals, McNemar / paired bootstrap, Holm"


def _fraction(text: str) -> float:
    """``--min-aligned``: a share of the samples, above 0 and at most 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number; give a share of the samples above 0 and at most 1 (e.g. 0.5)") from None
    if not 0 < value <= 1:  # also refuses nan
        raise argparse.ArgumentTypeError(f"{text!r} is not a share of the samples: give a number above 0 and at most 1 (e.g. 0.5)")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``assay compare``."""
    parser.add_argument("model_a", metavar="MODEL_A", help="model column or result folder name")
    parser.add_argument("model_b", metavar="MODEL_B", help="model column or result folder name")
    parser.add_argument(
        "-w", "--work-dir", required=True, help="a run directory, or the parent of the timestamped run directories"
    )
    parser.add_argument("-r", "--reuse", metavar="TIMESTAMP", default=None, help="the run directory in WORK_DIR (default: the newest)")
    parser.add_argument("--datasets", nargs="+", metavar="ABBR", help="datasets to compare (default: all)")
    parser.add_argument("--metric", help="compare this metric (default: per dataset the first with per-sample values)")
    parser.add_argument(
        "--metric-b", metavar="METRIC", help="model B's metric when its tool names it otherwise (--metric is then model A's)"
    )
    parser.add_argument(
        "--align", choices=("auto", "id", "content"), default="auto",
        help="pair samples by the tools' ids or by their question text (default auto: assay's own results by "
        "position, one tool's (imported or re-scored) by id, two tools' by content)",
    )
    parser.add_argument(
        "--min-aligned", type=_fraction, default=0.5, metavar="FRACTION",
        help="refuse a dataset where fewer than this share of the smaller side's samples align (default 0.5)",
    )
    parser.add_argument("--seed", type=int, default=None, help="bootstrap seed")
    parser.add_argument("--resamples", type=int, default=None, help="bootstrap resamples")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")


def _fmt(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _fmt_p(p: float | None) -> str:
    if p is None:
        return "-"
    return f"{p:.2e}" if p < 1e-4 else f"{p:.4f}"


def run(args: argparse.Namespace) -> int:
    """Compare, print the table, write the JSON; 0 when some dataset was compared, 1 when every one was refused."""
    from tabulate import tabulate

    from assay.fileio import atomic_write_json
    from assay.rundir.compare import compare_models
    from assay.rundir.imports import read_run
    from assay.rundir.layout import new_timestamp
    from assay.stats import DEFAULT_BOOTSTRAP, DEFAULT_SEED

    run_dir = read_run(args.work_dir, args.reuse)  # not a run an import left half written
    comparison = compare_models(
        run_dir.root,
        args.model_a,
        args.model_b,
        datasets=args.datasets,
        metric=args.metric,
        metric_b=args.metric_b,
        align=args.align,
        min_aligned=args.min_aligned,
        seed=DEFAULT_SEED if args.seed is None else args.seed,
        resamples=DEFAULT_BOOTSTRAP if args.resamples is None else args.resamples,
    )
    marks = _marks(run_dir.root, [args.model_a, args.model_b], [d.dataset for d in comparison.datasets])
    rows: list[list[object]] = []
    for d in comparison.datasets:
        r = d.result
        shown = f"{d.dataset}*" if any(k[1] == d.dataset for k in marks) else d.dataset
        if r is None:
            rows.append([shown, d.metric or "-", "-", "-", "-", "-", "-", "-", "-", d.reason or ""])
            continue
        rows.append([
            shown, d.metric, r.n, _fmt(r.value_a), _fmt(r.value_b),
            f"{r.diff:+.2f} [{r.low:+.2f}, {r.high:+.2f}]", f"{r.a_only}/{r.b_only}",
            _fmt_p(r.p), _fmt_p(r.p_holm), r.test,
        ])
    header = ["dataset", "metric", "n", args.model_a, args.model_b, "A-B [95% CI]", "A>B/B>A", "p", "p (Holm)", "test"]
    sys.stdout.write(tabulate(rows, headers=header, disable_numparse=True) + "\n")
    aligned = [d for d in comparison.datasets if d.alignment is not None]
    if aligned:
        sys.stdout.write("samples paired by id or content (A: " + args.model_a + ", B: " + args.model_b + "):\n")
        for d in aligned:
            assert d.alignment is not None
            sys.stdout.write(f"  {d.dataset}: {d.alignment.describe()}\n")
    if marks:
        sys.stdout.write("* the run's summary marks a value compared here:\n")
        for (model, abbr), found in marks.items():
            sys.stdout.write("".join(f"  {model} / {abbr}: {m.describe()}\n" for m in found))
    data = comparison.to_json()
    if marks:
        data["marks"] = [{"model": model, "dataset": abbr, **m.to_json()} for (model, abbr), found in marks.items() for m in found]
    safe = lambda s: "".join(c if c.isalnum() or c in "-_." else "_" for c in s)  # noqa: E731
    path = run_dir.summary / f"compare_{safe(args.model_a)}_vs_{safe(args.model_b)}_{new_timestamp()}.json"
    atomic_write_json(path, data)
    sys.stderr.write(f"wrote {path}\n")
    if not any(d.result is not None for d in comparison.datasets):
        why = "; ".join(f"{d.dataset}: {d.reason or 'refused'}" for d in comparison.datasets) or "no dataset"
        sys.stderr.write(f"assay compare: nothing was compared — every dataset was refused ({why})\n")
        return 1
    return 0


def _marks(root: Path, models: list[str], abbrs: list[str]) -> dict[tuple[str, str], tuple[Any, ...]]:
    """(model, dataset) → the marks the run's newest summary gives that value, for these models and datasets.

    Models are matched by column or by result folder; a run without a readable summary has none (logged).
    """
    from assay.errors import InputFileError
    from assay.rundir.statistics import load_run_config, model_dirs_of
    from assay.summarize import Leaderboard, newest_summary_json

    path = newest_summary_json(root)
    if path is None:
        return {}
    try:
        board = Leaderboard.from_json(path)
    except InputFileError as exc:
        logging.getLogger(__name__).warning("the summary's marks are not shown: %s", exc)
        return {}
    folders = model_dirs_of(load_run_config(root), board.models)
    columns = {m: next((c for c in board.models if c == m or folders.get(c) == m), m) for m in models}
    wanted = set(abbrs)
    return {(m, a): found for m in models for a in abbrs if a in wanted
            and (found := board.marks.get((columns[m], a)))}

"""Benchmark: eval + summary of 5 models × 20 datasets × 2,000 samples.

AccEvaluator with first_option_postprocess on messy replies, run as a user
would (``python -m assay run``, with and without ``--no-report``), against the
floor: reading and parsing every prediction file and running one regex per
prediction, in this process; beside it, each round, the least work that scoring
with the extraction audit implies (parsing, and both extraction cascades over
the distinct replies: ``measure_least``), as a multiple of the floor.  Also
``assay run`` (eval, summary and report in one process) against the same work
in three commands: ``assay eval``, then
``assay summarize --no-report``, then ``assay report``, each command's wall and
CPU time given; then ``assay report`` once more, apart: a later report of the
same results, which takes the rank intervals and the sample files of the first
one from its folder instead of computing them when they were written beside the
page (a run this size: timing ``assay report`` by hand on a run that has a
report already measures this one, not the first).

Every command sequence starts from the predictions alone: the results, the
summaries and reports, and the run index are removed first, so that no version
reads what another version (or an earlier sequence) left.

``--against REV_OR_DIR`` measures the same workload with another version of
assay as well: a directory holding ``src/assay``, or a git revision of this
repository (checked out with ``git worktree add --detach`` into a temporary
directory, removed afterwards).  Each version runs this script's
:func:`workload` in a subprocess with ``PYTHONPATH=<version>/src`` (this
checkout's ``src`` for the current one), the two alternating round by round,
and the medians are printed side by side with their ratio.

Usage::

    python benchmarks/bench_eval.py [--root DIR] [--workers N] [--models 5 --datasets 20 --samples 2000]
                                    [--repeat 5] [--against REV_OR_DIR]

The generated work directory is kept under ``--root`` (default: a folder in
the system temporary directory) and reused by later runs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _common import RUN, make_work_dir, measure_floor, measure_least, report, run_assay

REPO = Path(__file__).resolve().parents[1]
#: The workload's figure made of three commands.
SPLIT = "eval; summarize --no-report; report (three processes)"

#: The workload's figures: label → the commands timed together (``{config}`` and ``{work}`` filled in).
STEPS: dict[str, list[list[str]]] = {
    "run --no-report (eval + summary tables)": [["run", "{config}", "{work}", "--force", "--no-report"]],
    "run (eval + summary + intervals + HTML report, one process)": [["run", "{config}", "{work}", "--force"]],
    SPLIT: [
        ["eval", "{config}", "{work}", "--force"],
        ["summarize", "{config}", "{work}", "--no-report"],
        ["report", "{work}"],
    ],
}


def _clean(root: Path) -> None:
    """The run as it was before its first command: its results, summaries and reports, and its run index removed
    (an index kept would be one another version wrote, or hold the entries of results no longer there)."""
    shutil.rmtree(root / "work" / RUN / "results", ignore_errors=True)
    shutil.rmtree(root / "work" / RUN / "summary", ignore_errors=True)
    for name in ("index.sqlite", "index.sqlite-journal"):
        (root / "work" / RUN / name).unlink(missing_ok=True)


def workload(root: Path, config: Path, extra: list[str], only: list[str] | None = None) -> dict[str, dict[str, object]]:
    """Time each of :data:`STEPS` (or those ``only`` names) once with the assay that ``python -m assay`` imports.

    Returns label → ``{"seconds": total, "cpu": CPU seconds of the process trees, "parts": [seconds per command],
    "cpu_parts": [CPU seconds per command], "error": message or None}``; :data:`SPLIT`'s also has ``"again"``:
    ``[seconds, CPU seconds]`` of one more ``assay report`` after its three commands (a later report: the first
    one's rank intervals and sample files reused), or ``None``;
    a command that fails (say, one an older version lacks) gives its exit status and last stderr line.
    """
    out: dict[str, dict[str, object]] = {}
    for label, commands in STEPS.items():
        if only is not None and label not in only:
            continue
        _clean(root)
        parts: list[float] = []
        cpu_parts: list[float] = []
        error = None
        for command in commands:
            args: list[str] = []
            for word in command:
                if word == "{config}":
                    args.append(str(config))
                elif word == "{work}":
                    args += ["-w", str(root / "work"), "-r", RUN]
                else:
                    args.append(word)
            if command[0] in ("run", "eval"):
                args += extra
            measured = run_assay(args, cwd=root)
            if measured.returncode:
                tail = measured.stderr.strip().splitlines()[-1:] or [""]
                error = f"assay {command[0]} exited {measured.returncode}: {tail[0][:200]}"
                break
            parts.append(measured.seconds)
            cpu_parts.append(measured.cpu_seconds)
        out[label] = {"seconds": None if error else sum(parts), "cpu": None if error else sum(cpu_parts), "parts": parts,
                      "cpu_parts": cpu_parts, "error": error}
        if label == SPLIT:
            again = None
            if error is None:
                measured = run_assay(["report", "-w", str(root / "work"), "-r", RUN], cwd=root)
                again = None if measured.returncode else [measured.seconds, measured.cpu_seconds]
            out[label]["again"] = again
    return out


def split_line(rounds: list[dict[str, object]]) -> str:
    """The medians of :data:`SPLIT`'s commands over ``rounds`` (its figures, failed ones left out), wall / CPU,
    and of the later report."""
    done = [r for r in rounds if not r["error"]]
    if not done:
        return "no round without an error"
    names = ("eval", "summarize --no-report", "report")
    cells = []
    for i, name in enumerate(names):
        wall = statistics.median(r["parts"][i] for r in done)  # type: ignore[index]
        cpu = [r["cpu_parts"][i] for r in done if "cpu_parts" in r]  # type: ignore[index]
        cells.append(f"{name} {wall:.2f}" + (f" / {statistics.median(cpu):.2f}" if cpu else "") + " s")
    again = [r["again"] for r in done if r.get("again")]
    if again:
        cells.append(f"a later report (the first one's rank intervals and sample files reused when kept beside it) "
                     f"{statistics.median(a[0] for a in again):.2f} / {statistics.median(a[1] for a in again):.2f} s")  # type: ignore[index]
    return "medians, wall / CPU of the process tree: " + "; ".join(cells)


@contextlib.contextmanager
def version_source(spec: str) -> Iterator[tuple[Path, str]]:
    """The ``src`` folder of ``spec`` (a directory holding ``src/assay``, or a git revision of this
    repository, checked out into a temporary worktree for the duration) and a label for it."""
    given = Path(spec)
    if (given / "src" / "assay").is_dir():
        yield given.resolve() / "src", spec
        return
    found = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}"], capture_output=True, text=True
    )
    if found.returncode:
        raise SystemExit(f"--against {spec!r}: neither a directory holding src/assay nor a git revision of {REPO}")
    commit = found.stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="assay_against_")) / "tree"
    subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(folder), commit], check=True, capture_output=True)
    try:
        yield folder / "src", f"{spec} ({commit[:9]})"
    finally:
        subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(folder)], check=False, capture_output=True)
        shutil.rmtree(folder.parent, ignore_errors=True)


def _workload_in(src: Path, args: argparse.Namespace) -> tuple[str, dict[str, dict[str, object]]]:
    """Run :func:`workload` in a subprocess whose ``python -m assay`` imports ``src``; (assay it ran, figures)."""
    command = [sys.executable, __file__, "--workload", "--root", str(args.root), "--models", str(args.models),
               "--datasets", str(args.datasets), "--samples", str(args.samples)]
    if args.workers:
        command += ["--workers", str(args.workers)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(src)
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"the workload with PYTHONPATH={src} failed:\n{done.stderr[-3000:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return data["assay"], data["figures"]


def _median(values: list[object]) -> float | None:
    numbers = [v for v in values if isinstance(v, (int, float))]
    return statistics.median(numbers) if numbers and len(numbers) == len(values) else None


def compare(args: argparse.Namespace) -> None:
    """Both versions' figures side by side: the median of ``--repeat`` interleaved rounds, and the ratio."""
    with version_source(args.against) as (other_src, other):
        versions = {"this checkout": REPO / "src", other: other_src}
        rounds: dict[str, list[dict[str, dict[str, object]]]] = {name: [] for name in versions}
        imported: dict[str, str] = {}
        for _ in range(args.repeat):
            for name, src in versions.items():
                imported[name], figures = _workload_in(src, args)
                rounds[name].append(figures)
    size = f"{args.models} models × {args.datasets} datasets × {args.samples} samples"
    print(f"== this checkout against {other}, {size}: median of {args.repeat} interleaved rounds")
    for name in versions:
        print(f"   {name}: {imported[name]}")
    width = max(len(label) for label in STEPS)
    print(f"{'':{width + 6}}  {'this':>9}  {'other':>9}  this/other")
    for label in STEPS:
        for key, what in (("seconds", "wall"), ("cpu", "CPU")):
            mine = _median([r[label].get(key) for r in rounds["this checkout"]])
            theirs = _median([r[label].get(key) for r in rounds[other]])
            ratio = f"{mine / theirs:.2f}x" if mine is not None and theirs else "n/a"
            cells = [f"{v:8.2f}s" if v is not None else f"{'n/a':>9}" for v in (mine, theirs)]
            print(f"{label + ', ' + what:{width + 6}}  {cells[0]}  {cells[1]}  {ratio}")
        for name in versions:
            errors = {str(r[label]["error"]) for r in rounds[name] if r[label]["error"]}
            for error in sorted(errors):
                print(f"{'':{width}}  ({name}: {error})")
    for name in versions:
        print(f"{name}, {SPLIT}: {split_line([r[SPLIT] for r in rounds[name]])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "assay_bench_eval")
    parser.add_argument("--models", type=int, default=5)
    parser.add_argument("--datasets", type=int, default=20)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=5, help="rounds of floor + runs (best and median are reported)")
    parser.add_argument("--against", metavar="REV_OR_DIR", help="also measure this version of assay (see above)")
    parser.add_argument("--workload", action="store_true", help=argparse.SUPPRESS)  # one round, as JSON (see compare)
    args = parser.parse_args()

    root = args.root.resolve()
    args.root = root
    # the commands run in ROOT: a relative PYTHONPATH (``PYTHONPATH=src``) would name nothing there
    if os.environ.get("PYTHONPATH"):
        os.environ["PYTHONPATH"] = os.pathsep.join(
            str(Path(p).resolve()) if p else p for p in os.environ["PYTHONPATH"].split(os.pathsep))
    config = make_work_dir(root, models=args.models, datasets=args.datasets, samples=args.samples)
    extra = ["--workers", str(args.workers)] if args.workers else []
    if args.workload:
        import assay

        ran = f"assay {getattr(assay, '__version__', '?')} from {Path(assay.__file__).parent}"
        print(json.dumps({"assay": ran, "figures": workload(root, config, extra)}))
        return
    size = f"{args.models} models × {args.datasets} datasets × {args.samples} samples"
    labels = {"eval + summary tables (run --no-report)": ["--no-report"], "eval + summary + intervals + HTML report (run)": []}
    # the floor is measured again right before each round, so that every ratio compares runs of the same moment
    # (a shared machine's speed drifts from minute to minute)
    floors: list[float] = []
    # the least that scoring with the audit implies (see measure_least), each round beside its floor
    leasts: list[float] = []
    times: dict[str, list[float]] = {label: [] for label in labels}
    cpus: dict[str, list[float]] = {label: [] for label in labels}
    ratios: dict[str, list[float]] = {label: [] for label in labels}
    split: list[dict[str, object]] = []
    count = 0
    for i in range(args.repeat):
        floor, count = measure_floor(root)
        floors.append(floor)
        leasts.append(measure_least(root))
        for label, flags in labels.items():
            _clean(root)
            measured = run_assay(["run", str(config), "-w", str(root / "work"), "-r", RUN, "--force", *flags, *extra], cwd=root)
            report(f"{label}, {size} (round {i + 1})", measured, count, floor)
            times[label].append(measured.seconds)
            cpus[label].append(measured.cpu_seconds)
            ratios[label].append(measured.seconds / floor)
        figures = workload(root, config, extra, only=[SPLIT])[SPLIT]
        if figures["error"] is None:
            split.append(figures)
        else:
            print(f"== eval; summarize; report: {figures['error']}")
    floor = min(floors)
    print(f"floor: best {floor:.3f} s, median {statistics.median(floors):.3f} s over {args.repeat} rounds")
    least = statistics.median(x / f for x, f in zip(leasts, floors))
    workers = args.workers or len(os.sched_getaffinity(0))  # assay's default: a worker per usable core
    print(
        f"least work the audit implies (parse, both cascades over the distinct replies, one process): best "
        f"{min(leasts):.3f} s, median {least:.2f}x the floor of its round; split over {workers} cores with nothing "
        f"else to do, {least / workers:.2f}x the floor, before any start-up, test set, verdict, file or summary"
    )
    for label in labels:
        seconds = min(times[label])
        print(
            f"{label}: best {seconds:.2f} s ({count / seconds:,.0f} predictions/s), {seconds / floor:.2f}x the best floor; "
            f"ratio to the floor of its round: median {statistics.median(ratios[label]):.2f}x, best {min(ratios[label]):.2f}x; "
            f"CPU of the process tree: median {statistics.median(cpus[label]):.2f} s, {statistics.median(cpus[label]) / floor:.2f}x "
            "the best floor"
        )
    if split:
        one = statistics.median(times["eval + summary + intervals + HTML report (run)"])
        total = statistics.median(float(f["seconds"]) for f in split)  # type: ignore[arg-type]
        print(
            f"run in one process: median {one:.2f} s; eval, summarize --no-report and report in three: median "
            f"{total:.2f} s, {total / one:.2f}x ({split_line(split)})"
        )
    reuse = run_assay(["eval", str(config), "-w", str(root / "work"), "-r", RUN, *extra], cwd=root)
    report("assay eval -r (every result reused)", reuse, count, floor)
    help_run = run_assay(["--help"], cwd=root)
    print(f"== assay --help: {help_run.seconds:.3f} s")
    if args.against:
        compare(args)


if __name__ == "__main__":
    main()

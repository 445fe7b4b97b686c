"""Summarizer speed: 100 models × 500 datasets with 20 summary groups.

Generates a results folder in a temporary directory, then times, side by
side and each in a fresh process, ``run_summarizer`` (50 000 results, the
groups, every cell's interval, the .txt/.csv/.md/.json files) reading the
result files, building the run index from those files (heads and
statistics), and ``run_summarizer`` reading the fresh index; then the whole
``assay summarize`` command (interpreter start and imports included) on the
index.  Also times reading one large result file with and without cutting
out its details.  Prints figures.

Run:  python benchmarks/bench_summarize.py [--models 100] [--datasets 500] [--groups 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from assay.rundir.index import RunIndex
from assay.rundir.results import read_result_without_details
from assay.rundir.statistics import index_run
from assay.summarize import run_summarizer

GEN = "opencompass.openicl.icl_inferencer.GenInferencer"


def make_run(root: Path, n_models: int, n_datasets: int, n_groups: int, seed: int = 0) -> dict[str, Any]:
    rnd = random.Random(seed)
    run = root / "20240101_000000"
    datasets = [f"bench_ds_{i:04d}" for i in range(n_datasets)]
    models = [f"model_{i:03d}" for i in range(n_models)]
    for m in models:
        folder = run / "results" / m
        folder.mkdir(parents=True)
        for d in datasets:
            result: dict[str, Any] = {"accuracy": rnd.uniform(0, 100), "f1": rnd.uniform(0, 100)}
            if rnd.random() < 0.1:
                result["details"] = [{"pred": "A", "answer": "B", "correct": False}] * 20
            (folder / f"{d}.json").write_bytes(orjson.dumps(result, option=orjson.OPT_INDENT_2))
    per_group = max(1, n_datasets // n_groups)
    groups = []
    for g in range(n_groups):
        members = datasets[g * per_group : (g + 1) * per_group] or datasets[:per_group]
        kind = g % 4
        if kind == 0:
            groups.append({"name": f"grp_{g}", "subsets": [[d, "accuracy"] for d in members]})
        elif kind == 1:
            groups.append({"name": f"grp_{g}", "subsets": members, "weights": {d: rnd.randint(1, 9) for d in members}})
        elif kind == 2:
            groups.append({"name": f"grp_{g}", "subsets": members, "std": True})
        else:
            groups.append({"name": f"grp_{g}", "subsets": members, "transforms": {members[0]: "100 - x"}})
    return {
        "models": [{"abbr": m} for m in models],
        "datasets": [
            {
                "abbr": d,
                "infer_cfg": {
                    "prompt_template": {
                        "type": "opencompass.openicl.icl_prompt_template.PromptTemplate",
                        "template": d,
                    },
                    "retriever": {"type": "opencompass.openicl.icl_retriever.ZeroRetriever"},
                    "inferencer": {"type": GEN},
                },
            }
            for d in datasets
        ],
        "work_dir": str(run),
        "summarizer": {"summary_groups": groups},
    }


def _timed(fn: Any, repeat: int) -> tuple[list[float], Any]:
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return times, out


def _figure(times: list[float]) -> str:
    return f"best {min(times):.3f} s, median {statistics.median(times):.3f} s over {len(times)} runs"


def _phase(args: argparse.Namespace) -> None:
    """One measurement in this (fresh) process, as a command would run: prints its times as JSON."""
    import json

    config = json.loads(Path(args.config).read_text())
    run = Path(config["work_dir"])
    stamp = iter(range(10_000))
    if args.phase == "build":
        def build() -> Any:
            RunIndex(run).remove()
            return index_run(run)

        times, snap = _timed(build, 1)
        print(json.dumps({"times": times, "results": len(snap.rows)}))
        return
    index = args.phase == "index"
    times, result = _timed(
        lambda: run_summarizer(config, time_str=f"{args.phase}_{next(stamp):06d}", index=index), args.repeat
    )
    print(json.dumps({"times": times, "rows": len(result.table) - 1, "table": result.table}))


def bench_summary(args: argparse.Namespace) -> None:
    """Side by side: a summary from the result files, building the run index, a summary from the index.

    Each is measured in a fresh process, as ``assay summarize`` would run.
    """
    import json
    import subprocess
    import sys

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        config = make_run(Path(tmp), args.models, args.datasets, args.groups)
        run = Path(config["work_dir"])
        print(f"generated {args.models} × {args.datasets} result files in {time.perf_counter() - t0:.1f} s")
        config_path = Path(tmp) / "config.json"
        config_path.write_text(json.dumps(config))

        def phase(name: str) -> dict[str, Any]:
            out = subprocess.run(
                [sys.executable, __file__, "--phase", name, "--config", str(config_path), "--repeat", str(args.repeat)],
                check=True, capture_output=True, text=True,
            ).stdout
            return dict(json.loads(out.strip().splitlines()[-1]))

        files = phase("files")
        print(f"summary from files ({files['rows']} rows × {args.models} models, with intervals): {_figure(files['times'])}")
        built = phase("build")
        size = (run / "index.sqlite").stat().st_size / 1e6
        print(f"index build from files ({built['results']} results, {size:.1f} MB): {_figure(built['times'])}")
        time.sleep(2.1)  # past the file system's timestamp granularity: entries are trusted on the files' identity
        indexed = phase("index")
        print(f"summary from the index: {_figure(indexed['times'])}")
        assert indexed["table"] == files["table"], "the index gave another table"
        ratio = statistics.median(files["times"]) / statistics.median(indexed["times"])
        print(f"summary: files / index = {ratio:.1f}×")
        command = [sys.executable, "-m", "assay", "summarize", str(_python_config(config_path)), "-w", str(run),
                   "--no-report"]
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
        print(f"`assay summarize --no-report` from the index, the whole command: {_figure(times)}")


def _python_config(config_path: Path) -> Path:
    """A Python config file (what `assay summarize` takes) holding the generated JSON config."""
    path = config_path.with_suffix(".py")
    path.write_text(
        "import json\n"
        f"_config = json.loads(open({str(config_path)!r}).read())\n"
        "models, datasets, summarizer = _config['models'], _config['datasets'], _config['summarizer']\n"
    )
    return path


def bench_large_file(entries: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.json"
        details = [
            {"pred": "x" * 40, "answer": "y", "correct": i % 2 == 0, "origin_prompt": "q" * 80} for i in range(entries)
        ]
        path.write_text(json.dumps({"accuracy": 50.0, "details": details}, indent=4))
        size = path.stat().st_size / 1e6
        t0 = time.perf_counter()
        read_result_without_details(path, count_details=True)
        cut = time.perf_counter() - t0
        t0 = time.perf_counter()
        orjson.loads(path.read_bytes())
        full = time.perf_counter() - t0
        print(
            f"one {size:.0f} MB result file ({entries} details): details cut out {cut:.3f} s, full parse {full:.3f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--datasets", type=int, default=500)
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--large-entries", type=int, default=200_000)
    parser.add_argument("--phase", choices=["files", "build", "index"], help=argparse.SUPPRESS)
    parser.add_argument("--config", help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    if args.phase:
        _phase(args)
        return
    bench_summary(args)
    bench_large_file(args.large_entries)


if __name__ == "__main__":
    main()

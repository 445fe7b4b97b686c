"""Record OpenCompass 0.5.4's NeedleBench summaries: the tables and the depth × length heatmaps.

Run it with a Python that has opencompass==0.5.4 installed (with matplotlib and
seaborn); OpenCompass is not a dependency of assay::

    python scripts/record_oc_needlebench_summary.py [--out DIR]

For each case it draws NeedleBench scores for three models from a fixed seed
(single-needle and multi-needle reasoning results ``{'score': …}`` per length and
depth, multi-needle retrieval results ``{'Depth<d>': …, 'average_score': …}`` per
length, each score a count of right answers over the library config's repeats),
writes them as result files of a work dir whose datasets are the library's
NeedleBench dataset configs, and runs the library's summarizer config on it
(``needlebench_4k_summarizer``: ``NeedleBenchSummarizer``;
``needlebench_v2_4k_summarizer``: ``NeedleBenchSummarizerV2``), plus
``NeedleBenchATCSummarizer`` on NeedleBench-ATC results.

Each heatmap OpenCompass draws is recorded too: its file under
``summary/plots/``, the depth × length matrix it passed to the heatmap and the
overall score it printed on it.

Output, under ``tests/data/oc_families/needlebench_summary/<case>/`` (default):
``inputs.json`` (models, the library imports of the datasets and the
summarizer, the results), ``summary_head.txt`` (OpenCompass's ``.txt`` up to
its raw section, which repeats the inputs), ``summary.csv`` as OpenCompass
wrote it, and ``plots.json`` (plot file → depths, lengths, matrix, overall
score; ATC: none).
``tests/summarize/test_summarize_needlebench.py`` compares assay with them.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import random
import tempfile
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "oc_families" / "needlebench_summary"
TIME = "20240101_000000"
MODELS = ["internlm2_5-7b-chat-1m-turbomind", "zephyr-7b-beta-vllm", "my-chat-13b"]
#: NeedleBench-ATC's table keeps only the models with a "b" in their name: one without
ATC_MODELS = ["internlm2_5-7b-chat-1m-turbomind", "gpt-4o-mini", "my-chat-13b"]

CASES: dict[str, dict[str, Any]] = {
    "needlebench_4k": {
        "datasets": ("opencompass.configs.datasets.needlebench.needlebench_4k.needlebench_4k", "needlebench_datasets"),
        "summarizer": ("opencompass.configs.summarizers.needlebench", "needlebench_4k_summarizer"),
        "repeats": {"origin": 10, "needle": 10, "parallel": 10},
    },
    "needlebench_v2_4k": {
        "datasets": ("opencompass.configs.datasets.needlebench_v2.needlebench_v2_4k.needlebench_v2_4k",
                     "needlebench_datasets"),
        "summarizer": ("opencompass.configs.summarizers.needlebench", "needlebench_v2_4k_summarizer"),
        "repeats": {"origin": 10, "needle": 10, "parallel": 25},
    },
    "atc": {
        "datasets": ("opencompass.configs.datasets.needlebench.atc.atc", "needlebench_atc_datasets_en"),
        "extra_datasets": [
            ("opencompass.configs.datasets.needlebench.atc.atc", "needlebench_atc_datasets_zh"),
            ("opencompass.configs.datasets.needlebench.atc.atc", "needlebench_atc_datasets_en_ordered"),
            ("opencompass.configs.datasets.needlebench.atc.atc", "needlebench_atc_datasets_zh_ordered"),
        ],
        "summarizer": None,
        "repeats": {"atc": 30},
    },
}


def _load_config(imports: list[tuple[str, str]]) -> dict[str, Any]:
    """The library's variables, loaded through mmengine as OpenCompass loads a config."""
    from mmengine.config import Config

    lines = ["from mmengine.config import read_base", "", "with read_base():"]
    for k, (module, name) in enumerate(imports):
        lines.append(f"    from {module} import {name} as v{k}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.py"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        cfg = Config.fromfile(str(path))
    return {f"v{k}": cfg[f"v{k}"] for k in range(len(imports))}


def _strength(model: int, length: int, depth: float) -> float:
    """How likely a model is to find the needle: falls with length and in the middle of the context."""
    base = (0.95, 0.75, 0.55)[model]
    return max(0.02, min(0.99, base - length / 20000 - 0.25 * (1 - abs(depth - 50) / 50) * (model / 2)))


def _count(rng: random.Random, n: int, p: float) -> int:
    return sum(rng.random() < p for _ in range(n))


def build_results(case: str, datasets: list[dict[str, Any]], seed: int = 7) -> dict[str, dict[str, Any]]:
    """Model → dataset abbr → the result dict (as OpenCompass's NeedleBench evaluators write it, without details)."""
    rng = random.Random(f"{seed}-{case}")
    repeats = CASES[case]["repeats"]
    results: dict[str, dict[str, Any]] = {}
    for m, model in enumerate(ATC_MODELS if case == "atc" else MODELS):
        row: dict[str, Any] = {}
        for ds in datasets:
            abbr = ds["abbr"]
            if case == "atc":
                n = repeats["atc"]
                needles = int(abbr.split("needle_")[1].split("_")[0])
                p = max(0.0, (0.98, 0.9, 0.8)[m] - needles * (0.004, 0.012, 0.03)[m])
                row[abbr] = {"score": 100 * _count(rng, n, p) / n}
                continue
            length = int(ds["length"])
            if "parallel" in abbr:
                n = repeats["parallel"]
                depths = [int(d) for d in ds["depths"]]
                scores = {f"Depth{d}": 0.0 for d in depths}
                for d in depths:
                    for _ in range(_count(rng, n, _strength(m, length, d) - 0.1)):
                        scores[f"Depth{d}"] += 100 / n
                row[abbr] = {**scores, "average_score": sum(scores.values()) / len(scores)}
            else:
                n = repeats["origin" if "origin" in abbr else "needle"]
                hard = 0.0 if "origin" in abbr else 0.05 * int(abbr.split("needle_")[0][-1])
                row[abbr] = {"score": 100 * _count(rng, n, _strength(m, length, ds["depth"]) - hard) / n}
        results[model] = row
    if case != "atc":
        # one model without two of its results: its cells show "-" and its groups fail
        results[MODELS[2]].pop(datasets[0]["abbr"])
        results[MODELS[2]].pop(next(d["abbr"] for d in datasets if "parallel" in d["abbr"]))
    return results


class _Recorder:
    """Stands in for the ``sns`` and ``plt`` of OpenCompass's needlebench module, recording each heatmap."""

    def __init__(self, real: Any, plots: dict[str, Any], pending: list[Any], kind: str) -> None:
        self._real, self._plots, self._pending, self._kind = real, plots, pending, kind

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._real, name)
        if self._kind == "sns" and name == "heatmap":
            def heatmap(data: Any, *args: Any, **kwargs: Any) -> Any:
                self._pending.append({
                    "depths": [float(d) for d in data.index.values],
                    "lengths": [int(x) for x in data.columns.values],
                    "matrix": [[None if v != v else float(v) for v in r] for r in data.values.tolist()],
                })
                return attr(data, *args, **kwargs)
            return heatmap
        if self._kind == "plt" and name == "savefig":
            def savefig(path: str, *args: Any, **kwargs: Any) -> Any:
                self._plots[str(path)] = self._pending.pop()
                return attr(path, *args, **kwargs)
            return savefig
        return attr


def run_opencompass(case: str, work_dir: Path) -> dict[str, Any]:
    from mmengine.config import ConfigDict
    from opencompass.summarizers import needlebench as nb

    spec = CASES[case]
    imports = [spec["datasets"], *spec.get("extra_datasets", [])]
    if spec["summarizer"] is not None:
        imports.append(spec["summarizer"])
    loaded = _load_config(imports)
    datasets = [d for k in range(1 + len(spec.get("extra_datasets", []))) for d in loaded[f"v{k}"]]
    summarizer_cfg = dict(loaded[f"v{len(imports) - 1}"]) if spec["summarizer"] is not None else {}
    results = build_results(case, datasets)
    for model, row in results.items():
        folder = work_dir / "results" / model
        folder.mkdir(parents=True, exist_ok=True)
        for abbr, result in row.items():
            (folder / f"{abbr}.json").write_text(json.dumps({**result, "details": []}), encoding="utf-8")
    models = list(results)
    config = ConfigDict(models=[{"abbr": m} for m in models], datasets=datasets, work_dir=str(work_dir))
    plots: dict[str, Any] = {}
    pending: list[Any] = []
    real_sns, real_plt, real_visualize = nb.sns, nb.plt, nb.visualize
    overall: dict[str, float] = {}

    def visualize(df_raw: Any, save_path: str, model_name: str, dataset_type: str) -> Any:
        before = set(plots)
        score = real_visualize(df_raw, save_path, model_name, dataset_type)
        for path in set(plots) - before:
            overall[path] = float(score)
        return score

    nb.sns, nb.plt, nb.visualize = _Recorder(real_sns, plots, pending, "sns"), _Recorder(real_plt, plots, pending, "plt"), visualize
    try:
        if case == "atc":
            nb.NeedleBenchATCSummarizer(config).summarize(time_str=TIME)
        else:
            options = {k: v for k, v in summarizer_cfg.items() if k != "type"}
            summarizer_cfg["type"](config, **options).summarize(time_str=TIME)
    finally:
        nb.sns, nb.plt, nb.visualize = real_sns, real_plt, real_visualize
    summary = work_dir / "summary"
    written = sorted(str(p.relative_to(summary)) for p in (summary / "plots").rglob("*.png")) if (summary / "plots").is_dir() else []
    recorded = {str(Path(p).relative_to(summary)): {**v, "overall": overall.get(p)} for p, v in plots.items()}
    assert sorted(recorded) == written, (sorted(recorded), written)
    return {
        "inputs": {
            "about": f"NeedleBench results drawn by scripts/record_oc_needlebench_summary.py ({case}); "
                     "summary_head.txt (its .txt up to the raw section), summary.csv and plots.json are what OpenCompass wrote for them.",
            "opencompass": importlib.metadata.version("opencompass"),
            "models": models,
            "dataset_imports": [list(i) for i in [spec["datasets"], *spec.get("extra_datasets", [])]],
            "summarizer_import": None if spec["summarizer"] is None else list(spec["summarizer"]),
            "time": TIME,
            "results": results,
        },
        "txt": (summary / f"summary_{TIME}.txt").read_text(encoding="utf-8"),
        "csv": (summary / f"summary_{TIME}.csv").read_text(encoding="utf-8"),
        "plots": dict(sorted(recorded.items())),
    }


def _lines(data: dict[str, Any], nested: str) -> str:
    """JSON with one line per entry of ``data[nested]`` (small files that diff well)."""
    head = {k: v for k, v in data.items() if k != nested}
    body = ",\n".join(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in data[nested].items())
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2] + "," if head else "{"
    return f"{text}\n {json.dumps(nested)}: {{\n{body}\n}}\n}}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--case", choices=[*CASES, "all"], default="all")
    args = parser.parse_args()
    os.environ.setdefault("MPLBACKEND", "Agg")
    for case in CASES if args.case == "all" else [args.case]:
        with tempfile.TemporaryDirectory() as tmp:
            got = run_opencompass(case, Path(tmp) / TIME)
        out = args.out / case
        out.mkdir(parents=True, exist_ok=True)
        (out / "inputs.json").write_text(_lines(got["inputs"], "results"), encoding="utf-8")
        # the raw section repeats the inputs (and lists a group's metrics in an order that varies by run)
        head = got["txt"][: got["txt"].index("raw format\n") + len("raw format\n")]
        (out / "summary_head.txt").write_text(head, encoding="utf-8")
        (out / "summary.csv").write_text(got["csv"], encoding="utf-8")
        if got["plots"]:
            (out / "plots.json").write_text(_lines({"plots": got["plots"]}, "plots"), encoding="utf-8")
        print(textwrap.shorten(f"{case}: {len(got['plots'])} plots", 200))


if __name__ == "__main__":
    main()

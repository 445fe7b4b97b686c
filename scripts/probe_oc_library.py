"""Load every dataset config of OpenCompass's library with assay; print the load and runnable rates.

Usage::

    python scripts/probe_oc_library.py [--library FOLDER] [--top 25] [--json OUT]

``FOLDER`` holds ``opencompass/configs`` (an unpacked wheel or a checkout of
OpenCompass's repository); without it, the OpenCompass 0.5.4 wheel is
downloaded with ``pip download --no-deps`` into a cache folder and unpacked.

Every file under ``opencompass/configs/datasets`` that assigns a ``*datasets``
name is wrapped in a config of its own, as users write them::

    from mmengine.config import read_base
    with read_base():
        from opencompass.configs.datasets.gsm8k.gsm8k_gen import *

and loaded with assay in this process.  A file *loads* when assay reads the
config, and *plans* when assay lists its tasks (a mistake of the config as a
whole stops that; a mistake in one dataset fails only that dataset's tasks, as
``assay run`` does); it is *runnable* when every task can run
(:func:`check_runnable`: no task has a config problem, and no component of a
task is an OpenCompass name assay does not implement).  The script prints both rates and the names that most
often keep a config from running.  It exits 1 when a file fails to load that OpenCompass 0.5.4 itself loads
(:data:`OPENCOMPASS_FAILS_TO_LOAD` lists those it does not).
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

OPENCOMPASS_VERSION = "0.5.4"

#: Files that OpenCompass 0.5.4 itself cannot load (mmengine's ``Config.fromfile`` of the wrapper raises:
#: a base config file that is not in the library, or an error while the file runs), measured with
#: OpenCompass 0.5.4 installed.
OPENCOMPASS_FAILS_TO_LOAD: frozenset[str] = frozenset({
    "opencompass.configs.datasets.MathBench.mathbench_2024_few_shot_mixed_4a3fd4",
    "opencompass.configs.datasets.MathBench.mathbench_2024_few_shot_new_mixed",
    "opencompass.configs.datasets.MathBench.mathbench_2024_wocircular_mixed_8eb12b",
    "opencompass.configs.datasets.collections.base_core",
    "opencompass.configs.datasets.collections.base_medium",
    "opencompass.configs.datasets.collections.base_medium_llama",
    "opencompass.configs.datasets.collections.chat_core",
    "opencompass.configs.datasets.collections.chat_medium",
    "opencompass.configs.datasets.collections.leaderboard.qwen",
    "opencompass.configs.datasets.collections.leaderboard.qwen_chat",
    "opencompass.configs.datasets.wikibench.wikibench_few_shot_ppl_c23d79",
})


@dataclass
class Outcome:
    """What happened to one library file."""

    module: str
    loaded: bool = False
    planned: bool = False
    error: str = ""
    tasks: int = 0
    #: dotted names of the components assay lacks, over every task
    missing: list[str] = field(default_factory=list)
    #: the config problems of the tasks that cannot run for one (one line each, without the file)
    problems: list[str] = field(default_factory=list)
    #: why some task needs a model to evaluate (an LLM judge, a model postprocessor); empty: none does
    model_uses: list[str] = field(default_factory=list)

    @property
    def runnable(self) -> bool:
        return self.planned and not self.missing and not self.problems


def fetch_library(cache: Path) -> Path:
    """Download and unpack the OpenCompass wheel (once); return the folder holding ``opencompass/``."""
    root = cache / f"opencompass-{OPENCOMPASS_VERSION}"
    if (root / "opencompass" / "configs").is_dir():
        return root
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    found = sorted(wheels.glob(f"opencompass-{OPENCOMPASS_VERSION}-*.whl"))
    if not found:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", f"opencompass=={OPENCOMPASS_VERSION}", "-d", str(wheels)],
            check=True,
        )
        found = sorted(wheels.glob(f"opencompass-{OPENCOMPASS_VERSION}-*.whl"))
    partial = root.with_name(root.name + ".partial")
    with zipfile.ZipFile(found[0]) as zf:
        zf.extractall(partial)
    partial.rename(root)
    return root


def dataset_files(library: Path) -> list[str]:
    """Module names of the library files that assign a ``*datasets`` name at top level."""
    base = library / "opencompass" / "configs" / "datasets"
    modules = []
    for path in sorted(base.rglob("*.py")):
        if path.name == "__init__.py":
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            modules.append(_module(library, path))  # counted, and fails to load
            continue
        names = [
            t.id
            for node in tree.body
            if isinstance(node, (ast.Assign, ast.AnnAssign))
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(t, ast.Name)
        ]
        if any(n.endswith("datasets") for n in names):
            modules.append(_module(library, path))
    return modules


def _module(library: Path, path: Path) -> str:
    return ".".join(path.relative_to(library).with_suffix("").parts)


WRAPPER = """from mmengine.config import read_base
with read_base():
    from {module} import *
datasets = [d for _name, _value in list(locals().items()) if _name.endswith('datasets') and isinstance(_value, list)
            for d in _value]
models = [dict(abbr='probe-model', path='probe-model')]
"""


#: Config keys whose presence in a task's ``eval_cfg`` means a model evaluates it.
MODEL_KEYS = frozenset({"judge_cfg", "llm_evaluator", "model_postprocessor", "url", "api_url", "extract_url"})
#: Component names (last dotted part, lower case) that call a model.
MODEL_COMPONENTS = frozenset({"genericllmevaluator", "lmevaluator", "xfinder_postprocess",
                              "navie_model_postprocess", "naive_model_postprocess", "gaokaomathevaluator",
                              "healthbenchevaluator", "fakealignmentjudgeevaluator"})


def model_uses(dataset: dict[str, object]) -> list[str]:
    """Why evaluating a dataset config needs a model: the judge keys and model-calling components of its ``eval_cfg``."""
    found: list[str] = []

    def walk(value: object, key: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k in MODEL_KEYS and v:
                    found.append(f"{key}.{k}")
                walk(v, f"{key}.{k}")
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, key)
        elif key.endswith("type"):
            name = value if isinstance(value, str) else getattr(value, "__name__", "")
            if isinstance(name, str) and name.rsplit(".", 1)[-1].lower() in MODEL_COMPONENTS:
                found.append(f"{key}={name.rsplit('.', 1)[-1]}")

    walk(dataset.get("eval_cfg"), "eval_cfg")
    return found


def check_runnable(config: object, run_dir: Path) -> tuple[list[str], list[str]]:
    """The dotted names of components assay lacks, and the tasks' config problems, over every task of a loaded config.

    Plans the tasks and looks at each one's config problem
    (:attr:`assay.tasks.plan.EvalTask.config_problem`) and its loader,
    evaluator and postprocessors (:func:`assay.tasks.plan.unavailable_components`).
    """
    from assay.rundir.layout import RunDir
    from assay.tasks.plan import plan_tasks, unavailable_components

    missing: list[str] = []
    problems: list[str] = []
    for task in plan_tasks(config, RunDir(run_dir)):  # type: ignore[arg-type]
        if task.config_problem:
            problems.append(task.config_problem.split(": ", 1)[-1])
            continue
        missing += [dotted for _key, dotted in unavailable_components(task.dataset, task.model)]
    from assay.subjective.plan import MODES, is_subjective

    # a dataset an LLM judges has no task of plan_tasks' (its judge tasks need a judge the probe has not):
    # its loader, evaluator and postprocessors are checked per model all the same (its summarizer, which
    # only a summary by dataset summarizers runs, is not), and its mode, without which no judge task is planned
    for dataset in getattr(config, "datasets", []):
        if is_subjective(dataset):
            if dataset.get("mode") not in MODES:
                problems.append(f"dataset {dataset.get('abbr')!r}: mode={dataset.get('mode')!r}; a judged dataset needs "
                                f"mode one of {', '.join(MODES)}")
            judged = {k: v for k, v in dataset.items() if k != "summarizer"}
            for model in getattr(config, "models", []) or [{}]:
                missing += [dotted for _key, dotted in unavailable_components(judged, model)]
    return missing, problems


def probe(library: Path, modules: list[str], workdir: Path) -> list[Outcome]:
    os.environ["ASSAY_OPENCOMPASS"] = str(library)
    from assay.config import load_config
    from assay.opencompass import install

    install()
    outcomes = []
    for i, module in enumerate(modules):
        outcome = Outcome(module)
        wrapper = workdir / f"probe_{i}.py"
        wrapper.write_text(WRAPPER.format(module=module), encoding="utf-8")
        try:
            config = load_config(wrapper)
            outcome.loaded = True
            outcome.tasks = len(config.datasets)
            outcome.model_uses = [use for d in config.datasets if isinstance(d, dict) for use in model_uses(d)]
            outcome.missing, outcome.problems = check_runnable(config, workdir / "run")
            outcome.planned = True
        except Exception as exc:  # every failure is counted and reported
            outcome.error = f"{type(exc).__name__}: {exc}".splitlines()[0][:300].replace(str(wrapper), "<wrapper>")
        outcomes.append(outcome)
    return outcomes


def report(outcomes: list[Outcome], top: int) -> dict[str, object]:
    total = len(outcomes)
    loaded = sum(o.loaded for o in outcomes)
    planned = sum(o.planned for o in outcomes)
    runnable = sum(o.runnable for o in outcomes)
    by_name: collections.Counter[str] = collections.Counter()
    for o in outcomes:
        by_name.update(set(o.missing))
    errors = collections.Counter(o.error for o in outcomes if not o.planned)
    problem_files = [o for o in outcomes if o.problems]
    return {
        "files": total,
        "loaded": loaded,
        "planned": planned,
        "runnable": runnable,
        "load_rate": loaded / total if total else 0.0,
        "plan_rate": planned / total if total else 0.0,
        "runnable_rate": runnable / total if total else 0.0,
        "top_missing": by_name.most_common(top),
        "load_errors": errors.most_common(),
        "failed_files": sorted(o.module for o in outcomes if not o.loaded),
        "unplanned_files": sorted(o.module for o in outcomes if o.loaded and not o.planned),
        "files_with_task_problems": len(problem_files),
        "task_problems": {o.module: o.problems[0] for o in problem_files},
    }


def folder_of(module: str) -> str:
    """The dataset folder of a library module: ``'gsm8k'`` for ``opencompass.configs.datasets.gsm8k.gsm8k_gen``."""
    parts = module.split(".")
    return parts[3] if len(parts) > 4 else ""


def folder_table(outcomes: list[Outcome]) -> list[dict[str, object]]:
    """Per folder: files, loaded, runnable (no model needed), needing a model, not runnable and the names missing.

    A file *needs a model* when some task is evaluated by a model (an LLM
    judge, a model postprocessor: :func:`model_uses`), whether or not assay
    implements it or the file plans; the other loaded files are runnable or
    not runnable.
    """
    rows: dict[str, dict[str, object]] = {}
    for o in outcomes:
        row = rows.setdefault(folder_of(o.module), {"files": 0, "loaded": 0, "runnable": 0, "needs_model": 0,
                                                    "not_runnable": 0, "missing": collections.Counter(), "not_runnable_files": [],
                                                    "model_files": []})
        row["files"] += 1  # type: ignore[operator]
        if not o.loaded:
            row["not_runnable_files"].append(f"{o.module.rsplit('.', 1)[-1]} (does not load: {o.error})")  # type: ignore[attr-defined]
            continue
        row["loaded"] += 1  # type: ignore[operator]
        if o.model_uses:
            line = f"{o.module.rsplit('.', 1)[-1]} ({', '.join(sorted(set(o.model_uses))[:3])})"
            if o.planned and not o.runnable and o.missing:  # evaluated by a model, and not runnable either: why
                line += f"; not runnable: {', '.join(_short(n) for n in sorted(set(o.missing)))}"
            elif o.planned and not o.runnable and o.problems:
                line += f"; not runnable: config problem: {o.problems[0]}"
            row["model_files"].append(line)  # type: ignore[attr-defined]
        if o.model_uses:
            row["needs_model"] += 1  # type: ignore[operator]
        elif o.runnable:
            row["runnable"] += 1  # type: ignore[operator]
        else:
            row["not_runnable"] += 1  # type: ignore[operator]
            row["missing"].update(set(o.missing))  # type: ignore[attr-defined]
            why = ", ".join(sorted(set(o.missing))) if o.planned else f"does not plan: {o.error}"
            if o.problems:
                why = "; ".join(filter(None, [why, f"config problem: {o.problems[0]}"]))
            row["not_runnable_files"].append(f"{o.module.rsplit('.', 1)[-1]} ({why})")  # type: ignore[attr-defined]
    return [{"folder": name, **row} for name, row in rows.items()]


def opencompass_lacks(dotted: str) -> bool:
    """Whether OpenCompass 0.5.4 itself does not define a name a config imports (so it cannot run there either)."""
    from assay.opencompass import unavailable_message

    return unavailable_message(dotted).startswith(f"{dotted}: neither assay nor OpenCompass")


#: Names OpenCompass 0.5.4 defines that cannot run there either, and why; assay leaves them unimplemented rather
#: than reproduce the failure.
OPENCOMPASS_BROKEN: dict[str, str] = {
    "opencompass.datasets.safety.SafetyDataset": "its load() builds the test split and returns nothing",
    "opencompass.datasets.omni_math.OmniMathEvaluator": "the library's config lists no Omni-Judge server (url=[]), "
                                                         "over which its batches are divided (a division by zero), "
                                                         "and it loads the Omni-Judge tokenizer's code from the Hub",
    "opencompass.datasets.cibench.CIBenchEvaluator": "its constructor assigns output_dir, a read-only property of "
                                                     "OpenCompass's BaseEvaluator (AttributeError before anything is "
                                                     "scored), and its score() imports opencompass.lagent, which "
                                                     "OpenCompass does not ship",
}


#: Library files that OpenCompass 0.5.4 loads but cannot score (its evaluation fails on them), and why.
OPENCOMPASS_FILE_FAILS: dict[str, str] = {
    "opencompass.configs.datasets.truthfulqa.truthfulqa_gen_1e7d8d": (
        "TruthfulQAEvaluator wraps its metrics argument in a list, so the tuple ('truth', 'info') fails its own check"
    ),
    "opencompass.configs.datasets.CHARM.charm_memory_gen_bbbd53": (
        "its judged datasets name no mode, which every subjective partitioner of OpenCompass 0.5.4 reads (a KeyError)"
    ),
    "opencompass.configs.datasets.fake_alignment.fake_alignment_gen": (
        "its FakeAlignmentJudgeEvaluator is given no judge_model_cfg, without which its score() stops with a ValueError "
        "(assay runs the file given a judge_model_cfg in the evaluator's config)"
    ),
    "opencompass.configs.datasets.PJExam.PJExam_gen_8cd97c": (
        "its reader_cfg is a one-element tuple (a trailing comma), which OpenCompass's dataset reader cannot take"
    ),
}

#: Why a library file does not run in assay: each file that does not run names one of these
#: (docs/benchmarks.md, "The whole library"; the keys are what the index prints).
REASONS: dict[str, str] = {
    "OpenCompass fails too": "OpenCompass 0.5.4 cannot score it either: the file imports a library file that does not exist, "
                             "names a component OpenCompass does not define, or OpenCompass's own code fails on it",
    "config problem": "assay's checks refuse a task and say why (e.g. two datasets with one abbr and different "
                      "configs, pass@k with k above n, no evaluator)",
    "remote service": "the evaluator sends each reply to a service on the network, which alone holds the tests",
    "model weights": "the evaluator runs a model whose weights only a model hub provides",
    "NLTK data": "the evaluator reads data files (a word list, a tagger's trained weights) that only NLTK's downloader provides",
    "multimodal": "the benchmark's inputs are images, scored by a vision-language toolkit",
    "scorer outside PyPI": "the evaluator imports a scoring package that only a Git repository provides",
    "program outside PyPI and Debian": "the evaluator runs a program that neither PyPI nor Debian's archive provides",
    "Hub loading script": "the data is read by a dataset script the Hugging Face Hub serves (trust_remote_code), "
                          "which assay does not run",
    "not implemented yet": "assay does not implement a loader, evaluator or postprocessor the file names yet",
}


def file_reason(o: Outcome) -> tuple[str, str]:
    """Why a library file does not run: a key of :data:`REASONS` and the detail (``('', '')`` when it runs)."""
    from assay.opencompass import OFFLINE_LIMITS

    if o.runnable:
        return "", ""
    if not o.loaded:
        # the error without the wrapper's place and the library's folder, which differ between machines
        error = re.sub(r"^ConfigError: <wrapper>:\d+: ", "", o.error)
        error = re.sub(r"No module named '([\w.]+)' \(no such file in OpenCompass's config library [^)]*\)",
                       r"imports \1, which the library does not have", error)
        return ("OpenCompass fails too" if o.module in OPENCOMPASS_FAILS_TO_LOAD else "does not load"), error
    if o.module in OPENCOMPASS_FILE_FAILS:
        return "OpenCompass fails too", OPENCOMPASS_FILE_FAILS[o.module]
    if not o.planned:
        return "config problem", re.sub(r"^ConfigError: <wrapper>(:\d+)?: ", "", o.error)
    missing = sorted(set(o.missing))
    lacking = [n for n in missing if opencompass_lacks(n)]
    if lacking:
        return "OpenCompass fails too", f"{', '.join(n.rsplit('.', 1)[-1] for n in lacking)}: OpenCompass 0.5.4 does not define it"
    broken = [n for n in missing if n in OPENCOMPASS_BROKEN]
    if broken:
        return "OpenCompass fails too", "; ".join(f"{n.rsplit('.', 1)[-1]}: {OPENCOMPASS_BROKEN[n]}" for n in broken)
    limited = [n for n in missing if n in OFFLINE_LIMITS]
    if limited:
        reason, detail = OFFLINE_LIMITS[limited[0]]
        return reason, detail
    if missing:
        return "not implemented yet", ", ".join(n.rsplit(".", 1)[-1] for n in missing)
    return "config problem", o.problems[0]


def markdown_index(outcomes: list[Outcome]) -> str:
    """The per-folder index of the whole library: files, how many run, and why the others do not."""
    folders: dict[str, list[Outcome]] = collections.defaultdict(list)
    for o in outcomes:
        folders[folder_of(o.module)].append(o)
    loadable = [o for o in outcomes if o.module not in OPENCOMPASS_FAILS_TO_LOAD]
    runs = sum(o.runnable for o in loadable)
    lines = [
        f"Of the library's {len(outcomes)} dataset config files, OpenCompass {OPENCOMPASS_VERSION} loads {len(loadable)}; "
        f"assay runs every task of **{runs}** of those ({runs / len(loadable):.1%}), "
        f"{sum(o.runnable and bool(o.model_uses) for o in loadable)} of them with an LLM judge or a model postprocessor "
        "(given an OpenAI-compatible endpoint). Generated by `scripts/probe_oc_library.py --markdown`.",
        "",
        "| reason a file does not run | files | what it means |",
        "|---|---:|---|",
    ]
    counts = collections.Counter(file_reason(o)[0] for o in outcomes if not o.runnable)
    for reason, meaning in REASONS.items():
        lines.append(f"| {reason} | {counts.get(reason, 0)} | {meaning} |")
    if counts.get("does not load"):
        lines.append(f"| does not load | {counts['does not load']} | assay fails to load a file OpenCompass loads |")
    lines += ["", "| folder | files | run | of which judged | do not run | why not |", "|---|---:|---:|---:|---:|---|"]
    for folder in sorted(folders, key=str.lower):
        group = folders[folder]
        run = [o for o in group if o.runnable]
        why: dict[tuple[str, str], list[str]] = collections.defaultdict(list)
        for o in group:
            if not o.runnable:
                why[file_reason(o)].append(o.module.rsplit(".", 1)[-1])
        text = "; ".join(
            f"{reason}: {', '.join(f'`{f}`' for f in files)} — {detail.replace('|', '/')}"
            for (reason, detail), files in sorted(why.items())
        )
        lines.append(
            f"| `{folder or '(top)'}` | {len(group)} | {len(run)} | {sum(bool(o.model_uses) for o in run)} | "
            f"{len(group) - len(run)} | {text} |"
        )
    return "\n".join(lines) + "\n"


INDEX_START = "<!-- library index: generated by scripts/probe_oc_library.py --markdown; do not edit by hand -->"
INDEX_END = "<!-- end of the library index -->"


def replace_index(document: str, index: str) -> str:
    """``document`` with the text between :data:`INDEX_START` and :data:`INDEX_END` replaced by ``index``."""
    start, end = document.find(INDEX_START), document.find(INDEX_END)
    if start < 0 or end < start:
        raise ValueError(f"the document has no library index markers ({INDEX_START!r} … {INDEX_END!r})")
    return document[: start + len(INDEX_START)] + "\n" + index + document[end:]


def _short(dotted: str) -> str:
    if opencompass_lacks(dotted):
        return dotted.rsplit(".", 1)[-1] + " [not in OpenCompass]"
    return dotted.rsplit(".", 1)[-1] + (" [fails in OpenCompass]" if dotted in OPENCOMPASS_BROKEN else "")


def print_folders(table: list[dict[str, object]], verbose: bool) -> None:
    print(f"{'folder':18} {'files':>5} {'loaded':>6} {'runnable':>8} {'model':>5} {'not run':>7}  missing names (files)")
    totals = collections.Counter()
    for row in table:
        missing = ", ".join(f"{_short(n)} ({c})" for n, c in row["missing"].most_common())  # type: ignore[attr-defined]
        print(f"{row['folder']:18} {row['files']:5} {row['loaded']:6} {row['runnable']:8} {row['needs_model']:5} {row['not_runnable']:7}  {missing}")
        totals.update({k: row[k] for k in ("files", "loaded", "runnable", "needs_model", "not_runnable")})  # type: ignore[misc]
        if verbose:
            for line in row["not_runnable_files"]:  # type: ignore[attr-defined]
                print(f"    not runnable: {line}")
            for line in row["model_files"]:  # type: ignore[attr-defined]
                print(f"    model:        {line}")
    print(f"{'total':18} {totals['files']:5} {totals['loaded']:6} {totals['runnable']:8} {totals['needs_model']:5} {totals['not_runnable']:7}")
    print("model: some task is evaluated by a model (LLM judge, model postprocessor); "
          "[not in OpenCompass]: OpenCompass 0.5.4 does not define the name either; "
          "[fails in OpenCompass]: OpenCompass 0.5.4 defines it, and it fails there (" +
          "; ".join(f"{k.rsplit('.', 1)[-1]}: {v}" for k, v in OPENCOMPASS_BROKEN.items()) + ")")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--library", type=Path, help="folder holding opencompass/configs (default: download the wheel)")
    parser.add_argument("--cache", type=Path, default=Path(os.environ.get("ASSAY_TEST_CACHE") or Path.home() / ".cache" / "assay-tests"))
    parser.add_argument("--top", type=int, default=25, help="how many missing names to list")
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    parser.add_argument("--folders", help="comma-separated dataset folders (gsm8k,math,...): probe only these, print a table per folder")
    parser.add_argument("--verbose", action="store_true", help="with --folders: list each file that does not run, and why")
    parser.add_argument("--markdown", type=Path, metavar="DOC",
                        help="rewrite the library index (per folder: files, how many run, why the others do not) between "
                             "its markers in this Markdown file (docs/benchmarks.md)")
    parser.add_argument("--check-docs", type=Path, metavar="DOC",
                        help="exit 1 when the library index in this Markdown file differs from the probe's")
    args = parser.parse_args(argv)
    library = args.library or fetch_library(args.cache)
    if not (library / "opencompass" / "configs").is_dir():
        parser.error(f"{library} holds no opencompass/configs")
    modules = dataset_files(library)
    if args.folders and (args.markdown or args.check_docs):
        parser.error("the library index covers every folder: --markdown and --check-docs do not take --folders")
    if args.folders:
        wanted = {f.strip() for f in args.folders.split(",") if f.strip()}
        unknown = wanted - {folder_of(m) for m in modules}
        if unknown:
            parser.error(f"no dataset config files in folder(s) {', '.join(sorted(unknown))}")
        modules = [m for m in modules if folder_of(m) in wanted]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="assay-probe-") as tmp:
        outcomes = probe(library, modules, Path(tmp))
    seconds = time.perf_counter() - start
    result = report(outcomes, args.top)
    if args.folders:
        table = folder_table(outcomes)
        print_folders(table, args.verbose)
        result["folders"] = [{**row, "missing": dict(row["missing"])} for row in table]  # type: ignore[call-overload]
    print(f"{result['files']} dataset config files of OpenCompass's library, probed in {seconds:.0f} s")
    print(f"loaded:   {result['loaded']} ({result['load_rate']:.1%})")
    print(f"planned:  {result['planned']} ({result['plan_rate']:.1%}) — loaded, and assay's checks of the datasets pass")
    print(f"runnable: {result['runnable']} ({result['runnable_rate']:.1%}) — planned, no task has a config problem, and every task's loader, "
          "evaluator and postprocessors are implemented")
    print(f"with tasks that cannot run for a config problem (the others run): {result['files_with_task_problems']}")
    print(f"most common names assay does not implement (files using each, of {result['planned']} planned):")
    for name, count in result["top_missing"]:  # type: ignore[attr-defined]
        print(f"  {count:5d}  {name}{' [not in OpenCompass]' if opencompass_lacks(name) else ''}")
    for title, failed in (("files that do not load:", [o for o in outcomes if not o.loaded]),
                          ("files that load but do not plan:", [o for o in outcomes if o.loaded and not o.planned])):
        if failed:
            print(title)
            for o in failed:
                print(f"  {o.module}: {o.error}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    stale = False
    if args.markdown or args.check_docs:
        index = markdown_index(outcomes)
        for path in filter(None, (args.markdown, args.check_docs)):
            document = path.read_text(encoding="utf-8")
            try:
                updated = replace_index(document, index)
            except ValueError as exc:
                parser.error(f"{path}: {exc}")
            if path == args.markdown:
                path.write_text(updated, encoding="utf-8")
            elif updated != document:
                print(f"{path}: the library index is out of date; run scripts/probe_oc_library.py --markdown {path}",
                      file=sys.stderr)
                stale = True
    unexpected = [m for m in result["failed_files"] if m not in OPENCOMPASS_FAILS_TO_LOAD]  # type: ignore[attr-defined]
    if unexpected:
        print(f"{len(unexpected)} files load in OpenCompass but not in assay", file=sys.stderr)
    return 1 if unexpected or stale else 0


if __name__ == "__main__":
    raise SystemExit(main())

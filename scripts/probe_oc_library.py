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
config and plans its tasks; it is *runnable* when every task can run
(:func:`check_runnable`: no component of a task is an OpenCompass name assay
does not implement).  The script prints both rates and the names that most
often keep a config from running.  It exits 1 when a file fails to load that OpenCompass 0.5.4 itself loads
(:data:`OPENCOMPASS_FAILS_TO_LOAD` lists those it does not).
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import os
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

    @property
    def runnable(self) -> bool:
        return self.planned and not self.missing


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


def check_runnable(config: object, run_dir: Path) -> list[str]:
    """The dotted names of components assay lacks, over every task of a loaded config.

    Plans the tasks and looks at each one's loader, evaluator and
    postprocessors (:func:`assay.tasks.plan.unavailable_components`).
    """
    from assay.tasks.plan import plan_tasks, unavailable_components
    from assay.workdir import RunDir

    missing: list[str] = []
    for task in plan_tasks(config, RunDir(run_dir)):  # type: ignore[arg-type]
        missing += [dotted for _key, dotted in unavailable_components(task.dataset, task.model)]
    return missing


def probe(library: Path, modules: list[str], workdir: Path) -> list[Outcome]:
    os.environ["ASSAY_OPENCOMPASS"] = str(library)
    from assay.config import load_config
    from assay.config.compat import install

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
            outcome.missing = check_runnable(config, workdir / "run")
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
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--library", type=Path, help="folder holding opencompass/configs (default: download the wheel)")
    parser.add_argument("--cache", type=Path, default=Path(os.environ.get("ASSAY_TEST_CACHE") or Path.home() / ".cache" / "assay-tests"))
    parser.add_argument("--top", type=int, default=25, help="how many missing names to list")
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    args = parser.parse_args(argv)
    library = args.library or fetch_library(args.cache)
    if not (library / "opencompass" / "configs").is_dir():
        parser.error(f"{library} holds no opencompass/configs")
    modules = dataset_files(library)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="assay-probe-") as tmp:
        outcomes = probe(library, modules, Path(tmp))
    seconds = time.perf_counter() - start
    result = report(outcomes, args.top)
    print(f"{result['files']} dataset config files of OpenCompass's library, probed in {seconds:.0f} s")
    print(f"loaded:   {result['loaded']} ({result['load_rate']:.1%})")
    print(f"planned:  {result['planned']} ({result['plan_rate']:.1%}) — loaded, and assay's checks of the datasets pass")
    print(f"runnable: {result['runnable']} ({result['runnable_rate']:.1%}) — planned, and every task's loader, evaluator and postprocessors are implemented")
    print(f"most common names assay does not implement (files using each, of {result['planned']} planned):")
    for name, count in result["top_missing"]:  # type: ignore[attr-defined]
        print(f"  {count:5d}  {name}")
    for title, failed in (("files that do not load:", [o for o in outcomes if not o.loaded]),
                          ("files that load but do not plan:", [o for o in outcomes if o.loaded and not o.planned])):
        if failed:
            print(title)
            for o in failed:
                print(f"  {o.module}: {o.error}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    unexpected = [m for m in result["failed_files"] if m not in OPENCOMPASS_FAILS_TO_LOAD]  # type: ignore[attr-defined]
    if unexpected:
        print(f"{len(unexpected)} files load in OpenCompass but not in assay", file=sys.stderr)
    return 1 if unexpected else 0


if __name__ == "__main__":
    raise SystemExit(main())

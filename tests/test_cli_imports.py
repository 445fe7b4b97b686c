"""What `assay run` imports: what the run needs, each module once for all its processes.

The command runs under a wrapper that has every process of the run (the
driver, and each worker forked from it) write, as it ends, the modules it
imported itself: the driver all of them, a worker those it imported after
it was forked.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).parent.parent / "examples" / "quickstart"

#: Modules the quickstart run has no use for: reading test sets as tables, numerics, the summary
#: tables' fallback renderer (and the package metadata it reads its version from).
NOT_NEEDED = ("pandas", "pyarrow", "numpy", "datasets", "sympy", "math_verify", "httpx", "tabulate", "importlib.metadata")

_WRAPPER = """
import atexit, json, multiprocessing.util, os, sys
out, before = sys.argv.pop(1), set(sys.modules)

def dump(known):
    with open(os.path.join(out, str(os.getpid())), "w") as fh:
        json.dump(sorted(set(sys.modules) - known), fh)

class Worker:  # the hook below runs in each forked worker as it starts, its finalizer as it ends
    pass

atexit.register(dump, before)  # the driver
hook = Worker()
multiprocessing.util.register_after_fork(hook, lambda _: multiprocessing.util.Finalize(None, dump, (set(sys.modules),), exitpriority=0))
from assay.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _imports(args: list[str], cwd: Path, processes: int = 3) -> collections.Counter[str]:
    """How many processes of ``python -m assay ARGS`` imported each module themselves (``processes`` of them ran)."""
    out = cwd / "imports"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-c", _WRAPPER, str(out), *args], cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    counts: collections.Counter[str] = collections.Counter()
    for dump in out.iterdir():
        counts.update(json.loads(dump.read_text()))
    assert len(list(out.iterdir())) == processes  # the driver (and its workers)
    return counts


def test_the_quickstart_run_imports_only_what_it_needs_once(tmp_path: Path) -> None:
    """No table reader, numerics or tabulate; what every task uses is imported by the driver before it
    forks, not again by each worker."""
    counts = _imports(["run", str(EXAMPLE / "config.py"), "-w", str(tmp_path / "out"), "--no-report", "--workers", "2"], tmp_path)
    assert counts["assay.tasks.run"] == 1  # the read itself works
    assert [name for name in NOT_NEEDED if counts[name]] == []
    assert {name: counts[name] for name in ("assay.rundir.predictions", "assay.evaluate.assemble", "ctypes")} == {
        "assay.rundir.predictions": 1, "assay.evaluate.assemble": 1, "ctypes": 1,
    }


def test_a_run_without_statistics_does_not_import_them(tmp_path: Path) -> None:
    """``--no-report``, and no extraction audit (no postprocessor with a corrected counterpart): no process
    imports :mod:`assay.stats`, though the run still removes a ``.stats`` file an earlier run left."""
    shutil.copytree(EXAMPLE / "data", tmp_path / "data")
    shutil.copytree(EXAMPLE / "predictions", tmp_path / "predictions")
    (tmp_path / "config.py").write_text(
        "datasets = [dict(abbr='quick_mcq', type='JsonlDataset', path='data/mcq.jsonl',\n"
        "                 reader_cfg=dict(input_columns=['question'], output_column='answer'),\n"
        "                 eval_cfg=dict(evaluator=dict(type='AccEvaluator')))]\n"
        "models = [dict(abbr=m, predictions=f'predictions/{m}') for m in ('chat-small', 'reasoner')]\n"
    )
    run = ["run", "config.py", "-w", "out", "-r", "r1", "--workers", "2"]
    assert _imports(run, tmp_path)["assay.stats"] >= 1  # with statistics: the workers write them
    stale = tmp_path / "out" / "r1" / "results" / "reasoner" / "quick_mcq.stats"
    assert stale.is_file()
    counts = _imports([*run, "--no-report", "--force"], tmp_path)
    assert counts["assay.tasks.run"] == 1 and counts["assay.stats"] == 0
    assert not stale.exists()


def test_the_quickstart_run_imports_only_the_components_it_names_and_its_workers_import_no_module_of_assay(tmp_path: Path) -> None:
    """A registry lookup imports only the module defining the name; the driver plans the extraction audits before it
    forks, so that the workers (which score, audit and write) start with every module of assay they use."""
    counts = _imports(["run", str(EXAMPLE / "config.py"), "-w", str(tmp_path / "out"), "--no-report", "--workers", "2"], tmp_path)
    components = {name for name in counts if name.startswith(("assay.evaluators.", "assay.datasets.", "assay.postprocess."))}
    assert {"assay.evaluators.exact", "assay.evaluators.gsm8k", "assay.postprocess.options"} <= components
    unused = {"assay.evaluators.code", "assay.evaluators.llm_judge", "assay.evaluators.math", "assay.datasets.mmlu",
              "assay.datasets.humaneval", "assay.postprocess.theoremqa", "assay.postprocess.olympiadbench"}
    assert components & unused == set()
    assert {name: n for name, n in counts.items() if name.startswith("assay") and n > 1} == {}


#: What a small run scored in the driver has no use for: a pool of workers, the other commands, the judge's
#: client, the summarizers and statistics it does not run, and the standard modules only they need.
NOT_NEEDED_INLINE = (
    "multiprocessing", "assay._pool", "ctypes", "assay.commands.verify", "assay.commands.compare", "assay.commands.report",
    "assay.judge._client", "assay.judge._cache", "assay.summarize._circular", "assay.summarize._multi_faceted",
    "assay.stats._compare", "assay.stats._paired", "assay.stats._groups", "statistics", "difflib", "socket", "pickle",
    "importlib.abc", "pkgutil", "assay.sources", "assay.rundir.sources", "assay.subjective.task",
)


def _outputs(run: Path) -> dict[str, bytes]:
    """Every result file's bytes, and the summary's (its time taken out)."""
    files = {str(p.relative_to(run)): p.read_bytes() for p in sorted((run / "results").rglob("*")) if p.is_file()}
    for p in (run / "summary").iterdir():
        files[p.suffix] = p.read_bytes().replace(p.stem.removeprefix("summary_").encode(), b"TIME")
    return files


def test_a_small_run_is_scored_in_the_driver_with_the_bytes_of_a_run_with_workers(tmp_path: Path) -> None:
    """The quickstart (52 samples) without ``--workers``: no worker is forked, only what it uses is imported,
    and every result and summary file has the bytes of the same run scored by two forked workers."""
    config = str(EXAMPLE / "config.py")
    counts = _imports(["run", config, "-w", str(tmp_path / "one"), "-r", "r", "--no-report"], tmp_path, processes=1)
    assert counts["assay.tasks.run"] == 1 and counts["assay.evaluators.exact"] == 1
    assert [name for name in NOT_NEEDED_INLINE + NOT_NEEDED if counts[name]] == []
    _imports(["run", config, "-w", str(tmp_path / "two"), "-r", "r", "--no-report", "--workers", "2"], tmp_path)
    inline, forked = _outputs(tmp_path / "one" / "r"), _outputs(tmp_path / "two" / "r")
    assert len(inline) == 6 + 4 and inline == forked



_STARTUP_WRAPPER = """
import atexit, dataclasses, json, sys
out = sys.argv.pop(1)

def dump():
    generated = sorted(f"{cls.__module__}.{cls.__qualname__}" for name, module in list(sys.modules.items())
                       if name.startswith("assay") for cls in vars(module).values()
                       if isinstance(cls, type) and cls.__module__ == name and dataclasses.is_dataclass(cls)
                       and (cls.__dataclass_params__.init or cls.__dataclass_params__.repr or cls.__dataclass_params__.eq))
    names = sys.modules["assay.opencompass.names"]
    with open(out, "w") as fh:
        json.dump({"generated": generated, "parsed": sorted(names._modules()._parsed), "modules": len(names._modules()),
                   "temporary": sorted({"tempfile", "random"} & set(sys.modules))}, fh)

atexit.register(dump)
from assay.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_the_quickstart_compiles_no_dataclass_method_and_reads_the_name_table_of_its_imports(tmp_path: Path) -> None:
    """What a short run pays before its work: its dataclasses take ``repr``, equality and hashing from
    :mod:`assay._dataclass` and have their ``__init__`` written out rather than each written and compiled
    as the class is created, of OpenCompass's name table only the modules the config imports from are parsed,
    and the temporary files of its atomic writes are named without :mod:`tempfile` (nor :mod:`random`)."""
    out = tmp_path / "startup.json"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-c", _STARTUP_WRAPPER, str(out), "run", str(EXAMPLE / "config.py"), "-w",
                           str(tmp_path / "w"), "--no-report"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(out.read_text())
    assert found["generated"] == []
    assert found["temporary"] == []
    assert found["modules"] > 800
    assert set(found["parsed"]) <= {"opencompass", "opencompass.datasets", "opencompass.models", "opencompass.openicl",
                                    "opencompass.openicl.icl_evaluator", "opencompass.openicl.icl_inferencer",
                                    "opencompass.openicl.icl_prompt_template", "opencompass.openicl.icl_retriever",
                                    "opencompass.utils", "opencompass.utils.text_postprocessors"}

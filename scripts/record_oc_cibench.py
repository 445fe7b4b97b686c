"""Record what OpenCompass 0.5.4 does with CIBench's library configs.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_cibench.py

It writes small notebooks in CIBench's local layout under
``tests/data/oc_families/cibench/data`` (the fixture folder is the working
directory, as the configs' relative paths ask): a few modules of
``cibench_dataset/cibench_template``, ``cibench_template_chinese`` and
``cibench_generation`` and of CompassBench's ``agent-cibench`` copies, with
module annotations and step types, thoughts, images, printed and returned
values, cells without output, a nested folder and files that are no notebooks.

Per case (a config of OpenCompass's library, unchanged), each dataset whose
folder exists is read with OpenCompass's own loader (``build_dataset_from_cfg``)
and ``expected/<case>.json`` gets its rows.  A prediction file in the agent
inferencer's layout (per sample: ``gold``, ``prediction``, ``origin_prompt``,
``steps`` — the agent's actions with the interpreter's results) is written under
``predictions/`` and OpenCompass's own eval task (``OpenICLEvalTask``) is run on
it; what it raises is recorded: OpenCompass 0.5.4 cannot build
``CIBenchEvaluator`` at all.

``tests/datasets/test_cibench.py`` checks assay against these.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "cibench"
RUN = "20250101_000000"
MODEL = "oc-model"

#: case id → (config under opencompass/configs/datasets, variable)
CASES: dict[str, tuple[str, str]] = {
    "CIBench_generation_gen_8ab0dc": ("CIBench/CIBench_generation_gen_8ab0dc.py", "cibench_datasets"),
    "CIBench_generation_oracle_gen_c4a7c1": ("CIBench/CIBench_generation_oracle_gen_c4a7c1.py", "cibench_datasets"),
    "CIBench_template_gen_e6b12a": ("CIBench/CIBench_template_gen_e6b12a.py", "cibench_datasets"),
    "CIBench_template_oracle_gen_fecda1": ("CIBench/CIBench_template_oracle_gen_fecda1.py", "cibench_datasets"),
    "compassbench_20_v1_1_cibench_template_gen_e6b12a": (
        "compassbench_20_v1_1/agent/cibench_template_gen_e6b12a.py", "cibench_datasets"),
    "compassbench_20_v1_1_public_cibench_template_gen_e6b12a": (
        "compassbench_20_v1_1_public/agent/cibench_template_gen_e6b12a.py", "cibench_datasets"),
}

#: a 1x1 PNG, as a notebook keeps an image (base64)
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="


def _md(text: str) -> dict[str, Any]:
    lines = text.splitlines(keepends=True)
    return {"cell_type": "markdown", "metadata": {}, "source": lines}


def _code(source: str, *outputs: dict[str, Any]) -> dict[str, Any]:
    return {"cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": list(outputs),
            "source": source.splitlines(keepends=True)}


def _stdout(text: str, name: str = "stdout") -> dict[str, Any]:
    return {"output_type": "stream", "name": name, "text": text.splitlines(keepends=True)}


def _result(text: str) -> dict[str, Any]:
    return {"output_type": "execute_result", "execution_count": 1, "metadata": {},
            "data": {"text/plain": text.splitlines(keepends=True)}}


def _image(with_png: bool = True) -> dict[str, Any]:
    data = {"image/png": PNG, "text/plain": ["<Figure size 640x480 with 1 Axes>"]} if with_png else {"text/html": ["<b>x</b>"]}
    return {"output_type": "display_data", "metadata": {}, "data": data}


def _notebook(cells: list[dict[str, Any]], metadata: dict[str, Any]) -> dict[str, Any]:
    return {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def _template(lib: str) -> dict[str, Any]:
    """A template notebook: module annotations and step types in its metadata."""
    return _notebook([
        _md(f"File Path: `data/{lib}.csv`\n\nLoad the file with {lib}.\n\nThought: Read it first."),
        _code(f"import pandas as pd\ndf = pd.read_csv('data/{lib}.csv')"),
        _md("How many rows does it have?\n\nThought: Count them."),
        _code("len(df)", _result("42")),
        _md("Describe the first column in one word."),
        _code("print(df.columns[0])", _stdout("Ignored\n"), _stdout("temperature\n")),
        _md("Plot the first column.\n\nThought: A line plot.\n\nThought: twice"),
        _code("df.iloc[:, 0].plot()", _stdout("drawn\n"), _image()),
    ], {"modules": [f"{lib}", "pandas", " numpy & pandas ", "matplotlib"], "step_types": ["exec", "num", "text", "vis"],
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}})


def _plain(lib: str, extra: bool = False) -> dict[str, Any]:
    """A notebook without annotations: tags from the outputs alone."""
    cells = [
        _md(f"Import {lib} and print its name.\n\nThought: Import it."),
        _code(f"import {lib}\nprint({lib}.__name__)", _stdout(f"{lib}\n"), _result(f"'{lib}'")),
        _md("Warn about something."),
        _code("import warnings\nwarnings.warn('x')", _stdout("UserWarning: x\n", name="stderr")),
        _md("Show a table."),
        _code("df.head()", _image(with_png=False), _stdout("   a  b\n0  1  2\n")),
    ]
    if extra:
        cells += [_md("A question whose code is missing.")]
    return _notebook(cells, {"language_info": {"name": "python", "version": "3.10.0"}})


def build_data() -> None:
    data = FIXTURES / "data"
    shutil.rmtree(data, ignore_errors=True)
    files: dict[str, dict[str, Any]] = {
        "cibench_dataset/cibench_template/matplotlib/matplotlib_exp01.ipynb": _template("matplotlib"),
        "cibench_dataset/cibench_template/matplotlib/matplotlib_exp02.ipynb": _plain("matplotlib"),
        "cibench_dataset/cibench_template/matplotlib/archive/old_exp.ipynb": _plain("seaborn", extra=True),
        "cibench_dataset/cibench_template/matplotlib/draft.ipynb.json": _plain("scipy"),
        "cibench_dataset/cibench_template/pandas/pandas_exp01.ipynb": _template("pandas"),
        "cibench_dataset/cibench_template_chinese/matplotlib/matplotlib_exp01.ipynb": _template("matplotlib"),
        "cibench_dataset/cibench_template_chinese/pandas/pandas_exp01.ipynb": _plain("pandas"),
        "cibench_dataset/cibench_generation/matplotlib/matplotlib_01.ipynb": _plain("matplotlib", extra=True),
        "cibench_dataset/cibench_generation/pandas/pandas_01.ipynb": _template("pandas"),
        "compassbench_v1.1/agent-cibench/cibench_template/pandas/pandas_exp01.ipynb": _template("pandas"),
        "compassbench_v1.1/agent-cibench/cibench_template_chinese/pandas/pandas_exp01.ipynb": _template("pandas"),
        "compassbench_v1.1.public/agent-cibench/cibench_template/pandas/pandas_exp01.ipynb": _plain("pandas"),
    }
    for rel, notebook in files.items():
        out = data / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(notebook, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (data / "cibench_dataset/cibench_template/matplotlib/README.md").write_text("Not a notebook.\n", encoding="utf-8")


def _datasets(case: str) -> list[dict[str, Any]]:
    from mmengine.config import Config

    import opencompass

    rel, variable = CASES[case]
    datasets = Config.fromfile(str(Path(opencompass.__file__).parent / "configs" / "datasets" / rel))[variable]
    return [d for d in datasets if os.path.isdir(d["path"])]


def _steps(answer: str) -> list[dict[str, Any]]:
    """One step of the agent: its code run by the interpreter (the layout of OpenCompass's LagentAgent.chat)."""
    return [{"type": "IPythonInterpreter", "args": {"text": f"```python\n{answer}\n```"},
             "result": {"text": f"execute_result:\n\n```\n{answer}\n```"}, "thought": "Run it.", "state": 1,
             "errmsg": None, "valid": 1}]


def write_predictions(case: str) -> None:
    """A prediction file per dataset of ``case``, as the agent inferencer writes one (every step of each notebook)."""
    from opencompass.utils import build_dataset_from_cfg

    for ds in _datasets(case):
        test = build_dataset_from_cfg(ds).test
        records = {}
        for i, row in enumerate(test):
            users = [m["content"] for m in row["questions"] if m["role"] == "user"]
            golds = [m["content"] for m in row["questions"] if m["role"] == "assistant"]
            records[str(i)] = {"gold": golds, "prediction": ["Done." for _ in users], "origin_prompt": users,
                               "steps": [_steps(g.split("**split**")[-1]) for g in golds]}
        out = FIXTURES / "predictions" / f"{ds['abbr']}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(records, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def run_case(case: str, work: Path) -> dict[str, Any]:
    from mmengine.config import ConfigDict
    from opencompass.tasks import OpenICLEvalTask
    from opencompass.utils import build_dataset_from_cfg

    rel, variable = CASES[case]
    out: dict[str, Any] = {"config": rel, "variable": variable, "datasets": {}}
    for ds in _datasets(case):
        abbr = ds["abbr"]
        entry: dict[str, Any] = {"path": ds["path"], "test_rows": build_dataset_from_cfg(ds).test.to_list()}
        run_dir = work / case / RUN
        pred = run_dir / "predictions" / MODEL / f"{abbr}.json"
        pred.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / "predictions" / f"{abbr}.json", pred)
        cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                         eval=dict(runner=dict(task=dict(dump_details=True))))
        try:
            OpenICLEvalTask(cfg).run()
        except Exception as exc:  # what OpenCompass's eval task raises on the dataset
            frame = traceback.extract_tb(exc.__traceback__)[-1]
            entry["eval_error"] = {"type": type(exc).__name__, "message": str(exc),
                                   "raised_in": f"{Path(frame.filename).name}: {frame.line}"}
        else:
            entry["eval_error"] = None
            entry["result"] = json.loads((run_dir / "results" / MODEL / f"{abbr}.json").read_text(encoding="utf-8"))
        out["datasets"][abbr] = entry
    return out


def main() -> None:
    build_data()
    os.chdir(FIXTURES)
    shutil.rmtree(FIXTURES / "predictions", ignore_errors=True)
    out_dir = FIXTURES / "expected"
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as work:
        for case in CASES:
            print(f"recording {case}", flush=True)
            write_predictions(case)
            record = run_case(case, Path(work))
            (out_dir / f"{case}.json").write_text(json.dumps(record, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                                                   encoding="utf-8")
    print("done", file=sys.stderr)


if __name__ == "__main__":
    main()

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
``predictions/<case>/`` and OpenCompass's own eval task (``OpenICLEvalTask``) is run on
it; what it raises is recorded: OpenCompass 0.5.4 cannot build
``CIBenchEvaluator`` at all.

Its scoring code is recorded all the same, with what stops it moved aside
(:func:`oc_scorer`): ``score`` on each of those prediction files (``scored``),
and ``single_exp`` and ``score`` on hand-made runs (``scoring.json``: printed
and returned values, errors, actions that are not the interpreter's, runs
without a result, text compared by ROUGE, images under ``images/`` compared
with a reference image by SSIM).  Run it with scikit-image installed next to
OpenCompass (a virtual environment whose ``.pth`` file adds OpenCompass's
``site-packages``).

``tests/datasets/test_cibench.py`` and ``tests/evaluators/test_cibench.py`` check assay against these.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

from _oc_recording import write_json

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
        write_json(out, notebook)
    (data / "cibench_dataset/cibench_template/matplotlib/README.md").write_text("Not a notebook.\n", encoding="utf-8")


def _datasets(case: str) -> list[dict[str, Any]]:
    from mmengine.config import Config

    import opencompass

    rel, variable = CASES[case]
    datasets = Config.fromfile(str(Path(opencompass.__file__).parent / "configs" / "datasets" / rel))[variable]
    return [d for d in datasets if os.path.isdir(d["path"])]


def _action(code: str, text: str | None = None, image: str | None = None, errmsg: str | None = None,
            kind: str = "IPythonInterpreter") -> dict[str, Any]:
    """One action of the agent (the layout of OpenCompass's LagentAgent.chat): the interpreter's result as text
    (``stdout:``/``execute_result:`` blocks) and figures (``![fig-N](path)``)."""
    result: dict[str, Any] | None = None
    if text is not None or image is not None:
        result = {"text": text or ""}
        if image is not None:
            result["image_path"] = image
    return {"type": kind, "args": {"text": f"```python\n{code}\n```"}, "result": result, "thought": "Run it.",
            "state": 1 if errmsg is None else 2, "errmsg": errmsg, "valid": 1}


def _steps(code: str, number: int, output: Any, tag: str) -> list[dict[str, Any]]:
    """The agent's actions for one notebook step, varied by the step's number."""
    if number % 4 == 3:
        return [_action(code, errmsg="NameError: name 'df' is not defined")]
    if tag == "vis":
        return [_action(code, text="", image="![fig-0](images/same.png)")]
    if output is None:
        return [_action(code, text="")] if number % 2 else [_action(code, kind="FinishAction")]
    block = "execute_result" if number % 2 else "stdout"
    return [_action(code, text=f"{block}:\n\n```\n{str(output).strip()}\n```")]


def write_predictions(case: str) -> None:
    """A prediction file per dataset of ``case``, as the agent inferencer writes one (every step of each notebook)."""
    from opencompass.utils import build_dataset_from_cfg

    for ds in _datasets(case):
        test = build_dataset_from_cfg(ds).test
        records = {}
        for i, row in enumerate(test):
            users = [m["content"] for m in row["questions"] if m["role"] == "user"]
            golds = [m["content"] for m in row["questions"] if m["role"] == "assistant"]
            ref = row["references"]
            records[str(i)] = {"gold": golds, "prediction": ["Done." for _ in users], "origin_prompt": users,
                               "steps": [_steps(g.split("**split**")[-1], n, o, t)
                                         for n, (g, o, t) in enumerate(zip(golds, ref["outputs"], ref["tags"]))]}
        out = FIXTURES / "predictions" / case / f"{ds['abbr']}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        write_json(out, records)


def build_images() -> dict[str, str]:
    """The images the hand-made runs name (under ``images/``) and the reference images, base64 PNGs."""
    import imageio.v3 as iio
    import numpy as np

    rng = np.random.RandomState(0)
    base = (rng.rand(20, 24, 3) * 255).astype(np.uint8)
    noisy = np.clip(base.astype(int) + rng.randint(-40, 41, base.shape), 0, 255).astype(np.uint8)
    big = np.repeat(np.repeat(base, 2, axis=0), 2, axis=1)
    rgba = np.concatenate([base, np.full((20, 24, 1), 255, np.uint8)], axis=2)
    gradient = np.tile(np.linspace(0, 255, 24).astype(np.uint8)[None, :, None], (20, 1, 3))
    folder = FIXTURES / "images"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name, image in (("same", base), ("noisy", noisy), ("big", big), ("rgba", rgba), ("gradient", gradient)):
        iio.imwrite(folder / f"{name}.png", image)
    encode = lambda image: base64.b64encode(iio.imwrite("<bytes>", image, extension=".png")).decode()  # noqa: E731
    return {"base": encode(base), "gradient": encode(gradient)}


def scoring_inputs(refs: dict[str, str]) -> dict[str, Any]:
    """Hand-made notebooks' references (as CIBenchDataset gives them) and the agent's steps."""
    act = _action
    plain = {"outputs": [None, "42", "temperature", refs["base"], refs["base"], "abc"],
             "tags": ["exec", "general", "general", "vis", "vis", "general"],
             "metadata": {"step_types": None}, "experiment": "./exp_plain.ipynb"}
    plain_steps = [
        [act("x = 1", text="")],
        [act("len(df)", text="execute_result:\n\n```\n42\n```")],
        [act("print(c)", text="stdout:\n\n```\ntemperature\n```"), act("c", text="no block here", errmsg="oops")],
        [act("plot()", image="![fig-0](images/same.png)")],
        [act("plot()", image="![fig-1](images/big.png)")],
        [act("done", kind="FinishAction")],
    ]
    images = {"outputs": [refs["base"], refs["base"], refs["base"], refs["gradient"], "7"],
              "tags": ["vis", "vis", "vis", "vis", "general"],
              "metadata": {"step_types": None}, "experiment": "./exp_images.ipynb"}
    images_steps = [
        [act("plot()", image="![fig-0](images/rgba.png)")],
        [act("plot()", image="![fig-0](images/missing.png)")],
        [act("plot()", text="drawn", image="no figure")],
        [act("plot()", image="![fig-3](images/gradient.png)"), act("plot()", image="")],
        [act("print(7)", text="stdout:\n\n```\n17\n```\nexecute_result:\n\n```\n8\n```")],
    ]
    typed = {"outputs": [None, "3.14", "the quick brown fox jumps", refs["base"], None, None],
             "tags": ["exec", "general", "general", "vis", "exec", "exec"],
             "metadata": {"step_types": ["exec", "num", "text", "vis", "num", "text"]}, "experiment": "./exp_typed.ipynb"}
    typed_steps = [
        [act("x", text="", errmsg="NameError: name 'x' is not defined")],
        [act("pi", text="stdout:\n\n```\n3.14159\n```")],
        [act("s", text="```\nthe quick red fox jumps high\n```")],
        [act("plot()", image="![fig-2](images/noisy.png)")],
        [act("v", text="stdout:\n\n```\n1\n```")],
        [act("w", text="```\nsome words\n```")],
    ]
    short = {"outputs": ["1", "2", "3"], "tags": ["general", "general", "general"],
             "metadata": {"step_types": None}, "experiment": "./exp_short.ipynb"}
    short_steps = [[act("a", text="stdout:\n\n```\n 1 \n```")], [act("b", text=None)]]
    references = [plain, images, typed, short]
    steps = [plain_steps, images_steps, typed_steps, short_steps]
    prompts = [[f"step {i}" for i in range(len(r["tags"]))] for r in references]
    return {"references": references, "steps": steps, "origin_prompt": prompts}


def oc_scorer(work: Path) -> Any:
    """OpenCompass's CIBenchEvaluator with what stops it before its scoring moved aside.

    A subclass shadows the read-only ``output_dir`` property its constructor assigns; ``opencompass.lagent``'s
    ``extract_code`` (which only formats the Markdown copy of each run it writes) and a ``jupytext`` on ``PATH`` (only
    looked for) stand in for what OpenCompass 0.5.4 does not ship.  Its scoring code runs unchanged.
    """
    import types

    from opencompass.datasets.cibench import CIBenchEvaluator

    for name in ("opencompass.lagent", "opencompass.lagent.actions"):
        sys.modules.setdefault(name, types.ModuleType(name))
    module = types.ModuleType("opencompass.lagent.actions.ipython_interpreter")
    module.extract_code = lambda text: text  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    bin_dir = work / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    (bin_dir / "jupytext").write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    (bin_dir / "jupytext").chmod(0o755)
    os.environ["PATH"] = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
    (work / "user" / "data").mkdir(parents=True, exist_ok=True)
    os.environ["USER_DATA_DIR"] = str(work / "user" / "data")
    out_dir = work / "out"
    out_dir.mkdir(parents=True, exist_ok=True)
    if not (out_dir / "images").exists():
        shutil.copytree(FIXTURES / "images", out_dir / "images")

    class Scorer(CIBenchEvaluator):
        output_dir = None

    scorer = Scorer()
    scorer._out_dir = str(out_dir)
    return scorer


def record_scoring(work: Path, refs: dict[str, str]) -> dict[str, Any]:
    """OpenCompass's scoring code on the hand-made runs: per notebook ``single_exp``, and ``score``'s totals."""
    inputs = scoring_inputs(refs)
    scorer = oc_scorer(work)
    experiments = []
    cwd = os.getcwd()
    os.chdir(scorer._out_dir)  # where OpenCompass's score() reads the images from
    try:
        for ref, steps, prompts in zip(inputs["references"], inputs["steps"], inputs["origin_prompt"]):
            result, outputs = scorer.single_exp(ref, steps, prompts)
            experiments.append({"result": result, "outputs": outputs})
    finally:
        os.chdir(cwd)
    totals = scorer.score(predictions=[""] * len(inputs["steps"]), references=inputs["references"], steps=inputs["steps"],
                          origin_prompt=inputs["origin_prompt"])
    return _plain_json({"inputs": inputs, "experiments": experiments, "metrics": dict(totals)})


def _plain_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain_json(v) for v in value]
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    return value


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
        shutil.copy(FIXTURES / "predictions" / case / f"{abbr}.json", pred)
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
        records = json.loads(pred.read_text(encoding="utf-8"))
        records = [records[str(i)] for i in range(len(records))]
        scorer = oc_scorer(work / "scorer")
        entry["scored"] = _plain_json(dict(scorer.score(
            predictions=[r["prediction"] for r in records], references=[r["references"] for r in entry["test_rows"]],
            steps=[r["steps"] for r in records], origin_prompt=[r["origin_prompt"] for r in records])))
        out["datasets"][abbr] = entry
    return out


def main() -> None:
    build_data()
    os.chdir(FIXTURES)
    shutil.rmtree(FIXTURES / "predictions", ignore_errors=True)
    out_dir = FIXTURES / "expected"
    shutil.rmtree(out_dir, ignore_errors=True)
    out_dir.mkdir(parents=True)
    refs = build_images()
    with tempfile.TemporaryDirectory() as work:
        scoring = record_scoring(Path(work) / "scoring", refs)
        write_json(FIXTURES / "scoring.json", scoring, sort_keys=True)
        for case in CASES:
            print(f"recording {case}", flush=True)
            write_predictions(case)
            record = run_case(case, Path(work))
            write_json(out_dir / f"{case}.json", record, sort_keys=True)
    print("done", file=sys.stderr)


if __name__ == "__main__":
    main()

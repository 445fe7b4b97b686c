"""Write the small APPS / TACO fixture in OpenCompass's layouts and record what OpenCompass 0.5.4 computes on it.

Run with a Python that has opencompass==0.5.4 installed (``python
scripts/record_oc_apps_taco.py``).  Output, under ``tests/data/oc_families/apps_taco``::

    codeparrot/apps/test.jsonl                 APPSDataset's path, a local folder (read with load_dataset)
    data/apps_mini/                            APPS_miniDataset's path (a DatasetDict saved to disk)
    hub/datasets--BAAI--TACO/…                 TACODataset's file, in the Hugging Face Hub's cache layout
    predictions/<dataset abbr>.json            replies, as OpenCompass writes them
    expected/<config>.json                     what OpenCompass's loaders and evaluators computed

The five problems (one per TACO difficulty): the sum of two integers read from
standard input; ``add`` called with two integers (APPS's call-based format,
each output wrapped in a list); a division printed with more digits than the
expected output (equal as floats); ``twice`` as a method of ``class
Solution``; a square.  The replies are right or wrong by hand: APPS's right,
wrong (``a - b``), right (more digits), right, right; TACO's wrong (``a * b``),
right, raising, wrong, endless (each call stopped after 4 s).

OpenCompass loads each solution with ``pyext``'s ``RuntimeModule``, which does
not install on Python 3.11: without it every solution counts as not loading.
This script records both: ``metrics_without_pyext`` as OpenCompass computes them
here, and ``metrics``/``results`` with a stand-in ``pyext`` module whose
``RuntimeModule.from_string`` makes a module from the source (what pyext's
does), so that the solutions run.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "apps_taco"
TACO_COMMIT = "0" * 40

PROBLEMS = [
    {"question": "Read two integers and print their sum.", "starter_code": "", "difficulty": "EASY",
     "input_output": json.dumps({"inputs": ["1 2\n", "3 4\n", "-5 5\n"], "outputs": ["3\n", "7\n", "0\n"]})},
    {"question": "Return the sum of a and b.", "starter_code": "def add(a, b):\n", "difficulty": "MEDIUM",
     "input_output": json.dumps({"fn_name": "add", "inputs": [[1, 2], [3, 4]], "outputs": [[3], [7]]})},
    {"question": "Read a and b and print a / b.", "starter_code": "", "difficulty": "MEDIUM_HARD",
     "input_output": json.dumps({"inputs": ["1 3\n", "3 2\n"], "outputs": ["0.3333333333\n", "1.5\n"]})},
    {"question": "Return twice x.", "starter_code": "class Solution:\n    def twice(self, x):\n", "difficulty": "HARD",
     "input_output": json.dumps({"fn_name": "twice", "inputs": [[2], [-1]], "outputs": [[4], [-2]]})},
    {"question": "Read n and print n squared.", "starter_code": "", "difficulty": "VERY_HARD",
     "input_output": json.dumps({"inputs": ["12\n"], "outputs": ["144\n"]})},
]
APPS_REPLIES = [
    "```python\na, b = map(int, input().split())\nprint(a + b)\n```",
    "```python\ndef add(a, b):\n    return a - b\n```",
    "Divide:\n```python\na, b = map(int, input().split())\nprint(a / b)\n```",
    "```python\nclass Solution:\n    def twice(self, x):\n        return 2 * x\n```",
    "n = int(input())\nprint(n * n)",
]
TACO_REPLIES = [
    "a, b = map(int, input().split())\nprint(a * b)",
    "```python\ndef add(a, b):\n    return a + b\n```",
    "```python\nraise ValueError('no')\n```",
    "```python\nclass Solution:\n    def twice(self, x):\n        return x\n```",
    "```python\nwhile True:\n    pass\n```",
]


def write_fixture() -> None:
    from datasets import Dataset, DatasetDict

    rows = [{"problem_id": 4000 + i, "solutions": "[]", "url": "", **p} for i, p in enumerate(PROBLEMS)]
    apps = ROOT / "codeparrot" / "apps"
    apps.mkdir(parents=True, exist_ok=True)
    (apps / "test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    mini = ROOT / "data" / "apps_mini"
    if not mini.exists():
        DatasetDict({"test": Dataset.from_list(rows)}).save_to_disk(str(mini))
    repo = ROOT / "hub" / "datasets--BAAI--TACO"
    snapshot = repo / "snapshots" / TACO_COMMIT / "test"
    if not snapshot.exists():
        snapshot.mkdir(parents=True)
        taco_rows = [{k: v for k, v in r.items() if k != "problem_id"} for r in rows]
        tmp = ROOT / "hub" / ".taco"
        Dataset.from_list(taco_rows).save_to_disk(str(tmp))
        (tmp / "data-00000-of-00001.arrow").rename(snapshot / "data-00000-of-00001.arrow")
        for leftover in tmp.iterdir():
            leftover.unlink()
        tmp.rmdir()
        (repo / "refs").mkdir(parents=True, exist_ok=True)
        (repo / "refs" / "main").write_text(TACO_COMMIT, encoding="utf-8")


def write_predictions(abbr: str, replies: list[str], golds: list[object]) -> None:
    preds = {str(i): {"origin_prompt": "", "prediction": r, "gold": g} for i, (r, g) in enumerate(zip(replies, golds))}
    out = ROOT / "predictions" / f"{abbr}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(preds, indent=4) + "\n", encoding="utf-8")


def _pyext_standin() -> types.ModuleType:
    module = types.ModuleType("pyext")

    class RuntimeModule:
        @staticmethod
        def from_string(name: str, doc: str, source: str) -> types.ModuleType:
            made = types.ModuleType(name, doc)
            exec(source, made.__dict__)
            return made

    module.RuntimeModule = RuntimeModule  # type: ignore[attr-defined]
    return module


def record(config: str, folder: str, variable: str, pyext: bool) -> dict[str, object]:
    from opencompass.registry import ICL_EVALUATORS, LOAD_DATASET

    module = importlib.import_module(f"opencompass.configs.datasets.{folder}.{config}")
    out: dict[str, object] = {"config": f"{folder}/{config}.py", "variable": variable, "datasets": {}}
    for entry in getattr(module, variable):
        loader = entry["type"] if not isinstance(entry["type"], str) else LOAD_DATASET.get(entry["type"])
        kwargs = {k: v for k, v in entry.items() if k in ("path", "num_repeats", "difficulty")}
        test = loader.load(**kwargs)["test"]
        column = entry["reader_cfg"]["output_column"]
        refs = list(test[column])
        replies = APPS_REPLIES if folder == "apps" else TACO_REPLIES
        by_id = {r["question"]: i for i, r in enumerate(PROBLEMS)}
        picked = [replies[by_id[q]] for q in test["question"]]
        if not pyext:
            write_predictions(entry["abbr"], picked, refs)
        cfg = dict(entry["eval_cfg"]["evaluator"])
        kind = cfg.pop("type")
        evaluator = (ICL_EVALUATORS.get(kind) if isinstance(kind, str) else kind)(**cfg)
        metrics = evaluator.score(picked, refs, test)
        record_entry = {"rows": [{k: row[k] for k in ("problem_id", "starter", "difficulty", "input_output")} for row in test],
                        "metrics": metrics}
        if pyext:
            from collections import defaultdict

            generations: dict[object, list[str]] = defaultdict(list)
            for ref, reply in zip(refs, picked):
                generations[ref].append(evaluator.post_process(reply))
            origin = test.to_pandas().drop_duplicates(subset="problem_id")
            results = evaluator.evaluate_generations(generations, origin)
            record_entry["results"] = {str(k): v for k, v in results.items()}
        out["datasets"][entry["abbr"]] = record_entry  # type: ignore[index]
    return out


def main() -> None:
    os.environ["HF_HUB_CACHE"] = str(ROOT / "hub")
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["HF_DATASETS_OFFLINE"] = "1"
    write_fixture()
    os.chdir(ROOT)
    cases = [("apps_gen_c7893a", "apps", "APPS_datasets"), ("apps_mini_gen_c7893a", "apps", "APPS_mini_datasets"),
             ("taco_gen_c7893a", "taco", "TACO_datasets"), ("taco_levels_gen_411572", "taco", "TACO_datasets")]
    without = {c: record(c, f, v, pyext=False) for c, f, v in cases}
    standin = _pyext_standin()
    sys.modules["pyext"] = standin
    for name in ("opencompass.datasets.apps", "opencompass.datasets.taco"):
        importlib.import_module(name).RuntimeModule = standin.RuntimeModule  # type: ignore[attr-defined]
    target = ROOT / "expected"
    target.mkdir(parents=True, exist_ok=True)
    for config, folder, variable in cases:
        data = record(config, folder, variable, pyext=True)
        for abbr, entry in data["datasets"].items():  # type: ignore[union-attr]
            entry["metrics_without_pyext"] = without[config]["datasets"][abbr]["metrics"]  # type: ignore[index]
        (target / f"{config}.json").write_text(json.dumps(data, indent=1, default=str) + "\n", encoding="utf-8")
        print(config, "recorded", file=sys.stderr)


if __name__ == "__main__":
    main()

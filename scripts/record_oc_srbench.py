"""Record what OpenCompass 0.5.4 computes on SRBench's library configs.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_srbench.py

It writes a small ``formula_data.json`` in OpenCompass's local layout under
``tests/data/oc_families/srbench/cache/data/SRBENCH`` (the data folder is both
``$COMPASS_DATA_CACHE`` and the working directory): formulas of one to three
variables, each with exactly 300 points, so that OpenCompass's draw of 300 of
them (unseeded, in its loader and again in its evaluator) is a reordering of
all of them and every metric is the same whatever the draw.  A prediction file
is written under ``predictions/`` as OpenCompass's gen inferencer writes it,
with varied replies.

``expected/srbench_gen.json`` then gets:

* ``loader``: the rows of OpenCompass's ``SRbenchDataset`` (its own draw, the
  global NumPy generator seeded here only so that the file does not change from
  one recording to the next);
* ``result``, ``predictions``, ``references``: OpenCompass's own eval task
  (``OpenICLEvalTask``, details dumped) on the library's ``srbench_gen`` config;
* ``cases``: ``SRbenchDatasetEvaluator.score`` called on further batches of
  answers (already postprocessed) over the same rows: edge cases whose means
  are not finite, or where no answer is readable;
* ``integer_cases``: ``score`` on rows whose every value is an integer
  (``int/SRBENCH``), which OpenCompass reads as integers;
* ``prompts``: ``change_data_to_prompt`` on points of two to six columns;
* ``draws``: the distribution of the loader's draw on a row of 400 points
  (``dist/SRBENCH``), over ``DRAWS`` loads: how often each point was drawn,
  and how often it was among the last 3% (the second prompt).

``tests/evaluators/test_oc_srbench.py`` checks assay's namesakes against it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "srbench"
RUN = "20250101_000000"
MODEL = "oc-model"
CONFIG = ("srbench/srbench_gen.py", "srbench_datasets")
DRAWS = 300


def _points(formula: Any, columns: list[Any]) -> list[list[float]]:
    rows = []
    for values in zip(*columns):
        rows.append([round(v, 6) for v in values] + [formula(*values)])
    return rows


def _uniform(seed: int, lo: float, hi: float) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(lo, hi) for _ in range(300)]


def _steps(start: float) -> list[float]:
    return [start + i / 100 for i in range(300)]


#: (name, formula, points): every row has exactly 300 points.
ROWS: list[tuple[str, str, list[list[float]]]] = [
    ("lin", "y = 2*x0 + 1", _points(lambda a: 2 * a + 1, [_steps(1.0)])),
    ("prod", "y = x0*x1 + sin(x0)", _points(lambda a, b: a * b + math.sin(a), [_uniform(1, 1, 3), _uniform(2, 1, 3)])),
    ("three", "y = x0**2 - x1/x2", _points(lambda a, b, c: a * a - b / c, [_uniform(3, -2, 2), _uniform(4, 0, 5), _uniform(5, 1, 2)])),
    ("root", "y = sqrt(x0)*x1", _points(lambda a, b: math.sqrt(a) * b, [_uniform(6, 2, 3), _uniform(7, -1, 1)])),
    ("growth", "y = exp(x0/3)", _points(lambda a: math.exp(a / 3), [_steps(-1.0)])),
    ("ratio", "y = x0/x1", _points(lambda a, b: a / b, [_uniform(8, 1, 4), _uniform(9, 1, 2)])),
    ("angle", "y = arcsin(x0/4) + pi", _points(lambda a: math.asin(a / 4) + math.pi, [_uniform(10, -3, 3)])),
    ("poly", "y = 3*x0 + x0^2", _points(lambda a: 3 * a + a * a, [_steps(0.5)])),
    ("diff", "y = x0 - x1", _points(lambda a, b: a - b, [_uniform(11, 0, 1), _uniform(12, 0, 1)])),
]

#: The model's replies, one per row, before ``mydataset_postprocess``.
REPLIES = [
    "y = 2*x0 + 1",
    "```\ny = x0·x1 + sin(x0)\n```\nThis fits every point.",
    "$y = x0^2 − x1/x2 + 0.01$",
    "y = sqrt(1 - x0) * x1",
    "I cannot determine the formula.",
    "y = x0 / x1 + x2",
    "y = arcsin(x0/4) + 3.14159",
    "y = x0*(x0 + 3)",
    "y = a - b",
]

#: Further batches, one answer per row, given to ``score`` as they are (after the postprocessor).
CASES: dict[str, list[str]] = {
    # one finite point (R2 undefined), a constant, an answer with an '=' in its right-hand side, empty answers
    "edge": ["y = sqrt(x0 - 3.985)", "y = 2.5", "y = x0 = 2", "", "y =", "x0 +* 2", "y = E**(x0/3)", "y = 3*x0 + x0**2",
             "y = log(-x0) + x1"],
    # nothing readable: OpenCompass's default metrics
    "none": ["", "nothing", "y = (", "y = x0 = 1", "1 +", "y =", "=", "((", "x0 x1"],
    # functions OpenCompass names for SymPy and NumPy, and positional variables
    "names": ["y = 2*b + 1", "y = x1*x0 + sin(x1)", "y = c**2 - a/b", "y = sqrt(abs(x0))*x1", "y = exp(x0)/exp(x0)*exp(x0/3)",
              "y = tan(x0)", "y = arccos(x0/4)", "y = pi*x0", "y = x1 - x0"],
    # Python ints outside int64 in the answers (NumPy 1, which OpenCompass 0.5.4 requires, makes them object arrays;
    # those of uint64's range uint64), in sums, products, powers and functions
    "wide": ["y = x0 + 10**20", "y = x0*x1*2**64", "y = x0**2 - x1/x2 + 2**63", "y = sin(x0 + 10**20)*x1",
             "y = 100000000000000000000000000000*x0", "y = x0/x1 - 9223372036854775809", "y = log(10**20)*x0",
             "y = exp(x0)*10**30", "y = x0 - x1 + 18446744073709551615"],
}


#: (name, formula, points) of a file whose every value is an integer: every row has exactly 300 points.
INTEGER_ROWS: list[tuple[str, str, list[list[int]]]] = [
    ("iprod", "y = x0*x1", [[i % 17 - 8, i % 5 - 2, (i % 17 - 8) * (i % 5 - 2)] for i in range(300)]),
    ("ilin", "y = 2*x0 + 1", [[i + 1, 2 * (i + 1) + 1] for i in range(300)]),
]

#: Batches of answers, one per integer row.
INTEGER_CASES: dict[str, list[str]] = {
    # a negative power of integers (the grid instead), constants cut to integers, a division
    "powers": ["y = x0**x1", "y = 2.5"],
    "constants": ["y = 0.7", "y = x0/3 + 0.5"],
    "exact": ["y = x1*x0", "y = 2*x0 + 1"],
    # Python ints beyond int64 with integer points (NumPy 1: a float, an object array)
    "wide": ["y = x0*x1 + 2**63", "y = 2*x0 + 10**20"],
}


def build_data() -> None:
    """The data files in OpenCompass's layout, under ``FIXTURES/cache``."""
    cache = FIXTURES / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    main = cache / "data" / "SRBENCH" / "formula_data.json"
    main.parent.mkdir(parents=True)
    main.write_text("".join(json.dumps({"name": n, "formula": f, "data": d}) + "\n" for n, f, d in ROWS), encoding="utf-8")
    integer = cache / "int" / "SRBENCH" / "formula_data.json"
    integer.parent.mkdir(parents=True)
    integer.write_text("".join(json.dumps({"name": n, "formula": f, "data": d}) + "\n" for n, f, d in INTEGER_ROWS),
                       encoding="utf-8")
    dist = cache / "dist" / "SRBENCH" / "formula_data.json"
    dist.parent.mkdir(parents=True)
    dist.write_text(json.dumps({"name": "line", "formula": "y = x0", "data": [[float(i), float(i)] for i in range(400)]}) + "\n",
                    encoding="utf-8")


def _datasets() -> list[dict[str, Any]]:
    from mmengine.config import Config

    import opencompass

    rel, variable = CONFIG
    datasets: list[dict[str, Any]] = Config.fromfile(str(Path(opencompass.__file__).parent / "configs" / "datasets" / rel))[variable]
    return datasets


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "item") and callable(value.item):
        return _jsonable(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


def write_predictions(rows: list[dict[str, Any]]) -> None:
    records = {str(i): {"origin_prompt": [{"role": "HUMAN", "prompt": r["prompt1"][:60]}], "prediction": reply, "gold": r["formula"]}
               for i, (r, reply) in enumerate(zip(rows, REPLIES))}
    out = FIXTURES / "predictions" / "srbench.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(records, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def run_task(ds: dict[str, Any], work: Path) -> dict[str, Any]:
    from mmengine.config import ConfigDict
    from opencompass.openicl.icl_evaluator import icl_base_evaluator
    from opencompass.tasks import OpenICLEvalTask

    captured: dict[str, Any] = {}
    original = icl_base_evaluator.BaseEvaluator.evaluate

    def evaluate(self: Any, k: Any, n: Any, original_dataset: Any, **kwargs: Any) -> Any:
        captured["references"] = list(kwargs["references"])
        captured["predictions"] = self.pred_postprocess(list(kwargs["predictions"]))
        return original(self, k, n, original_dataset, **kwargs)

    icl_base_evaluator.BaseEvaluator.evaluate = evaluate
    try:
        run_dir = work / RUN
        pred_dir = run_dir / "predictions" / MODEL
        pred_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / "predictions" / "srbench.json", pred_dir / "srbench.json")
        cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                         eval=dict(runner=dict(task=dict(dump_details=True))))
        OpenICLEvalTask(cfg).run()
        result = json.loads((run_dir / "results" / MODEL / "srbench.json").read_text(encoding="utf-8"))
    finally:
        icl_base_evaluator.BaseEvaluator.evaluate = original
    return {"result": result, "predictions": captured["predictions"], "references": captured["references"]}


def record_cases() -> dict[str, Any]:
    from opencompass.datasets.srbench import SRbenchDatasetEvaluator

    evaluator = SRbenchDatasetEvaluator(path="opencompass/srbench")
    references = [f for _, f, _ in ROWS]
    return {name: {"predictions": preds, "result": evaluator.score(preds, references)} for name, preds in CASES.items()}


def record_integer_cases() -> dict[str, Any]:
    from opencompass.datasets.srbench import SRbenchDatasetEvaluator

    evaluator = SRbenchDatasetEvaluator(path=str(FIXTURES / "cache" / "int" / "SRBENCH"))
    references = [f for _, f, _ in INTEGER_ROWS]
    return {name: {"predictions": preds, "result": evaluator.score(preds, references)} for name, preds in INTEGER_CASES.items()}


def record_prompts() -> list[dict[str, Any]]:
    import numpy as np
    from opencompass.datasets.srbench import change_data_to_prompt

    out = []
    for width in (2, 3, 4, 5, 6):
        points = [[(-1) ** (i + j) * (i * 1.234567 + j / 3 + 0.0000051) for j in range(width)] for i in range(4)]
        out.append({"points": points, "prompt": change_data_to_prompt(np.array(points))})
    return out


def record_draws() -> dict[str, Any]:
    import numpy as np
    from opencompass.datasets.srbench import SRbenchDataset

    drawn = [0] * 400
    second = [0] * 400
    path = str(FIXTURES / "cache" / "dist" / "SRBENCH")
    for _ in range(DRAWS):
        (row,) = SRbenchDataset.load(path).to_list()
        points = np.array(row["data_samples_list"])
        for position, x in enumerate(points[:, 0]):
            drawn[int(x)] += 1
            if position >= int(len(points) * 0.97):
                second[int(x)] += 1
    return {"draws": DRAWS, "drawn": drawn, "second_prompt": second}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args()
    import numpy as np
    from opencompass.utils import build_dataset_from_cfg

    os.environ["COMPASS_DATA_CACHE"] = str(FIXTURES / "cache")
    os.environ.pop("DATASET_SOURCE", None)
    build_data()
    os.chdir(FIXTURES / "cache")
    np.random.seed(20250101)
    (ds,) = _datasets()
    rows = build_dataset_from_cfg(ds).test.to_list()
    write_predictions(rows)
    # the file's own columns are the file's: kept out of the recording
    record: dict[str, Any] = {"config": CONFIG[0], "variable": CONFIG[1], "columns": list(rows[0]),
                              "loader": [{k: v for k, v in r.items() if k != "data"} for r in rows]}
    with tempfile.TemporaryDirectory() as work:
        record.update(run_task(ds, Path(work)))
    record["cases"] = record_cases()
    record["integer_cases"] = record_integer_cases()
    record["prompts"] = record_prompts()
    record["draws"] = record_draws()
    out = FIXTURES / "expected" / "srbench_gen.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(_jsonable(record), ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print("done", file=sys.stderr)


if __name__ == "__main__":
    main()

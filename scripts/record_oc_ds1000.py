"""Record what OpenCompass 0.5.4 computes for DS-1000 on small problems in its layout.

Run it with a Python that has opencompass==0.5.4 installed, with numpy and pandas
(the problems' libraries); OpenCompass is not a dependency of assay::

    python scripts/record_oc_ds1000.py

It writes problems written for these tests in the layout of ``ds1000_data.zip``
(``$COMPASS_DATA_CACHE/data/ds1000_data/<Library>/<mode>/q<N>/``: ``.cfg``, the
text files, ``input/`` and ``ans/`` pickles of plain Python values) and prediction
files for the library configs' abbreviations, and records into
``tests/data/oc_families/ds1000/recorded.json``:

* the rows of ``DS1000Dataset.load`` and ``DS1000Dataset_Interperter.load``
  (problem folders written relative to the data cache, ``<cache>``);
* ``ds1000_postprocess``, ``ds1000_completion_postprocess`` and
  ``ds1000_matplotlib_postprocess`` on replies;
* ``DS1000Evaluator``: per prediction file the postprocessed solutions, each one's
  verdict (``score_single``, run with this Python as ``python``) and the metrics;
* ``DS1000ServiceEvaluator``: the file it posts to the service (the call itself
  replaced, no service here);
* ``DS1000InterpreterEvaluator`` on agent steps.
"""

from __future__ import annotations

import json
import os
import pickle
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "oc_families" / "ds1000"
CACHE = DATA / "cache"
OUT = DATA / "recorded.json"
MODEL = "chat-model"

_CONTEXT = """import numpy as np
import pickle
import argparse
parser = argparse.ArgumentParser()
parser.add_argument("--test_case", type=int, default=1)
args = parser.parse_args()
a = np.array(pickle.load(open(f"input/input{args.test_case}.pkl", "rb")))
[insert]
with open('result/result_{}.pkl'.format(args.test_case), 'wb') as f:
    pickle.dump(result, f)
"""
_PANDAS_CONTEXT = _CONTEXT.replace("import numpy as np", "import numpy as np\nimport pandas as pd").replace(
    "a = np.array(", "a = pd.Series(")
_TEST = """import numpy as np


def test(result, ans):
    np.testing.assert_array_equal(np.asarray(result), np.asarray(ans))
    return 1
"""
_STRING_TEST_FALSE = _TEST + """

def stringTest(code):
    return "for" not in code
"""
_STRING_TEST_RAISES = _TEST + """

def stringTest(code):
    assert "print" not in code, "the solution prints"
    return True
"""

#: library -> mode -> problems: (test_type, inputs per case, answers per case, test code, context, prompt)
PROBLEMS: dict[str, dict[str, list[tuple[int, list[Any], list[Any], str, str, str]]]] = {
    "Numpy": {
        "Insertion": [
            (1, [[1, 2, 3], [4, 5]], [6, 9], _TEST, _CONTEXT, "Sum the array a.\nA:\n<code>\nimport numpy as np\n</code>\nBEGIN SOLUTION\n<code>"),
            (3, [[1, 2]], [[2, 4]], _STRING_TEST_FALSE, _CONTEXT, "Double each element of a, without a loop.\nA:\n<code>"),
            (3, [[3, 1]], [[1, 3]], _STRING_TEST_RAISES, _CONTEXT, "Sort a.\nA:\n<code>"),
            (1, [[1, 7, 3]], [7], _TEST, _CONTEXT, "The largest element of a.\nA:\n<code>"),
            (1, [[1, 2], [5, 5]], [2, 10], _TEST, _CONTEXT, "Twice the sum of a.\nA:\n<code>"),
            (1, [[4]], [4], _TEST, _CONTEXT, "The first element of a.\nA:\n<code>"),
        ],
        "Completion": [
            (1, [[1, 2, 3]], [6], _TEST, _CONTEXT, "Sum the array a.\nA:\n<code>"),
            (1, [[2, 2]], [4], _TEST, _CONTEXT, "The product of a.\nA:\n<code>"),
        ],
    },
    "Pandas": {
        "Insertion": [
            (1, [[1, 2]], [3], _TEST, _PANDAS_CONTEXT, "Sum the series a.\nA:\n<code>"),
        ],
    },
}

#: prediction file -> (library, mode, replies)
PREDICTIONS: dict[str, tuple[str, str, list[str]]] = {
    "predictions/ds1000_Numpy": ("Numpy", "Insertion", [
        "<code>\nresult = a.sum()\n</code>",
        "```python\nresult = np.array([x * 2 for x in a])\n```",
        "BEGIN SOLUTION\nprint(a)\nprint(a)\nresult = np.sort(a)\nEND SOLUTION",
        "```python\nresult = a.min()\n```",
        "```python\nresult = 10\n```",
        "```python\nresult = a[5]\n```",
    ]),
    "predictions/ds1000_Pandas": ("Pandas", "Insertion", ["```python\nresult = a.sum()\n```"]),
    "predictions_compl/ds1000_Numpy": ("Numpy", "Completion", [
        "result = a.sum()\n</code>\nThat is all.",
        "result = a.sum()",
    ]),
}

POSTPROCESS_REPLIES = [
    "<code>\nx = 1\n</code>",
    "text ```python\nx = 2\n``` more ```\ny = 3\n```",
    "```\nz = 4\n```",
    "BEGIN SOLUTION\n<code>\nw = 5\nEND SOLUTION\n</code>",
    "plain\n</code> tail",
    "```python\nplt.plot(x)\nplt.show()\nplt.savefig('a.png')\nplt.clf()\nplt.close()\nkeep = 1\n```",
    "",
]

STEPS = [
    [{"type": "PythonInterpreter", "args": {"text": "assert f() == 1"}, "result": {"text": "True"}, "errmsg": None}],
    [{"type": "PythonInterpreter", "args": {"text": "x = 1"}, "result": {"text": "1"}, "errmsg": None}],
    [{"type": "PythonInterpreter", "args": {"text": "assert g()"}, "result": None, "errmsg": "NameError"}],
    [{"type": "PythonInterpreter", "args": {"text": "assert h()"}, "result": {"text": "False"}, "errmsg": ""},
     {"type": "FinishAction", "args": {"text": "done"}, "result": None, "errmsg": None}],
    [],
]


def _write_problems() -> None:
    for lib, modes in PROBLEMS.items():
        for mode, problems in modes.items():
            for n, (test_type, inputs, answers, test, context, prompt) in enumerate(problems):
                folder = CACHE / "data" / "ds1000_data" / lib / mode / f"q{n}"
                (folder / "input").mkdir(parents=True, exist_ok=True)
                (folder / "ans").mkdir(parents=True, exist_ok=True)
                (folder / ".cfg").write_text(
                    f"[library]\nlib = {lib}\n\n[test]\ntest_type = {test_type}\ntest_case_cnt = {len(inputs)}\n\n"
                    f"[perturbation]\nperturbation_type = Origin\nperturbation_origin_id = {n}\n", encoding="utf-8")
                files = {"reference_code.txt": "result = ...\n", "test_code.py": test, "code_context.txt": context,
                         "test_generate_pickle.py": "# generated the pickles\n", "prompt.txt": prompt}
                for name, text in files.items():
                    (folder / name).write_text(text, encoding="utf-8")
                for i, (value, answer) in enumerate(zip(inputs, answers), start=1):
                    (folder / "input" / f"input{i}.pkl").write_bytes(pickle.dumps(value, protocol=4))
                    (folder / "ans" / f"ans{i}.pkl").write_bytes(pickle.dumps(answer, protocol=4))


def _rel(value: Any) -> Any:
    """Problem folders written relative to the data cache."""
    if isinstance(value, dict):
        return {k: _rel(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rel(v) for v in value]
    if isinstance(value, str):
        return value.replace(str(CACHE), "<cache>")
    return value


def main() -> None:
    _write_problems()
    for name, (_, _, replies) in PREDICTIONS.items():
        folder, abbr = name.split("/")
        out = DATA / folder / MODEL
        out.mkdir(parents=True, exist_ok=True)
        content = {str(i): {"origin_prompt": "", "prediction": reply} for i, reply in enumerate(replies)}
        (out / f"{abbr}.json").write_text(json.dumps(content, indent=1) + "\n", encoding="utf-8")
    os.environ["COMPASS_DATA_CACHE"] = str(CACHE)
    os.environ["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")

    from opencompass.datasets.ds1000 import (
        DS1000Dataset,
        DS1000Evaluator,
        DS1000ServiceEvaluator,
        ds1000_completion_postprocess,
        ds1000_matplotlib_postprocess,
        ds1000_postprocess,
    )
    from opencompass.datasets.ds1000_interpreter import DS1000Dataset_Interperter, DS1000InterpreterEvaluator

    recorded: dict[str, Any] = {"loader": [], "postprocess": [], "evaluator": {}, "service": {}, "interpreter": {}}
    for loader in (DS1000Dataset, DS1000Dataset_Interperter):
        for libs, mode in (("Numpy", "Insertion"), (["Numpy", "Pandas"], "Insertion"), ("Numpy", "Completion")):
            ds = loader.load(object.__new__(loader), path="./data/ds1000_data/", libs=libs, mode=mode)
            recorded["loader"].append({"loader": loader.__name__, "args": {"libs": libs, "mode": mode},
                                       "splits": _rel({split: [dict(r) for r in ds[split]] for split in ds})})
    for reply in POSTPROCESS_REPLIES:
        recorded["postprocess"].append({
            "reply": reply, "ds1000_postprocess": ds1000_postprocess(reply),
            "ds1000_completion_postprocess": ds1000_completion_postprocess(reply),
            "ds1000_matplotlib_postprocess": ds1000_matplotlib_postprocess(reply)})
    for name, (lib, mode, replies) in PREDICTIONS.items():
        test = DS1000Dataset.load(object.__new__(DS1000Dataset), path="./data/ds1000_data/", libs=lib, mode=mode)["test"]
        refs = [r["test_column"] for r in test]
        post = ds1000_completion_postprocess if mode == "Completion" else ds1000_postprocess
        solutions = [post(r) for r in replies]
        ev = DS1000Evaluator(num_workers=1)
        verdicts = [bool(ev.score_single(s, r)) for s, r in zip(solutions, refs)]
        recorded["evaluator"][name] = {"solutions": solutions, "passed": verdicts, "metrics": ev.score(solutions, refs)}
        sent: dict[str, Any] = {}

        def capture(self: Any, file_path: str, _sent: dict[str, Any] = sent) -> tuple[bool, str]:
            _sent.update(json.loads(Path(file_path).read_text(encoding="utf-8")))
            return True, json.dumps({"accuracy": 0.0})

        DS1000ServiceEvaluator._code_eval_service = capture  # type: ignore[method-assign]
        long_reply = ["x" * 10001] if lib == "Pandas" else []
        DS1000ServiceEvaluator(lib=lib).score([*replies, *long_reply], refs + refs[: len(long_reply)])
        recorded["service"][name] = _rel(sent)
    ev_i = DS1000InterpreterEvaluator()
    recorded["interpreter"] = {"steps": STEPS, "metrics": ev_i.score([""] * len(STEPS), [""] * len(STEPS), STEPS)}
    OUT.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

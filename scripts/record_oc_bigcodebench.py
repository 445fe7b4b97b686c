"""Record what OpenCompass 0.5.4 computes for BigCodeBench before it calls its remote service.

Run it with a Python that has opencompass==0.5.4 installed (with tree-sitter and
tree_sitter_languages, which its code extraction uses); OpenCompass is not a
dependency of assay::

    python scripts/record_oc_bigcodebench.py

It writes small BigCodeBench files in OpenCompass's layout
(``$COMPASS_DATA_CACHE/data/bigcodebench/BigCodeBench-v0.1.2.jsonl`` and
``BigCodeBench-Hard-v0.1.2.jsonl``, problems written for these tests) and prediction
files for the library configs' four dataset abbreviations, and records into
``tests/data/oc_families/bigcodebench/recorded.json``:

* the rows ``BigCodeBenchDataset.load`` returns for both versions;
* ``extract_code_generation`` (the code extraction) on many replies;
* for each prediction file, the solutions ``BigCodeBenchEvaluator.score`` writes to
  ``bigcodebench_submitted_contents.jsonl`` before it contacts the service
  (unreachable here), with the configs' ``eval_type`` and ``dataset_version``.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "oc_families" / "bigcodebench"
OUT = DATA / "recorded.json"
MODEL = "chat-model"

_TESTS = {
    "squares": (
        "import unittest\n\nclass TestCases(unittest.TestCase):\n"
        "    def test_small(self):\n        self.assertEqual(task_func([1, 2, 3]), 14)\n"
        "    def test_empty(self):\n        self.assertEqual(task_func([]), 0)\n"
    ),
    "words": (
        "import unittest\n\nclass TestCases(unittest.TestCase):\n"
        "    def test_count(self):\n        self.assertEqual(task_func('a b a'), {'a': 2, 'b': 1})\n"
        "    def test_case(self):\n        self.assertEqual(task_func('A a'), {'a': 2})\n"
    ),
    "mean": (
        "import unittest\nimport numpy as np\n\nclass TestCases(unittest.TestCase):\n"
        "    def test_mean(self):\n        self.assertAlmostEqual(task_func(5), 2.0)\n"
        "    def test_type(self):\n        self.assertIsInstance(task_func(3), float)\n"
    ),
    "frame": (
        "import unittest\n\nclass TestCases(unittest.TestCase):\n"
        "    def test_rows(self):\n        self.assertEqual(len(task_func(3)), 3)\n"
    ),
    "loop": (
        "import unittest\n\nclass TestCases(unittest.TestCase):\n"
        "    def test_value(self):\n        self.assertEqual(task_func(4), 10)\n"
    ),
}
_PROMPTS = {
    "squares": ("import itertools\n\ndef task_func(numbers):\n", "Return the sum of the squares of numbers.", ["itertools"]),
    "words": ("import re\nfrom collections import Counter\n\ndef task_func(text):\n",
              "Count the lower-cased words of text.", ["re", "collections"]),
    "mean": ("import numpy as np\n\ndef task_func(n):\n", "Return the mean of 0..n-1 as a float.", ["numpy"]),
    "frame": ("import pandas as pd\n\ndef task_func(n):\n", "Return a DataFrame of n rows.", ["pandas"]),
    "loop": ("def task_func(n):\n", "Return 1 + 2 + ... + n.", []),
}


def _problem(i: int, key: str) -> dict[str, Any]:
    head, doc, libs = _PROMPTS[key]
    complete = f'{head}    """\n    {doc}\n    """\n'
    return {
        "task_id": f"BigCodeBench/{i}",
        "complete_prompt": complete,
        "instruct_prompt": f"{doc}\nYou should write self-contained code starting with:\n```\n{head}```",
        "canonical_solution": "    pass\n",
        "code_prompt": head,
        "test": _TESTS[key],
        "entry_point": "task_func",
        "doc_struct": json.dumps({"description": [doc]}),
        "libs": repr(libs),
    }


FULL = [_problem(i, key) for i, key in enumerate(("squares", "words", "mean", "frame", "loop"))]
HARD = [FULL[1], FULL[2], FULL[4]]

F = "```"
#: dataset abbr -> (eval_type, dataset_version, one reply per problem).
PREDICTIONS: dict[str, tuple[str, str, list[str]]] = {
    "bigcodebench_full_instruct": ("instruct", "full", [
        f"Here is the solution:\n{F}python\nimport itertools\n\ndef helper(x):\n    return x * x\n\n"
        f"def task_func(numbers):\n    return sum(helper(n) for n in numbers)\n\nprint(task_func([1]))\n{F}\nThis works.",
        f"{F}python\nimport re\nfrom collections import Counter\n\ndef task_func(text):\n"
        f"    return dict(Counter(re.findall(r'\\w+', text)))\n{F}",
        f"{F}python\nimport numpy as np\n\ndef task_func(n):\n    return float(np.arange(n).mean())\n{F}",
        f"{F}python\nimport pandas as pd\n\ndef task_func(n):\n    return pd.DataFrame({{'a': range(n)}})\n{F}",
        f"{F}python\ndef task_func(n):\n    while True:\n        pass\n{F}",
    ]),
    "bigcodebench_full_complete": ("complete", "full", [
        "    return sum(n * n for n in numbers)\n",
        "    return dict(Counter(w.lower() for w in re.findall(r'\\w+', text)))\n",
        "    return np.arange(n).mean()\n",
        "    return pd.DataFrame({'a': range(n)})\n",
        "    return n * (n + 1) // 2\n\nif __name__ == '__main__':\n    print(task_func(4))\n",
    ]),
    "bigcodebench_hard_instruct": ("instruct", "hard", [
        f"{F}\nfrom collections import Counter\nimport re\ndef task_func(text):\n    words = re.findall(r'\\w+', text.lower())\n"
        f"    return dict(Counter(words))\n{F}",
        "I cannot help with that.",
        f"{F}python\ndef task_func(n):\n    return sum(range(n + 1))\n{F}",
    ]),
    "bigcodebench_hard_complete": ("complete", "hard", [
        "    return {}\n",
        "    raise ValueError('no')\n",
        "    total = 0\n    for i in range(1, n + 1):\n        total += i\n    return total\n",
    ]),
}

#: (reply, entry point) pairs for the code extraction.
EXTRACTION_CASES: list[tuple[str, str]] = [
    ("def task_func(x):\n    return x", "task_func"),
    ("def task_func(x): return x", "task_func"),
    ("plain words only", "task_func"),
    ("", "task_func"),
    ("first line\nsecond line", "task_func"),
    (f"Sure!\n{F}python\nimport os\nimport sys\n\ndef task_func():\n    return os.sep\n{F}\nEnjoy.", "task_func"),
    (f"{F}python\nfrom __future__ import annotations\nimport math\ndef task_func(x: float) -> float:\n    return math.sqrt(x)\n{F}",
     "task_func"),
    (f"{F}python\nimport os\n@cache\ndef helper():\n    return 1\ndef task_func():\n    return helper()\n{F}", "task_func"),
    (f"{F}python\nimport os\nCONST = 3\nOTHER = 4\ndef task_func():\n    return CONST\n{F}", "task_func"),
    (f"{F}python\nclass Box:\n    def __init__(self, v):\n        self.v = v\n    # end of class\n\ndef task_func(v):\n"
     f"    return Box(v).v\n    # trailing comment\n\n# unrelated\nprint(task_func(1))\n{F}", "task_func"),
    (f"{F}python\ndef task_func(x):\n    return x  # inline\nassert task_func(1) == 1\n{F}", "task_func"),
    (f"{F}python\nasync def task_func():\n    return 1\n{F}", "task_func"),
    (f"{F}python\ndef task_func():\n    return 1\ndef task_func():\n    return 2\n{F}", "task_func"),
    (f"{F}python\nx: int = 3\ny = x\nobj.attr = y\ntask_func = lambda: y\n{F}", "task_func"),
    (f"{F}python\na = b = 2\nc, d = 1, 2\ndef task_func():\n    return a + c\n{F}", "task_func"),
    (f"{F}python\ndef g():\n    return 1\n\ndef task_func():\n    return h()\ndef h():\n    return g()\ntask_func()\n"
     f"result = task_func()\n{F}", "task_func"),
    (f"Text before\n{F}python\ndef task_func(a,\n              b):\n    'doc'\n    return (a +\n            b)\n{F}\n"
     f"and another:\n{F}python\ndef other():\n    pass\n{F}", "task_func"),
    (f"{F}python\nimport numpy as np\nimport pandas as pd\n\ndef task_func(df):\n    # comment\n    if df.empty:\n"
     f"        raise ValueError('empty')\n    return df.mean()\n\n\n# Example usage\ndf = pd.DataFrame({{'a': [1]}})\n"
     f"print(task_func(df))\n{F}", "task_func"),
    (f"{F}python\ndef task_func(s):\n    return f'{{s!r}} \u00e9 \u00fc'\n{F}", "task_func"),
    (f"{F}python\ndef task_func():\n    return helper_value\nhelper_value = 5\n{F}", "task_func"),
    (f"{F}python\nimport os\nos.environ['A'] = '1'\nx += 1\nif True:\n    y = 2\ndef task_func():\n    return y\n{F}", "task_func"),
    (f"{F}python\ndef task_func(x):\n    return x\n\n\n\n{F}\nThe function task_func returns x.\ntask_func(3)", "task_func"),
    (f"{F}python\ndef task_func():\n\treturn 1\n\t# tab comment\n{F}", "task_func"),
    (f"{F}python\ndef run():\n    return 0\n{F}", "task_func"),
    (f"{F}python\nimport re\n{F}", "task_func"),
    (f"{F}python\ndef task_func(d):\n    match d:\n        case {{'k': v, **rest}}:\n            return rest\n"
     f"        case Point(x=px):\n            return px\n    return None\nrest = 1\npx = 2\n{F}", "task_func"),
    (f"{F}python\nfrom typing import List\ndef task_func(xs: List[int]) -> List[int]:\n    global COUNT\n"
     f"    try:\n        return sorted(xs)\n    except Exception as err:\n        raise err\nCOUNT = 0\nerr = 1\nList = 2\n{F}",
     "task_func"),
    (f"{F}python\ndef task_func():\n    return Obj.method()\nclass Obj:\n    @staticmethod\n    def method():\n        return 1\n"
     f"method = 3\n{F}", "task_func"),
    ("Here is code\ndef task_func(x):\n    return x\nand here is more prose that is long", "task_func"),
    (f"{F}python\ndef task_func(x):\n    return x\n{F}\n{F}python\n# test\nassert task_func(1) == 1\n"
     f"assert task_func(2) == 2\nassert task_func(3) == 3\n{F}", "task_func"),
    (f"{F}python\ndef task_func(x, **kwargs):\n    return dict(key=x, **kwargs)\nkey = 1\n{F}", "task_func"),
    (f"{F}python\nimport os, sys  # two\nfrom os import (path,\n    sep)\ndef task_func():\n    return path, sep\n{F}", "task_func"),
    (f"{F}python\ndef task_func():\n    pass\n  # shallow\n    # deep\n{F}", "task_func"),
]


def main() -> None:
    folder = DATA / "cache" / "data" / "bigcodebench"
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in (("BigCodeBench-v0.1.2.jsonl", FULL), ("BigCodeBench-Hard-v0.1.2.jsonl", HARD)):
        (folder / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    predictions = DATA / "predictions" / MODEL
    predictions.mkdir(parents=True, exist_ok=True)
    for abbr, (eval_type, version, replies) in PREDICTIONS.items():
        rows = FULL if version == "full" else HARD
        prompt = "instruct_prompt" if eval_type == "instruct" else "complete_prompt"
        content = {str(i): {"origin_prompt": r[prompt], "prediction": reply, "gold": r["test"]}
                   for i, (r, reply) in enumerate(zip(rows, replies))}
        (predictions / f"{abbr}.json").write_text(json.dumps(content, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.environ["COMPASS_DATA_CACHE"] = str(DATA / "cache")

    from opencompass.datasets.bigcodebench import BigCodeBenchDataset, BigCodeBenchEvaluator
    from opencompass.datasets.bigcodebench.extractor import extract_code_generation

    recorded: dict[str, Any] = {"loader": {}, "extraction": [], "submitted": {}}
    for version in ("full", "hard"):
        ds = BigCodeBenchDataset.load(path="opencompass/bigcodebench", dataset_version=version)
        recorded["loader"][version] = {split: [dict(r) for r in ds[split]] for split in ds}
    for reply, entrypoint in EXTRACTION_CASES:
        recorded["extraction"].append({"reply": reply, "entrypoint": entrypoint,
                                       "solution": extract_code_generation(reply, entrypoint=entrypoint)})
    for abbr, (eval_type, version, replies) in PREDICTIONS.items():
        ev = BigCodeBenchEvaluator(eval_type=eval_type, dataset_version=version, remote_execute_api="http://127.0.0.1:9/")
        with tempfile.TemporaryDirectory() as tmp:
            ev._out_dir = tmp
            result = ev.score(list(replies), [None] * len(replies))
            lines = (Path(tmp) / "bigcodebench_submitted_contents.jsonl").read_text(encoding="utf-8").splitlines()
        recorded["submitted"][abbr] = {"eval_type": eval_type, "dataset_version": version,
                                       "contents": [json.loads(line) for line in lines], "result": result}
    OUT.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

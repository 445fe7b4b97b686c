"""Record what OpenCompass 0.5.4 computes for HumanEval Pro and MBPP Pro before it calls its code service.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_code_pro.py

It writes small problem files in OpenCompass's layout
(``$COMPASS_DATA_CACHE/data/humaneval_pro/humaneval_pro.json``, a JSON list, and
``data/mbpp_pro/mbpp_pro.json``, one object per line; problems written for these
tests) and prediction files for the library configs' abbreviations, and records into
``tests/data/oc_families/code_pro/recorded.json``: the loaders' rows, and for each
prediction file the test cases ``HumanevalProEvaluator.score`` /
``MBPPProEvaluator.score`` hand to the service (name, language, program) and the
prompts they keep — the service call itself replaced (there is none here).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "oc_families" / "code_pro"
OUT = DATA / "recorded.json"
MODEL = "chat-model"
F = "```"

PROBLEMS = [
    {"id": 0, "raw_problem": 'def add(a, b):\n    """Return a + b."""\n',
     "new_problem": 'def add3(a, b, c):\n    """Return a + b + c using add."""\n',
     "raw_solution": "    return a + b\n", "new_solution": "    return add(add(a, b), c)\n",
     "test_code": "assert add(1, 2) == 3\nassert add3(1, 2, 3) == 6\n"},
    {"id": 1, "raw_problem": 'def double(xs):\n    """Each element twice as large."""\n',
     "new_problem": 'def quadruple(xs):\n    """Each element four times as large, using double."""\n',
     "raw_solution": "    return [2 * x for x in xs]\n", "new_solution": "    return double(double(xs))\n",
     "test_code": "assert double([1, 2]) == [2, 4]\nassert quadruple([1]) == [4]\n"},
    {"id": 2, "raw_problem": 'def last(xs):\n    """The last element."""\n',
     "new_problem": 'def last_two(xs):\n    """The last element of the last two lists."""\n',
     "raw_solution": "    return xs[-1]\n", "new_solution": "    return [last(xs[-2]), last(xs[-1])]\n",
     "test_code": "assert last([1, 2]) == 2\nassert last_two([[1], [2, 3]]) == [1, 3]\n"},
    {"id": 3, "raw_problem": 'def square(x):\n    """x squared."""\n',
     "new_problem": 'def sum_squares(xs):\n    """The sum of the squares, using square."""\n',
     "raw_solution": "    return x * x\n", "new_solution": "    return sum(square(x) for x in xs)\n",
     "test_code": "assert square(3) == 9\nassert sum_squares([1, 2]) == 5\n"},
    {"id": 4, "raw_problem": 'def inc(x):\n    """x + 1."""\n',
     "new_problem": 'def inc_all(xs):\n    """Each element plus one, using inc."""\n',
     "raw_solution": "    return x + 1\n", "new_solution": "    return [inc(x) for x in xs]\n",
     "test_code": "assert inc(1) == 2\nassert inc_all([1]) == [2]\n"},
    {"id": 5, "raw_problem": 'def neg(x):\n    """-x."""\n',
     "new_problem": 'def neg_all(xs):\n    """Each element negated, using neg."""\n',
     "raw_solution": "    return -x\n", "new_solution": "    return [neg(x) for x in xs]\n",
     "test_code": "assert neg(1) == -1\nassert neg_all([2]) == [-2]\n"},
]

REPLIES = [
    f"Here you go:\n{F}python\ndef add(a, b):\n    return a + b\n\ndef add3(a, b, c):\n    return add(add(a, b), c)\n{F}\nDone.",
    f"{F}python\ndef double(xs):\n    return [x * 2 for x in xs]\n\ndef quadruple(xs):\n    return [x * 3 for x in xs]\n{F}",
    f"{F}python\ndef last(xs)\n    return xs[-1]\n{F}",
    f"{F}python\ndef square(x):\n    while True:\n        pass\n\ndef sum_squares(xs):\n    return 0\n{F}",
    "def inc(x):\n    return x + 1\n\ndef inc_all(xs):\n    return [inc(x) for x in xs]\n",
    f"{F}python\ndef neg(x):\n    raise ValueError('no')\n\ndef neg_all(xs):\n    return []\n{F}\n{F}python\ndef neg(x):\n    return -x\n{F}",
]
#: each reply's status, checked by hand
STATUSES = ["OK", "Exception", "SyntaxError", "Timeout", "OK", "Exception"]


def main() -> None:
    cache = DATA / "cache"
    (cache / "data" / "humaneval_pro").mkdir(parents=True, exist_ok=True)
    (cache / "data" / "mbpp_pro").mkdir(parents=True, exist_ok=True)
    (cache / "data" / "humaneval_pro" / "humaneval_pro.json").write_text(json.dumps(PROBLEMS, indent=1) + "\n", encoding="utf-8")
    mbpp = [{**p, "id": 100 + p["id"]} for p in PROBLEMS]
    (cache / "data" / "mbpp_pro" / "mbpp_pro.json").write_text("".join(json.dumps(p) + "\n" for p in mbpp), encoding="utf-8")
    predictions = DATA / "predictions" / MODEL
    predictions.mkdir(parents=True, exist_ok=True)
    for abbr in ("humaneval_pro", "mbpp_pro"):
        content = {str(i): {"origin_prompt": "", "prediction": reply} for i, reply in enumerate(REPLIES)}
        (predictions / f"{abbr}.json").write_text(json.dumps(content, indent=1) + "\n", encoding="utf-8")
    os.environ["COMPASS_DATA_CACHE"] = str(cache)

    from opencompass.datasets.humaneval_pro import HumanevalevalProDataset, HumanevalProEvaluator
    from opencompass.datasets.mbpp_pro import MBPPProDataset, MBPPProEvaluator

    recorded: dict[str, Any] = {"statuses": STATUSES}
    for abbr, loader, evaluator, path in (
        ("humaneval_pro", HumanevalevalProDataset, HumanevalProEvaluator, "opencompass/humaneval_pro"),
        ("mbpp_pro", MBPPProDataset, MBPPProEvaluator, "opencompass/mbpp_pro"),
    ):
        ds = loader.load(path=path)
        sent: list[Any] = []

        def capture(self: Any, cases: list[Any], _sent: list[Any] = sent) -> tuple[bool, list[Any], None]:
            _sent.extend(cases)
            return True, [{"status": "OK"} for _ in cases], None

        ev = object.__new__(evaluator)  # the service client is made in __init__; none is reachable here
        ev.language, ev.retry = "py", 1
        evaluator._evaluate = capture  # type: ignore[method-assign]
        result = ev.score(list(REPLIES), list(ds["test_code"]), ds)
        recorded[abbr] = {"rows": [dict(r) for r in ds], "sent": sent,
                          "prompts": [d["prompt"] for d in result["details"]]}
    OUT.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()

"""Write the small P-MMEval HumanEval-XL fixture in OpenCompass's layout.

Output, under ``tests/data/oc_families/pmmeval_humanevalxl``::

    data/P-MMEval/humaneval-xl/test/<program language>/<natural language>.jsonl   two problems each
    predictions/humanevalxl-<program language>-<natural language>.json           replies, as OpenCompass writes them

Program languages ``python``, ``java`` and ``javascript``; natural languages
``English`` and ``Chinese``.  Each file holds two problems in HumanEval-XL's
row format (``task_id``, ``prompt``, ``entry_point``, ``test``, ``language``,
``description``, ``natural_language``, ``canonical_solution``) with the
``declaration`` column the library's config reads as its reference (the
prompt's imports and function head).  The replies: for the first problem a
correct body in a fenced block, with text around it; for the second a wrong one
(pass@1 50).

Usage::

    python scripts/make_pmmeval_humanevalxl_fixtures.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "pmmeval_humanevalxl"
FOLDER = ROOT / "data" / "P-MMEval" / "humaneval-xl" / "test"

_PY_TEST = "\n\nMETADATA = {\n    'author': 'jt',\n    'dataset': 'test'\n}\n\n\ndef check(candidate):\n{asserts}"
_JS_TEST = ("\nconst _ = require(\"lodash\")\n\nfunction compare(object1, object2){\n    return _.isEqual(object1, object2)\n}\n\n"
            "{cases}")
_JAVA_TEST = ("\n\nclass Main {{\n    public static boolean compare(Object obj1, Object obj2) {{\n"
              "        if (obj1 == null && obj2 == null){{\n            return true;\n        }} else if (obj1 == null || obj2 == null){{\n"
              "            return false;\n        }} else {{\n            return obj1.equals(obj2);\n        }}\n    }}\n    \n"
              "    public static void main(String[] args) throws Exception {{\n{cases}\n}}\n}}\n")

DESCRIPTIONS = {
    "English": ("Return True if the balance of an account starting at zero falls below zero.",
                "Return a greatest common divisor of two integers a and b"),
    "Chinese": ("如果从零开始的账户余额低于零，返回 True。", "返回两个整数 a 和 b 的最大公约数"),
}


def _python(desc: tuple[str, str]) -> list[dict[str, Any]]:
    heads = ("from typing import List\n\n\ndef below_zero(operations: List[int]) -> bool:\n",
             "\n\ndef greatest_common_divisor(a: int, b: int) -> int:\n")
    asserts = ("    assert candidate([]) == False\n    assert candidate([1, 2, -4, 5, 6]) == True\n",
               "    assert candidate(3, 7) == 1\n    assert candidate(49, 14) == 7\n")
    return [{"task_id": f"python/{i}", "prompt": heads[i] + f'    """ {desc[i]}\n    """\n',
             "entry_point": ("below_zero", "greatest_common_divisor")[i],
             "test": _PY_TEST.replace("{asserts}", asserts[i]), "language": "python", "canonical_solution": None,
             "description": desc[i], "natural_language": "", "declaration": heads[i]} for i in range(2)]


def _javascript(desc: tuple[str, str]) -> list[dict[str, Any]]:
    heads = ("function belowZero(operations) {\n", "function greatestCommonDivisor(a, b) {\n")
    cases = ("var x0 = belowZero([]);\nvar v0 = false;\nif(!compare(x0, v0)){\n    throw 'Error at 1th assert statement.'\n}\n\n"
             "var x1 = belowZero([1, 2, -4, 5, 6]);\nvar v1 = true;\nif(!compare(x1, v1)){\n    throw 'Error at 2th assert statement.'\n}\n\n",
             "var x0 = greatestCommonDivisor(3, 7);\nvar v0 = 1;\nif(!compare(x0, v0)){\n    throw 'Error at 1th assert statement.'\n}\n\n"
             "var x1 = greatestCommonDivisor(49, 14);\nvar v1 = 7;\nif(!compare(x1, v1)){\n    throw 'Error at 2th assert statement.'\n}\n\n")
    return [{"task_id": f"javascript/{i}", "prompt": f"/**\n * {desc[i]}\n *\n */\n" + heads[i],
             "entry_point": ("belowZero", "greatestCommonDivisor")[i], "test": _JS_TEST.replace("{cases}", cases[i]),
             "language": "javascript", "canonical_solution": None, "description": desc[i], "natural_language": "",
             "declaration": heads[i]} for i in range(2)]


def _java(desc: tuple[str, str]) -> list[dict[str, Any]]:
    imports = "import java.io.*;\nimport java.lang.*;\nimport java.util.*;\nimport java.math.*;\n\n\n"
    classes = ("BelowZero", "GreatestCommonDivisor")
    heads = ("    public static Boolean belowZero(List<Object> operations) {\n",
             "    public static int greatestCommonDivisor(int a, int b) {\n")
    cases = ("        Boolean x0 = BelowZero.belowZero(Arrays.asList());\n        Boolean v0 = false;\n"
             "        if (!(compare(x0, v0))) {\n            throw new java.lang.Exception(\"Exception -- test case 0 did not pass.\");\n        }\n"
             "        Boolean x1 = BelowZero.belowZero(Arrays.asList(1, 2, -4, 5, 6));\n        Boolean v1 = true;\n"
             "        if (!(compare(x1, v1))) {\n            throw new java.lang.Exception(\"Exception -- test case 1 did not pass.\");\n        }\n",
             "        int x0 = GreatestCommonDivisor.greatestCommonDivisor(3, 7);\n        int v0 = 1;\n"
             "        if (!(compare(x0, v0))) {\n            throw new java.lang.Exception(\"Exception -- test case 0 did not pass.\");\n        }\n"
             "        int x1 = GreatestCommonDivisor.greatestCommonDivisor(49, 14);\n        int v1 = 7;\n"
             "        if (!(compare(x1, v1))) {\n            throw new java.lang.Exception(\"Exception -- test case 1 did not pass.\");\n        }\n")
    return [{"task_id": f"java/{i}",
             "prompt": imports + f"class {classes[i]} {{\n    /**\n     * {desc[i]}\n     *\n     */\n" + heads[i],
             "entry_point": ("belowZero", "greatestCommonDivisor")[i], "test": _JAVA_TEST.format(cases=cases[i]),
             "language": "java", "canonical_solution": None, "description": desc[i], "natural_language": "",
             "declaration": imports + f"class {classes[i]} {{\n" + heads[i]} for i in range(2)]


#: program language -> (right reply to the first problem, wrong reply to the second).
REPLIES = {
    "python": ("Here is the body:\n```python\n    balance = 0\n    for op in operations:\n        balance += op\n"
               "        if balance < 0:\n            return True\n    return False\n```\nIt keeps a running balance.",
               "    return a * b\n"),
    "javascript": ("```javascript\nfunction belowZero(operations) {\n  let balance = 0;\n  for (const op of operations) {\n"
                   "    balance += op;\n    if (balance < 0) return true;\n  }\n  return false;\n}\n```\nDone.",
                   "  return a * b;\n}\n"),
    "java": ("```java\n    public static Boolean belowZero(List<Object> operations) {\n        int balance = 0;\n"
             "        for (Object op : operations) {\n            balance += (Integer) op;\n            if (balance < 0) {\n"
             "                return true;\n            }\n        }\n        return false;\n    }\n}\n```",
             "        return a * b;\n    }\n}\n"),
}


def main() -> None:
    (ROOT / "predictions").mkdir(parents=True, exist_ok=True)
    for natural, desc in DESCRIPTIONS.items():
        for program, build in (("python", _python), ("javascript", _javascript), ("java", _java)):
            rows = [{**row, "natural_language": natural} for row in build(desc)]
            folder = FOLDER / program
            folder.mkdir(parents=True, exist_ok=True)
            with open(folder / f"{natural}.jsonl", "w", encoding="utf-8") as f:
                for row in rows:
                    f.write(json.dumps(row, ensure_ascii=False) + "\n")
            preds = {str(i): {"origin_prompt": row["prompt"], "prediction": reply}
                     for i, (row, reply) in enumerate(zip(rows, REPLIES[program]))}
            (ROOT / "predictions" / f"humanevalxl-{program}-{natural}.json").write_text(
                json.dumps(preds, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

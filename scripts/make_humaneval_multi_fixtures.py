"""Write the small MultiPL-E HumanEval fixture in OpenCompass's layout.

Output, under ``tests/data/oc_families/humaneval_multi``::

    data/multi-data/humaneval_multipl-e/humaneval-<language>-reworded.jsonl   two problems per language
    predictions/humaneval_multiple-<language>.json                            replies, as OpenCompass writes them

Languages: ``py``, ``js``, ``cpp``, ``sh``, ``pl``, ``go``, ``java`` (those assay runs) and
``rb`` (one it does not).  Each language has two problems in MultiPL-E's row
format (``add``: the sum of two integers; ``max_of``: the larger of two), each
with its own tests and the language's stop tokens.  The replies: for ``add``
a correct body followed by text past a stop token, for ``max_of`` a wrong body
(and, in a second fixture file ``humaneval-<language>-remove.jsonl`` read with
``num_repeats=2``, a correct and a broken one: a program that does not
compile, or raises).

Usage::

    python scripts/make_humaneval_multi_fixtures.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "humaneval_multi"
FOLDER = ROOT / "data" / "multi-data" / "humaneval_multipl-e"

#: language -> stop tokens, (prompt, tests) per problem, replies (version -> list).
LANGUAGES: dict[str, dict[str, Any]] = {
    "py": {
        "stop": ["\ndef", "\n#", "\nif", "\nclass"],
        "add": ("def add(x: int, y: int) -> int:\n    \"\"\"Add two numbers x and y\n    >>> add(2, 3)\n    5\n    \"\"\"\n",
                "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(-4, 4) == 0\n\n"
                "def test_check():\n    check(add)\n\ntest_check()\n"),
        "max_of": ("def max_of(a: int, b: int) -> int:\n    \"\"\"The larger of a and b\n    >>> max_of(1, 7)\n    7\n    \"\"\"\n",
                   "def check(candidate):\n    assert candidate(1, 7) == 7\n    assert candidate(9, 2) == 9\n\n"
                   "def test_check():\n    check(max_of)\n\ntest_check()\n"),
        "reworded": ["    return x + y\n\ndef unused():\n    return 0\n", "    return min(a, b)\n"],
        "remove": ["    return x + y\n", "    return x - y\n", "    return a if a > b else b\n#done\n", "    return undefined_name\n"],
    },
    "js": {
        "stop": ["\nfunction ", "\n/*", "\n//", "\nconsole.log"],
        "add": ("//Add two numbers x and y\n// >>> add(2, 3)\n// 5\nfunction add(x, y){\n",
                "const assert = require('node:assert');\n\n\nfunction test() {\n  let candidate = add;\n"
                "  assert.deepEqual(candidate(1, 2),3);\n  assert.deepEqual(candidate(-4, 4),0);\n}\n\ntest();"),
        "max_of": ("//The larger of a and b\n// >>> max_of(1, 7)\n// 7\nfunction max_of(a, b){\n",
                   "const assert = require('node:assert');\n\n\nfunction test() {\n  let candidate = max_of;\n"
                   "  assert.deepEqual(candidate(1, 7),7);\n  assert.deepEqual(candidate(9, 2),9);\n}\n\ntest();"),
        "reworded": ["  return x + y;\n}\n\nconsole.log(add(1, 2));\n", "  return Math.min(a, b);\n}\n"],
        "remove": ["  return x + y;\n}\n", "  return x * y;\n}\n", "  return a > b ? a : b;\n}\n// done\n", "  return a > b ? a : ;\n}\n"],
    },
    "cpp": {
        "stop": ["\n}"],
        "add": ("#include<assert.h>\n#include<bits/stdc++.h>\n// Add two numbers x and y\n// >>> add((2), (3))\n// (5)\n"
                "long add(long x, long y) {\n",
                "}\nint main() {\n    auto candidate = add;\n    assert(candidate((1), (2)) == (3));\n"
                "    assert(candidate((-4), (4)) == (0));\n}\n"),
        "max_of": ("#include<assert.h>\n#include<bits/stdc++.h>\n// The larger of a and b\n// >>> max_of((1), (7))\n// (7)\n"
                   "long max_of(long a, long b) {\n",
                   "}\nint main() {\n    auto candidate = max_of;\n    assert(candidate((1), (7)) == (7));\n"
                   "    assert(candidate((9), (2)) == (9));\n}\n"),
        "reworded": ["    return x + y;\n}\nint main() { return 1; }\n", "    return std::min(a, b);\n}\n"],
        "remove": ["    return x + y;\n}\n", "    return x + y + 1;\n}\n", "    return std::max(a, b);\n}\n", "    return a >;\n}\n"],
    },
    "sh": {
        "stop": ["\n}"],
        "add": ("#!/bin/bash\n# Add two numbers x and y\n# >>> $(add \"2\" \"3\")\n# \"5\"\n#\n# $1 is an integer\n# $2 is an integer\n"
                "add() {\n",
                "}\n\ncandidate() {\n    add \"$@\"\n}\n\nset -e\nrun_test() {\n    [[ $(candidate \"1\" \"2\") = \"3\" ]]\n"
                "    [[ $(candidate \"-4\" \"4\") = \"0\" ]]\n}\n\nrun_test"),
        "max_of": ("#!/bin/bash\n# The larger of a and b\n# >>> $(max_of \"1\" \"7\")\n# \"7\"\n#\n# $1 is an integer\n"
                   "# $2 is an integer\nmax_of() {\n",
                   "}\n\ncandidate() {\n    max_of \"$@\"\n}\n\nset -e\nrun_test() {\n    [[ $(candidate \"1\" \"7\") = \"7\" ]]\n"
                   "    [[ $(candidate \"9\" \"2\") = \"9\" ]]\n}\n\nrun_test"),
        "reworded": ["    echo $(( $1 + $2 ))\n}\necho extra\n", "    if [ \"$1\" -lt \"$2\" ]; then echo $1; else echo $2; fi\n}\n"],
        "remove": ["    echo $(( $1 + $2 ))\n}\n", "    echo $(( $1 * $2 ))\n}\n",
                   "    if [ \"$1\" -gt \"$2\" ]; then echo $1; else echo $2; fi\n}\n", "    exit 3\n}\n"],
    },
    "pl": {
        "stop": ["\nsub", "\n#", "\n\n"],
        "add": ("# Add two numbers x and y\n# >>> add(2, 3)\n# 5\nsub add {\n    my($x, $y) = @_;\n",
                "use Test::Deep;\n\n\nsub testhumaneval {\n    my $candidate = \\&add;\n"
                "        if(eq_deeply($candidate->(1, 2),3)) {\n        print \"ok!\" }else{\n        exit 1;\n        }\n"
                "        if(eq_deeply($candidate->(-4, 4),0)) {\n        print \"ok!\" }else{\n        exit 1;\n        }\n}\n\n"
                "testhumaneval();"),
        "max_of": ("# The larger of a and b\n# >>> max_of(1, 7)\n# 7\nsub max_of {\n    my($a, $b) = @_;\n",
                   "use Test::Deep;\n\n\nsub testhumaneval {\n    my $candidate = \\&max_of;\n"
                   "        if(eq_deeply($candidate->(1, 7),7)) {\n        print \"ok!\" }else{\n        exit 1;\n        }\n"
                   "        if(eq_deeply($candidate->(9, 2),9)) {\n        print \"ok!\" }else{\n        exit 1;\n        }\n}\n\n"
                   "testhumaneval();"),
        "reworded": ["    return $x + $y;\n}\n\nprint add(1, 2);\n", "    return $a < $b ? $a : $b;\n}\n"],
        "remove": ["    return $x + $y;\n}\n", "    return $x - $y;\n}\n", "    return $a > $b ? $a : $b;\n}\n", "    return $a >;\n}\n"],
    },
    "go": {
        "stop": ["\nfunc", "struct", "\n// "],
        "add": ("package add_test\n\nimport (\n    \"testing\"\n    \"fmt\"\n)\n\n// Add two numbers x and y\n"
                "func add(x int, y int) int {\n",
                "func TestAdd(t *testing.T) {\n  candidate := add\n\ttype test struct {\n\t\tactual   interface{}\n\t\texpected interface{}\n\t}\n   tests := []test{\n     { actual: candidate(1, 2), expected: 3 },\n     { actual: candidate(-4, 4), expected: 0 },\n   }\n\n\tfor i, tc := range tests {\n\t\tt.Run(fmt.Sprintf(\"test num % d\", i), func(t *testing.T) {\n\t\t\tif fmt.Sprintf(\"%v\", tc.actual) != fmt.Sprintf(\"%v\", tc.expected) {\n\t\t\t\tt.Errorf(\"expected '%s', got '%s'\", tc.expected, tc.actual)\n\t\t\t}\n\t\t})\n\t}\n}\n"),
        "max_of": ("package max_of_test\n\nimport (\n    \"testing\"\n    \"fmt\"\n)\n\n// The larger of a and b\n"
                   "func max_of(a int, b int) int {\n",
                   "func TestMax_Of(t *testing.T) {\n  candidate := max_of\n\ttype test struct {\n\t\tactual   interface{}\n\t\texpected interface{}\n\t}\n   tests := []test{\n     { actual: candidate(1, 7), expected: 7 },\n     { actual: candidate(9, 2), expected: 9 },\n   }\n\n\tfor i, tc := range tests {\n\t\tt.Run(fmt.Sprintf(\"test num % d\", i), func(t *testing.T) {\n\t\t\tif fmt.Sprintf(\"%v\", tc.actual) != fmt.Sprintf(\"%v\", tc.expected) {\n\t\t\t\tt.Errorf(\"expected '%s', got '%s'\", tc.expected, tc.actual)\n\t\t\t}\n\t\t})\n\t}\n}\n"),
        "reworded": ["    return x + y\n}\n\nfunc main() {}\n", "    if a < b {\n        return a\n    }\n    return b\n}\n"],
        "remove": ["    return x + y\n}\n", "    return x * y\n}\n", "    if a > b {\n        return a\n    }\n    return b\n}\n",
                   "    return a >\n}\n"],
    },
    "java": {
        "stop": ["\n    }\n"],
        "add": ("import java.util.*;\nimport java.lang.reflect.*;\nimport org.javatuples.*;\nimport java.security.*;\nimport java.math.*;\nimport java.io.*;\nimport java.util.stream.*;\nclass Problem {\n    // Add two numbers x and y\n    public static long add(long x, long y) {\n",
                "    }\n    public static void main(String[] args) {\n    assert(add((1l), (2l)) == (3l));\n"
                "    assert(add((-4l), (4l)) == (0l));\n    }\n\n}\n"),
        "max_of": ("import java.util.*;\nimport java.lang.reflect.*;\nimport org.javatuples.*;\nimport java.security.*;\nimport java.math.*;\nimport java.io.*;\nimport java.util.stream.*;\nclass Problem {\n    // The larger of a and b\n    public static long maxOf(long a, long b) {\n",
                   "    }\n    public static void main(String[] args) {\n    assert(maxOf((1l), (7l)) == (7l));\n"
                   "    assert(maxOf((9l), (2l)) == (9l));\n    }\n\n}\n"),
        "reworded": ["        return x + y;\n    }\n    static int unused() { return 0; }\n", "        return Math.min(a, b);\n    }\n"],
        "remove": ["        return x + y;\n    }\n", "        return x - y;\n    }\n", "        return Math.max(a, b);\n    }\n",
                   "        return Pair.with(a, b);\n    }\n"],
    },
    "rb": {
        "stop": ["\nclass", "\ndef", "\n#", "\n\n"],
        "add": ("# Add two numbers x and y\n# >>> add.call(2, 3)\n# 5\ndef add(x, y)\n",
                "require 'test/unit'\nclass TestHumanEval < Test::Unit::TestCase\n  def test_add\n    candidate = method(:add)\n"
                "    assert_equal(3, candidate.call(1, 2))\n  end\nend\n"),
        "max_of": ("# The larger of a and b\n# >>> max_of.call(1, 7)\n# 7\ndef max_of(a, b)\n",
                   "require 'test/unit'\nclass TestHumanEval < Test::Unit::TestCase\n  def test_max_of\n"
                   "    candidate = method(:max_of)\n    assert_equal(7, candidate.call(1, 7))\n  end\nend\n"),
        "reworded": ["  x + y\nend\n", "  [a, b].min\nend\n"],
        "remove": ["  x + y\nend\n", "  x - y\nend\n", "  [a, b].max\nend\n", "  a >\nend\n"],
    },
}


def _row(language: str, name: str, version: str, spec: dict[str, Any]) -> dict[str, Any]:
    prompt, tests = spec[name]
    number = 0 if name == "add" else 1
    return {
        "name": f"HumanEval_{number}_{name}",
        "language": language,
        "prompt": prompt,
        "doctests": "transform" if version != "remove" else "remove",
        "original": f"../datasets/originals-with-cleaned-doctests/HumanEval_{number}_{name}.py",
        "prompt_terminology": "reworded" if version == "reworded" else "verbatim",
        "tests": tests,
        "stop_tokens": spec["stop"],
    }


def main() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    (ROOT / "predictions").mkdir(parents=True, exist_ok=True)
    for language, spec in LANGUAGES.items():
        for version in ("reworded", "remove"):
            rows = [_row(language, name, version, spec) for name in ("add", "max_of")]
            with open(FOLDER / f"humaneval-{language}-{version}.jsonl", "w", encoding="utf-8") as f:
                for row in rows:
                    f.write(json.dumps(row) + "\n")
            suffix = "" if version == "reworded" else "-remove"
            replies = spec[version]
            preds = {str(i): {"origin_prompt": "", "prediction": reply} for i, reply in enumerate(replies)}
            (ROOT / "predictions" / f"humaneval_multiple-{language}{suffix}.json").write_text(
                json.dumps(preds, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""Write the small HumanEval-X fixture in OpenCompass's layout.

Output, under ``tests/data/oc_families/humanevalx``::

    data/humanevalx/humanevalx_<language>.jsonl.gz   four problems per language (python, cpp, go, java, js)
    predictions/humanevalx-<language>.json           a reply per problem, as OpenCompass writes them

Each language has two problems (``add``: the sum of two integers;
``sum_squares``: the sum of the squares of the numbers rounded up, whose
solutions use the language's ceiling function — in Go ``math.Ceil``, which the
evaluation service imports only because the generation uses it), each
appearing twice (``<Language>/0`` … ``/3``).  The replies: a correct solution
in a fenced block with prose around it, repeating the function head; a
correct bare body; a wrong answer; a program that does not compile (for
Python, one that raises).  So each language's expected pass@1 is 50.

Usage::

    python scripts/make_humanevalx_fixtures.py
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "humanevalx"

GO_SETUP = 'package main\n\nimport (\n    "testing"\n    "github.com/stretchr/testify/assert"\n)\n'

PROBLEMS: dict[str, list[dict[str, Any]]] = {
    "python": [
        {
            "prompt": 'def add(x: int, y: int) -> int:\n    """Add two numbers x and y\n    >>> add(2, 3)\n    5\n    """\n',
            "declaration": "def add(x: int, y: int) -> int:\n",
            "canonical_solution": "    return x + y\n",
            "test": "\n\nMETADATA = {}\n\n\ndef check(candidate):\n    assert candidate(0, 1) == 1\n    assert candidate(5, 7) == 12\n    assert candidate(-3, 3) == 0\n\ncheck(add)\n",
            "example_test": "def check(candidate):\n    assert candidate(2, 3) == 5\ncheck(add)\n",
        },
        {
            "prompt": 'from typing import List\n\n\ndef sum_squares(lst: List[float]) -> int:\n    """Return the sum of the squares of the numbers of lst, each rounded up first.\n    >>> sum_squares([1.4, 2])\n    8\n    """\n',
            "declaration": "from typing import List\n\n\ndef sum_squares(lst: List[float]) -> int:\n",
            "canonical_solution": "    return sum(math.ceil(x) ** 2 for x in lst)\n",
            "test": "\n\nMETADATA = {}\n\n\ndef check(candidate):\n    assert candidate([1.4, 2]) == 8\n    assert candidate([-1.5, 0.1]) == 2\n    assert candidate([]) == 0\n\ncheck(sum_squares)\n",
            "example_test": "def check(candidate):\n    assert candidate([1.4, 2]) == 8\ncheck(sum_squares)\n",
        },
    ],
    "cpp": [
        {
            "prompt": "/*\nAdd two numbers x and y\n>>> add(2, 3)\n5\n*/\n#include<stdio.h>\n#include<stdlib.h>\nusing namespace std;\nint add(int x,int y){\n",
            "declaration": "#include<stdio.h>\n#include<stdlib.h>\nusing namespace std;\n#include<algorithm>\n#include<math.h>\nint add(int x,int y){\n",
            "canonical_solution": "    return x+y;\n}\n",
            "test": "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (add(0, 1) == 1);\n    assert (add(5, 7) == 12);\n    assert (add(-3, 3) == 0);\n}\n",
            "example_test": "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (add(2, 3) == 5);\n}\n",
        },
        {
            "prompt": "/*\nReturn the sum of the squares of the numbers of lst, each rounded up first.\n>>> sum_squares({1.4, 2})\n8\n*/\n#include<stdio.h>\n#include<math.h>\n#include<vector>\nusing namespace std;\nint sum_squares(vector<float> lst){\n",
            "declaration": "#include<stdio.h>\n#include<math.h>\n#include<vector>\nusing namespace std;\n#include<algorithm>\n#include<stdlib.h>\nint sum_squares(vector<float> lst){\n",
            "canonical_solution": "    int sum=0;\n    for (int i=0;i<lst.size();i++)\n        sum+=ceil(lst[i])*ceil(lst[i]);\n    return sum;\n}\n",
            "test": "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (sum_squares({1.4, 2}) == 8);\n    assert (sum_squares({-1.5, 0.1}) == 2);\n    assert (sum_squares({}) == 0);\n}\n",
            "example_test": "#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (sum_squares({1.4, 2}) == 8);\n}\n",
        },
    ],
    "go": [
        {
            "prompt": "\n// Add two numbers x and y\n// >>> Add(2, 3)\n// 5\nfunc Add(x int, y int) int {\n",
            "declaration": "\nfunc Add(x int, y int) int {\n",
            "canonical_solution": "    return x + y\n}\n\n",
            "test": "func TestAdd(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal(1, Add(0, 1))\n    assert.Equal(12, Add(5, 7))\n    assert.Equal(0, Add(-3, 3))\n}\n",
            "example_test": "func TestAdd(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal(5, Add(2, 3))\n}\n",
            "import": "",
            "test_setup": GO_SETUP,
        },
        {
            "prompt": 'import (\n    "math"\n)\n\n// Return the sum of the squares of the numbers of lst, each rounded up first.\n// >>> SumSquares([]float64{1.4, 2})\n// 8\nfunc SumSquares(lst []float64) int {\n',
            "declaration": '\nimport (\n    "math"\n)\n\nfunc SumSquares(lst []float64) int {\n',
            "canonical_solution": "    sum := 0\n    for _, x := range lst {\n        c := int(math.Ceil(x))\n        sum += c * c\n    }\n    return sum\n}\n\n",
            "test": "func TestSumSquares(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal(8, SumSquares([]float64{1.4, 2}))\n    assert.Equal(2, SumSquares([]float64{-1.5, 0.1}))\n    assert.Equal(0, SumSquares([]float64{}))\n}\n",
            "example_test": "func TestSumSquares(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal(8, SumSquares([]float64{1.4, 2}))\n}\n",
            "import": 'import (\n    "math"\n)\n',
            "test_setup": GO_SETUP,
        },
    ],
    "java": [
        {
            "prompt": "import java.util.*;\nimport java.lang.*;\n\nclass Solution {\n    /**\n    Add two numbers x and y\n    >>> add(2, 3)\n    5\n     */\n    public int add(int x, int y) {\n",
            "declaration": "import java.util.*;\nimport java.lang.*;\n\nclass Solution {\n    public int add(int x, int y) {\n",
            "canonical_solution": "        return x + y;\n    }\n}",
            "test": "public class Main {\n    public static void main(String[] args) {\n        Solution s = new Solution();\n        List<Boolean> correct = Arrays.asList(\n                s.add(0, 1) == 1,\n                s.add(5, 7) == 12,\n                s.add(-3, 3) == 0\n        );\n        if (correct.contains(false)) {\n            throw new AssertionError();\n        }\n    }\n}\n",
            "example_test": "public class Main {\n    public static void main(String[] args) {\n        Solution s = new Solution();\n        if (s.add(2, 3) != 5) {\n            throw new AssertionError();\n        }\n    }\n}\n",
        },
        {
            "prompt": "import java.util.*;\nimport java.lang.*;\n\nclass Solution {\n    /**\n    Return the sum of the squares of the numbers of lst, each rounded up first.\n    >>> sumSquares(Arrays.asList(1.4, 2.0))\n    8\n     */\n    public int sumSquares(List<Double> lst) {\n",
            "declaration": "import java.util.*;\nimport java.lang.*;\n\nclass Solution {\n    public int sumSquares(List<Double> lst) {\n",
            "canonical_solution": "        return lst.stream().map(p -> (int) Math.ceil(p)).map(p -> p * p).reduce(Integer::sum).orElse(0);\n    }\n}",
            "test": "public class Main {\n    public static void main(String[] args) {\n        Solution s = new Solution();\n        List<Boolean> correct = Arrays.asList(\n                s.sumSquares(Arrays.asList(1.4, 2.0)) == 8,\n                s.sumSquares(Arrays.asList(-1.5, 0.1)) == 2,\n                s.sumSquares(new ArrayList<Double>()) == 0\n        );\n        if (correct.contains(false)) {\n            throw new AssertionError();\n        }\n    }\n}\n",
            "example_test": "public class Main {\n    public static void main(String[] args) {\n        Solution s = new Solution();\n        if (s.sumSquares(Arrays.asList(1.4, 2.0)) != 8) {\n            throw new AssertionError();\n        }\n    }\n}\n",
        },
    ],
    "js": [
        {
            "prompt": "/*Add two numbers x and y\n  >>> add(2, 3)\n  5\n  */\nconst add = (x, y) => {\n",
            "declaration": "\nconst add = (x, y) => {\n",
            "canonical_solution": "  return x + y;\n}\n\n",
            "test": "const testAdd = () => {\n  console.assert(add(0, 1) === 1)\n  console.assert(add(5, 7) === 12)\n  console.assert(add(-3, 3) === 0)\n}\n\ntestAdd()\n",
            "example_test": "const testAdd = () => {\n  console.assert(add(2, 3) === 5)\n}\ntestAdd()\n",
        },
        {
            "prompt": "/*Return the sum of the squares of the numbers of lst, each rounded up first.\n  >>> sumSquares([1.4, 2])\n  8\n  */\nconst sumSquares = (lst) => {\n",
            "declaration": "\nconst sumSquares = (lst) => {\n",
            "canonical_solution": "  let p = 0\n  for (let i = 0; i < lst.length; i++) {\n    let y = Math.ceil(lst[i])\n    p += y * y\n  }\n  return p\n}\n\n",
            "test": "const testSumSquares = () => {\n  console.assert(sumSquares([1.4, 2]) === 8)\n  console.assert(sumSquares([-1.5, 0.1]) === 2)\n  console.assert(sumSquares([]) === 0)\n}\n\ntestSumSquares()\n",
            "example_test": "const testSumSquares = () => {\n  console.assert(sumSquares([1.4, 2]) === 8)\n}\ntestSumSquares()\n",
        },
    ],
}

#: language -> the four replies (rows 0..3: add, sum_squares, add, sum_squares).
REPLIES: dict[str, list[str]] = {
    "python": [
        "Here is the function:\n```python\ndef add(x: int, y: int) -> int:\n    return x + y\n```\nIt adds the numbers.",
        "    return sum(math.ceil(x) ** 2 for x in lst)\n",
        "```python\n    return x - y\n```",
        "    return sum(ceil(x) ** 2 for x in lst)\n\nprint(sum_squares([1]))",
    ],
    "cpp": [
        "Sure.\n```cpp\nint add(int x,int y){\n    return x+y;\n}\n```\nThat is all.",
        "    int sum=0;\n    for (int i=0;i<lst.size();i++)\n        sum+=ceil(lst[i])*ceil(lst[i]);\n    return sum;\n}\n",
        "    return x*y;\n}\nint main(){\n    printf(\"%d\", add(1, 2));\n}",
        "    int sum=0\n    for (float x: lst) sum+=ceil(x)*ceil(x);\n    return sum;\n}\n",
    ],
    "go": [
        "```go\nfunc Add(x int, y int) int {\n    return x + y\n}\n```",
        "    sum := 0\n    for _, x := range lst {\n        c := int(math.Ceil(x))\n        sum += c * c\n    }\n    return sum\n}\n\nfunc main() {\n    fmt.Println(SumSquares([]float64{1.4}))\n}\n",
        "    return x - y\n}\n",
        "    sum := 0\n    for _, x := range lst {\n        sum += x * x\n    }\n    return sum\n}\n",
    ],
    "java": [
        "Here it is:\n```java\n    public int add(int x, int y) {\n        return x + y;\n    }\n}\n```",
        "        int sum = 0;\n        for (double p : lst) {\n            int c = (int) Math.ceil(p);\n            sum += c * c;\n        }\n        return sum;\n    }\n}\n",
        "        return x * y;\n    }\n\n    public static void main(String[] args) {\n        System.out.println(new Solution().add(1, 2));\n    }\n}",
        "        int sum = 0\n        return sum;\n    }\n}",
    ],
    "js": [
        "```javascript\nconst add = (x, y) => {\n  return x + y;\n}\n```\nDone.",
        "  let p = 0\n  for (let i = 0; i < lst.length; i++) {\n    let y = Math.ceil(lst[i])\n    p += y * y\n  }\n  return p\n}\n",
        "  return x - y;\n}\n",
        "  let p = 0\n  for (const x of lst) p += x * x\n  return p\n}\n",
    ],
}

LANG_NAMES = {"python": "Python", "cpp": "CPP", "go": "Go", "java": "Java", "js": "JavaScript"}


def main() -> None:
    for lang, problems in PROBLEMS.items():
        rows = []
        for i in range(4):
            row = {"task_id": f"{LANG_NAMES[lang]}/{i}", **problems[i % 2]}
            rows.append(row)
        folder = ROOT / "data" / "humanevalx"
        folder.mkdir(parents=True, exist_ok=True)
        body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()
        with gzip.GzipFile(folder / f"humanevalx_{lang}.jsonl.gz", "wb", mtime=0) as fh:
            fh.write(body)
        preds = {
            str(i): {"origin_prompt": rows[i]["prompt"], "prediction": REPLIES[lang][i], "gold": rows[i]["declaration"]}
            for i in range(4)
        }
        out = ROOT / "predictions" / f"humanevalx-{lang}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(preds, indent=4, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

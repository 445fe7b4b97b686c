"""Write the small LCBench fixture in OpenCompass's layout.

Output, under ``tests/data/oc_families/lcbench``::

    data/LCBench2023/LCBench2023.jsonl, LCBench2023_cn.jsonl   five example problems, then four test problems
    predictions/<dataset abbr>.json                            replies for the library configs' datasets

The test problems (``sum_digits``, ``max_gap``, ``reverse_words``,
``count_evens``; difficulties EASY, MEDIUM, HARD, EASY) are answered by replies
of the shapes LCBench's prompts ask for and models give: ``[BEGIN] '…' [DONE]``,
a ``class Solution`` in a fenced block, two fenced blocks of which only the
second is right, a wrong answer, a syntax error, a string where an integer is
due.  The repeated configs get, for each repetition, the right reply or a
wrong one in turn.

Usage::

    python scripts/make_lcbench_fixtures.py
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "lcbench"

EXAMPLES = [
    {"text": f"Example problem {i}.", "test_list": [f"assert example{i}() == {i}"], "Contest id": f"example-{i}",
     "Difficulty": d}
    for i, d in enumerate(["EASY", "MEDIUM", "HARD", "EASY", "MEDIUM"])
]
PROBLEMS = [
    {"text": "Given a non-negative integer n, return the sum of its decimal digits.",
     "test_list": ["assert sumDigits(n = 0) == 0", "assert sumDigits(n = 123) == 6", "assert sumDigits(n = 9045) == 18"],
     "Contest id": "weekly-contest-401", "Difficulty": "EASY"},
    {"text": "Given a list of integers nums with at least two elements, return the largest difference between two adjacent elements of the sorted list.",
     "test_list": ["assert maxGap(nums = [3, 6, 9, 1]) == 3", "assert maxGap(nums = [10, 1]) == 9"],
     "Contest id": "weekly-contest-402", "Difficulty": "MEDIUM"},
    {"text": "Given a string s of words separated by single spaces, return the words in reverse order joined by single spaces.",
     "test_list": ["assert reverseWords(s = \"the sky is blue\") == \"blue is sky the\"", "assert reverseWords(s = \"a\") == \"a\""],
     "Contest id": "biweekly-contest-133", "Difficulty": "HARD"},
    {"text": "Given a list of integers nums, return how many of them are even.",
     "test_list": ["assert countEvens(nums = [1, 2, 4, 7]) == 2", "assert countEvens(nums = []) == 0"],
     "Contest id": "weekly-contest-403", "Difficulty": "EASY"},
]
CN_TEXT = ["给你一个非负整数 n，返回其各位数字之和。", "给你一个至少有两个元素的整数列表 nums，返回排序后相邻元素的最大差值。",
           "给你一个由单个空格分隔单词的字符串 s，返回按相反顺序排列、以单个空格连接的单词。", "给你一个整数列表 nums，返回其中偶数的个数。"]

RIGHT = {
    "weekly-contest-401": "[BEGIN]\n 'def sumDigits(n):\n    return sum(int(c) for c in str(n))' \n[DONE]",
    "weekly-contest-402": "```python\nclass Solution:\n    def maxGap(self, nums):\n        s = sorted(nums)\n        return max(b - a for a, b in zip(s, s[1:]))\n```",
    "biweekly-contest-133": "First try:\n```python\ndef reverseWords(s):\n    return s[::-1]\n```\nBetter:\n```python\ndef reverseWords(s):\n    return ' '.join(reversed(s.split(' ')))\n```",
    "weekly-contest-403": "```\ndef countEvens(nums):\n    return sum(1 for x in nums if x % 2 == 0)\n```",
}
WRONG = {
    "weekly-contest-401": "[BEGIN]\n 'def sumDigits(n):\n    return str(sum(int(c) for c in str(n)))' \n[DONE]",
    "weekly-contest-402": "```python\ndef maxGap(nums):\n    return max(nums) - min(nums)\n```",
    "biweekly-contest-133": "```python\ndef reverseWords(s)\n    return s\n```",
    "weekly-contest-403": "def countEvens(nums):\n    return len(nums) - 1",
}
#: language -> the reply each test problem gets in the configs run once.
ONCE = {
    "en": [RIGHT["weekly-contest-401"], RIGHT["weekly-contest-402"], RIGHT["biweekly-contest-133"], WRONG["weekly-contest-403"]],
    "cn": [WRONG["weekly-contest-401"], RIGHT["weekly-contest-402"], WRONG["biweekly-contest-133"], RIGHT["weekly-contest-403"]],
}


def _rows(lang: str) -> list[dict[str, object]]:
    tests = [dict(p) for p in PROBLEMS]
    if lang == "cn":
        for row, text in zip(tests, CN_TEXT):
            row["text"] = text
    return [*EXAMPLES, *tests]


def _write_predictions(abbr: str, rows: list[dict[str, object]], replies: list[str]) -> None:
    preds = {str(i): {"origin_prompt": str(row["text"]), "prediction": reply, "gold": {"test_list_2": "\n".join(row["test_list"]),  # type: ignore[arg-type]
                                                                                       "task_id": row["Contest id"]}}
             for i, (row, reply) in enumerate(zip(rows, replies))}
    out = ROOT / "predictions" / f"{abbr}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(preds, indent=4, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    folder = ROOT / "data" / "LCBench2023"
    folder.mkdir(parents=True, exist_ok=True)
    for lang, name in (("en", "LCBench2023.jsonl"), ("cn", "LCBench2023_cn.jsonl")):
        rows = _rows(lang)
        (folder / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        tests = rows[5:]
        _write_predictions(f"lcbench_{lang}", tests, ONCE[lang])
        for level in ("EASY", "MEDIUM", "HARD"):
            picked = [(r, reply) for r, reply in zip(tests, ONCE[lang]) if r["Difficulty"] == level]
            _write_predictions(f"lcbench_{lang}-{level}", [r for r, _ in picked], [reply for _, reply in picked])
        repeated = tests * 10
        replies = [(RIGHT if (j // len(tests)) % 3 == 0 else WRONG)[str(row["Contest id"])] for j, row in enumerate(repeated)]
        _write_predictions(f"lcbench_{lang}_repeat10", repeated, replies)


if __name__ == "__main__":
    main()

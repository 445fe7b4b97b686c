"""Record what OpenCompass 0.5.4's Kaoshi components (and further science families) compute.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_sci2.py [--out FILE]

It builds small data files in OpenCompass's layouts under
``tests/data/oc_families/sci2/cache`` (the ``$COMPASS_DATA_CACHE`` of the
recording and of the tests) and works from there:

* Kaoshi: ``data/Kaoshi/<exam>/<question type>.jsonl`` read by ``KaoshiDataset.load``
  for one file of each question type the library's config names, and
  ``KaoshiEvaluator`` on replies written to reach each of its readers.

The output goes to ``tests/data/oc_families/sci2/recorded.json``;
``tests/datasets/test_kaoshi.py`` checks assay's namesakes against it.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "oc_families" / "sci2"
OUT = DATA / "recorded.json"

#: (exam folder, question type in the file name, the loader's ``name``) → rows
KAOSHI_FILES: dict[tuple[str, str, str], list[dict[str, Any]]] = {
    ("职业-消防", "单选题", "single_choice"): [
        {"question": "  火灾分为几类？ ", "options": ["四类", "五类", "六类", "七类"], "answer": ["C"], "id": 1},
        {"question": "灭火器的有效期一般为多少年？", "options": ["5", "8", "10", "12"], "answer": ["C"], "id": 2,
         "year": 2021},
    ],
    ("职业-消防", "多选题", "multi_choice"): [
        {"question": "下列属于灭火方法的有：", "options": ["冷却", "窒息", "隔离", "助燃"], "answer": ["ABC"]},
        {"question": "消防设施包括\n", "options": ["喷淋", "烟感"], "answer": ["AB"]},
    ],
    ("考研-英语", "完形填空", "multi_question_choice"): [
        {"question": "The (1) ___ sat on the (2) ___ .", "answer": ["B", "D", "A"]},
    ],
    ("考研-英语", "七选五", "five_out_of_seven"): [
        {"question": "Fill in the five gaps.", "answer": ["B", "G", "A", "E", "C"]},
    ],
    ("职业-证券", "判断题", "judgment"): [
        {"question": "股票是一种有价证券。", "answer": "正确"},
        {"question": "债券没有风险。", "answer": "错误"},
    ],
    ("考研-数学", "填空题", "cloze"): [
        {"question": "1+1=___", "answer": "2"},
    ],
}

#: question type → [(replies, references)]
KAOSHI_EVALS: dict[str, list[tuple[list[str], list[Any]]]] = {
    "single_choice": [(["【解析】因为A不对，所以选C <eoe>\n【答案】: C <eoa>", "答案是 B。", "无法确定", "D，不是A"],
                       [["C"], ["C"], ["A"], ["A"]])],
    "multi_choice": [
        (["【解析】…… <eoe>\n【答案】: A C <eoa>", "【答案】B <eoa>", "【答案】ABC <eoa>", "不知道", "选项 A 和 D 都对吧",
          "【答案】AB<eoa>"], [["AC"], ["BC"], ["ABC"], ["AB"], ["AD"], ["AB"]]),
        (["【答案】ABC，因为……很长的一段解释", "前面很长的一段分析内容 B D"], [["ABC"], ["BD"]]),
    ],
    "multi_question_choice": [
        (["（1）【答案】 B <eoa>\n（2）【答案】：D <eoa>\n（3）【答案】 A <eoa>", "I pick B then D", "（1）【答案】 B <eoa>"],
         [["B", "D", "A"], ["B", "D", "A"], ["B", "D", "A"]]),
    ],
    "five_out_of_seven": [
        (["【答案】 B G A E C <eoa>", "【答案】 A B C <eoa>", "Options: B, G, A, E, C, F"],
         [["B", "G", "A", "E", "C"], ["B", "G", "A", "E", "C"], ["B", "G", "A", "E", "C"]]),
    ],
    "judgment": [
        (["【答案】正确 <eoa>", "【答案】 错误 <eoa>", "【答案】错误<eoa>", "正确", "【答案】错误 <eoa> 【答案】正确 <eoa>"],
         ["正确", "错误", "错误", "正确", "错误"]),
    ],
    "cloze": [
        (["【解析】1+1=2 <eoe>\n【答案】2 <eoa>", "【答案】3 <eoa>", "【答案】2", "【答案】 2 <eoa>"], ["2", "2", "2", "2"]),
    ],
}


def build(root: Path) -> None:
    """The data files, in OpenCompass's layouts, under ``root`` (the recording's and the tests' copy)."""
    for (exam, kind, _), rows in KAOSHI_FILES.items():
        folder = root / "cache" / "data" / "Kaoshi" / exam
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{kind}.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                                              encoding="utf-8")


def record() -> dict[str, Any]:
    from opencompass.datasets.kaoshi import KaoshiDataset, KaoshiEvaluator

    out: dict[str, Any] = {"opencompass": importlib.metadata.version("opencompass")}
    build(DATA)
    os.environ["COMPASS_DATA_CACHE"] = str(DATA / "cache")
    out["KaoshiDataset"] = []
    for (exam, kind, name) in KAOSHI_FILES:
        args = {"path": f"./data/Kaoshi/{exam}/{kind}.jsonl", "name": name}
        out["KaoshiDataset"].append({"args": args, "rows": [dict(r) for r in KaoshiDataset.load(**args)]})
    out["KaoshiEvaluator"] = [
        {"question_type": kind, "predictions": p, "references": r,
         "result": KaoshiEvaluator(question_type=kind).score(list(p), list(r))}
        for kind, cases in KAOSHI_EVALS.items() for p, r in cases]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    recorded = record()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

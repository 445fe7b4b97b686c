"""Record what OpenCompass 0.5.4's evaluators of the generation families compute on pairs of replies and references.

Run it with a Python that has opencompass==0.5.4 installed (with jieba and rouge_chinese);
OpenCompass is not a dependency of assay::

    python scripts/record_oc_gen.py [--out FILE]

* ``JiebaRougeEvaluator`` (LCSTS's and RoleBench's Chinese configs): each pair scored alone
  and every batch together — repeated words, sentences cut at ``。！？?``, six dots and
  ellipses, whitespace, empty replies and references, English text.

The output goes to ``tests/data/oc_families/gen/recorded.json``;
``tests/evaluators/test_gen_evaluators.py`` checks assay's namesakes against it.
The loaders, postprocessors and the library configs' scores are recorded with the other
families by ``scripts/record_oc_knowledge.py`` (their files: ``tests/benchmarks_oc/families_gen.py``).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import logging
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "oc_families" / "gen" / "recorded.json"

ROUGE_PAIRS: list[tuple[str, str]] = [
    ("今天天气很好", "今天天气很好"),
    ("今天天气很好", "今天天气不错"),
    ("好好好好好", "好"),
    ("我爱北京天安门，天安门上太阳升", "我爱北京"),
    ("今天下雨了。明天会晴吗？后天呢！", "明天晴。今天下雨"),
    ("他说……好吧……然后走了", "他走了"),
    ("等等......我想想......对", "我想想"),
    ("市政府将新建三座公园", "市政府 将 新建 三座 公园"),
    ("", "上海"),
    ("上海", ""),
    ("", ""),
    ("The cat sat on the mat", "the cat sat on a mat"),
    ("新款手机降价发布\n第二行不算", "新款手机降价发布"),
    ("一二三四五六七八九十", "十九八七六五四三二一"),
    ("“你好，”他说。“再见！”她答", "你好再见"),
    ("   ", "空白"),
]


def record() -> dict[str, Any]:
    from opencompass.openicl.icl_evaluator import JiebaRougeEvaluator

    evaluator = JiebaRougeEvaluator()
    preds = [p for p, _ in ROUGE_PAIRS]
    refs = [r for _, r in ROUGE_PAIRS]
    return {
        "opencompass": importlib.metadata.version("opencompass"),
        "JiebaRougeEvaluator": {
            "each": [{"prediction": p, "reference": r, "scores": evaluator.score([p], [r])} for p, r in ROUGE_PAIRS],
            "batches": [{"predictions": preds[a:b], "references": refs[a:b], "scores": evaluator.score(preds[a:b], refs[a:b])}
                        for a, b in ((0, len(preds)), (0, 5), (4, 12), (8, 16))],
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    data = record()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"recorded -> {args.out}")


if __name__ == "__main__":
    main()

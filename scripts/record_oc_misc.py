"""Record what OpenCompass 0.5.4's loaders and evaluators of smaller families compute.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_misc.py [--out FILE]

It builds small data files in OpenCompass's layouts in a temporary folder and works
from there:

* LLM compression: ``$COMPASS_DATA_CACHE/data/llm-compression/<name>.json`` or
  ``.jsonl`` (one corpus in both, where the ``.json`` wins), records with empty
  ``content`` among them; ``LLMCompressionDataset.load`` with and without ``samples``;
* inference PPL: ``$COMPASS_DATA_CACHE/data/inference_ppl/cn-reasoning-val.jsonl``;
  ``InferencePPLDataset.load``, and ``AverageInferencePPLEvaluator`` on loss and
  token counts;
* Hungarian exam: ``$COMPASS_DATA_CACHE/data/HungarianExamMath/test.csv`` read by
  ``HungarianExamMathDataset.load``;
* SciEval: the folder ``OpenDFM/SciEval`` (a ``test`` split of several question
  types and categories), which ``datasets.load_dataset`` reads as a local folder;
  ``SciEvalDataset.load`` with the library configs' arguments (a list as
  ``category``) and with a category string or none.

The output goes to ``tests/data/oc_families/misc/recorded.json`` with the data
files under ``tests/data/oc_families/misc/``; ``tests/datasets/test_text_corpora_scieval.py``
checks assay's namesakes against it.
"""

from __future__ import annotations

import argparse
import csv
import importlib.metadata
import json
import logging
import os
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "oc_families" / "misc"
OUT = DATA / "recorded.json"


def _contents(seed: str, n: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    words = ["theorem", "def f(x):", "    return x", "数据", "lemma", "the", "proof", "\n", "∑", "import os"]
    out = []
    for i in range(n):
        text = "" if i % 4 == 2 else " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
        out.append({"content": text, "id": f"{seed}-{i}"})
    return out


HUNGARIAN = ["Oldja meg a valós számok halmazán: $x^2 - 5x + 6 = 0$.",
             "Egy háromszög oldalai 3, 4 és 5 cm.\nMekkora a területe?",
             'Számítsa ki: "$\\frac{1}{2} + \\frac{1}{3}$".',
             "Hány eleme van az {a, b, c} halmaz részhalmazainak?",
             "42"]


def _scieval_rows() -> list[dict[str, Any]]:
    def mc(stem: str, opts: list[str]) -> str:
        return stem + "".join(f"{letter}. {o}\n" for letter, o in zip("ABCD", opts)) + "Answer:"

    return [
        {"question": mc("Which organelle makes ATP?\n", ["Nucleus", "Mitochondrion", "Ribosome", "Golgi"]), "answer": ["B"],
         "type": "multiple-choice", "category": "biology", "id": 0},
        {"question": mc("Which gas do plants take in?  ", ["O2", "N2", "CO2", "He"]), "answer": ["C"],
         "type": "multiple-choice", "category": "biology", "id": 1},
        {"question": "What is the pH of pure water?", "answer": ["7"], "type": "filling", "category": "chemistry", "id": 2},
        {"question": mc("Which is a noble gas?\n", ["Argon", "Sodium", "Iron", "Carbon"]), "answer": ["A"],
         "type": "multiple-choice", "category": "chemistry", "id": 3},
        {"question": mc("Speed of light?\n", ["3e8 m/s", "3e6 m/s", "340 m/s", "1 m/s"]), "answer": [],
         "type": "multiple-choice", "category": "physics", "id": 4},
        {"question": "Which unit is force measured in? A. joule B. newton C. watt D. pascal", "answer": ["B"],
         "type": "multiple-choice", "category": "physics", "id": 5},
        {"question": mc("DNA is made of\n", ["amino acids", "nucleotides", "lipids", "sugars only"]), "answer": ["B", "extra"],
         "type": "multiple-choice", "category": "biology", "id": 6},
        {"question": mc("Is the cell membrane\n  permeable?", ["fully", "selectively", "not at all", "only to ions"]),
         "answer": ["B"], "type": "judge", "category": "biology", "id": 7},
    ]


def build(root: Path) -> None:
    """The data files, in OpenCompass's layouts, under ``root`` (the recording's and the tests' copy)."""
    comp = root / "cache" / "data" / "llm-compression"
    comp.mkdir(parents=True, exist_ok=True)
    (comp / "arxiv_math.json").write_text(json.dumps(_contents("arxiv_math", 7), ensure_ascii=False), encoding="utf-8")
    (comp / "cc.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in _contents("cc", 9)), encoding="utf-8")
    (comp / "python.json").write_text("".join(json.dumps(r) + "\n" for r in _contents("python", 6)), encoding="utf-8")
    (comp / "python.jsonl").write_text(json.dumps({"content": "not read: the .json comes first"}) + "\n", encoding="utf-8")
    ppl = root / "cache" / "data" / "inference_ppl"
    ppl.mkdir(parents=True, exist_ok=True)
    rows = [{"text": r["content"], "source": r["id"]} for r in _contents("cn-reasoning-val", 8)]
    (ppl / "cn-reasoning-val.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    hun = root / "cache" / "data" / "HungarianExamMath"
    hun.mkdir(parents=True, exist_ok=True)
    with open(hun / "test.csv", "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["Question"])
        writer.writerows([q] for q in HUNGARIAN)
    sci = root / "OpenDFM" / "SciEval"
    sci.mkdir(parents=True, exist_ok=True)
    (sci / "test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _scieval_rows()), encoding="utf-8")


COMPRESSION_CALLS: list[dict[str, Any]] = [
    {"path": "./data/llm-compression", "name": "arxiv_math", "samples": None},
    {"path": "./data/llm-compression", "name": "cc", "samples": None},
    {"path": "./data/llm-compression", "name": "python", "samples": None},
    {"path": "./data/llm-compression", "name": "cc", "samples": 3},
    {"path": "./data/llm-compression", "name": "arxiv_math", "samples": 5},
]
INFERENCE_PPL_CALLS: list[dict[str, Any]] = [
    {"path": "./data/inference_ppl", "name": "cn-reasoning-val", "samples": None},
    {"path": "./data/inference_ppl", "name": "cn-reasoning-val", "samples": 4},
]
HUNGARIAN_CALLS: list[dict[str, Any]] = [{"path": "./data/HungarianExamMath/test.csv"}]
SCIEVAL_CALLS: list[dict[str, Any]] = [
    {"path": "OpenDFM/SciEval", "name": "default", "category": ["biology"]},
    {"path": "OpenDFM/SciEval", "name": "default", "category": ["biology"], "mode": "singlescore"},
    {"path": "OpenDFM/SciEval", "name": "default"},
    {"path": "OpenDFM/SciEval", "name": "default", "category": "biology"},
    {"path": "OpenDFM/SciEval", "name": "default", "category": "chemistry"},
]
INFERENCE_PPL_SCORES: list[dict[str, Any]] = [
    {"ppl": [12.5, 30.25, 7.0], "token_len": [5, 12, 3]},
    {"ppl": [0.0, 1.5], "token_len": [1, 1]},
    {"ppl": [101.7], "token_len": [40]},
    {"ppl": [3.3, 2.2, 1.1, 9.9], "token_len": [2, 0, 5, 7]},
]


def _splits(ds: Any) -> dict[str, list[dict[str, Any]]]:
    return {name: [dict(r) for r in ds[name]] for name in ds}


def record() -> dict[str, Any]:
    from opencompass.datasets.hungarian_math import HungarianExamMathDataset
    from opencompass.datasets.inference_ppl import InferencePPLDataset
    from opencompass.datasets.llm_compression import LLMCompressionDataset
    from opencompass.datasets.SciEval import SciEvalDataset
    from opencompass.openicl.icl_evaluator.icl_misc_evaluator import AverageInferencePPLEvaluator

    out: dict[str, Any] = {"opencompass": importlib.metadata.version("opencompass")}
    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp))
        os.environ["COMPASS_DATA_CACHE"] = str(Path(tmp) / "cache")
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            out["LLMCompressionDataset"] = [{"args": a, "rows": [dict(r) for r in LLMCompressionDataset.load(**a)]}
                                            for a in COMPRESSION_CALLS]
            out["InferencePPLDataset"] = [{"args": a, "rows": [dict(r) for r in InferencePPLDataset.load(**a)]}
                                          for a in INFERENCE_PPL_CALLS]
            out["HungarianExamMathDataset"] = [{"args": a, "rows": [dict(r) for r in HungarianExamMathDataset.load(**a)]}
                                               for a in HUNGARIAN_CALLS]
            out["SciEvalDataset"] = [{"args": a, "splits": _splits(SciEvalDataset.load(**a))} for a in SCIEVAL_CALLS]
        finally:
            os.chdir(cwd)
    out["AverageInferencePPLEvaluator"] = [{"inputs": c, "metrics": AverageInferencePPLEvaluator().score(**c)}
                                           for c in INFERENCE_PPL_SCORES]
    return json.loads(json.dumps(out, default=str))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    data = record()
    for sub in ("cache", "OpenDFM"):
        shutil.rmtree(DATA / sub, ignore_errors=True)
    build(DATA)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"loaders and evaluators recorded -> {args.out}")


if __name__ == "__main__":
    main()

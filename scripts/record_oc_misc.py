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
  ``category``) and with a category string or none;
* SciCode: ``$COMPASS_DATA_CACHE/data/scicode/SciCode_datasets.json`` (and the
  file with background) and ``test_data/<step>.h5`` (values, byte strings, tuples,
  lists, sparse matrices, dicts; one step without its file); ``SciCodeDataset.load``,
  and ``SciCodeEvaluator`` on batches of replies (right, wrong, without a fence, with
  import lines it strips).  OpenCompass pairs scripts with exit statuses in the order
  the runs finish; the recording has ``as_completed`` give them in the order they
  were submitted, so that the metrics are OpenCompass's for runs finishing in order.

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


SCICODE_PROBLEMS: list[dict[str, Any]] = [
    {"id": "1", "import": "import numpy as np\n",
     "sub_steps": [{"step_number": "1.1", "function_header": "def double(x):"}, {"step_number": "1.2", "function_header": "def greet():"}],
     "test": [["assert np.allclose(double(np.array([1.0, 2.0])), target)", "assert np.allclose(double(np.array([[3.0]])), target)"],
              ["assert greet() == target"]]},
    {"id": "62", "import": "import numpy as np\nimport scipy.sparse as sp\n",
     "sub_steps": [{"step_number": "62.1"}, {"step_number": "62.2"}, {"step_number": "62.3"}],
     "test": [["assert False, 'never run: problem 62 skips its first step'"],
              ["assert np.allclose(eye3().toarray(), target.toarray())", "a = target\nassert np.allclose(coo2().toarray(), a.toarray())"],
              ["n, d, xs = target\nassert n == pair()[0] and d == pair()[1] and [float(v) for v in xs] == pair()[2]"]]},
    {"id": "7", "import": "import numpy as np\n", "sub_steps": [{"step_number": "7.1"}],
     "test": [["assert seven() == target"]]},
]
SCICODE_REPLIES: dict[str, list[list[str]]] = {
    "right": [
        ["Here:\n```python\ndef double(x):\n    return 2 * x\n```", "```python\nimport numpy as np\ndef greet():\n    return 'hello'\n```"],
        ["```python\ndef eye3():\n    return sp.identity(3, format='csr')\ndef coo2():\n    return sp.coo_matrix(np.array([[0, 5.0], [1.5, 0]]))\n```",
         "```python\ndef pair():\n    return 3, {0.5: 2.0, 'name': 'x'}, [1.0, 2.0]\n```"],
        ["```python\ndef seven():\n    return 7\n```"],
    ],
    "mixed": [
        ["```python\ndef double(x):\n    return 2 * x\n```", "```python\ndef greet():\n    return 'Hello'\n```"],
        ["no code this time", "```python\ndef pair():\n    return 3, {0.5: 2.0, 'name': 'x'}, [1.0, 2.0]\n```"],
        ["```python\nfrom math import sqrt\ndef seven():\n    return int(sqrt(49))\n```"],
    ],
    "imports": [
        ["```python\nfrom math import fsum\ndef double(x):\n    return x * fsum([1, 1])\n```",
         "```python\n   import os\ndef greet():\n    return 'hello'\n```"],
        ["```python\ndef eye3():\n    return sp.identity(3, format='csr')\ndef coo2():\n    return sp.coo_matrix(np.array([[0, 5.0], [1.5, 0]]))\n```"],
    ],
    "short": [
        ["```python\ndef double(x):\n    return 2 * x\n```"],
    ],
}


def _scicode_h5(folder: Path) -> None:
    import h5py
    import numpy as np

    folder.mkdir(parents=True, exist_ok=True)
    with h5py.File(folder / "1.1.h5", "w") as f:
        f["1.1/test1/var1"] = np.array([2.0, 4.0])
        f["1.1/test2/var1"] = np.array([[6.0]])
    with h5py.File(folder / "1.2.h5", "w") as f:
        f["1.2/test1/var1"] = b"hello"
    with h5py.File(folder / "62.2.h5", "w") as f:
        g = f.create_group("62.2/test1/var1/sparse_matrix")
        g["data"], g["indices"], g["indptr"], g["shape"] = np.ones(3), np.arange(3), np.arange(4), np.array([3, 3])
        g = f.create_group("62.2/test2/var1/sparse_matrix")
        g["data"], g["row"], g["col"], g["shape"] = np.array([5.0, 1.5]), np.array([0, 1]), np.array([1, 0]), np.array([2, 2])
    with h5py.File(folder / "62.3.h5", "w") as f:
        f["62.3/test1/var1"] = 3
        d = f.create_group("62.3/test1/var2")
        d["0.5"], d["name"] = 2.0, b"x"
        f["62.3/test1/var3/list/0"], f["62.3/test1/var3/list/1"] = 1.0, 2.0


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
    code = root / "cache" / "data" / "scicode"
    code.mkdir(parents=True, exist_ok=True)
    (code / "SciCode_datasets.json").write_text(json.dumps(SCICODE_PROBLEMS, indent=1), encoding="utf-8")
    with_bg = [{**p, "sub_steps": [{**s, "step_background": f"Background of {s['step_number']}."} for s in p["sub_steps"]]}
               for p in SCICODE_PROBLEMS]
    (code / "SciCode_datasets_with_background.json").write_text(json.dumps(with_bg, indent=1), encoding="utf-8")
    _scicode_h5(code / "test_data")


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


def _scicode_score(replies: list[list[str]], out_dir: Path) -> dict[str, Any]:
    import concurrent.futures

    from opencompass.datasets.scicode import SciCodeEvaluator

    evaluator = SciCodeEvaluator(dataset_path="./data/scicode", with_bg=False)
    evaluator._out_dir = str(out_dir)
    in_order, pool = concurrent.futures.as_completed, concurrent.futures.ThreadPoolExecutor
    concurrent.futures.as_completed = lambda fs, timeout=None: iter(list(fs))  # runs taken in the order submitted
    # two at a time: each script imports opencompass.datasets, slow enough under load to reach the 120 s limit
    concurrent.futures.ThreadPoolExecutor = lambda *a, **k: pool(max_workers=2)  # type: ignore[misc]
    try:
        return dict(evaluator.score(replies, [None] * len(replies)))
    finally:
        concurrent.futures.as_completed, concurrent.futures.ThreadPoolExecutor = in_order, pool


def _splits(ds: Any) -> dict[str, list[dict[str, Any]]]:
    return {name: [dict(r) for r in ds[name]] for name in ds}


def record() -> dict[str, Any]:
    from opencompass.datasets.hungarian_math import HungarianExamMathDataset
    from opencompass.datasets.inference_ppl import InferencePPLDataset
    from opencompass.datasets.llm_compression import LLMCompressionDataset
    from opencompass.datasets.scicode import SciCodeDataset
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
            out["SciCodeDataset"] = [{"args": a, "rows": [dict(r) for r in SciCodeDataset.load(**a)]}
                                     for a in ({"path": "./data/scicode", "with_bg": False}, {"path": "./data/scicode", "with_bg": True})]
            out["SciCodeEvaluator"] = [{"batch": name, "predictions": replies, "metrics": _scicode_score(replies, Path(tmp) / name)}
                                       for name, replies in SCICODE_REPLIES.items()]
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

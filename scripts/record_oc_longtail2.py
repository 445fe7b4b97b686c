"""Record what OpenCompass 0.5.4's LiveReasonBench and HLE loaders and LiveReasonBench's judge postprocessor compute.

Run it with a Python that has opencompass==0.5.4 installed; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_longtail2.py [--out FILE]

It builds small data files in OpenCompass's layouts in a temporary folder and works
from there:

* LiveReasonBench: ``$COMPASS_DATA_CACHE/data/LiveReasonBench/<version>.json``
  for both releases; ``LiveReasonBenchDataset.load`` with the library configs'
  arguments and with ``num_examples`` and ``n_repeats``;
* HLE: the folders ``cais/hle`` (a ``test`` split with text and image questions)
  and ``skylenage-ai/HLE-Verified`` (a ``train`` split whose ``json`` column
  holds the image field), which ``datasets.load_dataset`` reads as local
  folders; ``HLEDataset.load`` and ``HLEVerifiedDataset.load`` with and without
  a category and verified class;
* MuSR: ``MusrDataset.load`` with the options no library config sets (self
  consistency, contrastive stories, offsets) on the benchmark families' files,
  and ``MusrEvaluator`` on replies one by one and together;
* WikiBench: ``WikiBenchDataset.load`` reading its file plainly, circularly and as cloze;
* Earth-Silver: the folder ``ai-earth/Earth-Silver`` (its ``README.md`` naming the
  ``multiple_choice`` split) read by ``Earth_Silver_MCQDataset.load``;
* ``livereasonbench_postprocess``: per judge reply the grade letter it reads,
  per batch of replies its metrics.

The output goes to ``tests/data/oc_families/longtail2/recorded.json`` with the data
files under ``tests/data/oc_families/longtail2/``; ``tests/datasets/test_livereasonbench_hle.py``
checks assay's namesakes against it.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import logging
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "oc_families" / "longtail2"
OUT = DATA / "recorded.json"

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from record_oc_judge_verdicts import REPLIES  # noqa: E402

EXTRA_REPLIES = ["NOT_ATTEMPTED", "C: NOT_ATTEMPTED", "CORRECT", "INCORRECT", "c", "The grade is C", "Answer: B",
                 "Bien", "I am not sure", "A\n\nReasoning: the answer matches", "\u00c0"]


def _lrb_rows(version: str, n: int) -> list[dict[str, Any]]:
    rng = random.Random(version)
    return [{"question": f"{version} question {i}?", "answer": str(rng.randint(0, 999)),
             "category": rng.choice(["math", "logic", "puzzle"]), "id": i} for i in range(n)]


def _hle_rows() -> list[dict[str, Any]]:
    cats = ["Math", "Biology/Medicine", "Physics", "Biology/Medicine", "Math", "Humanities/Social Science", "Biology/Medicine",
            "Math", "Physics", "Biology/Medicine"]
    return [{"id": f"h{i}", "question": f"Hard question {i}?", "image": "" if i % 4 != 1 else f"data:image/png;base64,AAA{i}",
             "answer": f"ans{i}", "answer_type": "exactMatch" if i % 2 else "multipleChoice", "category": c,
             "rationale": f"because {i}"} for i, c in enumerate(cats)]


def _hle_verified_rows() -> list[dict[str, Any]]:
    classes = ["Gold subset", "Revision subset", "Uncertain subset", "Gold subset", "Gold subset", "Revision subset",
               "Gold subset", "Uncertain subset"]
    cats = ["Math", "Physics", "Math", "Biology/Medicine", "Math", "Math", "Physics", "Math"]
    return [{"id": f"v{i}", "question": f"Verified question {i}?", "answer": f"v{i}",
             "json": json.dumps({"id": f"v{i}", "image": "" if i % 3 != 2 else "img.png"}),
             "Verified_Classes": k, "category": c} for i, (k, c) in enumerate(zip(classes, cats))]


def _earth_rows() -> list[dict[str, Any]]:
    return [{"question": f"Which layer is number {i}?\nA. crust\nB. mantle\nC. core\nD. atmosphere", "answer": "ABCD"[i % 4],
             "subject": ["geology", "oceanography", "climate"][i % 3], "id": i} for i in range(6)]


def build(root: Path) -> None:
    """The data files, in OpenCompass's layouts, under ``root`` (the recording's and the tests' copy);
    MuSR's are the benchmark families' (``tests/benchmarks_oc/families.py``)."""
    from tests.benchmarks_oc.families import build_data

    build_data("musr", root / "cache")
    build_data("wikibench", root / "cache")
    lrb = root / "cache" / "data" / "LiveReasonBench"
    lrb.mkdir(parents=True, exist_ok=True)
    for version, n in (("livereasonbench-20241202", 9), ("livereasonbench-20250428", 7)):
        (lrb / f"{version}.json").write_text(json.dumps(_lrb_rows(version, n), ensure_ascii=False, indent=1), encoding="utf-8")
    hle = root / "cais" / "hle"
    hle.mkdir(parents=True, exist_ok=True)
    (hle / "test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _hle_rows()), encoding="utf-8")
    earth = root / "ai-earth" / "Earth-Silver"
    earth.mkdir(parents=True, exist_ok=True)
    (earth / "README.md").write_text("---\nconfigs:\n- config_name: default\n  data_files:\n  - split: multiple_choice\n"
                                     "    path: multiple_choice.jsonl\n---\n", encoding="utf-8")
    (earth / "multiple_choice.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in _earth_rows()),
                                                 encoding="utf-8")
    ver = root / "skylenage-ai" / "HLE-Verified"
    ver.mkdir(parents=True, exist_ok=True)
    (ver / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _hle_verified_rows()), encoding="utf-8")


LRB_CALLS: list[dict[str, Any]] = [
    {"path": "opencompass/LiveReasonBench"},
    {"path": "opencompass/LiveReasonBench", "version": "livereasonbench-20241202"},
    {"path": "opencompass/LiveReasonBench", "version": "livereasonbench-20250428"},
    {"path": "opencompass/LiveReasonBench", "version": "livereasonbench-20241202", "mode": "singlescore"},
    {"path": "opencompass/LiveReasonBench", "num_examples": 4},
    {"path": "opencompass/LiveReasonBench", "num_examples": 7, "version": "livereasonbench-20250428"},
    {"path": "opencompass/LiveReasonBench", "n_repeats": 3, "version": "livereasonbench-20250428"},
]
MUSR_CALLS: list[dict[str, Any]] = [
    {"path": "opencompass/musr", "name": "team_allocation", "self_consistency_n": 2},
    {"path": "opencompass/musr", "name": "murder_mysteries", "exclude_contrastive_examples": True},
    {"path": "opencompass/musr", "name": "object_placements", "exclude_contrastive_examples": True, "reverse_contrastive_sample": True},
    {"path": "opencompass/musr", "name": "murder_mysteries", "offset": 2, "sample_size": 3},
    {"path": "opencompass/musr", "name": "object_placements", "offset": 4, "sample_size": 5},
    {"path": "opencompass/musr", "name": "team_allocation", "offset": 1},
]
WIKIBENCH_CALLS: list[dict[str, Any]] = [
    {"path": "opencompass/WikiBench", "filename": "single_choice_cn.jsonl", "name": name}
    for name in ("single_choice_cn", "circular_single_choice_cn", "cloze_single_choice_cn")
]
HLE_CALLS: list[dict[str, Any]] = [
    {"path": "cais/hle"},
    {"path": "cais/hle", "category": "Biology/Medicine"},
    {"path": "cais/hle", "category": "Chemistry"},
]
HLE_VERIFIED_CALLS: list[dict[str, Any]] = [
    {"path": "skylenage-ai/HLE-Verified"},
    {"path": "skylenage-ai/HLE-Verified", "verified_classes": "Gold subset"},
    {"path": "skylenage-ai/HLE-Verified", "verified_classes": "Gold subset", "category": "Math"},
    {"path": "skylenage-ai/HLE-Verified", "category": "Physics"},
]


def _splits(ds: Any) -> dict[str, list[dict[str, Any]]]:
    return {name: [dict(r) for r in ds[name]] for name in ds}


def _output(replies: list[str], golds: list[str]) -> dict[str, Any]:
    return {str(i): {"origin_prompt": [{"role": "HUMAN", "prompt": f"q{i}"}], "prediction": r, "gold": g}
            for i, (r, g) in enumerate(zip(replies, golds))}


def batches(replies: list[str], seed: int = 7) -> list[list[str]]:
    rng = random.Random(seed)
    out = [list(replies), ["A"], ["B"], ["C"], ["CORRECT"], ["A", "B", "C"], ["A", "A", "B"], ["I am not sure", "c"]]
    for n in (3, 5, 8, 9, 13, 29):  # 9: as many as the 20241202 test file's questions
        out.append([rng.choice(replies) for _ in range(n)])
    return out


def record() -> dict[str, Any]:
    from opencompass.datasets.Earth_Silver import Earth_Silver_MCQDataset
    from opencompass.datasets.hle import HLEDataset, HLEVerifiedDataset
    from opencompass.datasets.livereasonbench.livereasonbench import (
        LiveReasonBenchDataset,
        _livereasonbench_postprocess,
        livereasonbench_postprocess,
    )
    from opencompass.datasets.musr.musr import MusrDataset, MusrEvaluator
    from opencompass.datasets.wikibench import WikiBenchDataset

    out: dict[str, Any] = {"opencompass": importlib.metadata.version("opencompass")}
    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp))
        os.environ["COMPASS_DATA_CACHE"] = str(Path(tmp) / "cache")
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            out["LiveReasonBenchDataset"] = [{"args": a, "splits": _splits(LiveReasonBenchDataset.load(**a))} for a in LRB_CALLS]
            out["MusrDataset"] = [{"args": a, "rows": [dict(r) for r in MusrDataset.load(**a)]} for a in MUSR_CALLS]
            out["WikiBenchDataset"] = [{"args": a, "rows": [dict(r) for r in WikiBenchDataset.load(**a)]}
                                       for a in WIKIBENCH_CALLS]
            earth = {"path": "ai-earth/Earth-Silver", "prompt_mode": "zero-shot"}
            out["Earth_Silver_MCQDataset"] = [{"args": earth, "rows": [dict(r) for r in Earth_Silver_MCQDataset.load(**earth)]}]
            out["HLEDataset"] = [{"args": a, "splits": _splits(HLEDataset.load(**a))} for a in HLE_CALLS]
            out["HLEVerifiedDataset"] = [{"args": a, "splits": _splits(HLEVerifiedDataset.load(**a))} for a in HLE_VERIFIED_CALLS]
        finally:
            os.chdir(cwd)
    replies = list(dict.fromkeys(REPLIES + EXTRA_REPLIES))
    out["grades"] = [{"reply": r, "grade": _livereasonbench_postprocess(r)} for r in replies]
    rng = random.Random(3)
    cases = []
    for batch in batches(replies):
        golds = [str(rng.randint(0, 9)) for _ in batch]
        res = livereasonbench_postprocess(_output(batch, golds), "unused.json")
        res.pop("details")
        cases.append({"replies": batch, "golds": golds, "metrics": res})
    out["postprocess"] = cases
    musr = [f"ANSWER: {r}" for r in ("2", "(1) Mr X", "3 or 2", "two", "", "٣", "12")] + [
        "answer: 2", "Thinking\nANSWER: 1\nANSWER: 2", "ANSWER: x ANSWER: 2", "2", "ANSWER: 2\nmore"]
    refs = [2, 1, 3, 2, 1, 3, 12, 2, 1, 2, 2, 2]
    out["MusrEvaluator"] = {"predictions": musr, "references": refs,
                            "accuracy": MusrEvaluator().score(musr, refs)["accuracy"],
                            "each": [MusrEvaluator().score([p], [r])["accuracy"] for p, r in zip(musr, refs)]}
    return json.loads(json.dumps(out, default=str))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    logging.disable(logging.WARNING)
    data = record()
    for sub in ("cache", "cais", "skylenage-ai", "ai-earth"):
        shutil.rmtree(DATA / sub, ignore_errors=True)
    build(DATA)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(data['grades'])} replies, {len(data['postprocess'])} batches, loaders recorded -> {args.out}")


if __name__ == "__main__":
    main()

"""Record what OpenCompass 0.5.4's MolecularIQ components (``molculariq_gen``) compute.

Run it with a Python that has opencompass==0.5.4 installed with RDKit (its
MolecularIQ module imports RDKit when it is imported); OpenCompass is not a
dependency of assay::

    python scripts/record_oc_moleculariq.py [--out FILE]

It writes ``count.jsonl``, ``index.jsonl`` and ``generation.jsonl`` in
OpenCompass's layout under ``tests/data/oc_families/moleculariq/cache/data/MolecularIQ/test_task``,
reads them with ``MoleculariqDataset.load``, and runs ``MoleculariqCountEvaluator`` and
``MoleculariqIndexEvaluator`` on replies written to reach each branch of their
readers, against references as written and as the loaded rows give them.  It
also writes MolecularIQ's table of property names (the phrases and aliases
its rewards read keys through) to ``src/assay/evaluators/moleculariq_keys.json``.
The output goes to ``tests/data/oc_families/moleculariq/recorded.json``;
``tests/evaluators/test_moleculariq.py`` checks assay's namesakes against it.
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
DATA = ROOT / "tests" / "data" / "oc_families" / "moleculariq"
OUT = DATA / "recorded.json"
KEYS = ROOT / "src" / "assay" / "evaluators" / "moleculariq_keys.json"
FOLDER = DATA / "cache" / "data" / "MolecularIQ" / "test_task"

FILES: dict[str, list[dict[str, Any]]] = {
    "count": [
        {"uid": "c1", "question": "How many rings does CCO have?", "target": {"ring_count": 0}, "constraints": None},
        {"uid": "c2", "question": "Count rings and halogens of Clc1ccccc1.", "target": {"ring_count": 1, "halogen_count": 1}},
        {"uid": "c3", "question": "Molecular formula of CCO?", "target": {"molecular_formula": "C2H6O"}},
    ],
    "index": [
        {"uid": "i1", "question": "Which atoms of c1ccccc1O are in rings?", "target": {"ring_index": [0, 1, 2, 3, 4, 5]}},
        {"uid": "i2", "question": "Ring atoms and halogen atoms of Clc1ccccc1?", "target": {"ring_index": [1, 2, 3, 4, 5, 6],
                                                                                            "halogen_index": [0]}},
    ],
    "generation": [
        {"uid": "g1", "question": "Give a molecule with 1 ring.", "target": None,
         "constraints": [{"type": "ring_count", "operator": "=", "value": 1}]},
        {"uid": "g2", "question": "Give a molecule with 2 carbons.", "target": {},
         "constraints": [{"type": "carbon_atom_count", "operator": ">=", "min_value": 2}]},
    ],
}

COUNT_CASES: list[tuple[list[Any], list[Any]]] = [
    (['<answer>"ring count": 0</answer>', "<answer>0</answer>", "<ANSWER>{\"rings\": 0}</ANSWER>", "no tags",
      "<answer></answer>", "<answer>\"ring_count\": 1}</answer>", "<answer>ring_count: 0; extra: 2</answer>",
      '<answer>{"ring_count": 0, "ring_count": 0}</answer>', "<answer>zero</answer>", '<answer>{"Number of Rings": "0"}</answer>',
      "<answer>0.0000001</answer>", "<answer>true</answer>"],
     [{"ring_count": 0}] * 12),
    (['<answer>"ring count": 1, "halogens": 1</answer>', '<answer>{"ring_count": 1}</answer>',
      "<answer>ring_count: 1, halogen_count: 1</answer>", '<answer>{"rings": 1, "ring count": 1, "halogen_count": 1}</answer>',
      '<answer>{"ring_count": "1", "halogen_count": 1.0, "extra_key": 3}</answer>', "<answer>1</answer>",
      '<answer>{"ring_count": null, "halogen_count": 1}</answer>'],
     [{"ring_count": 1, "halogen_count": 1}] * 7),
    (['<answer>"molecular formula": "C2H6O"</answer>', "<answer>H6C2O</answer>", "<answer>C₂H₆O</answer>",
      "<answer>c2h6o</answer>", "<answer>CH3CH2OH</answer>", '<answer>{"formula": "C2H6O"}</answer>'],
     [{"molecular_formula": "C2H6O"}] * 6),
    (["<answer>2</answer>", '<answer>"a": 1</answer>', "<answer>3</answer>"],
     ['{"ring_count": 2}', "ring_count: 1", [{"type": "ring_count"}]]),
]

#: a count of more digits than Python's int() reads (4,300): MolecularIQ compares such formulas as texts
LONG = "1" * 5000
COUNT_CASES += [
    ([f'<answer>"molecular formula": "C{LONG}H6O"</answer>', f"<answer>C{LONG}H6O</answer>",
      f'<answer>"molecular formula": "C{LONG}H6O"</answer>', "<answer>C2H6O</answer>"],
     [{"molecular_formula": "C2H6O"}, {"molecular_formula": "C2H6O"}, {"molecular_formula": f"C{LONG}H6O"},
      {"molecular_formula": "C2H6O"}]),
]

#: (evaluator, predictions, references) OpenCompass cannot score: it stops with an exception (recorded by name)
FAILING_CASES: list[tuple[str, list[Any], list[Any]]] = [
    ("MoleculariqIndexEvaluator", ["<answer>[0]</answer>", '<answer>"ring_index": [1e400]</answer>'], [{"ring_index": [0]}] * 2),
    ("MoleculariqIndexEvaluator", ['<answer>"ring_index": [Infinity]</answer>'], [{"ring_index": [0]}]),
    ("MoleculariqIndexEvaluator", [f'<answer>"ring_index": [{LONG}]</answer>'], [{"ring_index": [0]}]),
    ("MoleculariqCountEvaluator", [f'<answer>"ring count": {LONG}</answer>'], [{"ring_count": 1}]),
]

INDEX_CASES: list[tuple[list[Any], list[Any]]] = [
    (['<answer>"ring atoms": [5, 4, 3, 2, 1, 0]</answer>', "<answer>[0,1,2,3,4,5]</answer>", "<answer>0, 1, 2, 3, 4, 5</answer>",
      "<answer>ring_index: 0,1,2,3,4,5</answer>", '<answer>{"ring_index": "0,1,2,3,4,5"}</answer>',
      '<answer>{"ring_index": [0, 1, 2, 3, 4, 5, 5.0, -1, "6"]}</answer>', "<answer>none</answer>",
      '<answer>{"a": [0], "b": [1]}</answer>', "<answer>0, 1, -2</answer>", "<answer>[0, 1, 2, 3, 4]</answer>",
      "<answer>42</answer>"],
     [{"ring_index": [0, 1, 2, 3, 4, 5]}] * 11),
    (['<answer>"ring atoms": [1,2,3,4,5,6], "halogen atoms": [0]</answer>', '<answer>{"ring_index": [1,2,3,4,5,6]}</answer>',
      "<answer>ring_index: 1,2,3,4,5,6; halogen_index: 0</answer>", '<answer>{"ring_index": "[1,2,3,4,5,6]", "halogen_index": "0"}</answer>',
      '<answer>{"Ring_Index": [1,2,3,4,5,6], "ring_index": [1,2,3,4,5,6], "halogen_index": [0]}</answer>',
      "<answer>[0, 1]</answer>", '<answer>{"ring_index": [1,2,3,4,5,6], "halogen_index": [0], "extra": [9]}</answer>'],
     [{"ring_index": [1, 2, 3, 4, 5, 6], "halogen_index": [0]}] * 7),
    (["<answer>0</answer>", "<answer>1,2</answer>", "<answer>[3]</answer>"],
     ['{"ring_index": [0]}', "ring_index: 1,2; halogen_index: none", {"ring_index": None, "halogen_index": [3]}]),
]


def record() -> dict[str, Any]:
    out: dict[str, Any] = {"opencompass": importlib.metadata.version("opencompass")}
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name, rows in FILES.items():
        (FOLDER / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows) + "\n", encoding="utf-8")
    os.environ["COMPASS_DATA_CACHE"] = str(DATA / "cache")
    from opencompass.datasets.moleculariq import moleculariq as miq
    from opencompass.datasets.moleculariq.moleculariq_core import properties
    from opencompass.datasets.moleculariq.moleculariq_core._nlp import mappings

    KEYS.write_text(json.dumps({"phrases": mappings._REVERSE_LOOKUP, "aliases": properties.ALIAS_TO_KEY_MAP},
                               ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    out["MoleculariqDataset"] = [
        {"args": {"path": "opencompass/MolecularIQ", "name": name},
         "rows": [dict(r) for r in miq.MoleculariqDataset.load(path="opencompass/MolecularIQ", name=name)]}
        for name in (*FILES, "count.jsonl")]
    loaded = {c["args"]["name"]: c["rows"] for c in out["MoleculariqDataset"]}
    cases = {"MoleculariqCountEvaluator": [*COUNT_CASES, (["<answer>0</answer>", '<answer>"ring count": 1, "halogens": 1</answer>',
                                                          "<answer>C2H6O</answer>"], [r["ground_truth"] for r in loaded["count"]])],
             "MoleculariqIndexEvaluator": [*INDEX_CASES, (["<answer>[0,1,2,3,4,5]</answer>", '<answer>{"ring_index": [1,2,3,4,5,6], '
                                                          '"halogen_index": [0]}</answer>'], [r["ground_truth"] for r in loaded["index"]])]}
    out["evaluators"] = {}
    for name, batches in cases.items():
        out["evaluators"][name] = [
            {"predictions": p, "references": r, "result": json.loads(json.dumps(getattr(miq, name)().score(list(p), list(r))))}
            for p, r in batches]
    out["failing"] = []
    for name, predictions, references in FAILING_CASES:
        try:
            getattr(miq, name)().score(list(predictions), list(references))
        except Exception as exc:  # recorded as OpenCompass fails
            out["failing"].append({"evaluator": name, "predictions": predictions, "references": references,
                                   "raises": type(exc).__name__})
        else:
            raise SystemExit(f"{name} scored {predictions!r:.80}; it is listed as failing")
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

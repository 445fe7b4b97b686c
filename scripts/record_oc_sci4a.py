"""Record what OpenCompass 0.5.4's SciReasoner Mol-Instructions protein and PEER components compute.

Run it with a Python that has opencompass==0.5.4 installed, with Biopython (``biopython``,
whose aligner OpenCompass's protein-design score uses) and RDKit (which importing
OpenCompass's SciReasoner package needs); OpenCompass is not a dependency of assay::

    python scripts/record_oc_sci4a.py [--out FILE]

It builds small data files in OpenCompass's layout under
``tests/data/oc_families/sci4a/cache`` (the ``$COMPASS_DATA_CACHE`` of the recording
and of the tests) and works from there:

* ``data/SciReasoner/Mol-Instructions-test/<task>/{dev,test}/data.json`` read by
  ``Mol_Instructions_Dataset_Protein_Design`` and ``Mol_Instructions_Dataset`` (with
  ``max_cut`` and ``mini_set``);
* ``normalized_smith_waterman`` (the protein-design score's alignment) on pairs of sequences;
* ``Mol_Instructions_postprocess_Protein`` and ``Mol_Instructions_postprocess_Protein_Design``
  on replies and references, ``Mol_Instructions_Evaluator_Protein`` and
  ``Mol_Instructions_Evaluator_Protein_Design`` on what they read;
* ``data/SciReasoner/PEER-test/<task>/{dev,test}/data.json`` read by ``PEER_Dataset``;
  ``PEER_postprocess``, ``PEER_postprocess_default`` and ``PEER_postprocess_float_compare``
  on replies, ``PEERRuleEvaluator`` and ``PEER_Evaluator`` (``stability``, the library's only
  use of it) on what they read, and ``peer_llm_judge_postprocess`` on judge replies.

The output goes to ``tests/data/oc_families/sci4a/recorded.json``;
``tests/evaluators/test_scireasoner_protein_peer.py`` checks assay's namesakes against it.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import math
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "oc_families" / "sci4a"
OUT = DATA / "recorded.json"
MOL = "opencompass/SciReasoner-Mol_Instructions"
PEER = "opencompass/SciReasoner-PEER"

_RESIDUES = "ACDEFGHIKLMNPQRSTVWY"


def _sequence(i: int, length: int) -> str:
    return "".join(_RESIDUES[(i * 7 + k * k * 3 + k) % 20] for k in range(length))


#: protein_design's items: 155, so that a mini set can be drawn
DESIGN = [{"input": f"Design a protein of family {i}: binds ATP, length {12 + i % 9}.",
           "output": f"<protein>{_sequence(i, 12 + i % 9)}</protein>"} for i in range(155)]
TEXT_TASK = [{"input": f"Describe the catalytic activity of <protein>{_sequence(i, 10)}</protein>.",
              "output": f"ATP + a protein {i} = ADP + a phosphoprotein."} for i in range(6)]

#: (replies, references) written raw, read by the design reader
DESIGN_EVALS: list[tuple[list[str], list[str]]] = [
    ([f"Sure. <protein>{_sequence(0, 12)}</protein>", f"<think>try <protein>AAAA</protein></think><protein>{_sequence(1, 13)[:9]}W</protein>",
      "<protein>mkv LA-QQ XBZ*</protein>", "no tag MKVLAA", "<protein>\nMKV\n</protein>", "<protein></protein>",
      f"<protein>{_sequence(5, 17)}CCCWWW{_sequence(5, 17)}</protein> and <protein>MM</protein>",
      "<protein>GGGGGGGG</protein>", "stray</think>  <protein>PPPP</protein>"],
     [DESIGN[i]["output"] for i in range(9)]),
    (["<protein>WWWW</protein>", "<protein>CW</protein>"], ["<protein>PPPP</protein>", "<protein>no sequence</protein>"]),
    (["nothing", ""], ["<protein>MKV</protein>", "<protein>MKV</protein>"]),
]
#: (replies, references) read by the text reader, scored by the ROUGE evaluator
TEXT_EVALS: list[tuple[list[str], list[str]]] = [
    (["<think>hmm</think>ATP + a protein = ADP + a phosphoprotein.<|im_end|>", "  It hydrolyses GTP.<|endoftext|> ",
      "stray </think> The domain is a kinase domain.", "", "ATP + a protein 3 = ADP"],
     [TEXT_TASK[0]["output"], "GTP + H2O = GDP + phosphate.", "Contains a protein kinase domain.", "Something.",
      TEXT_TASK[3]["output"]]),
]
PROTEIN_READER_EXTRA = ["<think>a</think><think>b</think>  x </think>\n\n Final answer.", "<|im_end|><think>", "plain",
                        # one end token inside another: removing <|endoftext|> first completes an <|im_end|>
                        "<|im_<|endoftext|>end|>A kinase.", " <|im_end<|endoftext|>|> <think>q</think>Hi ",
                        "<|endo<|im_end|>ftext|>x"]


def _variant(seq: str, seed: int) -> str:
    """``seq`` with a few substitutions, insertions (of B, Z, X and ``*`` too) and deletions."""
    import random

    rng = random.Random(seed)
    out = list(seq)
    for _ in range(max(1, len(seq) // 25)):
        at = rng.randrange(len(out))
        kind = rng.random()
        if kind < 0.3:
            del out[at]
        elif kind < 0.6:
            out[at:at] = rng.choice(_RESIDUES + "BZX*") * rng.randint(1, 6)
        else:
            out[at] = rng.choice(_RESIDUES)
    return "".join(out)


#: pairs scored by ``normalized_smith_waterman`` itself: edge cases, then long sequences with gaps
SW_PAIRS: list[tuple[str, str]] = [
    ("", ""), ("A", ""), ("", "MKV"), ("A", "A"), ("W", "W"), ("A", "W"), ("X", "X"), ("XXXX", "XXXX"), ("*", "*"),
    ("BZX*", "BZX*"), ("MKV*", "MKV"), ("B", "D"), ("MKVLA", "MKV"), ("P" * 30, "P" * 10 + "W" * 5 + "P" * 10),
    ("WWWW", "PPPP"), (_sequence(3, 40), _sequence(3, 40)[::-1]),
] + [(_sequence(i, n), _variant(_sequence(i, n), i)) for i, n in ((11, 60), (12, 300), (13, 1200))] + [
    (_sequence(14, 900), _sequence(14, 1)), (_sequence(15, 1), _sequence(15, 900))]

#: PEER: task → items (the stability task's outputs are numbers, the others yes/no sentences)
PEER_TASKS: dict[str, list[dict[str, str]]] = {
    "solubility": [{"input": f"Is protein <protein>{_sequence(i, 8)}</protein> soluble?",
                    "output": "Yes, the protein is soluble." if i % 2 else "No, it is insoluble."} for i in range(6)],
    "stability": [{"input": f"Predict the stability score of <protein>{_sequence(i, 8)}</protein>.",
                   "output": f"{(i - 2) * 0.75:.2f}"} for i in range(155)],
    "human_ppi": [{"input": f"Do <protein>{_sequence(i, 6)}</protein> and <protein>{_sequence(i + 1, 6)}</protein> interact?",
                   "output": "Yes" if i % 3 else "No"} for i in range(5)],
    "yeast_ppi": [{"input": f"Do yeast proteins <protein>{_sequence(i, 5)}</protein> and <protein>{_sequence(i + 2, 5)}</protein> "
                            "interact?", "output": "No, they do not." if i % 2 else "Yes, they interact."} for i in range(4)],
}
PEER_READER = [
    "The answer is yes, it is.", "The answer is No.", "It will not be soluble.", "It is not soluble at all",
    "Low solubility expected", "<think>Yes</think>I cannot tell", "stray</think> it is positive", "Certainly!",
    "It is insoluble.", "nothing to say", "", "maybe", "NO.", "<think>unclosed", "no\n", "We cannot know.",
    "The protein is highly soluble. No doubt.", "Yes, the protein is soluble.", "No, it is insoluble.",
    "<|im_<|endoftext|>end|>Yes", " <|im_end<|endoftext|>|> <think>q</think>No ",
]
FLOAT_READER = [("1.5", 1), ("The score is 0.25", 1), ("<think>9</think> -3", 1), ("none", 1), ("stray</think>2", 1),
                ("value .5 or 7", 0), ("+1.0", 1), ("1e3", 1), ("1", 1), ("", 1), ("12abc", 10)]
RULE_EVALS: list[tuple[list[str], list[str]]] = [
    (["Yes, the protein is soluble.", "<think>no</think>No.", "It is not soluble", "I cannot decide",
      "The answer is Yes", "It is insoluble."],
     [PEER_TASKS["solubility"][i]["output"] for i in range(6)]),
    (["Yes", "No", "", "Yes"], ["Yes", "Yes", "No", "unknown"]),
]
STABILITY_EVALS: list[tuple[list[str], list[str]]] = [
    (["The stability is 1.6", "0.2", "about 3", "no idea", "<think>5</think>-1", "1.0"],
     ["1.50", "-0.75", "0.00", "2.25", "3.00", "1.25"]),
    (["0.5", "0.1"], ["-1.0", "0.75"]),
    (["2.0", "3"], ["1.1", "4.0"]),
]
JUDGE_OUTPUTS: list[dict[str, Any]] = [
    {"0": {"prediction": "True", "gold": "Yes"}, "1": {"prediction": " false ", "gold": "No"},
     "2": {"prediction": "I think it is TRUE, not FALSE", "gold": "Yes"}, "3": {"prediction": "unsure", "gold": "No"},
     "4": {"gold": "No"}, "5": {"prediction": "untrue", "gold": "Yes"}},
]


def _clean(value: Any) -> Any:
    """Numbers as JSON numbers (NaN as the string 'NaN'), numpy scalars as Python's."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    return value


def _write(root: Path, task: str, rows: list[dict[str, str]]) -> None:
    for split, items in (("dev", rows[::-1][:7]), ("test", rows)):
        folder = root / task / split
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "data.json").write_text(json.dumps(items, ensure_ascii=False, indent=1), encoding="utf-8")


def build_files() -> None:
    mol = DATA / "cache" / "data" / "SciReasoner" / "Mol-Instructions-test"
    _write(mol, "protein_design", DESIGN)
    _write(mol, "catalytic_activity", TEXT_TASK)
    peer = DATA / "cache" / "data" / "SciReasoner" / "PEER-test"
    for task, rows in PEER_TASKS.items():
        _write(peer, task, rows)


def _splits(loaded: Any) -> dict[str, list[dict[str, Any]]]:
    return {k: [dict(r) for r in loaded[k]] for k in loaded}


def record() -> dict[str, Any]:
    os.environ["COMPASS_DATA_CACHE"] = str(DATA / "cache")
    from opencompass.datasets.SciReasoner.Mol_Instructions.molecule import Mol_Instructions_Dataset
    from opencompass.datasets.SciReasoner.Mol_Instructions.protein import (
        Mol_Instructions_Dataset_Protein_Design,
        Mol_Instructions_Evaluator_Protein,
        Mol_Instructions_Evaluator_Protein_Design,
        Mol_Instructions_postprocess_Protein,
        Mol_Instructions_postprocess_Protein_Design,
    )
    from opencompass.datasets.SciReasoner.PEER import (
        PEER_Dataset,
        PEER_Evaluator,
        PEER_postprocess,
        PEER_postprocess_default,
        PEER_postprocess_float_compare,
        PEERRuleEvaluator,
        peer_llm_judge_postprocess,
    )

    out: dict[str, Any] = {"opencompass": importlib.metadata.version("opencompass"),
                           "biopython": importlib.metadata.version("biopython")}
    loads = []
    for loader, args in ((Mol_Instructions_Dataset_Protein_Design, {"path": MOL, "task": "protein_design"}),
                         (Mol_Instructions_Dataset_Protein_Design, {"path": MOL, "task": "protein_design", "mini_set": True}),
                         (Mol_Instructions_Dataset_Protein_Design, {"path": MOL, "task": "protein_design", "max_cut": 3}),
                         (Mol_Instructions_Dataset, {"path": MOL, "task": "catalytic_activity"})):
        loads.append({"loader": loader.__name__, "args": args, "splits": _splits(loader.load(**args))})
    out["loads"] = loads
    design_texts = [t for replies, refs in DESIGN_EVALS for t in replies + refs]
    out["Mol_Instructions_postprocess_Protein_Design"] = [(t, Mol_Instructions_postprocess_Protein_Design(t))
                                                          for t in design_texts + PROTEIN_READER_EXTRA]
    text_texts = [t for replies, refs in TEXT_EVALS for t in replies + refs]
    out["Mol_Instructions_postprocess_Protein"] = [(t, Mol_Instructions_postprocess_Protein(t))
                                                   for t in text_texts + PROTEIN_READER_EXTRA]
    from opencompass.datasets.SciReasoner.Mol_Instructions.normalized_SW_score import normalized_smith_waterman

    sw = []
    for seq1, seq2 in SW_PAIRS:
        try:
            sw.append({"seq1": seq1, "seq2": seq2, "score": normalized_smith_waterman(seq1, seq2)})
        except ValueError as exc:  # Biopython's aligner refuses an empty sequence
            sw.append({"seq1": seq1, "seq2": seq2, "error": str(exc)})
    out["normalized_smith_waterman"] = sw
    cases = []
    for replies, refs in DESIGN_EVALS:
        preds = [Mol_Instructions_postprocess_Protein_Design(t) for t in replies]
        golds = [Mol_Instructions_postprocess_Protein_Design(t) for t in refs]
        cases.append({"predictions": preds, "references": golds,
                      "result": _clean(Mol_Instructions_Evaluator_Protein_Design().score(list(preds), list(golds)))})
    out["Mol_Instructions_Evaluator_Protein_Design"] = cases
    cases = []
    for replies, refs in TEXT_EVALS:
        preds = [Mol_Instructions_postprocess_Protein(t) for t in replies]
        golds = [Mol_Instructions_postprocess_Protein(t) for t in refs]
        evaluator = Mol_Instructions_Evaluator_Protein(task="domain_motif")
        cases.append({"predictions": preds, "references": golds, "result": _clean(evaluator.score(list(preds), list(golds)))})
    out["Mol_Instructions_Evaluator_Protein"] = cases

    peer_loads = []
    for args in ({"path": PEER, "task": "solubility"}, {"path": PEER, "task": "stability", "mini_set": True},
                 {"path": PEER, "task": "human_ppi", "max_cut": 2}):
        peer_loads.append({"args": args, "splits": _splits(PEER_Dataset.load(**args))})
    out["PEER_Dataset"] = peer_loads
    out["PEER_postprocess"] = [(t, PEER_postprocess(t)) for t in PEER_READER]
    out["PEER_postprocess_default"] = [(t, PEER_postprocess_default(t)) for t in PEER_READER]
    out["PEER_postprocess_float_compare"] = [(t, n, PEER_postprocess_float_compare(t, n)) for t, n in FLOAT_READER]
    rule = []
    for replies, refs in RULE_EVALS:
        preds = [PEER_postprocess_default(t) for t in replies]
        golds = [PEER_postprocess_default(t) for t in refs]
        rule.append({"predictions": preds, "references": golds,
                     "result": _clean(PEERRuleEvaluator().score(list(preds), list(golds)))})
    out["PEERRuleEvaluator"] = rule
    stability = []
    for replies, refs in STABILITY_EVALS:
        preds = [PEER_postprocess_float_compare(t, 1) for t in replies]
        golds = [PEER_postprocess_float_compare(t, 1) for t in refs]
        stability.append({"predictions": preds, "references": golds,
                          "result": _clean(PEER_Evaluator(task="stability").score(list(preds), list(golds)))})
    out["PEER_Evaluator"] = stability
    out["peer_llm_judge_postprocess"] = [{"output": o, "result": _clean(peer_llm_judge_postprocess(json.loads(json.dumps(o)), ""))}
                                         for o in JUDGE_OUTPUTS]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    build_files()
    recorded = record()
    args.out.write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

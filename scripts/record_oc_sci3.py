"""Record what OpenCompass 0.5.4's SciReasoner LLM4Chem components compute (``smol``, USPTO-50K retrosynthesis).

Run it with a Python that has opencompass==0.5.4 installed, with RDKit (``rdkit``), the
package ``rdchiral`` (which OpenCompass's SMILES canonicalisation imports), transformers
and NLTK's ``wordnet`` corpus (``NLTK_DATA``); OpenCompass is not a dependency of assay::

    python scripts/record_oc_sci3.py [--out FILE]

It builds small data files in OpenCompass's layout under
``tests/data/oc_families/sci3/cache`` (the ``$COMPASS_DATA_CACHE`` of the recording
and of the tests) and works from there:

* ``data/SciReasoner/smol-test/<task>/{dev,test}/data.json`` read by ``LLM4ChemDataset``
  (with ``max_cut`` and ``mini_set``);
* ``LLM4Chem_postprocess`` on replies and references of every task, and
  ``LLM4Chem_Evaluator`` on what it reads, for every task but captions;
* captions: OpenCompass's caption metrics (``calculate_text_metrics``) with a small
  WordPiece vocabulary (``tests/data/oc_families/sci3/vocab/vocab.txt``) in place of
  SciBERT's, which only the Hub provides;
* ``Retrosynthesis_postprocess`` and ``RetrosynthesisEvaluator`` (the library's beam of
  one, and beams with augmentations).

The output goes to ``tests/data/oc_families/sci3/recorded.json``;
``tests/evaluators/test_scireasoner_llm4chem.py`` checks assay's namesakes against it.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import math
import os
from pathlib import Path
from typing import Any

from _oc_recording import write_json

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "oc_families" / "sci3"
OUT = DATA / "recorded.json"


def _tagged(tag: str, value: str) -> str:
    return f"<{tag}> {value} </{tag}>"


#: task → (tag, [(question, answer)]) of the small data files
SMOL: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "forward_synthesis": ("SMILES", [
        ("Predict the product of CCO and CC(=O)O.", "CCOC(C)=O"),
        ("Predict the product of c1ccccc1 and Br.", "Brc1ccccc1"),
        ("Predict the product of C[C@H](N)C(=O)O.", "C[C@H](N)C(=O)O"),
        ("Predict the product of NaCl.", "[Na+];[Cl-]"),
        ("Predict the product of O=C=O.", "O=C=O"),
        ("Predict the product of C/C=C/C.", "C/C=C/C"),
    ]),
    "retrosynthesis": ("SMILES", [
        ("Give the reactants of CCOC(C)=O.", "CCO;CC(=O)O"),
        ("Give the reactants of Brc1ccccc1.", "c1ccccc1.BrBr"),
        ("Give the reactants of CC(=O)Nc1ccccc1.", "CC(=O)Cl.Nc1ccccc1"),
    ]),
    "property_prediction-bbbp": ("BOOLEAN", [
        ("Does CCO cross the blood-brain barrier?", "Yes"),
        ("Does c1ccccc1O cross it?", "No"),
        ("Does CCN cross it?", "Yes"),
        ("Does CC(=O)O cross it?", "No"),
        ("Does CCCC cross it?", "Yes"),
    ]),
}

#: (task, replies, references written raw as the data holds them)
EVALS: list[tuple[str, list[str], list[str]]] = [
    ("forward_synthesis",
     ["<SMILES> OCC.CC(O)=O </SMILES>", "It is <SMILES> c1ccc(Br)cc1 </SMILES>", "<SMILES> C[C@@H](N)C(=O)O </SMILES>",
      "<SMILES>[Cl-];[Na+]</SMILES>", "no tag here O=C=O", "<SMILES> C/C=C\\C </SMILES>", "<SMILES> XYZ </SMILES>",
      "<SMILES> C..O </SMILES>", "<think><SMILES>CC</SMILES></think><SMILES>CCCl</SMILES>"],
     ["<SMILES> CCO.CC(=O)O </SMILES>", "<SMILES> Brc1ccccc1 </SMILES>", "<SMILES> C[C@H](N)C(=O)O </SMILES>",
      "<SMILES> [Na+];[Cl-] </SMILES>", "<SMILES> O=C=O </SMILES>", "<SMILES> C/C=C/C </SMILES>", "<SMILES> CC </SMILES>",
      "<SMILES> CO </SMILES>", "<SMILES> ClCC </SMILES>"]),
    ("molecule_generation",
     ["<SMILES> c1ccncc1 </SMILES>", "<SMILES> C1CC1 </SMILES>", "<SMILES> [nH]1cccc1 </SMILES>", "<SMILES></SMILES>"],
     ["<SMILES> C1=CC=NC=C1 </SMILES>", "<SMILES> C1CCC1 </SMILES>", "<SMILES> c1cc[nH]c1 </SMILES>", "<SMILES> C </SMILES>"]),
    ("name_conversion-i2s",
     ["<SMILES> CC(C)O </SMILES>", "<SMILES> OC(C)C </SMILES>", "answer: CC"],
     ["<SMILES> CC(O)C </SMILES>", "<SMILES> CCCO </SMILES>", "<SMILES> CC </SMILES>"]),
    ("retrosynthesis",
     ["<SMILES> CC(=O)O;OCC </SMILES>", "<SMILES> c1ccccc1 </SMILES>", "<SMILES> CC(=O)Cl.Nc1ccccc1.O </SMILES>",
      "<SMILES> Q </SMILES>"],
     ["<SMILES> CCO;CC(=O)O </SMILES>", "<SMILES> c1ccccc1.BrBr </SMILES>", "<SMILES> CC(=O)Cl.Nc1ccccc1 </SMILES>",
      "<SMILES> CCN </SMILES>"]),
    ("name_conversion-i2f",
     ["<MOLFORMULA> C2H6O </MOLFORMULA>", "<MOLFORMULA> H6C2O </MOLFORMULA>", "The formula is C6H6 I think",
      "<MOLFORMULA> C(H3)2 </MOLFORMULA>", "<MOLFORMULA> NH4+ </MOLFORMULA>", "nothing"],
     ["<MOLFORMULA> C2H6O </MOLFORMULA>", "<MOLFORMULA> C2H6O </MOLFORMULA>", "<MOLFORMULA> C6H6 </MOLFORMULA>",
      "<MOLFORMULA> C2H6 </MOLFORMULA>", "<MOLFORMULA> H4N+ </MOLFORMULA>", "<MOLFORMULA> CH4 </MOLFORMULA>"]),
    ("name_conversion-s2f",
     ["<MOLFORMULA> CH4 </MOLFORMULA>", "<MOLFORMULA> C1H4 </MOLFORMULA>", "<MOLFORMULA></MOLFORMULA>"],
     ["<MOLFORMULA> CH4 </MOLFORMULA>", "<MOLFORMULA> CH4 </MOLFORMULA>", "<MOLFORMULA> O2 </MOLFORMULA>"]),
    ("name_conversion-s2i",
     ["<IUPAC> ethanol;water </IUPAC>", "<IUPAC> propan-2-ol </IUPAC>", "ethanol", "<IUPAC> benzene </IUPAC>"],
     ["<IUPAC> water;ethanol </IUPAC>", "<IUPAC> propan-1-ol </IUPAC>", "<IUPAC> ethanol </IUPAC>",
      "<IUPAC> benzene </IUPAC>"]),
    ("property_prediction-esol",
     ["<NUMBER> -1.5 </NUMBER>", "about 2.25 mol/L", "<SMILES>C1CC1</SMILES> is 0.5", "<NUMBER> n/a </NUMBER>", "none"],
     ["<NUMBER> -1.0 </NUMBER>", "<NUMBER> 2.0 </NUMBER>", "<NUMBER> 0.75 </NUMBER>", "<NUMBER> 1 </NUMBER>",
      "<NUMBER> 3 </NUMBER>"]),
    ("property_prediction-lipo", ["<NUMBER>1e2</NUMBER>", "<NUMBER> 3 </NUMBER>"], ["<NUMBER> 99 </NUMBER>", "<NUMBER> 1 </NUMBER>"]),
    ("property_prediction-bbbp",
     ["<BOOLEAN> Yes </BOOLEAN>", "<BOOLEAN> No </BOOLEAN>", "I would say true", "not sure, maybe No? Actually yes.",
      "<BOOLEAN> Maybe </BOOLEAN>", "no idea at all... false", "<BOOLEAN> YES </BOOLEAN>", "unclear"],
     ["<BOOLEAN> Yes </BOOLEAN>", "<BOOLEAN> Yes </BOOLEAN>", "<BOOLEAN> No </BOOLEAN>", "<BOOLEAN> Yes </BOOLEAN>",
      "<BOOLEAN> No </BOOLEAN>", "<BOOLEAN> No </BOOLEAN>", "<BOOLEAN> No </BOOLEAN>", "<BOOLEAN> Yes </BOOLEAN>"]),
    ("property_prediction-sider",
     ["<BOOLEAN> No </BOOLEAN>", "<BOOLEAN> No </BOOLEAN>", "<BOOLEAN> Yes </BOOLEAN>"],
     ["<BOOLEAN> Yes </BOOLEAN>", "<BOOLEAN> No </BOOLEAN>", "<BOOLEAN> No </BOOLEAN>"]),
]

#: replies read by LLM4Chem_postprocess beyond the evaluation cases: (task, reply)
READER_EXTRA: list[tuple[str, str]] = [
    ("molecule_captioning", "  The molecule is an alcohol.</s><unk> "),
    ("molecule_captioning", "<think>plan</think>It is a ketone."),
    ("name_conversion-i2f", "Salt: [Na+]Cl- and then Fe2(SO4)3·5H2O"),
    ("property_prediction-esol", "</NUMBER> 3 <NUMBER>"),
    ("forward_synthesis", "<SMILES> CC </SMILES> then <SMILES> CO </SMILES>"),
    ("name_conversion-s2i", "<IUPAC>methane"),
]

CAPTIONS: list[tuple[list[str], list[str]]] = [
    (["The molecule is an alcohol derived from ethane.", "", "It is a benzene ring with a bromine substituent.",
      "An aromatic compound; it is toxic!", "Ünïcode accents — and dashes."],
     ["The molecule is a primary alcohol derived from ethane.", "It is a gas.",
      "The molecule is bromobenzene, a benzene ring carrying one bromine.", "An aromatic amine.",
      "Unicode accents and dashes."]),
]

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "molecule", "is", "a", "an", "alcohol", "derived", "from",
         "eth", "##ane", "primary", "it", "gas", "benzene", "ring", "with", "brom", "##ine", "##o", "sub", "##stit",
         "##uent", "carrying", "one", "aromatic", "compound", "toxic", "amine", ".", ",", ";", "!", "-", "unicode",
         "accent", "##s", "and", "dash", "##es", "—"]

#: (beam_size, n_best, augmentation, replies, references)
RETRO: list[tuple[int, int, int, list[str], list[str]]] = [
    (1, 1, 1, ["CCO.CC(=O)O", "c1ccccc1", "CC(=O)Cl.[NH2:1]c1ccccc1", "", "C1CC", "CCN"],
     ["OC(C)=O.OCC", "Brc1ccccc1.BrBr", "CC(=O)Cl.Nc1ccccc1", "CCO", "CC", "XX"]),
    (3, 3, 1, ["C", "CCO", "CCO", "x", "CC.O", "CCC", "CCO.C", "", "CCO"],
     ["CCO", "CCC.O", "CCO"]),
    (2, 3, 2, ["CCO", "C", "C", "CCO", "O", "CC.N", "CC.N", "O"],
     ["C", "CC.N"]),
]

#: Mol-Instructions' molecule tasks: (task, replies, references written raw as the data holds them)
MOL_EVALS: list[tuple[str, list[str], list[str]]] = [
    ("property_prediction_str",
     ["The HOMO-LUMO gap is - 0. 25 Hartree", "<think>maybe 3</think> 0.0123", "no idea", "1 2.5<|im_end|>"],
     ["-0.2", "0.0101", "0.005", "12.5"]),
    ("forward_reaction_prediction",
     ["<SMILES> OCC </SMILES>", "It gives <SMILES> c1ccccc1Br </SMILES>", "<SMILES> C[C@H](N)C(=O)O </SMILES>",
      "<SMILES> XYZ </SMILES>", "no tag", "<think><SMILES>C</SMILES></think><SMILES>CCN</SMILES>",
      "<SMILES> [Na+].[Cl-] </SMILES>"],
     ["<SMILES> CCO </SMILES>", "<SMILES> Brc1ccccc1 </SMILES>", "<SMILES> CC(N)C(=O)O </SMILES>", "<SMILES> CC </SMILES>",
      "<SMILES> CO </SMILES>", "<SMILES> CCNC </SMILES>", "<SMILES> [Na+].[Cl-] </SMILES>"]),
    ("retrosynthesis", ["<SMILES> CC(=O)O.OCC </SMILES>", "<SMILES> C1CC1 </SMILES>"],
     ["<SMILES> CCO.CC(=O)O </SMILES>", "<SMILES> C1CCC1 </SMILES>"]),
    ("reagent_prediction", ["<SMILES> Q </SMILES>", "none"], ["<SMILES> O </SMILES>", "<SMILES> N </SMILES>"]),
    ("molecular_description_generation",
     ["The molecule is an alcohol derived from ethane. It is", "<think>hm</think>It is a gas", "An aromatic amine.\n"],
     ["The molecule is a primary alcohol derived from ethane.", "It is a gas.", "An aromatic compound; it is toxic!"]),
]

#: replies read by Mol_Instructions_postprocess_Mol beyond the evaluation cases: (task, reply)
MOL_READER_EXTRA: list[tuple[str, str]] = [
    ("property_prediction_str", "stray</think> answer: 4 2 . 5"),
    ("description_guided_molecule_design", "<SMILES>\nCCO\n</SMILES>"),
    ("description_guided_molecule_design", "<SMILES> C[C@@H](O)CC </SMILES> and <SMILES> N </SMILES>"),
    ("molecular_description_generation", "  <|endoftext|>A text. <think>a</think>"),
    ("other_task", "  kept as is "),
]

RETRO_READER = ["<SMILES>C</SMILES> or rather <SMILES> CC(=O)O.N </SMILES>", "<think><SMILES>X</SMILES></think>none",
                "plain CCO", "<SMILES>\nCCO\n</SMILES>"]


def _clean(value: Any) -> Any:
    """Numbers as JSON numbers (NaN as the string 'NaN', which the tests read back), numpy scalars as Python's."""
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    return value


def build_files() -> None:
    smol = DATA / "cache" / "data" / "SciReasoner" / "smol-test"
    for task, (tag, pairs) in SMOL.items():
        items = [{"input": q, "output": _tagged(tag, a), "raw_input": q, "raw_output": a, "split": "test", "task": task,
                  "input_core_tag_left": f"<{tag}>", "input_core_tag_right": f"</{tag}>", "output_core_tag_left": f"<{tag}>",
                  "output_core_tag_right": f"</{tag}>", "target": None} for q, a in pairs]
        for split, rows in (("dev", items[::-1] + items), ("test", items)):
            folder = smol / task / split
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "data.json").write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    uspto = smol / "retrosynthesis_uspto50k"
    for split in ("dev", "test"):
        (uspto / split).mkdir(parents=True, exist_ok=True)
        rows = [{"input": f"Reactants of {p}?", "output": _tagged("SMILES", r)} for p, r in
                (("CCOC(C)=O", "CCO.CC(=O)O"), ("Brc1ccccc1", "c1ccccc1.BrBr"), ("CCN", "CC=O.N"))]
        (uspto / split / "data.json").write_text(json.dumps(rows), encoding="utf-8")
    mol = DATA / "cache" / "data" / "SciReasoner" / "Mol-Instructions-test"
    for task, rows in (("property_prediction_str", [{"input": f"Gap of molecule {i}?", "output": f"{i / 1000:.4f}"}
                                                    for i in range(155)]),
                       ("forward_reaction_prediction", [{"input": "Product of CCO?", "output": "<SMILES> CCO </SMILES>"},
                                                        {"input": "Product of N?", "output": "<SMILES> N </SMILES>"}])):
        for split in ("dev", "test"):
            (mol / task / split).mkdir(parents=True, exist_ok=True)
            (mol / task / split / "data.json").write_text(json.dumps(rows if split == "test" else rows[:7]), encoding="utf-8")
    vocab = DATA / "vocab"
    vocab.mkdir(parents=True, exist_ok=True)
    (vocab / "vocab.txt").write_text("\n".join(VOCAB) + "\n", encoding="utf-8")


def record() -> dict[str, Any]:
    os.environ["COMPASS_DATA_CACHE"] = str(DATA / "cache")
    from opencompass.datasets.SciReasoner.LLM4Chem.evaluator import (
        LLM4Chem_Evaluator,
        LLM4Chem_postprocess,
        LLM4ChemDataset,
    )
    from opencompass.datasets.SciReasoner.LLM4Chem.retrosynthesis_evaluator import (
        Retrosynthesis_postprocess,
        RetrosynthesisEvaluator,
    )
    from opencompass.datasets.SciReasoner.LLM4Chem.utils.metrics import calculate_text_metrics

    out: dict[str, Any] = {"opencompass": importlib.metadata.version("opencompass"),
                           "rdkit": importlib.metadata.version("rdkit")}
    loads = []
    for args in ({"path": "opencompass/SciReasoner-smol", "task": "forward_synthesis"},
                 {"path": "opencompass/SciReasoner-smol", "task": "property_prediction-bbbp", "max_cut": 3},
                 {"path": "opencompass/SciReasoner-smol", "task": "retrosynthesis", "mini_set": True},
                 {"path": "opencompass/SciReasoner-smol", "task": "retrosynthesis_uspto50k"},
                 {"path": "opencompass/SciReasoner-smol", "task": "retrosynthesis_uspto50k", "mini_set": True}):
        loaded = LLM4ChemDataset.load(**args)
        loads.append({"args": args, "splits": {k: [dict(r) for r in loaded[k]] for k in loaded}})
    out["LLM4ChemDataset"] = loads
    reads = [(task, text, LLM4Chem_postprocess(text, task)) for task, replies, refs in EVALS for text in replies + refs]
    reads += [(task, text, LLM4Chem_postprocess(text, task)) for task, text in READER_EXTRA]
    out["LLM4Chem_postprocess"] = reads
    cases = []
    for task, replies, refs in EVALS:
        preds = [LLM4Chem_postprocess(t, task) for t in replies]
        golds = [LLM4Chem_postprocess(t, task) for t in refs]
        cases.append({"task": task, "predictions": preds, "references": golds,
                      "result": _clean(LLM4Chem_Evaluator(task=task).score(list(preds), list(golds)))})
    out["LLM4Chem_Evaluator"] = cases
    out["captions"] = [{"predictions": p, "references": r,
                        "result": _clean(calculate_text_metrics([[x] for x in p], [[x] for x in r],
                                                                text_model=str(DATA / "vocab"), text_trunc_length=2048))}
                       for p, r in CAPTIONS]
    from opencompass.datasets.SciReasoner.Mol_Instructions.molecule import (
        Mol_Instructions_Dataset,
        Mol_Instructions_Evaluator_Mol,
        Mol_Instructions_postprocess_Mol,
    )
    mol_loads = []
    for args in ({"path": "opencompass/SciReasoner-Mol_Instructions", "task": "forward_reaction_prediction"},
                 {"path": "opencompass/SciReasoner-Mol_Instructions", "task": "property_prediction_str", "mini_set": True},
                 {"path": "opencompass/SciReasoner-Mol_Instructions", "task": "property_prediction_str", "max_cut": 4}):
        loaded = Mol_Instructions_Dataset.load(**args)
        mol_loads.append({"args": args, "splits": {k: [dict(r) for r in loaded[k]] for k in loaded}})
    out["Mol_Instructions_Dataset"] = mol_loads
    mol_reads = [(task, t, Mol_Instructions_postprocess_Mol(t, task)) for task, replies, refs in MOL_EVALS
                 for t in replies + refs]
    mol_reads += [(task, t, Mol_Instructions_postprocess_Mol(t, task)) for task, t in MOL_READER_EXTRA]
    out["Mol_Instructions_postprocess_Mol"] = mol_reads
    import transformers

    real = transformers.BertTokenizerFast.from_pretrained
    transformers.BertTokenizerFast.from_pretrained = lambda name, *a, **k: real(str(DATA / "vocab"), *a, **k)
    import opencompass.datasets.SciReasoner.Mol_Instructions.molecule as molecule_module

    molecule_module.BertTokenizerFast = transformers.BertTokenizerFast  # the same class, its vocabulary ours
    mol_cases = []
    for task, replies, refs in MOL_EVALS:
        preds = [Mol_Instructions_postprocess_Mol(t, task) for t in replies]
        golds = [Mol_Instructions_postprocess_Mol(t, task) for t in refs]
        mol_cases.append({"task": task, "predictions": preds, "references": golds,
                          "result": _clean(Mol_Instructions_Evaluator_Mol(task=task).score(list(preds), list(golds)))})
    out["Mol_Instructions_Evaluator_Mol"] = mol_cases
    out["Retrosynthesis_postprocess"] = [(t, Retrosynthesis_postprocess(t)) for t in RETRO_READER]
    retro = []
    for beam, n_best, aug, preds, refs in RETRO:
        evaluator = RetrosynthesisEvaluator(beam_size=beam, n_best=n_best, augmentation=aug, process_number=1)
        retro.append({"beam_size": beam, "n_best": n_best, "augmentation": aug, "predictions": preds, "references": refs,
                      "result": _clean(evaluator.score(list(preds), list(refs)))})
    out["RetrosynthesisEvaluator"] = retro
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    build_files()
    recorded = record()
    write_json(args.out, recorded)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

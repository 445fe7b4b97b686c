"""Record what OpenCompass 0.5.4's Kaoshi and SciReasoner materials components (and further science families) compute.

Run it with a Python that has opencompass==0.5.4 installed, with SMACT (``smact``);
OpenCompass is not a dependency of assay::

    python scripts/record_oc_sci2.py [--out FILE]

It builds small data files in OpenCompass's layouts under
``tests/data/oc_families/sci2/cache`` (the ``$COMPASS_DATA_CACHE`` of the
recording and of the tests) and works from there:

* Kaoshi: ``data/Kaoshi/<exam>/<question type>.jsonl`` read by ``KaoshiDataset.load``
  for one file of each question type the library's config names, and
  ``KaoshiEvaluator`` on replies written to reach each of its readers;
* SciReasoner's materials generation: ``data/SciReasoner/Conditional_generation/``
  ``conditional_generation/composition_material/{dev,test}/data.json`` and
  ``bulk_modulus_material/{dev,test}/data.json`` read by ``Composition_material_Dataset``
  and ``Bulk_modulus_material_Dataset`` (with ``mini_set``), ``Uncond_material_Dataset``'s
  rows, ``material_postprocessor`` on replies, and the three evaluators
  (``uncond_material_Evaluator``, ``composition_Evaluator``, ``material_Evaluator``) on
  what it reads;
* SciReasoner's OPI: ``data/SciReasoner/OPI_test/<task>/{dev,test}/data.json`` read by
  ``OpiDataset`` (with ``mini_set``), ``opi_postprocess`` and ``Opi_Evaluator`` (every branch
  of its ``task``, and the task names the library's configs pass) on replies;
* MP-20: ``data/mp20/mp20_test.jsonl`` read by ``MP20Dataset`` and ``MP20Evaluator`` on
  replies written to reach each of its readers (pymatgen, which SMACT brings);
* S2-TOMG-Bench: ``data/S2-TOMG-Bench/<task>.csv`` for each of its nine tasks read by
  ``S2TOMGBenchDataset`` and ``S2TOMGBenchEvaluator`` (metrics and details) on replies
  (RDKit);
* SciReasoner 1.5: ``data/SciReasoner1.5/test-1.5/`` (the two materials files, GO, TM-score,
  DUD-E) read by ``SciReasoner15Dataset`` (with ``mini_set`` and ``sample_size``) and its four
  evaluators on replies.

The output goes to ``tests/data/oc_families/sci2/recorded.json``;
``tests/datasets/test_kaoshi.py``, ``tests/evaluators/test_kaoshi.py`` and
``tests/evaluators/test_scireasoner_material.py`` check assay's namesakes against it.
"""

from __future__ import annotations

import argparse
import csv
import importlib.metadata
import json
import os
import sys
from pathlib import Path
from typing import Any

from _oc_recording import write_json

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


MATERIALS = [("Na", "Cl"), ("Fe", "Fe", "O", "O", "O"), ("Li", "Fe", "P", "O", "O", "O", "O"), ("K", "Br"),
             ("Mg", "O"), ("Ca", "F", "F"), ("Zn", "S")]
LEADS = ["composed of", "that has", "characterized by", "with the composition", "based on", "featuring", "whose makeup is"]


def _material_items(n: int, kind: str) -> list[dict[str, Any]]:
    items = []
    for i in range(n):
        elements = MATERIALS[i % len(MATERIALS)]
        listed = ", ".join(dict.fromkeys(elements))
        if kind == "composition":
            prompt = (f"Generate a material {LEADS[i % len(LEADS)]} {listed}." if i % 5 != 4
                      else f"Give Me A crystal of {' '.join(dict.fromkeys(elements))}")
        else:
            prompt = f"Generate a material with a bulk modulus of {40 + i} GPa."
        output = f"<material> {' '.join(elements)} <sg> <sg{200 + i}> </material>"
        if kind == "bulk" and i == 5:
            output = "no structure given"
        items.append({"input": prompt, "output": output, "id": i})
    return items


#: replies, before ``material_postprocessor``
MATERIAL_REPLIES = [
    "<material> Na Cl <sg> <sg200> </material>",
    "Sure: <material>Fe Fe O O O <sg><sg167></material>",
    "<material> Na Na Cl <sg> <sg225> </material>",
    "<material> Li Fe P O O O O ⟨sg⟩ ⟨sg62⟩ </material>",
    "<MATERIAL> K Br <sg225> </MATERIAL> and more",
    "I think NaCl",
    "<material> Xx Cl <sg> <sg1> </material>",
    "",
    "<material> He <sg> <sg225> </material>",
    "<material>Zn S <sg> <sg216></material>",
    "<material> Na Cl </material>",
    "<material> Ca F F <sg> <sg225> </material>",
]


OPI_TASKS: dict[str, list[tuple[str, str]]] = {
    "Function_UniProtSeq_function": [
        ("MKTAYIAKQR", "Catalyzes the phosphorylation of serine residues in target proteins."),
        ("MSTNPKPQRK", "Binds DNA and regulates transcription of stress response genes."),
        ("MAHHHHHHVG", "Involved in the transport of sugars across the membranes."),
        ("MGSSHHHHHH", "Acts as a chaperone."),
    ],
    "GO_UniProtSeq_go": [("MKTAYIAKQR", "GO:0005524; GO:0004672; GO:0005737"), ("MSTNPKPQRK", "GO:0003677, GO:0006355"),
                         ("MAHHHHHHVG", "GO:0016020"), ("MGSSHHHHHH", "")],
    "EC_number_CLEAN_EC_number_new": [("MKTAYIAKQR", "2.7.11.1"), ("MSTNPKPQRK", "3.1.1.4; 3.1.1.5")],
    "Subcellular_localization_subcell_loc": [("MKTAYIAKQR", "Cytoplasm"), ("MSTNPKPQRK", "Nucleus")],
    "Fold_type_fold_type": [("MKTAYIAKQR", "12"), ("MSTNPKPQRK", "1125")],
}
#: (reply, reference) pairs before ``opi_postprocess``, scored under every task name
OPI_PAIRS = [
    ("Catalyzes the phosphorylation of serine residues.<|im_end|>", "Catalyzes the phosphorylation of serine residues in target proteins."),
    ("  binds dna and regulates transcription  ", "Binds DNA and regulates transcription of stress response genes."),
    ("GO:0005524; GO:0004672 <|endoftext|>", "GO:0005524; GO:0004672; GO:0005737"),
    ("GO:0003677，GO:0006355；GO:0003677", "GO:0003677, GO:0006355"),
    ("", "GO:0016020"),
    ("GO:0016020", ""),
    ("2.7.11.1", "2.7.11.1"),
    ("cytoplasm", "Cytoplasm"),
    ("Nucleus <|im_end|>", "Nucleus"),
    ("Running transporters", "Involved in the transport of sugars across the membranes."),
]
OPI_EVAL_TASKS = ["Function", "GO", "Keywords", "gSymbol2Tissue", "gSymbol2Cancer", "EC_number", "EC", "Subcellular_localization",
                  "Subcellular", "Fold_type", "Fold", "gName2Cancer"]


def _site(element: str, xyz: list[float]) -> dict[str, Any]:
    return {"element": element, "fractional_coordinates": xyz}


MP20_TRUTHS = [
    {"lattice": [[4.12, 0, 0], [0, 4.12, 0], [0, 0, 4.12]], "sites": [_site("Cs", [0, 0, 0]), _site("Cl", [0.5, 0.5, 0.5])]},
    {"lattice": [[3.35, 0, 0], [0, 3.35, 0], [0, 0, 3.35]], "sites": [_site("Po", [0, 0, 0])]},
    {"lattice": [[3.0, 0, 0], [-1.5, 2.598076, 0], [0, 0, 5.0]],
     "sites": [_site("Zn", [0.3333, 0.6667, 0]), _site("O", [0.3333, 0.6667, 0.38])]},
]


def _structure(a: float, b: float, c: float, gamma: float, coords: list[list[float]], **extra: Any) -> dict[str, Any]:
    return {"lattice_parameters": {"a": a, "b": b, "c": c, "alpha": 90, "beta": 90, "gamma": gamma, **extra},
            "atomic_sites": [{"element": "X", "coordinate": xyz} for xyz in coords]}


#: (reply, index of the reference) pairs
MP20_REPLIES = [
    ("```json\n" + json.dumps(_structure(4.12, 4.12, 4.12, 90, [[0, 0, 0], [0.5, 0.5, 0.5]])) + "\n```", 0),
    ("<material>" + json.dumps(_structure(4.2, 4.2, 4.2, 90, [[0, 0, 0], [0.52, 0.5, 0.5]])) + "</material>", 0),
    ("<material>" + repr(_structure(3.35, 3.35, 3.35, 90, [[0.1, 0.1, 0.1]], ok=True)) + "</material>", 1),
    ("no idea", 1),
    ("<material>" + json.dumps(_structure(4.12, 4.12, 4.12, 90, [[0, 0, 0]])) + "</material>", 0),
    ("Thinking... output:\n" + json.dumps(_structure(3.0, 3.0, 5.0, 120, [[0.3333, 0.6667, 0], [0.3333, 0.6667, 0.38]]))
     + "\n </think> done", 2),
    ("The structure is " + json.dumps(_structure(3.0, 3.0, 5.0, 120, [[0.3333, 0.6667, 0], [0.6667, 0.3333, 0.5]]))
     + " and that is all {\"note\": 1}", 2),
    ("<material>{'lattice_parameters': {'a': 6.0, 'b': 6.0, 'c': 6.0}, 'atomic_sites': [{'coordinate': [0, 0, 0]}, "
     "{'coordinate': [0.5, 0.5, 0.5]}], 'flag': True, 'x': None, 'bad': [1,]} trailing</material>", 0),
    ("<material>[1, 2, 3]</material>", 1),
    ("<material>{\"lattice_parameters\": {\"a\": \"big\"}, \"atomic_sites\": []}</material>", 1),
]


#: task → (CSV header, rows, replies)
S2TOMG: dict[str, tuple[list[str], list[list[str]], list[str]]] = {
    "MolCustom_AtomNum": (["index", "Instruction", "carbon", "oxygen", "nitrogen"],
                          [["a1", "Make a molecule with 2 carbons and 1 oxygen.", "2", "1", ""],
                           ["", "Make a molecule with 6 carbons.", "6", "0", "0"]],
                          ['{"molecule": "CCO"}', "c1ccccc1"]),
    "MolCustom_BondNum": (["Instruction", "single", "double", "aromatic"],
                          [["Two single bonds.", "2", "0", "0"], ["Aromatic ring.", "0", "", "6"]],
                          ["CCO", "[c1ccccc1]"]),
    "MolCustom_FunctionalGroup": (["Instruction", "hydroxyl", "thioether", "carboxyl"],
                                  [["One hydroxyl.", "1", "5", "0"], ["A carboxyl.", "0", "0", "1"]],
                                  ["OCCSC", "The answer: CC(=O)O"]),
    "MolEdit_AddComponent": (["Instruction", "molecule", "added_group"],
                             [["Add a hydroxyl to CCC.", "CCC", "hydroxyl"], ["Add a benzene ring.", "CCO", "benzene ring"]],
                             ["CCC => CCCO", '{"molecule": "c1ccccc1CCO"}']),
    "MolEdit_DelComponent": (["Instruction", "molecule", "removed_group"],
                             [["Remove the hydroxyl.", "OCCO", "hydroxyl"], ["Remove the halo.", "ClCCCl", "halo"]],
                             ["OCC", "{molecule: CCCl}"]),
    "MolEdit_SubComponent": (["Instruction", "molecule", "added_group", "removed_group"],
                             [["Replace the hydroxyl with an amine.", "CCO", "amine", "hydroxyl"],
                              ["Swap.", "CCO", "nitrile", "hydroxyl"]],
                             ["CCN", "no molecule here"]),
    "MolOpt_LogP": (["Instruction", "molecule", "logP"],
                    [["Make it more lipophilic.", "CCO", "-0.0014"], ["Lower the LogP.", "CCCCCC", ""]],
                    ["CCCCO", "CCCCCCO"]),
    "MolOpt_MR": (["Instruction", "molecule", "MR"],
                  [["Increase MR.", "CCO", "12.0"], ["Decrease MR please.", "CCCC", "20.0"]],
                  ["CCCO", '{"molecule": 5}']),
    "MolOpt_QED": (["Instruction", "molecule", "QED"],
                   [["Improve drug-likeness.", "CC(=O)Oc1ccccc1C(=O)O", ""], ["Raise QED.", "CCO", "0.4"]],
                   ["CC(=O)Nc1ccc(O)cc1", "-> [CCO]"]),
}


SR15_MATERIALS = {
    "oqmd_test.json": [{"input": f"Predict the band gap of material {i}.", "output": out} for i, out in enumerate([
        '{"bandgap": 1.25}', "{'bandgap' : 0.5 eV}", "no value here", "<think>x</think>```json\n{\"bandgap\": 3}\n```",
        "The e_form is {e_form: -1.5}", "2.0"])],
    "jarvis_dft_test.json": {"input": "Predict the ehull of X.", "output": '{"ehull": 0.02}'},
}
SR15_TASKS = {
    "go_test_bp.json": [
        {"input": "Protein A?", "output": "GO:0006355; GO:0045893", "name": "P1", "chain": "A"},
        {"input": "Protein B?", "output": "regulation of transcription, cell cycle"},
        {"input": "Protein C?", "output": ""},
    ],
    "tmscore_test.json": [{"input": f"Pair {i}?", "output": v, "meta": {"sid1": f"s{i}", "sid2": f"t{i}"}}
                          for i, v in enumerate(["0.5", 0.75, "0.2", "0.9"])] + [{"input": "Pair x?", "output": "0.33"}],
}
SR15_DUDE = [{"input": f"Is ligand {i} active?", "label": lab, "metadata": {"target": tgt} if tgt else {}}
             for i, (lab, tgt) in enumerate([(1, "akt1"), (0, "akt1"), (1, "ampc"), (0, "ampc"), ("1", None), (0, "akt1")])]
SR15_REPLIES = {
    "material": ['{"bandgap": 1.0}', "The band gap is {bandgap: 0.7}", "nothing", "<think>1</think>2.5 eV",
                 '{"bandgap": "inf"}', "-0.4"],
    "go_bp": ["GO:0006355; go:0045893", "Regulation of transcription\ncell cycle, apoptosis", "<think>a</think>"],
    "tmscore": ["0.55", "TM-score: 1.2", "unknown", "```\n0.85\n```", "-0.1"],
    "dude_count": ["label: 1", "0.2", "It is inactive", "probably active", "maybe", "answer=0"],
}


def build(root: Path) -> None:
    """The data files, in OpenCompass's layouts, under ``root`` (the recording's and the tests' copy)."""
    for (exam, kind, _), rows in KAOSHI_FILES.items():
        folder = root / "cache" / "data" / "Kaoshi" / exam
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{kind}.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                                              encoding="utf-8")
    conditional = root / "cache" / "data" / "SciReasoner" / "Conditional_generation"
    for folder, kind, n_test in (("conditional_generation/composition_material", "composition", 151),
                                 ("bulk_modulus_material", "bulk", 12)):
        for split, n in (("dev", 7), ("test", n_test)):
            target = conditional / folder / split
            target.mkdir(parents=True, exist_ok=True)
            (target / "data.json").write_text(json.dumps(_material_items(n, kind), ensure_ascii=False), encoding="utf-8")
    mp20 = root / "cache" / "data" / "mp20"
    mp20.mkdir(parents=True, exist_ok=True)
    lines = [{"id_ddm": f"mp-{i}", "system_prompt": "You are a crystallographer.", "user_input": f"Generate structure {i}.",
              "ground_truth": truth, "extra": i} for i, truth in enumerate(MP20_TRUTHS)]
    (mp20 / "mp20_test.jsonl").write_text("\n".join(json.dumps(r) for r in lines) + "\n\n", encoding="utf-8")
    s2 = root / "cache" / "data" / "S2-TOMG-Bench"
    s2.mkdir(parents=True, exist_ok=True)
    for task, (header, rows, _) in S2TOMG.items():
        with (s2 / f"{task}.csv").open("w", encoding="utf-8", newline="") as f:
            csv.writer(f).writerows([header, *rows])
    sr15 = root / "cache" / "data" / "SciReasoner1.5" / "test-1.5"
    sr15.mkdir(parents=True, exist_ok=True)
    for file, items in {**SR15_MATERIALS, **SR15_TASKS}.items():
        (sr15 / file).write_text(json.dumps(items), encoding="utf-8")
    (sr15 / "dude_count.jsonl").write_text("\n".join(json.dumps(r) for r in SR15_DUDE) + "\n\n", encoding="utf-8")
    for task, pairs in OPI_TASKS.items():
        for split, items in (("dev", pairs[:1] + pairs[-1:]), ("test", pairs)):
            target = root / "cache" / "data" / "SciReasoner" / "OPI_test" / task / split
            target.mkdir(parents=True, exist_ok=True)
            rows = [{"input": f"Protein sequence: {seq}. {split} question {i}", "output": answer, "meta": {"i": i}}
                    for i, (seq, answer) in enumerate(items)]
            (target / "data.json").write_text(json.dumps(rows), encoding="utf-8")


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
    _record_materials(out)
    _record_opi(out)
    _record_mp20(out)
    _record_s2tomg(out)
    _record_sr15(out)
    return out


def _record_sr15(out: dict[str, Any]) -> None:
    from opencompass.datasets import SciReasoner1_5 as sr

    path = "opencompass/SciReasoner1.5"
    calls = [
        {"path": path, "name": "OQMD-bandgap", "task_type": "material", "source": "oqmd", "property_name": "bandgap"},
        {"path": path, "name": "OQMD-bandgap", "task_type": "material", "source": "oqmd", "property_name": "bandgap",
         "sample_size": 2, "seed": 7},
        {"path": path, "name": "JARVISDFT-ehull", "task_type": "material", "source": "jarvis_dft", "property_name": "ehull"},
        {"path": path, "name": "go_bp", "task_type": "go_bp"},
        {"path": path, "name": "tmscore", "task_type": "tmscore", "mini_set": True},
        {"path": path, "name": "dude_count", "task_type": "dude_count"},
        # as the library's config passes them
        {"path": path, "name": "oqmd:bandgap", "source": "oqmd", "task_type": "material", "property_name": "bandgap",
         "mini_set": False, "sample_size": None},
        {"path": path, "name": "go_bp", "task_type": "go_bp", "mini_set": False, "sample_size": None},
        {"path": path, "name": "dude_count", "task_type": "dude_count", "mini_set": False, "sample_size": None},
    ]
    out["SciReasoner15Dataset"] = [{"args": a, "rows": [dict(r) for r in sr.SciReasoner15Dataset.load(**a)]} for a in calls]
    answers: dict[str, list[Any]] = {}
    for c in out["SciReasoner15Dataset"]:  # the first call of each task type
        answers.setdefault(c["args"]["task_type"], [r["answer"] for r in c["rows"]])
    evaluators = {"material": lambda: sr.SciReasoner15MaterialEvaluator(property_name="bandgap"),
                  "go_bp": sr.SciReasoner15GOEvaluator, "tmscore": sr.SciReasoner15TMScoreEvaluator,
                  "dude_count": sr.SciReasoner15DudeEvaluator}
    out["SciReasoner15Evaluators"] = []
    for task, replies in SR15_REPLIES.items():
        refs = answers[task][:len(replies)]
        replies = replies[:len(refs)]
        for p, r in ((replies, refs), (replies[:1], [json.dumps(refs[0])])):
            out["SciReasoner15Evaluators"].append({"task_type": task, "predictions": p, "references": r,
                                                   "result": evaluators[task]().score(list(p), list(r))})


def _record_s2tomg(out: dict[str, Any]) -> None:
    from opencompass.datasets.s2_tomg_bench import S2TOMGBenchDataset, S2TOMGBenchEvaluator

    out["S2TOMGBenchDataset"] = []
    out["S2TOMGBenchEvaluator"] = []
    for task, (_, _, replies) in S2TOMG.items():
        args = {"path": "opencompass/S2-TOMG-Bench", "name": task}
        rows = [dict(r) for r in S2TOMGBenchDataset.load(**args)]
        out["S2TOMGBenchDataset"].append({"args": args, "rows": rows})
        refs = [r["reference"] for r in rows]
        out["S2TOMGBenchEvaluator"].append({"task": task, "predictions": replies, "references": refs,
                                            "result": S2TOMGBenchEvaluator().score(list(replies), list(refs))})
    args = {"path": "opencompass/S2-TOMG-Bench", "name": "MolOpt_QED.csv", "max_samples": 1}
    out["S2TOMGBenchDataset"].append({"args": args, "rows": [dict(r) for r in S2TOMGBenchDataset.load(**args)]})
    out["rdkit"] = importlib.metadata.version("rdkit")


def _record_mp20(out: dict[str, Any]) -> None:
    from opencompass.datasets.mp20.mp20 import MP20Dataset, MP20Evaluator

    out["MP20Dataset"] = [{"args": {"path": "opencompass/mp20"}, "rows": [dict(r) for r in MP20Dataset.load(path="opencompass/mp20")]}]
    replies = [r for r, _ in MP20_REPLIES]
    truths = [MP20_TRUTHS[i] for _, i in MP20_REPLIES]
    out["MP20Evaluator"] = [{"predictions": p, "references": r, "result": MP20Evaluator().score(list(p), list(r))}
                            for p, r in ((replies, truths), (replies[:2], truths[:2]), (replies[3:5], truths[3:5]))]
    out["pymatgen"] = importlib.metadata.version("pymatgen")


def _record_opi(out: dict[str, Any]) -> None:
    from opencompass.datasets.SciReasoner.opi.evaluator import Opi_Evaluator, OpiDataset, opi_postprocess

    path = "opencompass/SciReasoner-OPI"
    calls = [{"path": path, "task": t} for t in OPI_TASKS] + [{"path": path, "task": "GO_UniProtSeq_go", "mini_set": True}]
    out["OpiDataset"] = [{"args": a, "splits": _splits(OpiDataset.load(**a))} for a in calls]
    texts = [t for pair in OPI_PAIRS for t in pair]
    out["opi_postprocess"] = [[t, opi_postprocess(t, task="GO")] for t in texts]
    preds = [opi_postprocess(p, task="x") for p, _ in OPI_PAIRS]
    refs = [opi_postprocess(r, task="x") for _, r in OPI_PAIRS]
    out["Opi_Evaluator"] = []
    for task in OPI_EVAL_TASKS:
        for p, r in ((preds, refs), (preds[:3], refs[:3]), ([[x] for x in preds[4:6]], refs[4:6])):
            out["Opi_Evaluator"].append({"task": task, "predictions": p, "references": r,
                                         "result": Opi_Evaluator(task=task).score(list(p), list(r))})


def _splits(loaded: Any) -> dict[str, list[dict[str, Any]]]:
    return {k: [dict(r) for r in v] for k, v in loaded.items()}


def _record_materials(out: dict[str, Any]) -> None:
    from opencompass.datasets.SciReasoner.bulk_modulus_material import Bulk_modulus_material_Dataset, material_Evaluator
    from opencompass.datasets.SciReasoner.composition_material import (
        Composition_material_Dataset,
        composition_Evaluator,
    )
    from opencompass.datasets.SciReasoner.uncond_material import (
        Uncond_material_Dataset,
        material_postprocessor,
        uncond_material_Evaluator,
    )

    path = "opencompass/SciReasoner-Conditional_generation"
    out["Composition_material_Dataset"] = [{"args": a, "splits": _splits(Composition_material_Dataset.load(**a))}
                                           for a in ({"path": path}, {"path": path, "mini_set": True})]
    out["Bulk_modulus_material_Dataset"] = [{"args": {"path": path}, "splits": _splits(Bulk_modulus_material_Dataset.load(path=path))}]
    out["Uncond_material_Dataset"] = [{"args": {"num": 3, "prompt": "Produce a material"},
                                       "rows": [dict(r) for r in Uncond_material_Dataset.load(num=3, prompt="Produce a material")]}]
    out["material_postprocessor"] = [[r, material_postprocessor(r)] for r in [*MATERIAL_REPLIES, None, "<material>\n a \n</material>"]]
    preds = [material_postprocessor(r) for r in MATERIAL_REPLIES]
    cases = [preds, preds[:5], ["", "x"], [MATERIAL_REPLIES[0].strip(), "Na Cl <sg> <sg200>", "Mg O <sg> <sg204>"]]
    out["material_evaluators"] = []
    for name, build_evaluator in (("uncond_material_Evaluator", uncond_material_Evaluator),
                                  ("composition_Evaluator", lambda: composition_Evaluator(data_path=path)),
                                  ("material_Evaluator", lambda: material_Evaluator(data_path=path))):
        for case in cases:
            result = build_evaluator().score(list(case))
            out["material_evaluators"].append({"evaluator": name, "predictions": case, "result": result})
    out["smact"] = importlib.metadata.version("smact")


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

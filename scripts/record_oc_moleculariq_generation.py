"""Record what OpenCompass 0.5.4's MolecularIQ generation evaluator and its symbolic solver compute.

Run it with a Python that has opencompass==0.5.4 installed with RDKit; OpenCompass is not a
dependency of assay::

    python scripts/record_oc_moleculariq_generation.py

Under ``tests/data/oc_families/moleculariq_generation`` it writes:

* ``cache/data/MolecularIQ/test_task/generation.jsonl``: generation questions with constraints, and
  ``predictions/MolecularIQ-generation.json``: one varied reply each;
* ``expected/<config>.json``: the result file (details included) and the test rows of OpenCompass's own
  eval task (``OpenICLEvalTask``) scoring those replies with the generation dataset of each library config
  (``molculariq_gen``, ``molculariq_rawprompt_gen``, unchanged);
* ``expected/scorer.json``: ``MoleculariqGenerationEvaluator().score`` on further replies against
  constraints as written (``core``: solver properties of this module; ``groups``: functional groups,
  reactions, BRICS and Murcko), and the batches where it raises (``failing``, the exception's name);
* ``expected/reward_corpus.jsonl``: 1,200 random replies against random constraints, each scored alone
  (OpenCompass's result, or the name of the exception it raises);
* ``expected/reward_groups_corpus.jsonl``: 400 replies against random functional-group, reaction, BRICS
  and Murcko constraints, each scored alone;
* ``expected/solver_corpus.jsonl``: for each molecule of a varied corpus, the solver's value (or the name
  of the exception it raises) for every property of MolecularIQ's table other than functional groups,
  reactions, BRICS and Murcko.

``tests/evaluators/test_moleculariq_generation.py`` checks assay's namesakes against these.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from _oc_recording import jsonable, library_datasets, use_data_cache, write_json

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "data" / "oc_families" / "moleculariq_generation"
RUN = "20250101_000000"
MODEL = "oc-model"
CONFIGS = {"molculariq_gen": "molculariq/molculariq_gen.py", "molculariq_rawprompt_gen": "molculariq/molculariq_rawprompt_gen.py"}
ABBR = "MolecularIQ-generation"
LONG_CHAIN = "C" * 70


def _c(kind: str, op: str | None = "=", **values: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind}
    if op is not None:
        out["operator"] = op
    out.update(values)
    return out


#: (constraints, target, reply) of the eval task's file; numeric values only (the rows become one table)
QUESTIONS: list[tuple[Any, Any, str]] = [
    ([_c("ring_count", value=1)], None, '<answer>"smiles": "c1ccccc1"</answer>'),
    ([_c("ring_count", value=1)], None, '<answer>{"SMILES": "C1CC1"}</answer>'),
    ([_c("carbon_atom_count", ">=", min_value=2)], None, "<answer>CCO</answer>"),
    ([_c("number of rings", value=2)], None, '<answer>"smiles": "c1ccc2ccccc2c1"</answer>'),
    ([_c("aromatic_ring_count", "range", min_value=1, max_value=2)], {}, '<answer>"smiles": "c1ccccc1-c1ccncc1"</answer>'),
    ([_c("ring_count", value=1)], None, '<answer>"smiles": "C1CC"</answer>'),
    ([_c("ring_count", value=1)], None, "The molecule is benzene."),
    ([_c("hba_count", "<=", max_value=3), _c("hbd_count", ">", min_value=0)], None, '<answer>"smiles": "CCO"</answer>'),
    ([_c("stereocenter_count", value=1), _c("r_s_stereocenter_r_count", value=1)], None, '<answer>"smiles": "C[C@@H](O)CC"</answer>'),
    ([_c("longest_carbon_chain_count", ">=", min_value=61)], None, f'<answer>"smiles": "{LONG_CHAIN}"</answer>'),
    ([_c("ring_index", value=0)], None, '<answer>"smiles": "C1CC1"</answer>'),
    ([_c("mystery_count", value=1)], None, '<answer>"smiles": "CCO"</answer>'),
    ([_c("mystery_count", value=1), _c("heavy_atom_count", value=3)], None, '<answer>"smiles": "CCO"</answer>'),
    ([_c("oxidation_state_C_max_count", value=1), _c("e_z_stereochemistry_double_bond_e_count", value=1)], None,
     '<answer>"smiles": "OC(=O)/C=C/C"</answer>'),
    ([_c("spiro_count", value=1), _c("fused_ring_count", value=0)], None, '<answer>"smiles": "C1CCC2(C1)CCCC2"</answer>'),
    ([_c("heavy_atom_count", None, value=3)], None, '<answer>"smiles": "CCO"</answer>'),
    ([_c("carbon_atom_count", ">=", value=2)], None, '<answer>"smiles": "CCO"</answer>'),
    ([_c("carbon_atom_count", "=", value=2)], None, '<answer>"smiles": ["CCO"]</answer>'),
    ([_c("carbon_atom_count", "=", value=2)], None, "<answer>smiles: CCO</answer>"),
    ([_c("carbon_atom_count", "=", value=2)], None, '<answer>{"a": "CCO", "b": 1}</answer>'),
    ([_c("carbon_atom_count", "=", value=2)], None, '<answer>{"molecule": "CCO"}</answer>'),
    ([_c("halogen_atom_count", "=", value=1), _c("hetero_atom_count", "=", value=2)], None, '<answer>"smiles": "[Na+].[Cl-]"</answer>'),
    ([], None, '<answer>"smiles": "CCO"</answer>'),
    ([], None, "<answer>CCO</answer>"),
    ([_c("hydrogen_atom_count", "<", max_value=7), _c("csp3_carbon_count", value=2)], None, '<answer>"smiles": "CCO"</answer>'),
    ([_c("unspecified_stereocenter_count", value=1), _c("stereochemistry_unspecified_double_bond_count", value=1)], None,
     '<answer>"smiles": "CC(O)C=CC"</answer>'),
    ([_c("smallest_largest_ring_size_largest_count", value=6), _c("bridgehead_count", value=2)], None,
     '<answer>"smiles": "C1CC2CCC1C2"</answer>'),
    ([_c("ring_count", value=0)], None, "<answer></answer>"),
    ([_c("ring_count", value=5), _c("mystery_count", value=1)], None, '<answer>"smiles": "CCO"</answer>'),
    ([_c("rotatable_bond_count", ">=", min_value=2), _c("saturated_ring_count", value=0),
      _c("chain_termini_count", value=2), _c("branch_point_count", value=0)], None, '<answer>"smiles": "CCCCO"</answer>'),
]

#: (predictions, references) scored directly, references as written
CORE_CASES: list[tuple[list[Any], list[Any]]] = [
    (['<answer>"smiles": "CCO"</answer>'] * 12 + ["<answer>C1=CC=CC=C1</answer>", "<answer>c1ccccc1</answer>"],
     [[_c("molecular_formula", value="C2H6O")], [_c("molecular formula", value="H6C2O")],
      [_c("molecular_formula", value="c2h6o")], [_c("molecular_formula", value="C₂H₆O")],
      [_c("molecular_formula", value="C2H5O")], [_c("molecular_formula")], [{"property": "molecular_formula", "value": "C2H6O"}],
      [{"property": "molecular_formula", "value": "H6C2O"}], [_c("carbon_atom_count", "-", min_value=1)],
      [_c("carbon_atom_count", "~", value=2)], [_c("carbon_atom_count", value=True)], [_c("carbon_atom_count", value=2.0000001)],
      [_c("aromatic_ring_count", value=1)], [_c("molecular_formula", value="C" + "1" * 5000 + "H6")]]),
    (['<answer>"smiles": "CCO"</answer>'] * 9,
     ['[{"type": "carbon_atom_count", "operator": "=", "value": 2}]', "not json", "[]", "",
      {"carbon_atom_count": 2}, [_c("oxidation_state_c_max_count", value=1)], [{"type": None, "value": 1}], [[1, 2]],
      '{"a": 1}']),
    (['<answer>"smiles": "CCO"</answer>', '<answer>{"smiles": {"smiles": "CCO"}}</answer>', '<answer>{"smiles": "{\\"smiles\\": \\"CCO\\"}"}</answer>',
      '<answer>{"smiles": []}</answer>', '<answer>{"smiles": null}</answer>', '<answer>{"smiles": "  SMILES: CCO "}</answer>',
      '<answer>{"x": ["CCO", "O"]}</answer>', "<answer>2</answer>", '<answer>{"smiles": "C1CC1", "ring count": 1}</answer>'],
     [[_c("carbon_atom_count", value=2)]] * 9),
    (['<answer>"smiles": "CCO"</answer>'] * 6,
     [[_c("carbon_atom_count", value=3), _c("carbon_atom_count", value="2")],
      [_c("functional_group_", value=1)], [_c("template_based_reaction_prediction_", value=1)],
      [_c("reaction__count", value=0)], [_c("oxidation_state_X_max_count", value=0)], [_c("carbon_atom_index", value=[0, 1])]]),
]

#: (predictions, references) needing functional groups, reactions, BRICS or Murcko
GROUP_CASES: list[tuple[list[Any], list[Any]]] = [
    (['<answer>"smiles": "CCO"</answer>', '<answer>"smiles": "CC(=O)OCC"</answer>', '<answer>"smiles": "c1ccccc1CCN"</answer>',
      '<answer>"smiles": "c1ccccc1C(=O)NCCc1ccncc1"</answer>', '<answer>"smiles": "CCO"</answer>', '<answer>"smiles": "c1ccccc1CC"</answer>',
      '<answer>"smiles": "c1ccccc1CC"</answer>', '<answer>"smiles": "c1ccccc1CC"</answer>', '<answer>"smiles": "CCO"</answer>'],
     [[_c("functional_group_alcohol_count", ">=", min_value=1)], [_c("functional_group_ester_nbrInstances", value=1)],
      [_c("functional_group_primary_amine_count", value=1), _c("murcko_scaffold_count", value=6)],
      [_c("brics_decomposition_count", ">=", min_value=2)], [_c("template_based_reaction_prediction_alcohol_to_tosylate_success", value=1)],
      [_c("murcko_scaffold_value", value="c1ccccc1")], [_c("murcko_scaffold_value", value="C1=CC=CC=C1")],
      [_c("murcko_scaffold_value")], [_c("reaction_alcohol_to_tosylate_count", ">=", min_value=0)]]),
]

#: (predictions, references) OpenCompass cannot score: it stops with an exception (recorded by name)
FAILING: list[tuple[list[Any], list[Any]]] = [
    (['<answer>"smiles": "CCO"</answer>'], [[_c("carbon_atom_count", value="2")]]),
    (['<answer>"smiles": "CCO"</answer>'], [[_c("carbon_atom_count", ">=", min_value="2")]]),
    (['<answer>"smiles": "CC"</answer>', '<answer>"smiles": "CCO"</answer>'],
     [[_c("carbon_atom_count", value=2)], [_c("carbon_atom_count", "range", min_value=None, max_value=3)]]),
    (['<answer>"smiles": "CCO"</answer>'], [[_c("carbon_atom_count", value=10 ** 400)]]),
    (['<answer>"smiles": "CCO"</answer>'], ['5']),
    (['<answer>"smiles": "C1CC"</answer>'], ['5']),
    # a SMILES holding JSON: with a number of more digits than Python reads, and nested deeper than it reads
    (['<answer>"smiles": "CCO"</answer>', "<answer>" + json.dumps({"smiles": '{"smiles": ' + "7" * 5000 + "}"}) + "</answer>"],
     [[_c("carbon_atom_count", value=2)]] * 2),
    (["<answer>" + json.dumps({"smiles": '{"smiles": ' + "[" * 10000 + "]" * 10000 + "}"}) + "</answer>"],
     [[_c("ring_count", value=0)]]),
]

SEEDS = [
    "CCO", "CC(=O)O", "c1ccccc1", "CC(=O)Oc1ccccc1C(=O)O", "CN1C=NC2=C1C(=O)N(C(=O)N2C)C", "CC(C)Cc1ccc(cc1)C(C)C(=O)O",
    "O=C(O)C[C@H](N)C(=O)O", "N[C@@H](Cc1ccccc1)C(=O)O", "C[C@H](N)C(=O)O", "F/C=C/F", "F/C=C\\F", "CC=CC", "C/C=C/C=C/C",
    "C1CC2CCC1C2", "C1CCC2(C1)CCCC2", "C12C3C4C1C5C2C3C45", "c1ccc2c(c1)ccc1ccccc12", "c1ccc2cc3ccccc3cc2c1", "C1CC1C1CC1",
    "OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O", "CC(C)(C)c1ccc(O)cc1", "ClC(Cl)(Cl)Cl", "FC(F)(F)c1ccccc1", "BrCCBr", "IC",
    "[Na+].[Cl-]", "CC(=O)[O-].[Na+]", "C[N+](C)(C)C", "[NH4+]", "O=[N+]([O-])c1ccccc1", "CS(=O)(=O)N", "CS(C)=O", "CSC",
    "OP(=O)(O)O", "COP(=O)(OC)OC", "P(c1ccccc1)(c1ccccc1)c1ccccc1", "C#N", "CC#CC", "C=C=C", "O=C=O", "[2H]C([2H])([2H])O",
    "[H][H]", "[H]C([H])([H])[H]", "*CC*", "c1ccncc1", "c1cc[nH]c1", "c1ccoc1", "c1ccsc1", "C1CCNCC1", "C1COCCN1",
    "O=C1CCCCC1", "C1=CCCCC1", "C1=CC=CCC1", "CCCCCCCCCCCCCCCC(=O)O", "CC(C)C[C@H](NC(=O)[C@@H](Cc1ccccc1)NC(=O)c1cnccn1)B(O)O",
    "CN1CCC[C@H]1c1cccnc1", "COc1ccc2[nH]cc(CCN(C)C)c2c1", "CC12CCC3C(CCC4=CC(=O)CCC34C)C1CCC2O",
    "C[C@]12CC[C@H]3[C@@H](CCC4=CC(=O)CC[C@@]43C)[C@@H]1CC[C@@H]2O", "OC(=O)c1ccccc1O", "Nc1ccc(cc1)S(=O)(=O)Nc1ccccn1",
    "CC(C)NCC(O)COc1cccc2ccccc12", "CN(C)CCCN1c2ccccc2CCc2ccccc21", "Clc1ccc(cc1)C(c1ccccc1)N1CCN(CC1)CCOCC(=O)O",
    "CC1=C(C(=O)OC)C(c2ccccc2[N+](=O)[O-])C(C(=O)OC)=C(C)N1", "O=C(O)/C=C\\C(=O)O", "O=C(O)/C=C/C(=O)O",
    "C(/C=C/c1ccccc1)=O", "CCN(CC)C(=O)[C@H]1CN(C)[C@@H]2Cc3c[nH]c4cccc(c34)C2=C1", "C1CC2CC1C1CCCC21", "C1CC23CCC2CC3C1",
    "c1ccc2c(c1)[nH]c1ccccc12", "C1=CC2=CC=CC=CC2=C1", "B(O)(O)c1ccccc1", "[Si](C)(C)(C)C", "C[Se]C", "[Fe+2]", "[O-2]",
    "S=C=S", "N#N", "O", "C", "[C]", "[CH2]", "CC(=O)N[C@@H](CS)C(=O)O", "CC[C@H](C)[C@H](N)C(=O)O", "C[C@H]1CC[C@@H](C)CC1",
    "C[C@H]1CCCC[C@@H]1C", "OC1CCC(O)CC1", "CC(O)C(C)O", "C1C[C@H]2CC[C@@H]1C2", "N1C=CC=C1", "OS(=O)(=O)O", "[O-]S(=O)(=O)[O-]",
    "CCS(=O)CC", "CCSSCC", "NC(=S)N", "N=C(N)N", "CN=C=O", "C(=O)Cl", "CC(=O)OC(C)=O", "O=C1OC(=O)c2ccccc12", "c1ccc2ncccc2c1",
    "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC", "C" * 61, "C1" + "C" * 58 + "C1",
    "CC(C)(C)C(C)(C)C(C)(C)C", "C1CCCCCCCCCCC1", "C1CCC2(CC1)OCCO2", "O=C(NCc1ccccc1)c1ccccc1", "", "C1CC", "c1cccc1", "Xx",
    "C(C)(C)(C)(C)C", "[nH]1cccc1", "CC(", "c1ccccc1N(=O)=O", "C[N](C)(C)C", "C.C.C", "[Cu+2].[O-]S(=O)(=O)[O-]",
]


def corpus_molecules() -> list[str]:
    """The seeds and, for each seed RDKit reads, three random writings of it (other atom orders)."""
    from rdkit import Chem
    from rdkit.rdBase import BlockLogs

    _quiet = BlockLogs()
    rng = random.Random(20250101)
    out = list(SEEDS)
    for smiles in SEEDS:
        mol = Chem.MolFromSmiles(smiles)
        if mol is None or mol.GetNumAtoms() < 2 or len(smiles) > 60:
            continue
        for _ in range(3):
            Chem.rdBase.SeedRandomNumberGenerator(rng.randrange(1 << 30))
            variant = Chem.MolToSmiles(mol, doRandom=True, canonical=False)
            if variant not in out:
                out.append(variant)
    return out


def core_keys() -> dict[str, tuple[str, dict[str, Any]]]:
    from opencompass.datasets.moleculariq.moleculariq_core.rewards.property_solver_mapping import PROPERTY_TO_SOLVER_MAP

    return {k: v for k, v in PROPERTY_TO_SOLVER_MAP.items() if not k.startswith(("brics_", "murcko_"))}


def record_corpus() -> list[dict[str, Any]]:
    from opencompass.datasets.moleculariq.moleculariq_core.rewards.constraint_reward import _SOLVER

    rows = []
    for smiles in corpus_molecules():
        values: dict[str, Any] = {}
        for key, (method, params) in core_keys().items():
            try:
                values[key] = getattr(_SOLVER, method)(smiles, **params)
            except Exception as exc:  # the exception's name is what is recorded
                values[key] = {"raises": type(exc).__name__}
        rows.append({"smiles": smiles, "values": jsonable(values)})
    return rows


REWARD_MOLECULES = [
    "CCO", "c1ccccc1", "CC(=O)Oc1ccccc1C(=O)O", "C[C@@H](O)CC", "C[C@H](N)C(=O)O", "F/C=C/F", "CC=CC", "C1CCC2(C1)CCCC2",
    "C1CC2CCC1C2", "c1ccc2ccccc2c1", "[Na+].[Cl-]", "OP(=O)(O)O", "CS(=O)(=O)N", "ClC(Cl)(Cl)Cl", "C1CCNCC1", "OC(=O)/C=C/C",
    "CN1C=NC2=C1C(=O)N(C(=O)N2C)C", "CCCCCCCCCC", "C#N", "[2H]C([2H])([2H])O", "c1ccncc1", "O", "C1CC", "c1cccc1", "xyz", "",
]
REWARD_KEYS = [
    "ring_count", "number of rings", "Ring Count", "aromatic_ring_count", "fused_ring_count", "spiro_count",
    "bridgehead_count", "smallest_largest_ring_size_smallest_count", "chain_termini_count", "branch_point_count",
    "csp3_carbon_count", "longest_carbon_chain_count", "stereocenter_count", "r_s_stereocenter_s_count",
    "unspecified_stereocenter_count", "e_z_stereochemistry_double_bond_e_count", "stereochemistry_unspecified_double_bond_count",
    "carbon_atom_count", "hetero_atom_count", "halogen_atom_count", "heavy_atom_count", "hydrogen_atom_count", "hba_count",
    "hbd_count", "rotatable_bond_count", "oxidation_state_C_max_count", "oxidation_state_n_min_count", "oxidation_state_S_max_count",
    "saturated_ring_count", "heterocycle_count", "ring_index", "mystery_count", "", "molecular_formula",
]
REPLY_FORMS = ['<answer>"smiles": "{}"</answer>', "<answer>{}</answer>", '<answer>{{"SMILES": "{}"}}</answer>',
               "<answer>smiles: {}</answer>", '<answer>{{"x": ["{}"]}}</answer>', "The answer is {}."]
OPERATORS = ["=", "=", ">=", "<=", ">", "<", "range", "-", "~", None]


def _random_constraint(rng: random.Random) -> dict[str, Any]:
    key = rng.choice(REWARD_KEYS)
    out: dict[str, Any] = {("property" if rng.random() < 0.1 else "type"): key}
    operator = rng.choice(OPERATORS)
    if operator is not None:
        out["operator"] = operator
    if key == "molecular_formula":
        out["value"] = rng.choice(["C2H6O", "H6C2O", "C6H6", "c6h6", "C10H8", "CH4O", "C₆H₆"])
        return out
    for field in ("value", "min_value", "max_value"):
        if rng.random() < 0.5:
            out[field] = rng.choice([0, 1, 2, 3, 4, 6, 10, 1.5, 2.0000001, None])
    return out


def record_reward_corpus(size: int = 1200) -> list[dict[str, Any]]:
    """``size`` random replies against random constraints (core properties and names the solver does not know),
    each scored alone: OpenCompass's result, or the name of the exception it raises."""
    rng = random.Random(7)
    rows = []
    for _ in range(size):
        reply = rng.choice(REPLY_FORMS).format(rng.choice(REWARD_MOLECULES))
        constraints = [_random_constraint(rng) for _ in range(rng.randrange(4))]
        try:
            result: Any = _score([reply], [constraints])
        except Exception as exc:  # recorded as OpenCompass fails
            result = {"raises": type(exc).__name__}
        rows.append({"reply": reply, "constraints": constraints, "result": result})
    return rows


GROUP_NAMES = ["alcohol", "ester", "ketone", "aldehyde", "primary_amine", "carboxylic_acid", "methyl", "ether", "amide",
               "primary_carbon", "phenol", "nitro", "benzene", "no_such_group"]
TEMPLATES = ["primary_alcohol_to_aldehyde", "ester_hydrolysis_to_acid", "acetylation", "alcohol_to_tosylate",
             "alcohol_to_alkyl_halide_Cl", "oxime_formation", "no_such_template"]
GROUP_MOLECULES = ["CCO", "CC(=O)OCC", "CC(=O)OCCN", "c1ccccc1CCN", "c1ccccc1C(=O)NCCc1ccncc1", "OC(=O)c1ccccc1O",
                   "CC(=O)C", "O=Cc1ccccc1", "CC(C)NCC(O)COc1cccc2ccccc12", "C1CCCCC1", "CCCC", "O=[N+]([O-])c1ccccc1",
                   "CN1C=NC2=C1C(=O)N(C(=O)N2C)C", "C[C@H](N)C(=O)O"]


def _random_group_constraint(rng: random.Random) -> dict[str, Any]:
    pick = rng.randrange(5)
    if pick == 0:
        key = f"functional_group_{rng.choice(GROUP_NAMES)}_{rng.choice(['count', 'nbrInstances', 'index'])}"
    elif pick == 1:
        key = f"template_based_reaction_prediction_{rng.choice(TEMPLATES)}_{rng.choice(['count', 'success', 'index', 'products'])}"
    elif pick == 2:
        key = f"reaction_{rng.choice(TEMPLATES)}" + rng.choice(["_count", ""])
    elif pick == 3:
        key = rng.choice(["brics_decomposition_count", "brics_decomposition_index", "murcko_scaffold_count",
                          "murcko_scaffold_index"])
    else:
        return {"type": "murcko_scaffold_value", "operator": "=",
                "value": rng.choice(["c1ccccc1", "C1CCCCC1", "", "c1ccc(CCNC(=O)c2ccccc2)cc1", "c1ccc2ccccc2c1"])}
    out: dict[str, Any] = {"type": key, "operator": rng.choice(["=", "=", ">=", "<=", "range"])}
    for field in ("value", "min_value", "max_value"):
        if rng.random() < 0.6:
            out[field] = rng.choice([0, 1, 2, 3, 4, 6])
    return out


def record_group_reward_corpus(size: int = 400) -> list[dict[str, Any]]:
    """``size`` replies against random functional-group, reaction, BRICS and Murcko constraints, each scored
    alone."""
    rng = random.Random(11)
    rows = []
    for _ in range(size):
        reply = f'<answer>"smiles": "{rng.choice(GROUP_MOLECULES)}"</answer>'
        constraints = [_random_group_constraint(rng) for _ in range(rng.randrange(1, 3))]
        rows.append({"reply": reply, "constraints": constraints, "result": _score([reply], [constraints])})
    return rows


def _score(predictions: list[Any], references: list[Any]) -> Any:
    from opencompass.datasets.moleculariq.moleculariq import MoleculariqGenerationEvaluator

    return jsonable(MoleculariqGenerationEvaluator().score(list(predictions), list(references)))


def record_scorer() -> dict[str, Any]:
    out: dict[str, Any] = {"core": [], "groups": [], "failing": []}
    for name, cases in (("core", CORE_CASES), ("groups", GROUP_CASES)):
        for predictions, references in cases:
            out[name].append({"predictions": predictions, "references": jsonable(references),
                              "result": _score(predictions, references)})
    for predictions, references in FAILING:
        try:
            _score(predictions, references)
        except Exception as exc:  # recorded as OpenCompass fails
            out["failing"].append({"predictions": predictions, "references": jsonable(references), "raises": type(exc).__name__})
        else:
            raise SystemExit(f"{predictions!r:.80} scored; it is listed as failing")
    return out


def build_data() -> None:
    folder = FIXTURES / "cache" / "data" / "MolecularIQ" / "test_task"
    folder.mkdir(parents=True, exist_ok=True)
    rows = [{"uid": f"g{i}", "question": f"Propose a molecule meeting constraint set {i}.", "target": target,
             "constraints": constraints} for i, (constraints, target, _) in enumerate(QUESTIONS)]
    (folder / "generation.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def _generation_dataset(config: str) -> dict[str, Any]:
    (ds,) = [d for d in library_datasets(CONFIGS[config], "moleculariq_datasets") if d["abbr"] == ABBR]
    return ds


def write_predictions() -> None:
    from opencompass.utils import build_dataset_from_cfg

    test = build_dataset_from_cfg(_generation_dataset("molculariq_gen")).test
    records = {str(i): {"origin_prompt": [{"role": "HUMAN", "prompt": q}], "prediction": reply, "gold": gold}
               for i, (q, gold, (_, _, reply)) in enumerate(zip(test["prompt"], test["ground_truth"], QUESTIONS, strict=True))}
    write_json(FIXTURES / "predictions" / f"{ABBR}.json", jsonable(records))


def run_config(config: str, work: Path) -> dict[str, Any]:
    from mmengine.config import ConfigDict
    from opencompass.tasks import OpenICLEvalTask
    from opencompass.utils import build_dataset_from_cfg

    ds = _generation_dataset(config)
    run_dir = work / config / RUN
    pred_dir = run_dir / "predictions" / MODEL
    pred_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy(FIXTURES / "predictions" / f"{ABBR}.json", pred_dir / f"{ABBR}.json")
    cfg = ConfigDict(models=[dict(abbr=MODEL, path="org/model")], datasets=[[ds]], work_dir=str(run_dir),
                     eval=dict(runner=dict(task=dict(dump_details=True))))
    OpenICLEvalTask(cfg).run()
    result = json.loads((run_dir / "results" / MODEL / f"{ABBR}.json").read_text(encoding="utf-8"))
    return jsonable({"config": CONFIGS[config], "result": result, "test_rows": build_dataset_from_cfg(ds).test.to_list()})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scorer-only", action="store_true", help="record expected/scorer.json only")
    args = parser.parse_args()
    if args.scorer_only:
        write_json(FIXTURES / "expected" / "scorer.json", record_scorer())
        return
    use_data_cache(FIXTURES / "cache")
    build_data()
    out_dir = FIXTURES / "expected"
    print("recording the eval task", flush=True)
    write_predictions()
    with tempfile.TemporaryDirectory() as work:
        for config in CONFIGS:
            write_json(out_dir / f"{config}.json", run_config(config, Path(work)), sort_keys=True)
    print("recording the scorer", flush=True)
    write_json(out_dir / "scorer.json", record_scorer())
    print("recording the reward corpus", flush=True)
    reward_rows = record_reward_corpus()
    (out_dir / "reward_corpus.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in reward_rows),
                                                 encoding="utf-8")
    group_rows = record_group_reward_corpus()
    (out_dir / "reward_groups_corpus.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in group_rows), encoding="utf-8")
    print("recording the solver corpus", flush=True)
    rows = record_corpus()
    (out_dir / "solver_corpus.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"done: {len(rows)} molecules × {len(core_keys())} properties", file=sys.stderr)


if __name__ == "__main__":
    main()

"""Record what OpenCompass 0.5.4's copy of MolecularIQ's symbolic solver computes for functional groups, reaction
templates, BRICS and Murcko scaffolds, on a corpus of molecules.

Run it with a Python that has opencompass==0.5.4 installed with RDKit; OpenCompass is not a dependency of assay::

    python scripts/record_oc_moleculariq_groups.py

It writes MolecularIQ's functional-group SMARTS and reaction templates, as the solver reads them from its data
files, to ``src/assay/evaluators/moleculariq_smarts.json`` and ``moleculariq_reactions.json``, then calls the
solver's ``get_functional_group_count_and_indices``, ``get_reaction_counts_and_indices``, ``get_brics_*`` and
``get_murcko_*`` on each molecule of:

- ``cases.json.gz``: molecules written for a purpose (each functional group, each substituent walker's edge cases,
  each reaction template, salts, charges, stereo, isotopes, hydrogens written as atoms, radicals, dummy atoms,
  unreadable SMILES), and the same drug-like molecules written in other atom orders;
- ``corpus.json.gz``: every sixth molecule of the NCI set RDKit ships (``Data/NCI/first_5K.smi``).

Both go to ``tests/data/oc_families/moleculariq/groups/``.  So that the files stay small, each molecule keeps
only the entries that differ from the solver's output for a molecule with no group and no reaction (recorded
once, under ``"empty"``, with the order of the keys); an output of another shape is kept whole.  Inputs the solver
cannot take (not text) are recorded with the exception it raises.  ``tests/evaluators/test_moleculariq_groups.py``
checks assay's functions against the files.
"""

from __future__ import annotations

import gzip
import importlib.metadata
import io
import json
import sys
from pathlib import Path
from typing import Any

from _oc_recording import REPO, write_json

DATA = REPO / "tests" / "data" / "oc_families" / "moleculariq" / "groups"
SRC = REPO / "src" / "assay" / "evaluators"
FUNCTIONS = {"functional_group_data": "get_functional_group_count_and_indices",
             "reaction_data": "get_reaction_counts_and_indices",
             "brics_fragment_count": "get_brics_fragment_count", "brics_bond_indices": "get_brics_bond_indices",
             "murcko_scaffold_count": "get_murcko_scaffold_count", "murcko_scaffold_indices": "get_murcko_scaffold_indices",
             "murcko_scaffold_value": "get_murcko_scaffold_value"}
#: a molecule no functional group nor reaction template matches: its output gives each key's "nothing found" value
EMPTY = "[Ar]"

#: (what the molecule is there for, SMILES)
CASES: list[tuple[str, str]] = [
    # carbonyls
    ("aldehyde", "CC=O"), ("formaldehyde", "C=O"), ("ketone", "CC(C)=O"), ("carboxylic acid", "CC(=O)O"),
    ("ester", "CCOC(C)=O"), ("amide", "CC(N)=O"), ("lactone", "O=C1CCCO1"), ("lactam", "O=C1CCCCCN1"),
    ("acyl chloride", "CC(Cl)=O"), ("acyl bromide", "CC(Br)=O"), ("acyl fluoride", "CC(F)=O"), ("acyl iodide", "CC(I)=O"),
    ("anhydride", "CC(=O)OC(C)=O"), ("cyclic anhydride", "O=C1CCC(=O)O1"),
    # nitrogen
    ("primary amine", "CCN"), ("secondary amine", "CCNCC"), ("tertiary amine", "CCN(CC)CC"),
    ("quaternary ammonium", "C[N+](C)(C)C"), ("imine", "CC(C)=NC"), ("nitrile", "CC#N"), ("nitro", "C[N+](=O)[O-]"),
    ("nitroso", "O=Nc1ccccc1"), ("azide", "CCN=[N+]=[N-]"), ("hydrazine", "CNN"), ("hydrazone", "CC(C)=NN"),
    ("oxime", "CC(C)=NO"), ("imidic acid: MolecularIQ's oxime pattern", "CC(O)=NC"), ("isocyanate", "CN=C=O"), ("isothiocyanate", "CN=C=S"),
    ("carbodiimide", "C(=NC1CCCCC1)=NC1CCCCC1"), ("urea", "NC(N)=O"), ("thiourea", "NC(N)=S"), ("guanidine", "NC(N)=N"),
    ("sulfonamide nitrogen is not an amine", "CNS(C)(=O)=O"), ("phosphoramide nitrogen", "CN(C)P(=O)(N(C)C)N(C)C"),
    # oxygen
    ("alcohol", "CCO"), ("phenol", "Oc1ccccc1"), ("ether", "CCOCC"), ("aryl ether", "c1ccc(Oc2ccccc2)cc1"),
    ("epoxide", "CC1CO1"), ("peroxide", "CC(C)(C)OOC(C)(C)C"), ("hydroperoxide", "CC(C)(C)OO"), ("enol", "CC(O)=C"),
    ("hemiacetal", "CC(O)OC"), ("hemiketal", "CC(C)(O)OC"), ("acetal", "CC(OC)OC"), ("ketal", "CC(C)(OC)OC"),
    # sulfur
    ("thiol", "CCS"), ("thioether", "CSC"), ("disulfide", "CSSC"), ("sulfoxide", "CS(C)=O"),
    ("sulfoxide, charge-separated", "C[S+](C)[O-]"), ("sulfone", "CS(C)(=O)=O"), ("sulfonic acid", "CS(=O)(=O)O"),
    ("sulfonate anion", "CS(=O)(=O)[O-].[Na+]"), ("sulfonamide", "Nc1ccc(cc1)S(N)(=O)=O"),
    ("sulfonic ester", "COS(C)(=O)=O"), ("thioketone", "CC(C)=S"), ("thioaldehyde", "CC=S"),
    # halogens
    ("alkyl fluoride", "CCF"), ("alkyl chloride", "CCCl"), ("alkyl bromide", "CCBr"), ("alkyl iodide", "CCI"),
    ("aryl fluoride", "Fc1ccccc1"), ("aryl chloride", "Clc1ccccc1"), ("aryl bromide", "Brc1ccccc1"),
    ("aryl iodide", "Ic1ccccc1"), ("vinyl halide", "C=CCl"), ("trifluoromethyl", "FC(F)(F)c1ccccc1"),
    ("perfluoroalkyl", "FC(F)(F)C(F)(F)C(F)(F)C(F)(F)F"),
    # phosphorus
    ("phosphine", "CP(C)C"), ("phosphine oxide", "O=P(c1ccccc1)(c1ccccc1)c1ccccc1"),
    ("phosphonium", "c1ccc(cc1)[P+](c1ccccc1)(c1ccccc1)C"), ("phosphonic acid", "CP(=O)(O)O"),
    ("phosphonate anion", "CP(=O)([O-])[O-]"), ("phosphate", "COP(=O)(OC)OC"), ("phosphonate", "COP(C)(=O)OC"),
    ("phosphoramide", "CP(=O)(N)N"),
    # carbon-carbon multiple bonds
    ("alkene", "C=C"), ("alkyne", "CC#CC"), ("acetylene", "C#C"), ("allene", "C=C=C"), ("aromatic", "c1ccccc1"),
    ("conjugated diene", "C=CC=C"),
    # special features
    ("enamine", "C=CN(C)C"), ("enol ether", "C=COC"), ("ketene", "C=C=O"), ("carbene", "Cl[C]Cl"),
    ("carbene between carbons", "C[C]C"), ("michael acceptor", "C=CC(=O)OC"), ("acrylamide", "C=CC(N)=O"),
    ("alpha-beta unsaturated", "C=CC=O"), ("enone", "CC(=O)C=C"),
    # rings
    ("naphthalene", "c1ccc2ccccc2c1"), ("pyridine", "c1ccncc1"), ("pyrrole", "c1cc[nH]c1"), ("furan", "c1ccoc1"),
    ("thiophene", "c1ccsc1"), ("imidazole", "c1c[nH]cn1"), ("pyrazole", "c1cc[nH]n1"), ("oxazole", "c1cocn1"),
    ("thiazole", "c1cscn1"), ("pyrimidine", "c1cncnc1"), ("indole", "c1ccc2[nH]ccc2c1"), ("quinoline", "c1ccc2ncccc2c1"),
    ("isoquinoline", "c1ccc2cnccc2c1"),
    # carbon substitution and the substituent walkers
    ("methane", "C"), ("ethane", "CC"), ("propane: two ethyls", "CCC"), ("butane", "CCCC"), ("pentane", "CCCCC"),
    ("isobutane", "CC(C)C"), ("neopentane", "CC(C)(C)C"), ("isopentane", "CCC(C)C"), ("3-methylpentane", "CCC(C)CC"),
    ("3-methylpentane, other order", "C(C)C(CC)C"), ("2-methylbutane, methyl last", "C(C(C)CC)"),
    ("sec-butyl centre after a methyl", "CC(C)CC"), ("sec-butyl centre first", "C(C)(C)CC"),
    ("ethylbenzene", "CCc1ccccc1"), ("propylbenzene", "CCCc1ccccc1"), ("butylbenzene", "CCCCc1ccccc1"),
    ("cumene", "CC(C)c1ccccc1"), ("isobutylbenzene", "CC(C)Cc1ccccc1"), ("sec-butylbenzene", "CCC(C)c1ccccc1"),
    ("sec-butylbenzene, methyl last", "c1ccccc1C(CC)C"), ("tert-butylbenzene", "CC(C)(C)c1ccccc1"),
    ("tert-butanol", "CC(C)(C)O"), ("2-butanol", "CCC(C)O"), ("sec-butyl amine", "CCC(C)N"),
    ("ethyl on a ring", "CCC1CCCCC1"), ("ethyl on a double bond", "CCC=C"), ("ethyl on a branch", "CCC(C)(C)O"),
    ("ethyl ether", "CCOC"), ("diethyl ketone", "CCC(=O)CC"), ("isopropyl ether", "CC(C)OC(C)C"),
    ("isobutyl alcohol", "CC(C)CO"), ("2,4-dimethylpentane: two isobutyls on one CH2", "CC(C)CC(C)C"),
    ("allylbenzene", "C=CCc1ccccc1"), ("allyl alcohol", "C=CCO"), ("allyl amine, two allyls", "C=CCNCC=C"),
    ("internal alkene is not allyl", "CC=CCO"), ("propargyl alcohol", "C#CCO"), ("propargyl benzene", "C#CCc1ccccc1"),
    ("internal alkyne is not propargyl", "CC#CCO"), ("toluene: a methyl is a benzyl", "Cc1ccccc1"),
    ("benzyl alcohol", "OCc1ccccc1"), ("diphenylmethane", "c1ccc(Cc2ccccc2)cc1"), ("benzyl on pyridine", "CCc1ccncc1"),
    ("deuterated ethyl: deuteriums are neighbours", "[2H]C([2H])([2H])CO"),
    ("deuterated methylene", "CC([2H])([2H])c1ccccc1"), ("tritium", "[3H]C([3H])([3H])C([3H])([3H])C"),
    ("methyl radical", "[CH3]"), ("ethyl radical", "[CH2]C"), ("isopropyl radical", "C[CH]C"),
    ("deuterated tert-butyl", "[2H]C([2H])([2H])C(C)(C)O"),
    ("cyclopropylmethyl", "CC1CC1"), ("tert-butyl with a charged anchor", "CC(C)(C)[N+](C)(C)C"),
    ("di-tert-butyl", "CC(C)(C)CC(C)(C)C"), ("valine", "CC(C)[C@H](N)C(=O)O"), ("leucine", "CC(C)C[C@H](N)C(=O)O"),
    ("isoleucine", "CC[C@H](C)[C@H](N)C(=O)O"), ("alanine", "C[C@@H](N)C(=O)O"),
    # protecting groups and other groups
    ("boc", "CC(C)(C)OC(=O)NCC(=O)O"), ("cbz", "O=C(NCC(=O)O)OCc1ccccc1"), ("fmoc", "O=C(NCC(=O)O)OCC1c2ccccc2-c2ccccc21"),
    ("fmoc pattern's shape", "C1c2ccccc2Cc2c1cccc2OC(=O)N"), ("tosyl chloride", "Cc1ccc(cc1)S(=O)(=O)Cl"),
    ("mesyl chloride", "CS(=O)(=O)Cl"), ("methyl triflate", "COS(=O)(=O)C(F)(F)F"), ("carbonate", "COC(=O)OC"),
    ("carbamate", "COC(N)=O"), ("thioester", "CSC(C)=O"), ("imide", "O=C1CCC(=O)N1"), ("isonitrile", "C[N+]#[C-]"),
    ("pyridine n-oxide", "[O-][n+]1ccccc1"), ("amine n-oxide", "C[N+](C)(C)[O-]"), ("hydroxylamine", "CNO"),
    ("diazo", "C=[N+]=[N-]"), ("diazo ester", "CCOC(=O)C=[N+]=[N-]"), ("nitrone", "C=[N+](C)[O-]"),
    ("aziridine", "C1CN1"),
    ("silyl ether", "CO[Si](C)(C)C"), ("silane", "C[Si](C)(C)C"), ("silyl enol ether", "C=C(C)O[Si](C)(C)C"),
    ("boronic acid", "OB(O)c1ccccc1"), ("boronic ester", "CC1(C)OB(c2ccccc2)OC1(C)C"), ("borate", "COB(OC)OC"),
    ("orthoester", "CC(OC)(OC)OC"), ("vinyl ether", "CCOC=C"),
    # reaction templates
    ("secondary alcohol", "CC(O)C"), ("nitroarene", "O=[N+]([O-])c1ccccc1"), ("imine to reduce", "CN=C(C)C"),
    ("secondary amide", "CC(=O)NC"), ("dehydration of an alcohol", "CC(C)C(O)C(C)C"),
    ("dehydrohalogenation", "CC(C)C(Br)C(C)C"), ("oxime to rearrange", "CC(=NO)c1ccccc1"),
    ("boc deprotection", "CC(C)(C)OC(=O)NCc1ccccc1"), ("acetate", "CC(=O)OCc1ccccc1"), ("aniline", "Nc1ccccc1"),
    ("benzylic alcohol", "OCc1ccc(C)cc1"), ("alkyl azide", "CCCN=[N+]=[N-]"), ("acid chloride", "CCC(=O)Cl"),
    ("terminal alkene", "CCC=C"), ("stilbene", "C(=C/c1ccccc1)\\c1ccccc1"), ("cyclohexene", "C1=CCCCC1"),
    ("epoxide of cyclohexene", "C1CCC2OC2C1"), ("diol", "OCCCCO"), ("haloalkane chain", "ClCCCCBr"),
    ("nitrile on a ring", "N#CC1CCCCC1"), ("keto acid", "CC(=O)CCC(=O)O"), ("hydroxy aldehyde", "OCC(O)C=O"),
    # stereo, charges, salts, fragments, isotopes, unusual atoms
    ("E alkene", "C/C=C/C"), ("Z alkene", "C/C=C\\C"), ("E difluoroethene", "F/C=C/F"),
    ("glucose", "OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O"), ("13C label", "[13CH3]CO"), ("acetate salt", "CC(=O)[O-].[Na+]"),
    ("hydrochloride", "Cl.NCCc1ccccc1"), ("table salt", "[Na+].[Cl-]"), ("iron ion", "[Fe+2]"), ("water", "O"),
    ("hydrogen", "[H][H]"), ("two fragments", "CC.O"), ("three ring fragments", "c1ccccc1.C1CCCCC1.c1ccncc1"),
    ("ferrocene", "[cH-]1cccc1.[cH-]1cccc1.[Fe+2]"), ("cisplatin", "N.N.Cl[Pt]Cl"), ("dummy atom", "*CC(=O)O"),
    ("mapped dummy atom", "[*:1]c1ccccc1"), ("ammonium salt", "C[N+](C)(C)C.[Br-]"), ("zwitterion", "[NH3+]CC(=O)[O-]"),
    ("selenium", "C[Se]c1ccccc1"), ("tin", "CCCC[Sn](CCCC)(CCCC)Cl"), ("argon", "[Ar]"),
    # rings for BRICS and Murcko
    ("spiro", "C1CCC2(CC1)CCCC2"), ("norbornane", "C1CC2CCC1C2"), ("adamantane", "C1C2CC3CC1CC(C2)C3"),
    ("cubane", "C12C3C4C1C5C2C3C45"), ("18-crown-6", "C1COCCOCCOCCOCCOCCO1"), ("biphenyl", "c1ccc(-c2ccccc2)cc1"),
    ("cyclohexanone", "O=C1CCCCC1"), ("methylenecyclohexane", "C=C1CCCCC1"), ("coronene",
                                                                          "c1cc2ccc3ccc4ccc5ccc6ccc1c1c2c3c4c5c61"),
    ("long chain", "C" * 40), ("beta-carotene", "CC1=C(C(C)(C)CCC1)/C=C/C(C)=C/C=C/C(C)=C/C=C/C=C(C)/C=C/C=C(C)/C=C/C1=C(C)CCCC1(C)C"),
    ("triphenylmethane", "c1ccc(cc1)C(c1ccccc1)c1ccccc1"),
    # drug-like molecules
    ("aspirin", "CC(=O)Oc1ccccc1C(=O)O"), ("ibuprofen", "CC(C)Cc1ccc(cc1)C(C)C(=O)O"),
    ("caffeine", "Cn1cnc2c1c(=O)n(C)c(=O)n2C"), ("paracetamol", "CC(=O)Nc1ccc(O)cc1"),
    ("penicillin G", "CC1(C)S[C@@H]2[C@H](NC(=O)Cc3ccccc3)C(=O)N2[C@H]1C(=O)O"),
    ("morphine", "CN1CC[C@]23c4c5ccc(O)c4O[C@H]2[C@@H](O)C=C[C@H]3[C@H]1C5"),
    ("atorvastatin", "CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O"),
    ("imatinib", "Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1"),
    ("sildenafil", "CCCc1nn(C)c2c(=O)[nH]c(-c3cc(S(=O)(=O)N4CCN(C)CC4)ccc3OCC)nc12"),
    ("diazepam", "CN1C(=O)CN=C(c2ccccc2)c2cc(Cl)ccc21"), ("ciprofloxacin", "OC(=O)c1cn(C2CC2)c2cc(N3CCNCC3)c(F)cc2c1=O"),
    ("omeprazole", "COc1ccc2[nH]c([S+]([O-])Cc3ncc(C)c(OC)c3C)nc2c1"), ("metformin", "CN(C)C(=N)N=C(N)N"),
    ("nicotine", "CN1CCC[C@H]1c1cccnc1"), ("cholesterol", "CC(C)CCC[C@@H](C)[C@H]1CC[C@H]2[C@@H]3CC=C4C[C@@H](O)CC[C@]4(C)[C@H]3CC[C@]12C"),
    ("oseltamivir", "CCOC(=O)C1=C[C@@H](OC(CC)CC)[C@H](NC(C)=O)[C@@H](N)C1"),
    ("lisinopril", "NCCCC[C@H](N[C@@H](CCc1ccccc1)C(=O)O)C(=O)N1CCC[C@H]1C(=O)O"),
    ("tamoxifen", "CC/C(=C(\\c1ccccc1)c1ccc(OCCN(C)C)cc1)c1ccccc1"), ("fluoxetine", "CNCCC(Oc1ccc(cc1)C(F)(F)F)c1ccccc1"),
    ("sucrose", "OC[C@H]1O[C@@](CO)(O[C@H]2O[C@H](CO)[C@@H](O)[C@H](O)[C@H]2O)[C@@H](O)[C@@H]1O"),
    ("testosterone", "C[C@]12CC[C@H]3[C@@H](CCC4=CC(=O)CC[C@@]34C)[C@@H]1CC[C@@H]2O"),
    ("warfarin", "CC(=O)CC(c1ccccc1)c1c(O)c2ccccc2oc1=O"), ("propofol", "CC(C)c1cccc(C(C)C)c1O"),
    ("BHT", "Cc1cc(C(C)(C)C)c(O)c(C(C)(C)C)c1"), ("captopril", "C[C@H](CS)C(=O)N1CCC[C@H]1C(=O)O"),
    ("clopidogrel", "COC(=O)[C@H](c1ccccc1Cl)N1CCc2sccc2C1"), ("vitamin C", "OC[C@H](O)[C@H]1OC(=O)C(O)=C1O"),
    # SMILES RDKit cannot read, and texts that are barely SMILES
    ("empty text", ""), ("unclosed ring", "C1CC"), ("prose", "not a smiles"), ("cannot kekulize", "c1cccc1"),
    ("unknown element", "[Xx]"), ("six bonds on carbon", "CC(C)(C)(C)(C)C"), ("pentavalent nitrogen", "CN(=O)=O"),
    ("leading space", " CCO"), ("a name after the SMILES", "CCO ethanol"), ("newline", "CCO\n"),
    ("unbalanced parenthesis", "CC(C"), ("only a dot", "."),
]

#: drug-like molecules also written in other atom orders (the indices follow the order)
REORDERED = ["aspirin", "ibuprofen", "sec-butylbenzene", "3-methylpentane", "2,4-dimethylpentane: two isobutyls on one CH2",
             "leucine", "isoleucine", "valine", "penicillin G", "atorvastatin", "imatinib", "sildenafil", "diazepam",
             "ciprofloxacin", "cholesterol", "oseltamivir", "lisinopril", "tamoxifen", "fluoxetine", "BHT", "propofol",
             "allylbenzene", "propargyl benzene", "boc", "morphine", "testosterone", "warfarin", "clopidogrel",
             "beta-carotene", "tert-butylbenzene"]
ORDERS = 2

#: inputs that are not text, by the name the recording lists them under
NOT_TEXT: dict[str, Any] = {"None": None, "int": 42, "list": ["CCO"]}


def write_gzip_json(path: Path, data: Any) -> None:
    """``data`` as JSON, one molecule a line, gzip-compressed (no time stamp, so a new recording of the same
    outputs gives the same bytes)."""
    head = {k: v for k, v in data.items() if k != "molecules"}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ', "molecules": [']
    lines += [json.dumps(m, ensure_ascii=False) + "," for m in data["molecules"]]
    lines[-1] = lines[-1][:-1]
    text = "\n".join(lines) + "\n]}\n"
    assert json.loads(text) == json.loads(json.dumps(data))
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb", mtime=0) as fh:
        fh.write(text.encode("utf-8"))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def solver() -> Any:
    from opencompass.datasets.moleculariq.moleculariq_core.solver import SymbolicSolver

    return SymbolicSolver()


def write_tables(symbolic: Any) -> None:
    """The SMARTS and reaction templates as the solver loaded them, with the rank, category and description their
    files give each (read from the files' lines the solver read them from)."""
    fg, rx = symbolic.functional_group_solver, symbolic.reaction_solver
    ranks = {}
    for line in Path(fg.config.smarts_patterns_path).read_text(encoding="utf-8").splitlines():
        parts = line.strip().split(":")
        if line.strip() and not line.strip().startswith("#") and len(parts) >= 3:
            ranks[parts[0].strip()] = int(parts[1])
    notes = {}
    for line in Path(rx.config.reaction_templates_path).read_text(encoding="utf-8").splitlines():
        parts = line.strip().split(";")
        if line.strip() and not line.strip().startswith("#") and len(parts) >= 4:
            notes[parts[0]] = {"category": parts[1], "description": parts[3].strip()}
    assert list(fg.compiled_patterns) == list(fg.smarts_patterns), "a functional group's SMARTS did not compile"
    assert list(rx.compiled_templates) == list(rx.templates) == list(rx.compiled_center_patterns)
    version = importlib.metadata.version("opencompass")
    write_json(SRC / "moleculariq_smarts.json", {
        "source": f"MolecularIQ's smarts_functional_groups.txt (name:rank:SMARTS) as OpenCompass {version} ships and reads it; "
                  "the solver ranks nothing, every group is searched",
        "rows": [{"name": name, "rank": ranks[name], "smarts": smarts} for name, smarts in fg.smarts_patterns.items()]})
    write_json(SRC / "moleculariq_reactions.json", {
        "source": f"MolecularIQ's reaction_templates.txt (name;category;SMIRKS;description) as OpenCompass {version} "
                  "ships and reads it",
        "rows": [{"name": name, "smirks": smirks, **notes[name]} for name, smirks in rx.templates.items()]})


def outputs(symbolic: Any, smiles: str) -> dict[str, Any]:
    return {name: getattr(symbolic, method)(smiles) for name, method in FUNCTIONS.items()}


def sparse(full: dict[str, Any], empty: dict[str, Any]) -> dict[str, Any]:
    """The entries of a function's dict output that differ from the empty molecule's, or the whole output when its
    keys are not the empty molecule's."""
    if list(full) != list(empty):
        return {"whole": full}
    return {"differs": {k: v for k, v in full.items() if v != empty[k]}}


def record_molecules(symbolic: Any, molecules: list[dict[str, Any]], empty: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for molecule in molecules:
        out = outputs(symbolic, molecule["smiles"])
        for name in ("functional_group_data", "reaction_data"):
            out[name] = sparse(out[name], empty[name])
        rows.append({**molecule, **out})
    return json.loads(json.dumps(rows))


def reordered(smiles: str, n: int, seed: int) -> list[str]:
    from rdkit import Chem

    mol = Chem.MolFromSmiles(smiles)
    return [s for s in Chem.MolToRandomSmilesVect(mol, n, randomSeed=seed) if s != smiles]


def nci_sample() -> list[str]:
    from rdkit import RDConfig

    lines = Path(RDConfig.RDDataDir, "NCI", "first_5K.smi").read_text(encoding="utf-8").splitlines()
    return [line.split()[0] for line in lines[::6] if line.strip()]


def coverage(rows: list[dict[str, Any]], empty: dict[str, Any]) -> None:
    """Print the functional groups and templates no molecule of the recording reaches."""
    for name in ("functional_group_data", "reaction_data"):
        hit = {k for row in rows if "differs" in row[name] for k in row[name]["differs"]}
        missed = [k for k in empty[name] if k not in hit and not k.endswith(("_index", "_products"))]
        print(f"{name}: {len(empty[name]) - len(missed)} keys reached, never: {missed}", file=sys.stderr)


def main() -> None:
    from rdkit import RDLogger

    rdkit_log: Any = RDLogger  # a compiled module the type stubs do not list
    rdkit_log.DisableLog("rdApp.*")
    symbolic = solver()
    write_tables(symbolic)
    empty = outputs(symbolic, EMPTY)
    assert all(not v for v in empty["functional_group_data"].values()), f"{EMPTY} has a functional group"
    labels = dict(CASES)
    assert len(labels) == len(CASES), "a purpose is listed twice"
    molecules = [{"label": label, "smiles": smiles} for label, smiles in CASES]
    for i, label in enumerate(REORDERED):
        molecules += [{"label": f"{label}, atom order {j + 1}", "smiles": s}
                      for j, s in enumerate(reordered(labels[label], ORDERS, seed=1000 + i))]
    cases = record_molecules(symbolic, molecules, empty)
    not_text = []
    for label, value in NOT_TEXT.items():
        for name, method in FUNCTIONS.items():
            try:
                getattr(symbolic, method)(value)
            except Exception as exc:  # recorded as OpenCompass fails
                not_text.append({"input": label, "function": name, "raises": type(exc).__name__})
            else:
                raise SystemExit(f"{method}({value!r}) did not raise; it is listed as failing")
    version = importlib.metadata.version("opencompass")
    write_gzip_json(DATA / "cases.json.gz", {"opencompass": version, "empty": {"smiles": EMPTY, **{k: empty[k] for k in FUNCTIONS}},
                                             "molecules": cases, "not_text": not_text})
    corpus = record_molecules(symbolic, [{"smiles": s} for s in nci_sample()], empty)
    write_gzip_json(DATA / "corpus.json.gz", {"opencompass": version, "source": "every sixth molecule of RDKit's "
                                              "Data/NCI/first_5K.smi", "molecules": corpus})
    coverage(cases + corpus, empty)
    print(f"wrote {len(cases)} cases and {len(corpus)} corpus molecules under {DATA.relative_to(REPO)}", file=sys.stderr)


if __name__ == "__main__":
    main()

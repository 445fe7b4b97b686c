"""S²-TOMG-Bench's evaluator, as OpenCompass 0.5.4 computes it (``S2TOMGBenchEvaluator``).

Each reply is read as a SMILES string and parsed with RDKit (``rdkit``, in the
optional extra ``chem``; imported when scoring), then checked against its
task: the atom, bond or functional-group counts a ``MolCustom`` task asks for,
the functional group a ``MolEdit`` task adds or removes, or the property
(Crippen's logP or molar refractivity, QED) a ``MolOpt`` task raises or lowers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from assay.datasets.s2_tomg_bench import ATOM_COLUMNS, BOND_COLUMNS, FUNCTIONAL_GROUP_COLUMNS
from assay.evaluate.base import BaseEvaluator
from assay.registry import ICL_EVALUATORS

__all__ = ["S2TOMGBenchEvaluator", "read_smiles"]

MAX_SMILES_CHARS = 2048
RDKIT_MISSING = "RDKit is not installed (pip install rdkit, or pip install 'assay[chem]')"
_ATOM_NAMES = {"C": "carbon", "O": "oxygen", "N": "nitrogen", "S": "sulfur", "F": "fluorine", "Cl": "chlorine",
               "Br": "bromine", "I": "iodine", "P": "phosphorus", "B": "boron", "Si": "silicon", "Se": "selenium",
               "Te": "tellurium", "As": "arsenic", "Sb": "antimony", "Bi": "bismuth", "Po": "polonium"}
FUNCTIONAL_GROUP_SMARTS = {
    "benzene_ring": "[cR1]1[cR1][cR1][cR1][cR1][cR1]1", "hydroxyl": "[OX2H]",
    "anhydride": "[CX3](=[OX1])[OX2][CX3](=[OX1])", "aldehyde": "[CX3H1](=O)[#6]", "ketone": "[#6][CX3](=[OX1])[#6]",
    "carboxyl": "[CX3](=O)[OX2H1]", "ester": "[#6][CX3](=O)[OX2H0][#6]", "amide": "[NX3][CX3](=[OX1])[#6]",
    "amine": "[NX3;H2,H1;!$(NC=O)]", "nitro": "[$([NX3](=O)=O),$([NX3+](=O)[O-])][!#8]", "halo": "[F,Cl,Br,I]",
    "thioether": "[SX2][CX4]", "nitrile": "[NX1]#[CX2]", "thiol": "[#16X2H]", "sulfide": "[#16X2H0]",
    "disulfide": "[#16X2H0][#16X2H0]", "sulfoxide": "[$([#16X3]=[OX1]),$([#16X3+][OX1-])]",
    "sulfone": "[$([#16X4](=[OX1])=[OX1]),$([#16X4+2]([OX1-])[OX1-])]", "borane": "[BX3]",
}
_BRACED = re.compile(r"\{.*?\}", re.DOTALL)


def _candidate(text: str) -> str:
    """The SMILES a reply gives before parsing, as OpenCompass reads it (``'None'`` where its reading fails)."""
    try:
        braced = _BRACED.search(text)
        if braced:
            raw = braced.group().replace('""', '"')
            try:
                data = json.loads(raw)
                candidate = data.get("molecule", raw)
            except Exception:  # not JSON: the text after the first ':' of the braces
                candidate = raw.split(":")[1].strip().strip("}").strip().strip('"').strip()
            for sep in ("=>", "->"):
                if sep in candidate:
                    candidate = candidate.split(sep)[-1].strip()
            return candidate.strip()
        candidate = text.replace("\n", " ").strip()
        for sep in ("=>", "->"):
            if sep in candidate:
                candidate = candidate.split(sep)[-1].strip()
        if len(candidate) >= 2 and candidate[0] == "[" and candidate[-1] == "]":
            candidate = candidate[1:-1]
        return candidate
    except Exception:  # a "molecule" that is not text, braces without ':' …: OpenCompass reads 'None'
        return "None"


@contextmanager
def _quiet() -> Iterator[Any]:
    from rdkit import Chem, RDLogger

    logger: Any = RDLogger  # its functions come from a compiled module the type stubs do not list
    logger.DisableLog("rdApp.error")
    try:
        yield Chem
    finally:
        logger.EnableLog("rdApp.error")


def _mol(smiles: Any) -> Any:
    if not smiles or len(smiles) > MAX_SMILES_CHARS:
        return None
    with _quiet() as chem:
        return chem.MolFromSmiles(smiles)


def read_smiles(reply: Any) -> str | None:
    """The reply's SMILES when RDKit parses it, else ``None`` (a list reply: its first item).

    The first ``{…}`` read as JSON gives its ``molecule`` (else the text after its
    first ``:``); without braces, the reply on one line, less enclosing ``[ ]``.
    The part after the last ``=>`` or ``->`` is kept.  Longer than 2048
    characters, empty or unparsable gives ``None``.

    >>> read_smiles('Here: {"molecule": "CCO"}'), read_smiles('CC(=O)O -> c1ccccc1O'), read_smiles('not one')
    ('CCO', 'c1ccccc1O', None)
    """
    if isinstance(reply, list) and reply:
        reply = reply[0]
    if not isinstance(reply, str):
        return None
    candidate = _candidate(reply)
    if not candidate or len(candidate) > MAX_SMILES_CHARS:
        return None
    return candidate.strip() if _mol(candidate) is not None else None


@lru_cache(maxsize=1)
def _patterns() -> dict[str, Any]:
    from rdkit import Chem

    return {name: Chem.MolFromSmarts(smarts) for name, smarts in FUNCTIONAL_GROUP_SMARTS.items()}


def _atom_counts(mol: Any) -> dict[str, int]:
    counts = dict.fromkeys(ATOM_COLUMNS, 0)
    for atom in mol.GetAtoms():
        name = _ATOM_NAMES.get(atom.GetSymbol())
        if name:
            counts[name] += 1
    return counts


def _bond_counts(mol: Any) -> dict[str, int]:
    from rdkit import Chem
    from rdkit.Chem import rdMolDescriptors

    counts = dict.fromkeys(BOND_COLUMNS, 0)
    kinds = {Chem.rdchem.BondType.SINGLE: "single", Chem.rdchem.BondType.DOUBLE: "double",
             Chem.rdchem.BondType.TRIPLE: "triple"}
    for bond in mol.GetBonds():
        kind = kinds.get(bond.GetBondType())
        if kind:
            counts[kind] += 1
        if bond.GetIsAromatic():
            counts["aromatic"] += 1
    counts["rotatable"] = int(rdMolDescriptors.CalcNumRotatableBonds(mol))
    return counts


def _group_counts(mol: Any) -> dict[str, int]:
    counts = dict.fromkeys(FUNCTIONAL_GROUP_COLUMNS, 0)
    if mol is None:
        return counts
    for name, pattern in _patterns().items():
        if pattern is not None:
            counts[name] = len({tuple(m) for m in mol.GetSubstructMatches(pattern)})
    counts["sulfide"] = max(0, counts["sulfide"] - counts["disulfide"])
    return counts


def _similarity(pred: Any, source: Any) -> float:
    if pred is None or source is None:
        return 0.0
    from rdkit.Chem import DataStructs
    from rdkit.Chem.rdFingerprintGenerator import GetMorganGenerator

    generator = GetMorganGenerator(radius=2, fpSize=2048)
    return float(DataStructs.TanimotoSimilarity(generator.GetFingerprint(pred), generator.GetFingerprint(source)))


def _property(mol: Any, name: str) -> float:
    if mol is None:
        return 0.0
    from rdkit.Chem import QED, Crippen

    crippen: Any = Crippen  # compiled functions the type stubs do not list
    if name == "LogP":
        return float(crippen.MolLogP(mol))
    if name == "MR":
        return float(crippen.MolMR(mol))
    if name == "QED":
        return float(QED.qed(mol))
    raise ValueError(f"unsupported property {name!r}")


def _custom(mol: Any, subtask: str, constraints: Mapping[str, Any]) -> tuple[bool, dict[str, int]]:
    if subtask == "AtomNum":
        observed = _atom_counts(mol)
        return all(observed.get(k, 0) == v for k, v in constraints.items()), observed
    if subtask == "BondNum":
        observed = _bond_counts(mol)
        return all(v == 0 or observed.get(k, 0) == v for k, v in constraints.items()), observed
    if subtask == "FunctionalGroup":
        observed = _group_counts(mol)
        return all(k == "thioether" or observed.get(k, 0) == v for k, v in constraints.items()), observed
    raise ValueError(f"unsupported MolCustom subtask {subtask!r}")


def _edit(mol: Any, source: Any, subtask: str, ref: Mapping[str, Any]) -> tuple[bool, dict[str, Any]]:
    pred_counts, source_counts = _group_counts(mol), _group_counts(source)
    added, removed = ref.get("added_group"), ref.get("removed_group")
    added_ok = not added or pred_counts.get(added.replace(" ", "_"), 0) == source_counts.get(added.replace(" ", "_"), 0) + 1
    removed_ok = (not removed
                  or pred_counts.get(removed.replace(" ", "_"), 0) == source_counts.get(removed.replace(" ", "_"), 0) - 1)
    outcomes = {"AddComponent": added_ok, "DelComponent": removed_ok, "SubComponent": added_ok and removed_ok}
    if subtask not in outcomes:
        raise ValueError(f"unsupported MolEdit subtask {subtask!r}")
    return outcomes[subtask], {"pred_counts": pred_counts, "source_counts": source_counts}


def _score_one(mol: Any, ref: Mapping[str, Any]) -> tuple[bool, float, float | None, dict[str, Any]]:
    if mol is None:
        return False, 0.0, None, {"reason": "invalid_smiles"}
    family, subtask = ref["task_family"], ref["subtask"]
    if family == "MolCustom":
        success, observed = _custom(mol, subtask, ref["constraints"])
        return success, 1.0 if success else 0.0, None, {"observed": observed, "novelty_reference": "missing"}
    source = _mol(ref.get("source_molecule"))
    similarity = _similarity(mol, source)
    if family == "MolEdit":
        success, observed = _edit(mol, source, subtask, ref)
        return success, similarity if success else 0.0, similarity, {"observed": observed}
    if family == "MolOpt":
        name = ref["property_name"]
        value = _property(mol, name)
        source_value = ref.get("source_property")
        if source_value is None and source is not None:
            source_value = _property(source, name)
        if source_value is None:
            raise ValueError("has no source_property and its source_molecule does not parse")
        increase = bool(ref.get("increase", True))
        success = value > source_value if increase else value < source_value
        return success, similarity if success else 0.0, similarity, {
            "pred_property": value, "source_property": source_value, "increase": increase}
    raise ValueError(f"unsupported task family {family!r}")


@ICL_EVALUATORS.register_module()
class S2TOMGBenchEvaluator(BaseEvaluator):
    """S²-TOMG-Bench: replies read with :func:`read_smiles`, checked against their task (see the module).

    ``MolCustom``: every target count met (``BondNum``: a target of 0 is not
    checked; ``FunctionalGroup``: ``thioether`` is not checked), weight 1.
    ``MolEdit``: the added group one more than in the source molecule, the removed
    one one fewer (``SubComponent``: both), weight the Morgan-fingerprint Tanimoto
    similarity to the source (radius 2, 2048 bits).  ``MolOpt``: the property above
    the source's (below when the instruction says lower or decrease), weight the
    similarity.  Metrics (percent): ``score`` and ``weighted_success_rate`` (the mean
    weight), ``success_rate``, ``validity`` (replies RDKit parses) and, when an edit or
    optimisation reply parsed, ``similarity`` (its mean).  Details as OpenCompass
    writes them: ``prediction``, ``smiles``, ``valid``, ``success``, ``weight``,
    ``similarity``, ``reference`` and what the check observed.  A reference that is
    not a task of the benchmark gives an error record naming the sample.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: RDKit when it is missing."""
        import importlib.util

        return [RDKIT_MISSING] if importlib.util.find_spec("rdkit") is None else []

    def score(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        name = type(self).__name__
        if predictions is None or references is None or len(predictions) != len(references):
            return {"error": f"{name}: predictions and references have different length"}
        if not predictions:
            return {"error": f"{name}: no samples to score"}
        try:
            import rdkit  # noqa: F401
        except ImportError:
            return {"error": f"{name}: {RDKIT_MISSING}"}
        details = []
        valid = 0
        successes = weights = 0.0
        similarities: list[float] = []
        for i, (reply, ref) in enumerate(zip(predictions, references)):
            smiles = read_smiles(reply)
            mol = _mol(smiles)
            valid += mol is not None
            try:
                if not isinstance(ref, Mapping):
                    raise ValueError("is not a mapping")
                success, weight, similarity, extra = _score_one(mol, ref)
            except (KeyError, ValueError) as exc:
                return {"error": f"{name}: reference {i} {exc}: {ref!r:.120}"}
            successes += 1.0 if success else 0.0
            weights += weight
            if similarity is not None:
                similarities.append(similarity)
            details.append({"prediction": reply, "smiles": smiles, "valid": int(mol is not None), "success": int(success),
                            "weight": weight, "similarity": similarity, "reference": ref, **extra})
        n = len(predictions)
        result: dict[str, Any] = {"score": weights / n * 100, "success_rate": successes / n * 100,
                                  "validity": valid / n * 100, "weighted_success_rate": weights / n * 100}
        if similarities:
            result["similarity"] = sum(similarities) / len(similarities) * 100
        result["details"] = details
        return result

"""MolecularIQ's functional groups, reaction templates, BRICS fragments and Murcko scaffolds, as OpenCompass 0.5.4's
copy of MolecularIQ's symbolic solver computes them.

The generation evaluator checks constraints such as "two ester groups", "the alkene can be hydrogenated" or "a
Murcko scaffold of 10 atoms" on a generated molecule with these functions.  Their return values are the solver's,
key for key and in the same order:

- :func:`functional_group_data`: for each of MolecularIQ's 135 functional groups (``moleculariq_smarts.json`` beside
  this module, one SMARTS pattern each, in MolecularIQ's order), how many atoms its matches cover, those atoms'
  indices, and how many matches there are.  Eight substituents (ethyl, allyl, propargyl, benzyl, isopropyl,
  isobutyl, sec-butyl, tert-butyl) are found by walking the molecule's atoms instead of by their pattern.
- :func:`reaction_data`: for each of MolecularIQ's 58 single-reactant templates (``moleculariq_reactions.json``),
  how many times its reactant side matches, the atoms it covers, whether RDKit's reaction runs on the molecule, and
  the products' SMILES.
- :func:`brics_fragment_count`, :func:`brics_bond_indices`: RDKit's BRICS decomposition.
- :func:`murcko_scaffold_count`, :func:`murcko_scaffold_indices`, :func:`murcko_scaffold_value`: RDKit's
  Bemis-Murcko scaffold.

A SMILES RDKit cannot read gives zeros and empty lists, as in MolecularIQ.  MolecularIQ's quirks are kept:

- an unreadable SMILES's functional-group data has one entry per group name (``{"indices": [], "count": 0,
  "instances": 0}``), not the ``functional_group_<name>_count/_index/_nbrInstances`` keys of a readable one;
- a group's ``_count`` is the number of distinct atoms its matches cover, not the number of matches (that is
  ``_nbrInstances``);
- the substituent walkers count more than their names say: the ethyl walker finds two ethyls in propane (each
  methyl with its CH2, the other methyl being an acceptable anchor), and the benzyl walker counts a methyl on an
  aromatic carbon (toluene's);
- the sec-butyl walker looks only at the last methyl and the last other carbon among the centre's neighbours (in
  RDKit's neighbour order), so which methyl it reports, and whether it finds the group, follow the atom order;
- three patterns miss their namesakes: ``oxime`` (``[NX2]=[CX3][OX2H]``) finds imidic acids (``CC(O)=NC``), not
  oximes (``CC(C)=NO``); ``isoquinoline`` (``c1nc2ccccc2cc1``) finds quinoline, not isoquinoline; ``fmoc`` finds no
  Fmoc-protected amine (its pattern puts the carbamate on a ring carbon);
- the Murcko indices are the first substructure match of the scaffold in the molecule, not necessarily the atoms
  the scaffold was cut from.

RDKit is imported when a function first runs (``pip install rdkit``, or ``assay[chem]``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from assay.errors import EvaluationError

__all__ = ["brics_bond_indices", "brics_fragment_count", "functional_group_data", "functional_group_names",
           "murcko_scaffold_count", "murcko_scaffold_indices", "murcko_scaffold_value", "reaction_data",
           "reaction_template_names"]

logger = logging.getLogger(__name__)

RDKIT_MISSING = "RDKit is not installed (pip install rdkit, or pip install 'assay[chem]')"
_HERE = Path(__file__).parent
_REACTION = "template_based_reaction_prediction_"


# -- RDKit ---------------------------------------------------------------------------------------------------------

@contextmanager
def _quiet() -> Iterator[Any]:
    """RDKit's ``Chem`` with RDKit's log blocked meanwhile (unreadable SMILES, reaction templates' unmapped atoms)."""
    try:
        from rdkit import Chem, rdBase
    except ImportError:
        raise EvaluationError(RDKIT_MISSING) from None
    base: Any = rdBase  # a compiled module the type stubs do not list
    block = base.BlockLogs()
    try:
        yield Chem
    finally:
        del block


def _mol(function: str, smiles: Any) -> Any:
    """The molecule RDKit reads from ``smiles`` (``None`` when it cannot)."""
    if not isinstance(smiles, str | bytes):
        raise EvaluationError(f"MolecularIQ's {function}: a SMILES must be text, got {smiles!r:.80} "
                              f"({type(smiles).__name__})")
    with _quiet() as chem:
        return chem.MolFromSmiles(smiles)


# -- functional groups ---------------------------------------------------------------------------------------------

def _table(name: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads((_HERE / name).read_text(encoding="utf-8"))["rows"]
    return rows


@cache
def functional_group_names() -> tuple[str, ...]:
    """MolecularIQ's functional groups, in its order (the order of :func:`functional_group_data`'s keys).

    >>> names = functional_group_names()
    >>> len(names), names[:3], 'tert_butyl' in names
    (135, ('aldehyde', 'ketone', 'carboxylic_acid'), True)
    """
    return tuple(row["name"] for row in _table("moleculariq_smarts.json"))


@cache
def _group_patterns() -> dict[str, list[Any]]:
    """Each group's compiled pattern (an empty list when RDKit cannot read its SMARTS: the group then never
    matches, as in MolecularIQ, and a warning says so)."""
    patterns: dict[str, list[Any]] = {}
    with _quiet() as chem:
        for row in _table("moleculariq_smarts.json"):
            query = chem.MolFromSmarts(row["smarts"])
            if query is None:
                logger.warning("MolecularIQ's functional group %s: RDKit cannot read its SMARTS %r; it never matches",
                               row["name"], row["smarts"])
            patterns[row["name"]] = [] if query is None else [query]
    return patterns


def _is_methyl(atom: Any) -> bool:
    """A carbon with one neighbour (hydrogens written as atoms included) and at least three hydrogens."""
    return bool(atom.GetSymbol() == "C" and atom.GetDegree() == 1 and atom.GetTotalNumHs() >= 3)


def _sp3_carbon(atom: Any, chem: Any) -> bool:
    return bool(atom.GetSymbol() == "C" and atom.GetHybridization() == chem.HybridizationType.SP3)


def _ethyls(mol: Any, chem: Any) -> list[list[int]]:
    """CH3-CH2-R where R is not a plain chain CH2 (a heteroatom, an unsaturated, branched, ring or aromatic carbon,
    or a carbon that is not between exactly two atoms: propane's other methyl qualifies)."""
    found = []
    for end in mol.GetAtoms():
        if not _is_methyl(end):
            continue
        ch2 = end.GetNeighbors()[0]
        if ch2.GetSymbol() != "C" or ch2.GetTotalNumHs() < 2 or ch2.GetDegree() < 2:
            continue
        if any(r.GetSymbol() != "C" or r.GetHybridization() != chem.HybridizationType.SP3 or r.GetDegree() != 2
               or r.GetIsAromatic() or r.IsInRing()
               for r in ch2.GetNeighbors() if r.GetIdx() != end.GetIdx()):
            found.append([end.GetIdx(), ch2.GetIdx()])
    return found


def _unsaturated_ends(mol: Any, chem: Any, order: Any, min_h: int) -> list[list[int]]:
    """R-CH2-C(order)CHn: a carbon with two hydrogens and two or more neighbours, single-bonded to a carbon that a
    bond of ``order`` joins to a terminal carbon with at least ``min_h`` hydrogens (allyl, propargyl)."""
    found = []
    for ch2 in mol.GetAtoms():
        if ch2.GetSymbol() != "C" or ch2.GetTotalNumHs() < 2 or ch2.GetDegree() < 2:
            continue
        for middle in ch2.GetNeighbors():
            if middle.GetSymbol() != "C" or \
                    mol.GetBondBetweenAtoms(ch2.GetIdx(), middle.GetIdx()).GetBondType() != chem.BondType.SINGLE:
                continue
            for end in middle.GetNeighbors():
                if end.GetIdx() == ch2.GetIdx() or end.GetSymbol() != "C":
                    continue
                if mol.GetBondBetweenAtoms(middle.GetIdx(), end.GetIdx()).GetBondType() != order:
                    continue
                if end.GetTotalNumHs() >= min_h and end.GetDegree() == 1:
                    found.append([ch2.GetIdx(), middle.GetIdx(), end.GetIdx()])
    return found


def _allyls(mol: Any, chem: Any) -> list[list[int]]:
    return _unsaturated_ends(mol, chem, chem.BondType.DOUBLE, 2)


def _propargyls(mol: Any, chem: Any) -> list[list[int]]:
    return _unsaturated_ends(mol, chem, chem.BondType.TRIPLE, 1)


def _benzyls(mol: Any, chem: Any) -> list[list[int]]:
    """A carbon with two or more hydrogens and its first aromatic carbon neighbour (a methyl qualifies)."""
    found = []
    for ch2 in mol.GetAtoms():
        if ch2.GetSymbol() != "C" or ch2.GetTotalNumHs() < 2:
            continue
        aryl = next((n for n in ch2.GetNeighbors() if n.GetIsAromatic() and n.GetSymbol() == "C"), None)
        if aryl is not None:
            found.append([aryl.GetIdx(), ch2.GetIdx()])
    return found


def _isopropyls(mol: Any, chem: Any) -> list[list[int]]:
    """An sp3 carbon with three neighbours, exactly two of them methyls."""
    found = []
    for centre in mol.GetAtoms():
        if not _sp3_carbon(centre, chem) or centre.GetDegree() != 3:
            continue
        methyls = [n.GetIdx() for n in centre.GetNeighbors() if _is_methyl(n)]
        if len(methyls) == 2:
            found.append([centre.GetIdx(), *methyls])
    return found


def _tert_butyls(mol: Any, chem: Any) -> list[list[int]]:
    """An sp3 carbon with four neighbours, exactly three of them methyls."""
    found = []
    for centre in mol.GetAtoms():
        if not _sp3_carbon(centre, chem) or centre.GetDegree() != 4:
            continue
        methyls = [n.GetIdx() for n in centre.GetNeighbors() if _is_methyl(n)]
        if len(methyls) == 3:
            found.append([centre.GetIdx(), *methyls])
    return found


def _isobutyls(mol: Any, chem: Any) -> list[list[int]]:
    """An sp3 carbon with two or more neighbours and hydrogens, next to an sp3 carbon with three neighbours whose
    other two are methyls (one group for each such neighbour)."""
    found = []
    for ch2 in mol.GetAtoms():
        if not _sp3_carbon(ch2, chem) or ch2.GetDegree() < 2 or ch2.GetTotalNumHs() < 2:
            continue
        for centre in ch2.GetNeighbors():
            if not _sp3_carbon(centre, chem) or centre.GetDegree() != 3:
                continue
            methyls = [n.GetIdx() for n in centre.GetNeighbors() if n.GetIdx() != ch2.GetIdx() and _is_methyl(n)]
            if len(methyls) == 2:
                found.append([ch2.GetIdx(), centre.GetIdx(), *methyls])
    return found


def _sec_butyls(mol: Any, chem: Any) -> list[list[int]]:
    """An sp3 carbon with three neighbours, two or more of them carbons; of its carbon neighbours, the last methyl
    and the last other carbon are read, the latter must be an sp3 CH2 between it and a methyl."""
    found = []
    for centre in mol.GetAtoms():
        if not _sp3_carbon(centre, chem) or centre.GetDegree() != 3:
            continue
        carbons = [n for n in centre.GetNeighbors() if n.GetSymbol() == "C"]
        if len(carbons) < 2:
            continue
        methyl = next((n for n in reversed(carbons) if _is_methyl(n)), None)
        chain = next((n for n in reversed(carbons) if not _is_methyl(n)), None)
        if methyl is None or chain is None:
            continue
        if not _sp3_carbon(chain, chem) or chain.GetDegree() != 2 or chain.GetTotalNumHs() < 2:
            continue
        end = next((n for n in chain.GetNeighbors() if n.GetIdx() != centre.GetIdx() and _is_methyl(n)), None)
        if end is not None:
            found.append([centre.GetIdx(), methyl.GetIdx(), chain.GetIdx(), end.GetIdx()])
    return found


_WALKERS: dict[str, Callable[[Any, Any], list[list[int]]]] = {
    "ethyl": _ethyls, "allyl": _allyls, "propargyl": _propargyls, "benzyl": _benzyls, "isopropyl": _isopropyls,
    "isobutyl": _isobutyls, "sec_butyl": _sec_butyls, "tert_butyl": _tert_butyls}


def functional_group_data(smiles: str) -> dict[str, Any]:
    """For each functional group (:func:`functional_group_names`' order): ``functional_group_<name>_count`` (atoms
    covered), ``_index`` (those atoms, ascending) and ``_nbrInstances`` (matches).  For a SMILES RDKit cannot read,
    ``{<name>: {"indices": [], "count": 0, "instances": 0}}`` for each group instead (MolecularIQ's shape).

    >>> data = functional_group_data('CC(=O)OCC')
    >>> [data[f'functional_group_ester_{k}'] for k in ('count', 'index', 'nbrInstances')]
    [4, [1, 2, 3, 4], 1]
    >>> data['functional_group_ethyl_index'], data['functional_group_ethyl_nbrInstances']
    ([4, 5], 1)
    >>> functional_group_data('C1CC')['ester']
    {'indices': [], 'count': 0, 'instances': 0}
    """
    mol = _mol("functional_group_data", smiles)
    patterns = _group_patterns()
    if mol is None:
        return {name: {"indices": [], "count": 0, "instances": 0} for name in patterns}
    from rdkit import Chem

    out: dict[str, Any] = {}
    for name, queries in patterns.items():
        walker = _WALKERS.get(name)
        if walker is not None:
            matches = [tuple(m) for m in walker(mol, Chem)]
        else:
            matches = [m for query in queries for m in mol.GetSubstructMatches(query)]
        atoms = sorted({i for match in matches for i in match})
        out[f"functional_group_{name}_count"] = len(atoms)
        out[f"functional_group_{name}_index"] = atoms
        out[f"functional_group_{name}_nbrInstances"] = len(matches)
    return out


# -- reaction templates --------------------------------------------------------------------------------------------

@cache
def reaction_template_names() -> tuple[str, ...]:
    """MolecularIQ's reaction templates, in its order (the order of :func:`reaction_data`'s keys).

    >>> names = reaction_template_names()
    >>> len(names), names[0], names[-1]
    (58, 'primary_alcohol_to_aldehyde', 'ozonolysis_terminal')
    """
    return tuple(row["name"] for row in _table("moleculariq_reactions.json"))


@cache
def _templates() -> list[tuple[str, Any, Any]]:
    """Each template's name, its reactant side as a substructure query, and the reaction."""
    from rdkit.Chem import rdChemReactions

    compiled = []
    with _quiet() as chem:
        for row in _table("moleculariq_reactions.json"):
            smirks = row["smirks"]
            try:
                reaction = rdChemReactions.ReactionFromSmarts(smirks)
            except Exception as exc:  # RDKit's own exception types
                raise EvaluationError(f"MolecularIQ's reaction template {row['name']}: RDKit cannot read its SMIRKS "
                                      f"{smirks!r}: {exc}") from exc
            reactants, _, _ = smirks.partition(">>")
            compiled.append((row["name"], chem.MolFromSmarts(reactants), reaction))
    return compiled


def reaction_data(smiles: str) -> dict[str, Any]:
    """For each template (:func:`reaction_template_names`' order), first
    ``template_based_reaction_prediction_<name>_count`` (matches of its reactant side) and ``_index`` (the atoms
    they cover, ascending); then for each template ``_success`` (1 when RDKit's reaction gives products, else 0) and
    ``_products`` (the first product of each outcome, as SMILES, duplicates kept; ``None`` without products).  The
    products are written unsanitised, as RDKit gives them.

    >>> data = reaction_data('CC=O')
    >>> data['template_based_reaction_prediction_aldehyde_to_primary_alcohol_count']
    1
    >>> data['template_based_reaction_prediction_aldehyde_to_primary_alcohol_products']
    ['CCO']
    >>> data['template_based_reaction_prediction_nitration_success'], data['template_based_reaction_prediction_nitration_products']
    (0, None)
    """
    mol = _mol("reaction_data", smiles)
    templates = _templates()
    out: dict[str, Any] = {}
    for name, query, _ in templates:
        if query is None:  # a reactant side RDKit cannot read is left out, as MolecularIQ leaves it
            continue
        atoms: set[int] = set()
        count = 0
        if mol is not None:
            matches = mol.GetSubstructMatches(query)
            count = len(matches)
            atoms = {i for match in matches for i in match}
        out[f"{_REACTION}{name}_count"] = count
        out[f"{_REACTION}{name}_index"] = sorted(atoms)
    with _quiet() as chem:
        for name, _, reaction in templates:
            products = None
            if mol is not None:
                outcomes = reaction.RunReactants((mol,))
                if outcomes:
                    products = [chem.MolToSmiles(outcome[0]) for outcome in outcomes]
            out[f"{_REACTION}{name}_success"] = 0 if products is None else 1
            out[f"{_REACTION}{name}_products"] = products
    return out


# -- BRICS and Murcko ----------------------------------------------------------------------------------------------

def brics_fragment_count(smiles: str) -> int:
    """How many distinct fragments (as SMILES, with their attachment points) RDKit's BRICS decomposition gives: a
    fragment found twice counts once (diethyl ether gives ``[4*]CC`` twice and ``[3*]O[3*]``); 1 when no bond
    breaks, 0 when RDKit cannot read the SMILES.

    >>> brics_fragment_count('CCOC(=O)c1ccccc1'), brics_fragment_count('CCOCC'), brics_fragment_count('CCC')
    (4, 2, 1)
    >>> brics_fragment_count('C1CC')
    0
    """
    mol = _mol("brics_fragment_count", smiles)
    if mol is None:
        return 0
    from rdkit.Chem import BRICS

    return len(BRICS.BRICSDecompose(mol))


def brics_bond_indices(smiles: str) -> list[int]:
    """The atoms at either end of a bond BRICS would break, ascending; ``[]`` when RDKit cannot read the SMILES.

    >>> brics_bond_indices('CCOC(=O)c1ccccc1')
    [1, 2, 3, 5]
    """
    mol = _mol("brics_bond_indices", smiles)
    if mol is None:
        return []
    from rdkit.Chem import BRICS

    return sorted({atom for (begin, end), _ in BRICS.FindBRICSBonds(mol) for atom in (begin, end)})


def _scaffold(function: str, smiles: str) -> tuple[Any, Any]:
    """The molecule and its Murcko scaffold (``(None, None)`` when RDKit cannot read the SMILES)."""
    mol = _mol(function, smiles)
    if mol is None:
        return None, None
    from rdkit.Chem.Scaffolds import MurckoScaffold

    return mol, MurckoScaffold.GetScaffoldForMol(mol)


def murcko_scaffold_count(smiles: str) -> int:
    """The number of atoms of the Murcko scaffold (rings and the chains joining them); 0 without rings or when
    RDKit cannot read the SMILES.

    >>> murcko_scaffold_count('CCc1ccccc1'), murcko_scaffold_count('CCO')
    (6, 0)
    """
    _, scaffold = _scaffold("murcko_scaffold_count", smiles)
    return 0 if scaffold is None else int(scaffold.GetNumAtoms())


def murcko_scaffold_indices(smiles: str) -> list[int]:
    """The atoms of the first match of the Murcko scaffold in the molecule, ascending (the scaffold read back from
    its SMILES when the scaffold itself does not match); ``[]`` without a scaffold or a match.

    >>> murcko_scaffold_indices('CCc1ccccc1OC')
    [2, 3, 4, 5, 6, 7]
    """
    mol, scaffold = _scaffold("murcko_scaffold_indices", smiles)
    if scaffold is None or scaffold.GetNumAtoms() == 0:
        return []
    match = mol.GetSubstructMatch(scaffold)
    if not match:
        with _quiet() as chem:
            again = chem.MolFromSmiles(chem.MolToSmiles(scaffold))
        if again is not None:
            match = mol.GetSubstructMatch(again)
    return sorted(match)


def murcko_scaffold_value(smiles: str) -> str:
    """The Murcko scaffold as canonical SMILES; ``""`` without a scaffold or when RDKit cannot read the SMILES.

    >>> murcko_scaffold_value('CCc1ccccc1OC'), murcko_scaffold_value('CCO')
    ('c1ccccc1', '')
    """
    _, scaffold = _scaffold("murcko_scaffold_value", smiles)
    if scaffold is None or scaffold.GetNumAtoms() == 0:
        return ""
    with _quiet() as chem:
        return str(chem.MolToSmiles(scaffold))

"""MolecularIQ's symbolic solver: a molecule's ring, chain, stereochemistry, composition and perception properties,
computed over RDKit as OpenCompass 0.5.4's copy of MolecularIQ computes them.

:func:`solve` gives the value of one property key of :data:`PROPERTIES` (``ring_count``,
``fused_ring_index``, ``oxidation_state_N_max_count``…) for a SMILES; each property also has a function of
its own.  Counts are ``int``, atom indices lists of ``int``, the formula a ``str``.  A SMILES RDKit cannot
read gives 0, ``[]`` or ``""``, as MolecularIQ does.  Functional groups, reaction templates, BRICS and
Murcko scaffolds are in :mod:`assay.evaluators.moleculariq_groups`.

MolecularIQ's own definitions are kept, quirks included:

* a *fused ring system* count pairs rings sharing two atoms or more (of RDKit's smallest set of rings) and
  groups those pairs in MolecularIQ's two passes, with no merging beyond them;
* *chain termini* and *branch points* are carbons of one neighbour, and of three or more, heteroatoms
  included;
* the *longest carbon chain* is a depth-first search over the carbon atoms (neighbours of more carbon
  neighbours first, the first longest path kept); with more than 60 carbons MolecularIQ's search calls
  itself without end (``RecursionError``): :func:`longest_carbon_chain_indices` raises
  :class:`SolverError` there.  MolecularIQ's search visits every simple path, which on a cage of 60 carbons
  or fewer (C60 fullerene) takes years: OpenCompass never returns.  assay stops the search after
  :data:`CHAIN_SEARCH_STEPS` steps and raises :class:`SolverError` naming the molecule (a constraint on it
  fails, as past 60 carbons) — it differs from OpenCompass there, which has no answer to give.  The budget
  is 58 times the longest search of the recorded corpora (34,068 steps, coronene) and 13 times that of
  RDKit's NCI set (146,900); dodecahedrane takes 250,760 steps and gets OpenCompass's answer;
* the E/Z *counts* come from RDKit's ``FindPotentialStereo`` and the E/Z *indices* from the bonds' legacy
  stereo flags, which may disagree;
* the rotatable bonds' atoms are read from a strict SMARTS pattern, else from RDKit's Lipinski pattern,
  and cut to the first matches as many as RDKit counts bonds.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from assay.errors import AssayError

__all__ = ["PROPERTIES", "SolverError", "solve"]

#: Carbon chains longer than this are not searched (MolecularIQ's search recurses without end beyond it).
CHAIN_SEARCH_LIMIT = 60
#: The longest carbon chain's search stops after this many steps (atoms put on the path): past it
#: the molecule is a cage whose paths MolecularIQ's search would walk without end in practice.
CHAIN_SEARCH_STEPS = 2_000_000

_HALOGENS = frozenset({"F", "Cl", "Br", "I"})
_NOT_HETERO = frozenset({"C", "H"})
_OXIDATION_ELEMENTS = ("C", "N", "O", "P", "S")

#: RDKit's hydrogen-bond acceptor and donor patterns, as MolecularIQ matches them for atom indices.
_HBA_SMARTS = ("[$([O,S;H1;v2]-[!$(*=[O,N,P,S])]),$([O,S;H0;v2]),$([O,S;-]),$([N;v3;!$(N-*=!@[O,N,P,S])]),"
               "$([nH0,o,s;+0])]")
_HBD_SMARTS = "[N&!H0&v3,N&!H0&+1&v4,O&H1&+0,S&H1&+0,n&H1&+0]"
_ROTATABLE_SIDE = ("[!$(*#*)&!D1&!$(C(F)(F)F)&!$(C(Cl)(Cl)Cl)&!$(C(Br)(Br)Br)&!$(C([CH3])([CH3])[CH3])")
_STRICT_ROTATABLE_SMARTS = (
    _ROTATABLE_SIDE + "&!$([CD3](=[N,O,S])-!@[#7,O,S!D1])&!$([#7,O,S!D1]-!@[CD3]=[N,O,S])"
    "&!$([CD3](=[N+])-!@[#7!D1])&!$([#7!D1]-!@[CD3]=[N+])]-,:;!@" + _ROTATABLE_SIDE + "]")


RDKIT_MISSING = "MolecularIQ's solver needs RDKit: pip install 'assay[chem]' (or rdkit)"


class SolverError(AssayError):
    """A property MolecularIQ's solver cannot compute for a molecule (its own code fails there too)."""


def _mol(smiles: str) -> Any:
    """RDKit's molecule of ``smiles`` (``None`` when RDKit cannot read it), RDKit's log blocked meanwhile."""
    try:
        from rdkit import Chem
        from rdkit.rdBase import BlockLogs
    except ImportError:
        raise SolverError(RDKIT_MISSING) from None
    blocker = BlockLogs()
    try:
        return Chem.MolFromSmiles(smiles)
    finally:
        del blocker


def _pattern(smarts: str) -> Any:
    from rdkit import Chem

    return Chem.MolFromSmarts(smarts)


# -- rings ---------------------------------------------------------------------------------------------------------

def _rings(smiles: str) -> tuple[Any, tuple[tuple[int, ...], ...]]:
    mol = _mol(smiles)
    return mol, (() if mol is None else mol.GetRingInfo().AtomRings())


def ring_count(smiles: str) -> int:
    return len(_rings(smiles)[1])


def ring_indices(smiles: str) -> list[int]:
    return sorted({atom for ring in _rings(smiles)[1] for atom in ring})


def _fused_pairs(rings: tuple[tuple[int, ...], ...]) -> list[tuple[int, int]]:
    return [(i, j) for i in range(len(rings)) for j in range(i + 1, len(rings)) if len(set(rings[i]) & set(rings[j])) >= 2]


def fused_ring_count(smiles: str) -> int:
    """Fused ring systems, grouped in MolecularIQ's two passes: each fused pair joins the first group holding
    either ring, then each group joins the first merged group it meets (no further merging)."""
    groups: list[set[int]] = []
    for i, j in _fused_pairs(_rings(smiles)[1]):
        home = next((g for g in groups if i in g or j in g), None)
        if home is None:
            groups.append({i, j})
        else:
            home.update((i, j))
    merged: list[set[int]] = []
    for group in groups:
        home = next((m for m in merged if m & group), None)
        if home is None:
            merged.append(group)
        else:
            home.update(group)
    return len(merged)


def fused_ring_indices(smiles: str) -> list[int]:
    rings = _rings(smiles)[1]
    return sorted({atom for i, j in _fused_pairs(rings) for atom in (*rings[i], *rings[j])})


def bridgehead_count(smiles: str) -> int:
    from rdkit.Chem import rdMolDescriptors

    mol = _mol(smiles)
    return 0 if mol is None else int(rdMolDescriptors.CalcNumBridgeheadAtoms(mol))


def bridgehead_indices(smiles: str) -> list[int]:
    """Atoms at one end only of the bonds two rings share, for each pair of rings sharing two bonds or more."""
    mol = _mol(smiles)
    if mol is None:
        return []
    bond_rings = [set(r) for r in mol.GetRingInfo().BondRings()]
    found: set[int] = set()
    for i, first in enumerate(bond_rings):
        for second in bond_rings[i + 1:]:
            shared = first & second
            if len(shared) < 2:
                continue
            ends: dict[int, int] = {}
            for index in shared:
                bond = mol.GetBondWithIdx(int(index))
                for atom in (bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()):
                    ends[atom] = ends.get(atom, 0) + 1
            found.update(atom for atom, n in ends.items() if n == 1)
    return sorted(found)


def spiro_count(smiles: str) -> int:
    from rdkit.Chem import rdMolDescriptors

    mol = _mol(smiles)
    return 0 if mol is None else int(rdMolDescriptors.CalcNumSpiroAtoms(mol))


def spiro_indices(smiles: str) -> list[int]:
    """Atoms in exactly two rings that share that atom only."""
    mol, rings = _rings(smiles)
    if len(rings) < 2:
        return []
    sets = [set(r) for r in rings]
    out = []
    for atom in range(mol.GetNumAtoms()):
        holding = [s for s in sets if atom in s]
        if len(holding) == 2 and holding[0] & holding[1] == {atom}:
            out.append(atom)
    return out


def _ring_size(smiles: str, pick: Callable[[list[int]], int]) -> int:
    rings = _rings(smiles)[1]
    return pick([len(r) for r in rings]) if rings else 0


def _ring_size_indices(smiles: str, pick: Callable[[list[int]], int]) -> list[int]:
    rings = _rings(smiles)[1]
    if not rings:
        return []
    size = pick([len(r) for r in rings])
    return sorted({atom for ring in rings if len(ring) == size for atom in ring})


def smallest_ring_size(smiles: str) -> int:
    return _ring_size(smiles, min)


def largest_ring_size(smiles: str) -> int:
    return _ring_size(smiles, max)


def smallest_ring_indices(smiles: str) -> list[int]:
    return _ring_size_indices(smiles, min)


def largest_ring_indices(smiles: str) -> list[int]:
    return _ring_size_indices(smiles, max)


def _descriptor(name: str, module: str = "rdMolDescriptors") -> Callable[[str], int]:
    """A count of RDKit's ``rdkit.Chem.<module>.<name>`` (0 for a SMILES RDKit cannot read)."""

    def count(smiles: str) -> int:
        import importlib

        mol = _mol(smiles)
        return 0 if mol is None else int(getattr(importlib.import_module(f"rdkit.Chem.{module}"), name)(mol))

    count.__name__ = name
    return count


aromatic_ring_count = _descriptor("CalcNumAromaticRings")
aliphatic_ring_count = _descriptor("CalcNumAliphaticRings")
heterocycle_count = _descriptor("CalcNumHeterocycles")
saturated_ring_count = _descriptor("CalcNumSaturatedRings")


def _ring_atoms_where(smiles: str, keep: Callable[[Any, tuple[int, ...]], bool]) -> list[int]:
    mol, rings = _rings(smiles)
    return sorted({atom for ring in rings if keep(mol, ring) for atom in ring})


def _ring_bonds(mol: Any, ring: tuple[int, ...]) -> list[Any]:
    bonds = (mol.GetBondBetweenAtoms(ring[k], ring[(k + 1) % len(ring)]) for k in range(len(ring)))
    return [b for b in bonds if b is not None]


def aromatic_ring_indices(smiles: str) -> list[int]:
    """Atoms of rings whose atoms are all aromatic."""
    return _ring_atoms_where(smiles, lambda mol, ring: all(mol.GetAtomWithIdx(a).GetIsAromatic() for a in ring))


def aliphatic_ring_indices(smiles: str) -> list[int]:
    """Atoms of rings with a bond that is not aromatic (RDKit's meaning of an aliphatic ring)."""
    return _ring_atoms_where(smiles, lambda mol, ring: any(not b.GetIsAromatic() for b in _ring_bonds(mol, ring)))


def heterocycle_indices(smiles: str) -> list[int]:
    """Atoms of rings holding an atom other than carbon and hydrogen."""
    return _ring_atoms_where(smiles, lambda mol, ring: any(mol.GetAtomWithIdx(a).GetSymbol() not in _NOT_HETERO
                                                            for a in ring))


def saturated_ring_indices(smiles: str) -> list[int]:
    """Atoms of rings of single bonds only and no aromatic atom."""
    from rdkit import Chem

    def saturated(mol: Any, ring: tuple[int, ...]) -> bool:
        return (all(b.GetBondType() == Chem.BondType.SINGLE for b in _ring_bonds(mol, ring))
                and not any(mol.GetAtomWithIdx(a).GetIsAromatic() for a in ring))

    return _ring_atoms_where(smiles, saturated)


# -- chains --------------------------------------------------------------------------------------------------------

def _carbons_where(smiles: str, keep: Callable[[Any], bool]) -> list[int]:
    mol = _mol(smiles)
    if mol is None:
        return []
    return [atom.GetIdx() for atom in mol.GetAtoms() if atom.GetSymbol() == "C" and keep(atom)]


def chain_termini_indices(smiles: str) -> list[int]:
    return _carbons_where(smiles, lambda atom: atom.GetDegree() == 1)


def chain_termini_count(smiles: str) -> int:
    return len(chain_termini_indices(smiles))


def branch_point_indices(smiles: str) -> list[int]:
    return _carbons_where(smiles, lambda atom: atom.GetDegree() >= 3)


def branch_point_count(smiles: str) -> int:
    return len(branch_point_indices(smiles))


def csp3_carbon_indices(smiles: str) -> list[int]:
    from rdkit import Chem

    return _carbons_where(smiles, lambda atom: atom.GetHybridization() == Chem.HybridizationType.SP3)


def csp3_carbon_count(smiles: str) -> int:
    return len(csp3_carbon_indices(smiles))


def longest_carbon_chain_indices(smiles: str) -> list[int]:
    """The first longest simple path over carbon atoms, searched from each carbon in atom order, neighbours with
    more carbon neighbours first (RDKit's neighbour order between equals).

    Raises :class:`SolverError` above :data:`CHAIN_SEARCH_LIMIT` carbons, where MolecularIQ's search never ends,
    and when the search takes more than :data:`CHAIN_SEARCH_STEPS` steps (a cage such as C60 fullerene, where
    MolecularIQ's search runs for years).
    """
    mol = _mol(smiles)
    if mol is None:
        return []
    carbons = [atom.GetIdx() for atom in mol.GetAtoms() if atom.GetSymbol() == "C"]
    if not carbons:
        return []
    if len(carbons) > CHAIN_SEARCH_LIMIT:
        raise SolverError(f"MolecularIQ's longest carbon chain is not defined for {smiles!r:.80}: it has "
                          f"{len(carbons)} carbons, more than {CHAIN_SEARCH_LIMIT} (MolecularIQ's search recurses "
                          "without end there)")
    best, steps = _longest_path(carbons, _carbon_neighbours(mol, carbons), CHAIN_SEARCH_STEPS)
    if steps > CHAIN_SEARCH_STEPS:
        raise SolverError(f"MolecularIQ's longest carbon chain is not searched for {smiles!r:.80}: its "
                          f"{len(carbons)} carbons hold more simple paths than {CHAIN_SEARCH_STEPS:,} search steps "
                          "reach (MolecularIQ's search of every path runs without end in practice there)")
    return best


def _carbon_neighbours(mol: Any, carbons: list[int]) -> dict[int, list[int]]:
    """Each carbon's carbon neighbours, those of more carbon neighbours first (RDKit's order between equals)."""
    is_carbon = set(carbons)
    nbrs = {c: [n.GetIdx() for n in mol.GetAtomWithIdx(c).GetNeighbors() if n.GetIdx() in is_carbon] for c in carbons}
    for c in carbons:
        nbrs[c].sort(key=lambda n: len(nbrs[n]), reverse=True)
    return nbrs


def _longest_path(carbons: list[int], nbrs: dict[int, list[int]], budget: int | None) -> tuple[list[int], int]:
    """The first longest simple path of the carbon graph ``nbrs``, depth first from each of ``carbons``, and the
    steps taken (a step puts an atom on the path); past ``budget`` steps the search stops, the path unfinished."""
    best: list[int] = []
    steps = 0
    for start in carbons:
        path, on_path = [start], {start}
        stack = [iter(nbrs[start])]
        steps += 1
        if len(path) > len(best):
            best = list(path)
        while stack:
            for step in stack[-1]:
                if step not in on_path:
                    break
            else:
                stack.pop()
                on_path.discard(path.pop())
                continue
            steps += 1
            if budget is not None and steps > budget:
                return best, steps
            path.append(step)
            on_path.add(step)
            if len(path) > len(best):
                best = list(path)
            stack.append(iter(nbrs[step]))
    return best, steps


def longest_carbon_chain_count(smiles: str) -> int:
    return len(longest_carbon_chain_indices(smiles))


# -- stereochemistry -----------------------------------------------------------------------------------------------

def _chiral_centres(smiles: str) -> list[tuple[int, str]]:
    from rdkit import Chem

    mol = _mol(smiles)
    if mol is None:
        return []
    Chem.AssignStereochemistry(mol, cleanIt=True, force=True)
    return [(int(i), str(label)) for i, label in Chem.FindMolChiralCenters(mol, includeUnassigned=True)]


def stereocenter_indices(smiles: str) -> list[int]:
    return sorted(i for i, _ in _chiral_centres(smiles))


def stereocenter_count(smiles: str) -> int:
    return len(_chiral_centres(smiles))


def _centres_labelled(smiles: str, label: str) -> list[int]:
    return [i for i, found in _chiral_centres(smiles) if found == label]


def r_stereocenter_indices(smiles: str) -> list[int]:
    return _centres_labelled(smiles, "R")


def s_stereocenter_indices(smiles: str) -> list[int]:
    return _centres_labelled(smiles, "S")


def unspecified_stereocenter_indices(smiles: str) -> list[int]:
    return _centres_labelled(smiles, "?")


def r_stereocenter_count(smiles: str) -> int:
    return len(r_stereocenter_indices(smiles))


def s_stereocenter_count(smiles: str) -> int:
    return len(s_stereocenter_indices(smiles))


def unspecified_stereocenter_count(smiles: str) -> int:
    """Centres labelled neither R nor S."""
    return sum(1 for _, label in _chiral_centres(smiles) if label not in ("R", "S"))


def _potential_double_bonds(smiles: str) -> dict[tuple[int, int], str]:
    """Each stereogenic double bond RDKit's ``FindPotentialStereo`` finds (as its two atoms, sorted): ``E``, ``Z``
    or ``unspecified``."""
    from rdkit import Chem

    mol = _mol(smiles)
    if mol is None:
        return {}
    Chem.AssignStereochemistry(mol, cleanIt=False, force=True)
    out: dict[tuple[int, int], str] = {}
    for element in Chem.FindPotentialStereo(mol):
        if element.type != Chem.StereoType.Bond_Double:
            continue
        bond = mol.GetBondWithIdx(element.centeredOn)
        a, b = sorted((bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()))
        label = "unspecified"
        if element.specified == Chem.StereoSpecified.Specified:
            label = {Chem.BondStereo.STEREOE: "E", Chem.BondStereo.STEREOZ: "Z"}.get(bond.GetStereo(), "unspecified")
        out[(a, b)] = label
    return out


def e_double_bond_count(smiles: str) -> int:
    return sum(1 for label in _potential_double_bonds(smiles).values() if label == "E")


def z_double_bond_count(smiles: str) -> int:
    return sum(1 for label in _potential_double_bonds(smiles).values() if label == "Z")


def unspecified_double_bond_count(smiles: str) -> int:
    return sum(1 for label in _potential_double_bonds(smiles).values() if label == "unspecified")


def unspecified_double_bond_indices(smiles: str) -> list[int]:
    return sorted({a for pair, label in _potential_double_bonds(smiles).items() if label == "unspecified" for a in pair})


def _flagged_double_bond_atoms(smiles: str, flag: str) -> list[int]:
    from rdkit import Chem

    mol = _mol(smiles)
    if mol is None:
        return []
    Chem.AssignStereochemistry(mol, cleanIt=True, force=True)
    wanted = getattr(Chem.BondStereo, flag)
    return sorted({a for bond in mol.GetBonds()
                   if bond.GetBondType() == Chem.BondType.DOUBLE and bond.GetStereo() == wanted
                   for a in (bond.GetBeginAtomIdx(), bond.GetEndAtomIdx())})


def e_double_bond_indices(smiles: str) -> list[int]:
    return _flagged_double_bond_atoms(smiles, "STEREOE")


def z_double_bond_indices(smiles: str) -> list[int]:
    return _flagged_double_bond_atoms(smiles, "STEREOZ")


# -- composition ---------------------------------------------------------------------------------------------------

def _atoms_where(smiles: str, keep: Callable[[str], bool]) -> list[int]:
    mol = _mol(smiles)
    return [] if mol is None else [a.GetIdx() for a in mol.GetAtoms() if keep(a.GetSymbol())]


def carbon_atom_indices(smiles: str) -> list[int]:
    return _atoms_where(smiles, lambda s: s == "C")


def hetero_atom_indices(smiles: str) -> list[int]:
    """Atoms other than carbon and hydrogen (dummy atoms ``*`` included)."""
    return _atoms_where(smiles, lambda s: s not in _NOT_HETERO)


def halogen_atom_indices(smiles: str) -> list[int]:
    return _atoms_where(smiles, lambda s: s in _HALOGENS)


def heavy_atom_indices(smiles: str) -> list[int]:
    """Atoms that are not hydrogen (dummy atoms included)."""
    return _atoms_where(smiles, lambda s: s != "H")


def carbon_atom_count(smiles: str) -> int:
    return len(carbon_atom_indices(smiles))


def hetero_atom_count(smiles: str) -> int:
    return len(hetero_atom_indices(smiles))


def halogen_atom_count(smiles: str) -> int:
    return len(halogen_atom_indices(smiles))


def heavy_atom_count(smiles: str) -> int:
    """RDKit's heavy-atom count (atoms of atomic number above 1: dummy atoms not counted)."""
    mol = _mol(smiles)
    return 0 if mol is None else int(mol.GetNumHeavyAtoms())


def hydrogen_atom_count(smiles: str) -> int:
    """Hydrogens, implicit and explicit, once all are made atoms."""
    from rdkit import Chem

    mol = _mol(smiles)
    return 0 if mol is None else sum(1 for a in Chem.AddHs(mol).GetAtoms() if a.GetSymbol() == "H")


def molecular_formula(smiles: str) -> str:
    from rdkit.Chem import rdMolDescriptors

    mol = _mol(smiles)
    return "" if mol is None else str(rdMolDescriptors.CalcMolFormula(mol))


# -- perception ----------------------------------------------------------------------------------------------------

hba_count = _descriptor("NumHAcceptors", "Descriptors")


hbd_count = _descriptor("NumHDonors", "Descriptors")


def _matched_atoms(smiles: str, smarts: str) -> list[int]:
    mol = _mol(smiles)
    if mol is None:
        return []
    return sorted({a for match in mol.GetSubstructMatches(_pattern(smarts)) for a in match})


def hba_indices(smiles: str) -> list[int]:
    return _matched_atoms(smiles, _HBA_SMARTS)


def hbd_indices(smiles: str) -> list[int]:
    return _matched_atoms(smiles, _HBD_SMARTS)


rotatable_bond_count = _descriptor("NumRotatableBonds", "Descriptors")


def rotatable_bond_indices(smiles: str) -> list[int]:
    """Atoms of rotatable bonds: the strict pattern's matches when as many as RDKit's count, else the Lipinski
    pattern's, keeping as many matches as RDKit counts."""
    from rdkit.Chem import Lipinski, rdMolDescriptors

    mol = _mol(smiles)
    if mol is None:
        return []
    wanted = int(rdMolDescriptors.CalcNumRotatableBonds(mol))
    if wanted == 0:
        return []
    matches = mol.GetSubstructMatches(_pattern(_STRICT_ROTATABLE_SMARTS), uniquify=True)
    if len(matches) != wanted:
        matches = mol.GetSubstructMatches(Lipinski.RotatableBondSmarts, uniquify=True)
    return sorted({a for match in matches[:wanted] for a in match})


def oxidation_state_indices(smiles: str, element: str, highest: bool) -> list[int]:
    """Atoms of ``element`` (C, N, O, P or S) at the highest (or lowest) oxidation number RDKit gives any of them."""
    from rdkit.Chem import rdMolDescriptors

    if element not in _OXIDATION_ELEMENTS:
        raise SolverError(f"MolecularIQ's oxidation states are for {', '.join(_OXIDATION_ELEMENTS)}, not {element!r}")
    mol = _mol(smiles)
    if mol is None:
        return []
    rdMolDescriptors.CalcOxidationNumbers(mol)
    states = [(a.GetIdx(), int(a.GetProp("OxidationNumber"))) for a in mol.GetAtoms()
              if a.GetSymbol() == element and a.HasProp("OxidationNumber")]
    if not states:
        return []
    target = (max if highest else min)(s for _, s in states)
    return [i for i, s in states if s == target]


def oxidation_state_count(smiles: str, element: str, highest: bool) -> int:
    return len(oxidation_state_indices(smiles, element, highest))


# -- the table of properties ---------------------------------------------------------------------------------------

def _table() -> dict[str, Callable[[str], Any]]:
    table: dict[str, Callable[[str], Any]] = {
        "ring_count": ring_count, "ring_index": ring_indices,
        "fused_ring_count": fused_ring_count, "fused_ring_index": fused_ring_indices,
        "bridgehead_count": bridgehead_count, "bridgehead_index": bridgehead_indices,
        "spiro_count": spiro_count, "spiro_index": spiro_indices,
        "smallest_largest_ring_size_smallest_count": smallest_ring_size,
        "smallest_largest_ring_size_largest_count": largest_ring_size,
        "smallest_largest_ring_size_smallest_index": smallest_ring_indices,
        "smallest_largest_ring_size_largest_index": largest_ring_indices,
        "chain_termini_count": chain_termini_count, "chain_termini_index": chain_termini_indices,
        "branch_point_count": branch_point_count, "branch_point_index": branch_point_indices,
        "aromatic_ring_count": aromatic_ring_count, "aromatic_ring_index": aromatic_ring_indices,
        "aliphatic_ring_count": aliphatic_ring_count, "aliphatic_ring_index": aliphatic_ring_indices,
        "heterocycle_count": heterocycle_count, "heterocycle_index": heterocycle_indices,
        "saturated_ring_count": saturated_ring_count, "saturated_ring_index": saturated_ring_indices,
        "csp3_carbon_count": csp3_carbon_count, "csp3_carbon_index": csp3_carbon_indices,
        "longest_carbon_chain_count": longest_carbon_chain_count, "longest_carbon_chain_index": longest_carbon_chain_indices,
        "r_s_stereocenter_r_count": r_stereocenter_count, "r_s_stereocenter_s_count": s_stereocenter_count,
        "r_s_stereocenter_r_index": r_stereocenter_indices, "r_s_stereocenter_s_index": s_stereocenter_indices,
        "unspecified_stereocenter_count": unspecified_stereocenter_count,
        "unspecified_stereocenter_index": unspecified_stereocenter_indices,
        "stereocenter_count": stereocenter_count, "stereocenter_index": stereocenter_indices,
        "e_z_stereochemistry_double_bond_e_count": e_double_bond_count,
        "e_z_stereochemistry_double_bond_z_count": z_double_bond_count,
        "e_z_stereochemistry_double_bond_e_index": e_double_bond_indices,
        "e_z_stereochemistry_double_bond_z_index": z_double_bond_indices,
        "stereochemistry_unspecified_double_bond_count": unspecified_double_bond_count,
        "stereochemistry_unspecified_double_bond_index": unspecified_double_bond_indices,
        "carbon_atom_count": carbon_atom_count, "carbon_atom_index": carbon_atom_indices,
        "hetero_atom_count": hetero_atom_count, "hetero_atom_index": hetero_atom_indices,
        "halogen_atom_count": halogen_atom_count, "halogen_atom_index": halogen_atom_indices,
        "heavy_atom_count": heavy_atom_count, "heavy_atom_index": heavy_atom_indices,
        "hydrogen_atom_count": hydrogen_atom_count,
        "molecular_formula_count": molecular_formula, "molecular_formula": molecular_formula,
        "molecular_formula_value": molecular_formula,
        "hba_count": hba_count, "hba_index": hba_indices, "hbd_count": hbd_count, "hbd_index": hbd_indices,
        "rotatable_bond_count": rotatable_bond_count, "rotatable_bond_index": rotatable_bond_indices,
    }
    for element in _OXIDATION_ELEMENTS:
        for side, highest in (("max", True), ("min", False)):
            table[f"oxidation_state_{element}_{side}_count"] = partial(oxidation_state_count, element=element,
                                                                        highest=highest)
            table[f"oxidation_state_{element}_{side}_index"] = partial(oxidation_state_indices, element=element,
                                                                        highest=highest)
    return table


#: Each property key of MolecularIQ's solver table this module computes, with its function of a SMILES.
PROPERTIES: dict[str, Callable[[str], Any]] = _table()


def solve(key: str, smiles: str) -> Any:
    """The value of property ``key`` (a key of :data:`PROPERTIES`) for ``smiles``.

    >>> solve('ring_count', 'c1ccccc1CC1CC1'), solve('csp3_carbon_index', 'CC=O'), solve('molecular_formula', 'CCO')
    (2, [0], 'C2H6O')
    """
    try:
        compute = PROPERTIES[key]
    except KeyError:
        raise SolverError(f"MolecularIQ's solver has no core property {key!r}") from None
    return compute(smiles)

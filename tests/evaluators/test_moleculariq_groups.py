"""MolecularIQ's functional groups, reaction templates, BRICS and Murcko scaffolds against OpenCompass 0.5.4's
recordings of its copy of MolecularIQ's symbolic solver.

``scripts/record_oc_moleculariq_groups.py`` records, under ``tests/data/oc_families/moleculariq/groups``, the
solver's output for molecules written for a purpose (``cases.json.gz``: every functional group and template,
the substituent walkers' edge cases, salts, charges, stereo, isotopes, unreadable SMILES, molecules in other atom
orders) and for every sixth molecule of RDKit's NCI set (``corpus.json.gz``).  Dict outputs are stored as the
entries that differ from those of a molecule with nothing found (``"empty"``, kept whole with its key order).
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("rdkit")

from assay.errors import EvaluationError
from assay.evaluators import moleculariq_groups as groups

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "moleculariq" / "groups"


def _read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(gzip.decompress((DATA / name).read_bytes()).decode("utf-8"))
    return data


CASES = _read("cases.json.gz")
CORPUS = _read("corpus.json.gz")
EMPTY = CASES["empty"]
FUNCTIONS = ["functional_group_data", "reaction_data", "brics_fragment_count", "brics_bond_indices",
             "murcko_scaffold_count", "murcko_scaffold_indices", "murcko_scaffold_value"]


def _expected(row: dict[str, Any], name: str) -> Any:
    """The recorded output of ``name`` for ``row``'s molecule, dict outputs rebuilt in OpenCompass's key order."""
    value = row[name]
    if name not in ("functional_group_data", "reaction_data"):
        return value
    if "whole" in value:
        return value["whole"]
    return {key: value["differs"].get(key, default) for key, default in EMPTY[name].items()}


def _check(row: dict[str, Any]) -> None:
    for name in FUNCTIONS:
        ours = getattr(groups, name)(row["smiles"])
        expected = _expected(row, name)
        if isinstance(expected, dict):  # the order of the keys too
            assert list(ours) == list(expected), f"{name}({row['smiles']!r}): keys"
            differing = {k: (ours[k], v) for k, v in expected.items() if ours[k] != v}
            assert not differing, f"{name}({row['smiles']!r}): (assay, OpenCompass) {differing}"
        else:
            assert ours == expected, f"{name}({row['smiles']!r})"
            assert type(ours) is type(expected), f"{name}({row['smiles']!r}): {type(ours).__name__}"


@pytest.mark.parametrize("row", CASES["molecules"], ids=lambda r: r["label"][:60])
def test_outputs_equal_opencompass(row: dict[str, Any]) -> None:
    _check(row)


@pytest.mark.slow
@pytest.mark.parametrize("row", CORPUS["molecules"], ids=lambda r: r["smiles"][:60])
def test_nci_corpus_equals_opencompass(row: dict[str, Any]) -> None:
    _check(row)


def test_empty_molecule_equals_opencompass() -> None:
    _check({name: {"whole": value} if isinstance(value, dict) else value for name, value in EMPTY.items()})


def test_names_are_in_opencompass_order() -> None:
    fg_keys = [k.removeprefix("functional_group_").removesuffix("_count") for k in EMPTY["functional_group_data"]
               if k.endswith("_count")]
    assert list(groups.functional_group_names()) == fg_keys
    rx_keys = [k.removeprefix("template_based_reaction_prediction_").removesuffix("_success")
               for k in EMPTY["reaction_data"] if k.endswith("_success")]
    assert list(groups.reaction_template_names()) == rx_keys


def test_recordings_reach_every_group_and_template() -> None:
    """Each group and template is found in some recorded molecule, so each one's SMARTS is checked."""
    found = {k for row in CASES["molecules"] + CORPUS["molecules"] for name in ("functional_group_data", "reaction_data")
             if "differs" in row[name] for k in row[name]["differs"]}
    assert {f"functional_group_{n}_nbrInstances" for n in groups.functional_group_names()} <= found
    assert {f"template_based_reaction_prediction_{n}_success" for n in groups.reaction_template_names()} <= found


def test_quirks_the_docs_name() -> None:
    propane = groups.functional_group_data("CCC")
    assert propane["functional_group_ethyl_nbrInstances"] == 2
    assert propane["functional_group_ethyl_index"] == [0, 1, 2]
    assert groups.functional_group_data("Cc1ccccc1")["functional_group_benzyl_nbrInstances"] == 1
    ester = groups.functional_group_data("CC(=O)OC(C)=O")  # an anhydride: two ester matches over five atoms
    assert (ester["functional_group_ester_nbrInstances"], ester["functional_group_ester_count"]) == (2, 5)
    unreadable = groups.functional_group_data("C1CC")
    assert list(unreadable) == list(groups.functional_group_names())
    assert unreadable["ester"] == {"indices": [], "count": 0, "instances": 0}
    # patterns that miss their namesakes
    def instances(smiles: str, group: str) -> int:
        found: int = groups.functional_group_data(smiles)[f"functional_group_{group}_nbrInstances"]
        return found

    assert (instances("CC(C)=NO", "oxime"), instances("CC(O)=NC", "oxime")) == (0, 1)
    assert (instances("c1ccc2cnccc2c1", "isoquinoline"), instances("c1ccc2ncccc2c1", "isoquinoline")) == (0, 1)
    assert instances("O=C(NCC(=O)O)OCC1c2ccccc2-c2ccccc21", "fmoc") == 0
    # the sec-butyl walker reads the centre's last methyl: the methyl it reports follows the atom order
    assert groups.functional_group_data("CC(C)CC")["functional_group_sec_butyl_index"] == [1, 2, 3, 4]
    assert groups.functional_group_data("C(C)(C)CC")["functional_group_sec_butyl_index"] == [0, 2, 3, 4]


@pytest.mark.parametrize("case", CASES["not_text"], ids=lambda c: f"{c['function']}-{c['input']}")
def test_input_that_is_not_text_is_named(case: dict[str, Any]) -> None:
    """OpenCompass stops with an exception (recorded by name); assay names the function and the value."""
    value = {"None": None, "int": 42, "list": ["CCO"]}[case["input"]]
    assert case["raises"] == "TypeError"
    with pytest.raises(EvaluationError, match=rf"MolecularIQ's {case['function']}: a SMILES must be text, got "):
        getattr(groups, case["function"])(value)


def test_missing_rdkit_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rdkit", None)
    with pytest.raises(EvaluationError, match="RDKit is not installed"):
        groups.brics_fragment_count("CCO")


def test_smarts_rdkit_cannot_read_never_matches(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    rows = [{"name": "broken", "rank": 1, "smarts": "[C"}, {"name": "ester", "rank": 2, "smarts": "[CX3](=[OX1])[OX2][#6]"}]
    monkeypatch.setattr(groups, "_table", lambda name: rows)
    groups._group_patterns.cache_clear()
    try:
        data = groups.functional_group_data("CC(=O)OC")
    finally:
        groups._group_patterns.cache_clear()
    assert data == {"functional_group_broken_count": 0, "functional_group_broken_index": [],
                    "functional_group_broken_nbrInstances": 0, "functional_group_ester_count": 4,
                    "functional_group_ester_index": [1, 2, 3, 4], "functional_group_ester_nbrInstances": 1}
    assert "functional group broken: RDKit cannot read its SMARTS '[C'" in caplog.text


def test_smirks_rdkit_cannot_read_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [{"name": "broken", "smirks": "[C:1>>[C:1]O", "category": "test", "description": "unreadable"}]
    monkeypatch.setattr(groups, "_table", lambda name: rows)
    groups._templates.cache_clear()
    try:
        with pytest.raises(EvaluationError, match=r"MolecularIQ's reaction template broken: RDKit cannot read its SMIRKS "
                                                  r"'\[C:1>>\[C:1\]O'"):
            groups.reaction_data("CCO")
    finally:
        groups._templates.cache_clear()

"""MolecularIQ's generation evaluator and symbolic solver against OpenCompass 0.5.4's recordings.

The recordings are made by ``scripts/record_oc_moleculariq_generation.py`` with OpenCompass installed: its own
eval task scored the replies under ``tests/data/oc_families/moleculariq_generation/predictions`` on a local
``generation.jsonl`` with the generation dataset of each library config; its evaluator scored further replies
against constraints as written; its solver computed every core property of a corpus of molecules.  The
end-to-end cases import the library's configs unchanged and run ``assay eval`` on the same predictions.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from assay.cli import main
from assay.errors import EvaluationError
from assay.evaluators.moleculariq_solver import CHAIN_SEARCH_STEPS, PROPERTIES, SolverError, solve
from assay.registry import ICL_EVALUATORS, LOAD_DATASET
from tests.evaluators._library import MODEL, library_config, with_data, without_data

pytest.importorskip("rdkit")

ROOT = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "moleculariq_generation"
EXPECTED = ROOT / "expected"
SCORER = json.loads((EXPECTED / "scorer.json").read_text(encoding="utf-8"))
CORPUS = [json.loads(line) for line in (EXPECTED / "solver_corpus.jsonl").read_text(encoding="utf-8").splitlines()]
REWARDS = [json.loads(line) for line in (EXPECTED / "reward_corpus.jsonl").read_text(encoding="utf-8").splitlines()]
CONFIGS = ("molculariq_gen", "molculariq_rawprompt_gen")
ABBR = "MolecularIQ-generation"
RUN = "20250101_000000"
#: what assay raises where OpenCompass's solver raises
RAISES = {"RecursionError": SolverError}


def _record(config: str) -> dict[str, Any]:
    return json.loads((EXPECTED / f"{config}.json").read_text(encoding="utf-8"))


def _score(predictions: list[Any], references: list[Any]) -> Any:
    result = ICL_EVALUATORS.get("MoleculariqGenerationEvaluator")().score(list(predictions), list(references))
    return json.loads(json.dumps(result))


def test_the_corpus_is_varied() -> None:
    """The recorded corpus is large and reaches the solver's edge cases: invalid SMILES, charges, stereo,
    several fragments, a carbon chain past the search limit."""
    assert len(CORPUS) >= 300
    assert set(CORPUS[0]["values"]) == set(PROPERTIES)
    values = [row["values"] for row in CORPUS]
    assert any(v["heavy_atom_count"] == 0 for v in values)
    assert any(v["r_s_stereocenter_r_count"] and v["r_s_stereocenter_s_count"] for v in values)
    assert any(v["e_z_stereochemistry_double_bond_z_count"] for v in values)
    assert any(v["spiro_count"] and v["bridgehead_count"] == 0 for v in values)
    assert any(v["longest_carbon_chain_count"] == {"raises": "RecursionError"} for v in values)
    assert any("." in row["smiles"] and "+" in row["smiles"] for row in CORPUS)


@pytest.mark.parametrize("row", CORPUS, ids=[f"{i}-{r['smiles'][:30]}" for i, r in enumerate(CORPUS)])
def test_solver_values_equal_opencompass(row: dict[str, Any]) -> None:
    smiles = row["smiles"]
    for key, expected in row["values"].items():
        if isinstance(expected, dict):
            with pytest.raises(RAISES[expected["raises"]], match="60"):
                solve(key, smiles)
        else:
            assert solve(key, smiles) == expected, (key, smiles)


C60 = ("c12c3c4c5c1c1c6c7c2c2c8c3c3c9c4c4c%10c5c5c1c1c6c6c%11c7c2c2c7c8c3c3c8c9c4c4c9c%10c5c5c1c1c6c6c%11c2c2c7c3c3"
       "c8c4c4c9c5c1c1c6c2c3c41")
#: four cubanes fused face to face: 20 carbons, and far more simple paths than dodecahedrane's 20
CUBANE_TUBE = "C12C3C4C1C15C26C32C41C13C47C8C9C%10C8C48C%104C97C21C64C583"
DODECAHEDRANE = "C12C3C4C5C1C6C7C2C8C3C9C4C1C5C6C2C7C8C9C12"


def _chain_search_steps(smiles: str) -> int:
    """The steps of the longest carbon chain's search of ``smiles`` run to its end."""
    from rdkit import Chem

    from assay.evaluators.moleculariq_solver import _carbon_neighbours, _longest_path

    mol = Chem.MolFromSmiles(smiles)
    carbons = [a.GetIdx() for a in mol.GetAtoms() if a.GetSymbol() == "C"]
    return _longest_path(carbons, _carbon_neighbours(mol, carbons), None)[1]


def test_the_chain_search_budget_is_far_above_the_recorded_molecules() -> None:
    """Every molecule of the recorded corpus whose longest chain OpenCompass computes is searched in a small
    part of the budget (so its value, compared above, is OpenCompass's)."""
    searched = [row["smiles"] for row in CORPUS if isinstance(row["values"]["longest_carbon_chain_count"], int)
                and row["values"]["longest_carbon_chain_count"] > 0]
    assert len(searched) >= 250
    assert max(_chain_search_steps(s) for s in searched) * 20 < CHAIN_SEARCH_STEPS


@pytest.mark.parametrize("smiles", [C60, CUBANE_TUBE], ids=["C60", "cubane-tube"])
def test_a_cage_past_the_chain_search_budget_fails_its_constraint(smiles: str) -> None:
    """MolecularIQ's search of every simple path never ends on a cage of 60 carbons or fewer; assay's stops
    after its budget of steps with an error naming the molecule, and a constraint on it fails."""
    with pytest.raises(SolverError, match=rf"not searched for '{smiles[:20]}.*{CHAIN_SEARCH_STEPS:,} search steps"):
        solve("longest_carbon_chain_count", smiles)
    reply = f'<answer>"smiles": "{smiles}"</answer>'
    ring = {"type": "ring_count", "operator": ">=", "min_value": 1}
    chain = {"type": "longest_carbon_chain_count", "operator": ">=", "min_value": 1}
    assert _score([reply], [[ring]])["score"] == 100.0
    result = _score([reply, reply], [[ring, chain], [chain]])
    assert (result["score"], result["valid"]) == (0.0, 100.0)
    assert [d["correct"] for d in result["details"]] == [0, 0]


def test_dodecahedrane_is_searched_to_the_end() -> None:
    """A cage within the budget gets OpenCompass's answer: all 20 carbons of dodecahedrane, in atom order."""
    assert _chain_search_steps(DODECAHEDRANE) < CHAIN_SEARCH_STEPS
    assert solve("longest_carbon_chain_index", DODECAHEDRANE) == list(range(20))
    result = _score([f'<answer>"smiles": "{DODECAHEDRANE}"</answer>'],
                    [[{"type": "longest_carbon_chain_count", "operator": "=", "value": 20}]])
    assert result["score"] == 100.0


def test_unknown_properties_are_named() -> None:
    with pytest.raises(SolverError, match="'functional_group_alcohol_count'"):
        solve("functional_group_alcohol_count", "CCO")
    from assay.evaluators.moleculariq_solver import oxidation_state_indices

    with pytest.raises(SolverError, match="not 'Cl'"):
        oxidation_state_indices("CCl", "Cl", True)


@pytest.mark.parametrize("case", SCORER["core"], ids=lambda c: str(len(c["predictions"])))
def test_scores_equal_opencompass(case: dict[str, Any]) -> None:
    assert _score(case["predictions"], case["references"]) == case["result"]


def test_scores_with_groups_reactions_brics_and_murcko_equal_opencompass() -> None:
    for case in SCORER["groups"]:
        assert _score(case["predictions"], case["references"]) == case["result"]


def test_group_constraints_without_the_groups_module_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the module computing functional groups (an installation lacking it, as simulated here), such a
    constraint is an error naming that module, not a score."""
    import sys

    monkeypatch.setitem(sys.modules, "assay.evaluators.moleculariq_groups", None)
    monkeypatch.delattr("assay.evaluators.moleculariq_groups", raising=False)
    from assay.evaluators import moleculariq_generation

    moleculariq_generation._group_data.cache_clear()
    with pytest.raises(EvaluationError, match="moleculariq_groups"):
        _score(['<answer>"smiles": "CCO"</answer>'], [[{"type": "functional_group_alcohol_count", "operator": "=", "value": 1}]])


@pytest.mark.parametrize("case", SCORER["failing"], ids=lambda c: c["raises"])
def test_constraints_opencompass_cannot_check_are_named(case: dict[str, Any]) -> None:
    """Where OpenCompass stops with an exception, assay stops with an error naming the sample and its
    constraints."""
    sample = len(case["predictions"]) - 1
    with pytest.raises(EvaluationError, match=rf"MoleculariqGenerationEvaluator: sample {sample}'s constraints") as info:
        _score(case["predictions"], case["references"])
    assert case["raises"] in str(info.value)


def test_random_replies_and_constraints_score_as_opencompass() -> None:
    """1,200 random replies against random constraints, each scored alone, give OpenCompass's result; where
    OpenCompass raises, assay's error names the exception."""
    assert len(REWARDS) >= 1000
    assert {r["result"]["score"] for r in REWARDS if "raises" not in r["result"]} == {0.0, 100.0}
    wrong = []
    for row in REWARDS:
        if "raises" in row["result"]:
            with pytest.raises(EvaluationError, match=row["result"]["raises"]):
                _score([row["reply"]], [row["constraints"]])
        elif _score([row["reply"]], [row["constraints"]]) != row["result"]:
            wrong.append(row)
    assert not wrong, wrong[:3]


def test_random_group_constraints_score_as_opencompass() -> None:
    """400 replies against random functional-group, reaction, BRICS and Murcko constraints give OpenCompass's
    result."""
    rows = [json.loads(line) for line in (EXPECTED / "reward_groups_corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 400
    wrong = [row for row in rows if _score([row["reply"]], [row["constraints"]]) != row["result"]]
    assert not wrong, wrong[:3]


def test_pred_postprocessor_is_applied_before_reading() -> None:
    reply = '<think><answer>"smiles": "CCO"</answer></think><answer>"smiles": "C1CC1"</answer>'
    ref = [{"type": "ring_count", "operator": "=", "value": 1}]
    cls = ICL_EVALUATORS.get("MoleculariqGenerationEvaluator")
    evaluator = cls(pred_postprocessor=dict(type="extract-non-reasoning-content"))
    assert evaluator.evaluate(1, 1, [{}], predictions=[reply], references=[ref])["score"] == 100.0
    assert cls().evaluate(1, 1, [{}], predictions=[reply], references=[ref])["score"] == 0.0


def _config(config: str) -> str:
    return library_config(f"molculariq/{config}.py", "moleculariq_datasets",
                          f"[d for d in moleculariq_datasets if d['abbr'] == {ABBR!r}]")


@pytest.mark.parametrize("config", CONFIGS)
def test_library_config_scores_as_opencompass(config: str, oc_library: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _record(config)["result"]
    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    (tmp_path / "config.py").write_text(_config(config), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    replies = json.loads((ROOT / "predictions" / f"{ABBR}.json").read_text(encoding="utf-8"))
    replies = {key: dict(reply, gold="not the reference") for key, reply in replies.items()}
    (predictions / f"{ABBR}.json").write_text(json.dumps(replies, ensure_ascii=False), encoding="utf-8")
    main(["eval", str(tmp_path / "config.py"), "-w", str(work), "-r", RUN, "--workers", "1"])
    result = json.loads((work / RUN / "results" / MODEL / f"{ABBR}.json").read_text(encoding="utf-8"))
    assert "error" not in result, result
    assert (result["score"], result["valid"]) == (expected["score"], expected["valid"])
    keys = ("pred", "constraints", "score", "correct", "valid_smiles")
    assert [{k: d.get(k) for k in keys} for d in result["details"]] == [{k: d.get(k) for k in keys} for d in expected["details"]]


@pytest.mark.parametrize("config", CONFIGS)
def test_library_config_loads_opencompass_rows(config: str, oc_library: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from assay import load_config

    record = _record(config)
    with_data(tmp_path, monkeypatch, oc_library, ROOT / "cache")
    (tmp_path / "config.py").write_text(_config(config), encoding="utf-8")
    (ds,) = load_config(tmp_path / "config.py").variables["datasets"]
    assert ds["type"] is LOAD_DATASET.get("MoleculariqDataset")
    assert ds["eval_cfg"]["evaluator"]["type"] is ICL_EVALUATORS.get("MoleculariqGenerationEvaluator")
    rows = [dict(r) for r in ds["type"].load(path=ds["path"], name=ds["name"])]
    assert rows == [{k: v for k, v in r.items() if k not in ("idx", "subdivision")} for r in record["test_rows"]]


@pytest.mark.parametrize("config", CONFIGS)
def test_library_config_scores_from_gold_as_opencompass(config: str, oc_library: Path, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the data on disk, the constraints come from OpenCompass's own prediction file's ``gold``: the same
    metrics and details as with the data."""
    expected = _record(config)["result"]
    without_data(tmp_path, monkeypatch, oc_library)
    (tmp_path / "config.py").write_text(_config(config), encoding="utf-8")
    work = tmp_path / "work"
    predictions = work / RUN / "predictions" / MODEL
    predictions.mkdir(parents=True)
    shutil.copy(ROOT / "predictions" / f"{ABBR}.json", predictions / f"{ABBR}.json")
    main(["eval", str(tmp_path / "config.py"), "-w", str(work), "-r", RUN, "--workers", "1"])
    result = json.loads((work / RUN / "results" / MODEL / f"{ABBR}.json").read_text(encoding="utf-8"))
    assert result["_meta"]["references"] == "gold"
    assert (result["score"], result["valid"]) == (expected["score"], expected["valid"])
    keys = ("pred", "constraints", "score", "correct", "valid_smiles")
    assert [{k: d.get(k) for k in keys} for d in result["details"]] == [{k: d.get(k) for k in keys} for d in expected["details"]]

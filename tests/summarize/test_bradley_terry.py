"""CompassArenaBradleyTerrySummarizer against OpenCompass 0.5.4's (``scripts/record_oc_subjective_pairwise.py``).

``tests/data/subjective/pairwise/bradley_terry/inputs.json`` holds the matches
OpenCompass's ``compassarena_subjectiveeval_bradleyterry_postprocess`` wrote for
three models against one base model on two datasets; each case beside it the
summarizer's options, what it returned and the files it wrote.  assay writes the same files with the same
rows, columns and order; the fitted numbers agree within the stated
tolerances (OpenCompass's optimizer stops near the exact fit assay computes):
ratings within 0.05, predicted win rates (4 decimals) within one unit of the last, coefficients within 1e-3.
Without style control OpenCompass seeds its bootstrap as assay does, so the
intervals, ``std_dev`` and ``ranking_ub`` agree too; with it OpenCompass's are
drawn unseeded and only their shape is checked.
"""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from assay.errors import ConfigError
from assay.registry import SUMMARIZERS

ROOT = Path(__file__).resolve().parent.parent / "data" / "subjective" / "pairwise" / "bradley_terry"
CASES = sorted(p.name for p in ROOT.iterdir() if p.is_dir())
RATING, RATE, COEF = 0.05, 1e-4 + 1e-12, 1e-3  # a win rate may round one unit of its 4th decimal apart
EXACT = ("dataset", "version", "base_model", "metric", "mode", "ranking", "model_name", "judge", "")


def _setup(case: str, work: Path) -> tuple[dict[str, Any], Any, Path]:
    folder = ROOT / case
    inputs = json.loads((ROOT / "inputs.json").read_text(encoding="utf-8"))
    inputs["options"] = json.loads((folder / "options.json").read_text(encoding="utf-8"))
    for rel, data in inputs["results"].items():
        path = work / "results" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, ensure_ascii=False, indent=4), encoding="utf-8")
    bases = [{"abbr": inputs["base"], "path": inputs["base"]}]
    models = [{"abbr": m, "path": m} for m in inputs["models"]]
    config = {"work_dir": str(work), "models": models, "summarizer": {},
              "datasets": [{"abbr": a, "base_models": bases, "infer_cfg": inputs["infer"][a]} for a in inputs["datasets"]],
              "judge_models": [{"abbr": inputs["judge"], "path": inputs["judge"]}],
              "eval": {"partitioner": {"models": models, "base_models": bases, "mode": "m2n"}}}
    returned = json.loads((folder / "returned.json").read_text(encoding="utf-8"))
    return inputs | {"config": config}, returned, folder / "files"


def _close(got: Any, want: Any, tol: float, where: str) -> None:
    if isinstance(want, dict):
        assert isinstance(got, dict) and list(got) == list(want), where
        for key in want:
            _close(got[key], want[key], tol, f"{where}/{key}")
    elif isinstance(want, list):
        assert got == want, where
    else:
        assert math.isclose(float(got), float(want), abs_tol=tol), f"{where}: {got} != {want}"


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _compare_table(got: str, want: str, *, seeded: bool, name: str) -> None:
    g, w = _rows(got), _rows(want)
    assert next(csv.reader(io.StringIO(got))) == next(csv.reader(io.StringIO(want))), name
    assert len(g) == len(w), name
    for i, (a, b) in enumerate(zip(g, w)):
        where = f"{name} row {i}"
        for col in b:
            if col in EXACT:
                assert a[col] == b[col], f"{where} {col}"
            elif col == "num_battles":
                assert float(a[col]) == float(b[col]), where
            elif col == "predicted_win_rate":
                assert math.isclose(float(a[col]), float(b[col]), abs_tol=RATE), f"{where} {col}"
            elif col == "rating" or seeded:
                tol = RATING if col != "ranking_ub" else 0
                assert math.isclose(float(a[col]), float(b[col]), abs_tol=tol), f"{where} {col}: {a[col]} != {b[col]}"
        lo, hi = float(a["rating_q025"]), float(a["rating_q975"])
        assert lo <= hi and float(a["std_dev"]) >= 0 and 1 <= int(a["ranking_ub"]) <= int(a["ranking"]), where


@pytest.mark.parametrize("case", CASES)
def test_summary_is_opencompass_s(case: str, tmp_path: Path) -> None:
    inputs, returned, files = _setup(case, tmp_path / "run")
    summarizer = SUMMARIZERS.get("CompassArenaBradleyTerrySummarizer")
    got = summarizer(inputs["config"], **inputs["options"]).summarize(time_str=inputs["time"])
    tol = RATE if inputs["options"].get("report_pred_win_rates", True) else RATING
    _close(got, returned, tol, "returned")
    out = tmp_path / "run" / "summary"
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in files.iterdir())
    seeded = inputs["options"].get("with_control_vars") is False
    for recorded in files.iterdir():
        mine = (out / recorded.name).read_text(encoding="utf-8")
        want = recorded.read_text(encoding="utf-8")
        if recorded.suffix == ".csv":
            _compare_table(mine, want, seeded=seeded, name=recorded.name)
        elif recorded.name.endswith("_all_scores.json"):
            _close(json.loads(mine), json.loads(want), tol, recorded.name)
        else:  # the coefficients: per dataset and base model, and of the fit over every dataset
            _close(json.loads(mine), json.loads(want), COEF, recorded.name)


def test_the_style_control_bootstrap_is_seeded(tmp_path: Path) -> None:
    """Two summaries of the same matches have the same intervals; another seed gives others."""
    inputs, _, _ = _setup("style", tmp_path / "run")
    summarizer = SUMMARIZERS.get("CompassArenaBradleyTerrySummarizer")
    table = tmp_path / "run" / "summary" / f"summary_{inputs['time']}_by_{inputs['judge']}.csv"
    texts = []
    for seed in (0, 0, 1):
        summarizer(inputs["config"], **inputs["options"], seed=seed).summarize(time_str=inputs["time"])
        texts.append(table.read_text(encoding="utf-8"))
    assert texts[0] == texts[1] and texts[0] != texts[2]


def test_a_dataset_without_base_models_is_named(tmp_path: Path) -> None:
    inputs, _, _ = _setup("plain", tmp_path / "run")
    inputs["config"]["datasets"][0].pop("base_models")
    with pytest.raises(ConfigError, match="casb_singleturn"):
        SUMMARIZERS.get("CompassArenaBradleyTerrySummarizer")(inputs["config"]).summarize(time_str=inputs["time"])


def test_its_files_are_not_taken_for_assay_s_summary(tmp_path: Path) -> None:
    """``assay report`` and ``verify`` read the newest ``summary_<time>.json``: the Bradley-Terry summary's own
    ``summary_<time>_all_scores.json`` (written later, sorted after it) is not that."""
    from assay.rundir.layout import RunDir

    inputs, _, _ = _setup("plain", tmp_path / "run")
    ours = tmp_path / "run" / "summary" / f"summary_{inputs['time']}.json"
    ours.parent.mkdir(parents=True)
    ours.write_text("{}", encoding="utf-8")
    SUMMARIZERS.get("CompassArenaBradleyTerrySummarizer")(inputs["config"], num_bootstrap=5).summarize(time_str=inputs["time"])
    assert RunDir(tmp_path / "run").newest_summary_json() == ours

"""``ArenaHardSummarizer`` against OpenCompass 0.5.4's on recorded result folders, and the Elo fit.

``tests/data/subjective/pairwise/summarizers/arenahard*/`` hold the raw judge
outputs of three models against a base model (``gpt4-0314``, the ratings'
anchor, and another one), their prediction files, what OpenCompass's summarizer
returned and the files it wrote.  The battles file is compared byte for byte;
in the files holding ratings every number that is not a rating is compared
exactly and the ratings (OpenCompass's optimizer stops within its tolerance of
the maximum-likelihood values assay computes) to 0.001.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest

from assay.registry import SUMMARIZERS
from assay.subjective.elo import bootstrap_elo, mle_elo, win_rate_against
from tests.subjective._recorded import config, summarizer_case, tokens_available, write_work_dir

CASES = ["arenahard", "arenahard_other_base"]
NUMBER = re.compile(r"-?\d+\.\d+(?:e-?\d+)?")


def _run(case: str, tmp_path: Path) -> tuple[Any, Any, Path, Path]:
    tokens_available()
    inputs, returned, files = summarizer_case(case)
    work = tmp_path / "outputs" / "run"
    write_work_dir(work, inputs)
    got = SUMMARIZERS.get(inputs["class"])(config(work, inputs), **inputs["options"]).summarize(time_str=inputs["time"])
    return got, returned, files, work / "summary" / inputs["time"]


@pytest.mark.parametrize("case", CASES)
def test_arena_hard_summarizer_writes_opencompass_files(case: str, tmp_path: Path) -> None:
    got, returned, files, out = _run(case, tmp_path)
    assert got == returned
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in files.iterdir())
    battles = "arena_hard_battles_judged-by--judge-model.jsonl"
    assert (out / battles).read_bytes() == (files / battles).read_bytes()
    for name in ("arena_hard_bootstrapping_results_judged-by--judge-model.jsonl",
                 "arena_hard_leaderboard_judged-by--judge-model.json", "arena_hard_leaderboard_judged-by--judge-model.csv"):
        # the same text with every number taken out: the layout, the keys, the models' order
        assert NUMBER.sub("#", (out / name).read_text()) == NUMBER.sub("#", (files / name).read_text()), name

    mine = json.loads((out / "arena_hard_leaderboard_judged-by--judge-model.json").read_text())
    theirs = json.loads((files / "arena_hard_leaderboard_judged-by--judge-model.json").read_text())
    for m, t in zip(mine, theirs):
        assert (m["model"], m["score"], m["lower"], m["upper"]) == (t["model"], t["score"], t["lower"], t["upper"])
        assert m["avg_tokens"] == pytest.approx(t["avg_tokens"], abs=1e-9)
        assert m["results"] == pytest.approx(t["results"], abs=1e-3)
    for line_m, line_t in zip((out / "arena_hard_bootstrapping_results_judged-by--judge-model.jsonl").read_text().splitlines(),
                              (files / "arena_hard_bootstrapping_results_judged-by--judge-model.jsonl").read_text().splitlines()):
        a, b = json.loads(line_m), json.loads(line_t)
        assert list(a) == list(b) and list(a.values()) == pytest.approx(list(b.values()), abs=1e-3)
    rows_m = list(csv.reader((out / "arena_hard_leaderboard_judged-by--judge-model.csv").open()))
    rows_t = list(csv.reader((files / "arena_hard_leaderboard_judged-by--judge-model.csv").open()))
    for m_row, t_row in zip(rows_m, rows_t):
        assert m_row[0] == t_row[0] and m_row[2:] == t_row[2:]


def test_arena_hard_summarizer_gives_none_for_a_model_without_results(tmp_path: Path) -> None:
    tokens_available()
    inputs, _, _ = summarizer_case("arenahard")
    work = tmp_path / "run"
    write_work_dir(work, inputs)
    cfg = config(work, inputs)
    cfg["eval"]["partitioner"]["models"].append({"abbr": "model-z", "path": "z"})
    got = SUMMARIZERS.get("ArenaHardSummarizer")(cfg).summarize(time_str="t")
    assert got["ArenaHard"]["judge-model"]["model-z"] is None  # as OpenCompass: the model without results is None
    assert got["ArenaHard"]["judge-model"]["model-a"] is not None


def test_elo_matches_a_direct_newton_free_check() -> None:
    """Two models: the maximum-likelihood rating difference has a closed form (win share p: 400·log10(p/(1−p)))."""
    battles = [("x", "y", "model_a")] * 3 + [("x", "y", "model_b")] + [("y", "x", "tie")] * 2
    # x's share of the doubled battles: wins 3×2, ties 2×1 of 12 games
    p = (3 * 2 + 2) / 12
    ratings = mle_elo(battles)
    assert ratings["x"] - ratings["y"] == pytest.approx(400 * __import__("math").log10(p / (1 - p)), abs=1e-9)
    assert (ratings["x"] + ratings["y"]) / 2 == pytest.approx(1000)
    rates = win_rate_against(ratings, "y")
    assert rates == {"x": round(100 * p, 2), "y": 50.0}


def test_elo_refuses_battles_of_one_outcome() -> None:
    with pytest.raises(ValueError, match="won by model_a"):
        mle_elo([("x", "y", "model_a"), ("y", "x", "model_a")])


def test_bootstrap_draws_the_resamplings_opencompass_draws() -> None:
    """``np.random.seed(42)`` then ``DataFrame.sample(frac=1, replace=True)`` draws [2, 3, 0, 2] first (recorded)."""
    battles = [("x", "y", "model_a"), ("x", "y", "model_b"), ("x", "y", "model_a"), ("y", "x", "tie")]
    first = bootstrap_elo(battles, 1)[0]
    assert first == mle_elo([battles[2], battles[3], battles[0], battles[2]])

"""assay's pairwise statistics: bootstrap intervals checked against a direct bootstrap, position bias, unparsed replies,
the section carried in the summary ``.json`` and shown in the report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from assay.errors import ConfigError
from assay.subjective.elo import mle_elo
from assay.subjective.pairwise import outcome_interval, pairwise_section
from assay.summarize.leaderboard import Leaderboard
from tests.subjective._recorded import config, summarizer_case, write_work_dir

QUESTIONS = ["q0", "q1", "q2", "q3"]


def _double(replies: list[str], base: str = "base", model: str = "m") -> dict[str, Any]:
    """A judge output of ``infer_order='double'``: the questions with ``base`` first, then again swapped."""
    out = {}
    n = len(QUESTIONS)
    for i, reply in enumerate(replies):
        first = i < n
        gold = {"question": QUESTIONS[i % n], "capability": "c", "answer1": base if first else model,
                "answer2": model if first else base, "base_models": [base]}
        out[str(i)] = {"prediction": reply, "gold": gold}
    return out


def _run(tmp_path: Path, output: dict[str, Any], dataset: dict[str, Any], **options: Any) -> dict[str, Any]:
    folder = tmp_path / "results" / "base_m_judged-by--j"
    folder.mkdir(parents=True)
    (folder / f"{dataset['abbr']}.json").write_text(json.dumps(output))
    cfg = {"work_dir": str(tmp_path), "models": [{"abbr": "m"}], "datasets": [{**dataset, "base_models": [{"abbr": "base"}]}],
           "judge_models": [{"abbr": "j"}], "eval": {"partitioner": {"models": [{"abbr": "m"}]}}}
    return pairwise_section(cfg, **options)


def test_position_bias_counts_questions_whose_verdict_follows_the_place(tmp_path: Path) -> None:
    # q0: A then A -> the judge picked the first place both times: the model lost, then won -> flip
    # q1: A then B -> base won both times: consistent; q2: tie, tie: consistent; q3: unreadable once: not compared
    replies = ["Choice: A", "Choice: A", "Choice: C", "Choice: B",
               "Choice: A", "Choice: B", "选择：C", "no verdict"]
    section = _run(tmp_path, _double(replies), {"abbr": "ca", "summarizer": {"type": "CompassArenaSummarizer"}}, rounds=50)
    (entry,) = section["entries"]
    assert entry["position_bias"] == {"pairs": 3, "flipped": 1, "rate": 1 / 3}
    assert (entry["samples"], entry["unparsed"], entry["unparsed_rate"]) == (8, 1, 1 / 8)
    # the model's outcomes: q0 0 then 1, q1 0 and 0, q2 .5 and .5, q3 1 (B in base-first order)
    assert (entry["wins"], entry["ties"], entry["losses"]) == (2, 2, 3)
    assert entry["win_rate"] == pytest.approx(100 * 3 / 7)


def test_win_rate_interval_is_a_seeded_percentile_bootstrap(tmp_path: Path) -> None:
    outcomes = [1.0, 0.0, 0.5, 1.0, 1.0, 0.0, 1.0]
    rate, interval = outcome_interval(outcomes, rounds=400, seed=7, confidence=0.9)
    rng = np.random.default_rng(7)
    values = np.array(outcomes)
    means = [values[rng.integers(0, len(values), len(values))].mean() * 100 for _ in range(400)]
    assert rate == pytest.approx(100 * sum(outcomes) / len(outcomes))
    assert interval == pytest.approx([np.percentile(means, 5), np.percentile(means, 95)])
    assert outcome_interval(outcomes, rounds=400, seed=7, confidence=0.9) == (rate, interval)  # seeded: the same again
    assert outcome_interval(outcomes, rounds=400, seed=8, confidence=0.9)[1] != interval


def test_arena_hard_entries_carry_elo_and_its_bootstrap(tmp_path: Path) -> None:
    replies = ["[[A>B]]", "[[B>A]]", "[[A=B]]", "[[B>>A]]", "[[A>>B]]", "[[A>B]]", "[[B>A]]", "[[A=B]]"]
    section = _run(tmp_path, _double(replies), {"abbr": "ah", "summarizer": {"type": "ArenaHardSummarizer"}}, rounds=30, seed=3)
    (entry,) = section["entries"]
    battles = []
    for i, reply in enumerate(replies):
        a, b = ("base", "m") if i < 4 else ("m", "base")
        verdict = reply[2:-2]
        winner = {"A>B": "model_a", "A>>B": "model_a", "B>A": "model_b", "B>>A": "model_b", "A=B": "tie"}[verdict]
        battles += [(a, b, winner)] * (3 if ">>" in verdict else 1)
    assert entry["elo"] == pytest.approx(mle_elo(battles)["m"])
    rng = np.random.RandomState(3)
    draws = [mle_elo([battles[int(i)] for i in rng.choice(len(battles), len(battles))])["m"] for _ in range(30)]
    assert entry["elo_interval"] == pytest.approx([np.percentile(draws, 2.5), np.percentile(draws, 97.5)])
    assert section["settings"] == {"rounds": 30, "seed": 3, "confidence": 0.95}


def test_the_recorded_compassarena_run_has_a_section_per_model(tmp_path: Path) -> None:
    inputs, _, _ = summarizer_case("compassarena")
    write_work_dir(tmp_path, inputs)
    cfg = config(tmp_path, inputs)
    cfg["datasets"][0]["summarizer"] = {"type": "CompassArenaSummarizer"}
    section = pairwise_section(cfg, rounds=100)
    assert [e["model"] for e in section["entries"]] == inputs["models"]
    assert all(e["position_bias"]["pairs"] > 0 and e["win_rate_interval"][0] <= e["win_rate"] <= e["win_rate_interval"][1]
               for e in section["entries"])


def test_bad_settings_are_named() -> None:
    with pytest.raises(ConfigError, match="rounds must be at least 1, got 0"):
        pairwise_section({"work_dir": "."}, rounds=0)


def test_the_section_goes_through_the_summary_json_into_the_report(tmp_path: Path) -> None:
    from assay.report import build_report_data, render_report

    entry = {"judge": "j", "dataset": "ah", "model": "m", "base": "gpt4-0314", "samples": 48, "unparsed": 2,
             "unparsed_rate": 2 / 48, "wins": 20, "ties": 6, "losses": 20, "win_rate": 50.0,
             "win_rate_interval": [40.25, 59.75], "position_bias": {"pairs": 20, "flipped": 3, "rate": 0.15},
             "elo": 1001.5, "elo_interval": [950.0, 1050.0]}
    board = Leaderboard(models=["m"], pairwise={"settings": {"rounds": 1000, "seed": 0, "confidence": 0.95}, "entries": [entry]})
    data = json.loads(json.dumps(board.to_json()))
    assert data["pairwise"]["entries"] == [entry]
    again = Leaderboard.from_json(data)
    assert again.pairwise == board.pairwise
    (tmp_path / "results").mkdir()
    page = render_report(build_report_data(tmp_path, again))
    assert 'id="pairwise"' in page
    assert ("m / ah (judge j): win rate 50.00 [40.25, 59.75] against gpt4-0314; Elo 1001.5 [950.0, 1050.0]; "
            "position bias: 3 of 20 questions flip when the answers swap (15.0%); 2 of 48 judge replies unparsed") in page


def test_the_summary_json_of_a_run_with_a_pairwise_dataset_has_the_section(tmp_path: Path) -> None:
    """``run_summarizer`` writes the section into the summary ``.json``; ``pairwise=False`` leaves it out."""
    from assay.summarize import run_summarizer

    inputs, _, _ = summarizer_case("wildbench")
    write_work_dir(tmp_path, inputs)
    cfg = config(tmp_path, inputs)
    cfg["datasets"][0]["summarizer"] = {"type": "WildBenchPairSummarizer"}
    cfg["summarizer"] = {"pairwise": {"rounds": 50, "seed": 1}}
    run_summarizer(cfg, time_str="20240101_000000", stats=False, index=False)
    (board,) = (tmp_path / "summary").glob("summary_*.json")
    section = json.loads(board.read_text())["pairwise"]
    assert section["settings"] == {"rounds": 50, "seed": 1, "confidence": 0.95}
    assert sorted({(e["base"], e["model"]) for e in section["entries"]}) == sorted(
        (b, m) for b in inputs["bases"] for m in inputs["models"])
    assert Leaderboard.from_json(board).pairwise == section
    cfg["summarizer"] = {"pairwise": False}
    run_summarizer(cfg, time_str="20240101_000001", stats=False, index=False)
    assert "pairwise" not in json.loads((tmp_path / "summary" / "summary_20240101_000001.json").read_text())

"""What a judged dataset shows in the summary ``.json`` and the HTML report.

A run of OpenCompass's subjective library configs (a single-score dataset, and
Arena-Hard judged in both orders) against a real local judge server that
reports token usage: each judged (model, dataset) gets its line with what the
judging cost (calls, tokens, cost at the configured price) and how many
samples were left unjudged, and each pairwise one its win rate and Elo with
their intervals and its position bias — with the default summarizer,
``SubjectiveSummarizer`` and ``DefaultSubjectiveSummarizer``.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.judge.fake_server import FakeJudge
from tests.subjective.test_oc_subjective import RUN, _run, _setup

PRICE = "price=dict(input=2.0, output=8.0)"


def _reply(messages: list[dict[str, Any]], attempt: int) -> tuple[str, str]:
    """Arena-Hard verdicts for the pairwise prompts (one unreadable in four), a rating for the others."""
    text = json.dumps(messages, ensure_ascii=False)
    n = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")
    if "[[A>B]]" in text or "A>>B" in text:
        return "reply", ("My final verdict is: [[A>B]]", "Verdict: [[B>A]]", "[[A=B]]", "no verdict")[n % 4]
    return "reply", ("Rating: [[7]]", "I cannot judge this.")[n % 2]


def _usage(prompt: str, text: str) -> dict[str, int]:
    return {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}


def _summary(case: str, oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, summarizer: str = "") -> tuple[dict, str]:
    record, work = _setup(case, tmp_path, monkeypatch, oc_library)
    record = dict(record, config=record["config"].replace("retry=2", f"retry=2, {PRICE}") + summarizer)
    # this judge's AlpacaEval replies hold no verdict AlpacaSummarizer reads, so that benchmark's summary cannot
    # be made: the run says so and exits 1, the other benchmarks summarized all the same
    fails = case == "pairwise" and "function='subjective'" in summarizer
    with FakeJudge(_reply, usage=_usage) as server:
        assert _run(record, work, tmp_path, server) == (1 if fails else 0)
    summary = work / RUN / "summary"
    found = list(summary.glob("summary_*.json"))  # DefaultSubjectiveSummarizer writes OpenCompass's files only
    (html_path,) = summary.glob("summary_*.html")
    data = json.loads(found[0].read_text(encoding="utf-8")) if found else None
    return data, html.unescape(html_path.read_text(encoding="utf-8"))


def _metas(work: Path) -> dict[tuple[str, str], dict[str, Any]]:
    found = {}
    for path in (work / RUN / "results").glob("*_judged-by--*/*.meta"):
        meta = json.loads(path.read_text(encoding="utf-8"))["_meta"]
        found[(meta["models"][-1], meta["dataset"])] = meta
    return found


def _note_items(page: str, note: str) -> list[str]:
    match = re.search(rf'<div class="note {note}"[^>]*>(.*?)</div>', page, re.S)
    assert match, f"the report has no {note}"
    return [re.sub(r"<[^>]+>", "", item) for item in re.findall(r"<li>(.*?)</li>", match.group(1), re.S)]


@pytest.mark.slow
@pytest.mark.parametrize("summarizer", ["", "\nfrom opencompass.summarizers import SubjectiveSummarizer\n"
                                            "summarizer = dict(type=SubjectiveSummarizer, function='subjective')\n",
                                        "\nfrom opencompass.summarizers import DefaultSubjectiveSummarizer\n"
                                        "summarizer = dict(type=DefaultSubjectiveSummarizer)\n"])
def test_pairwise_run_shows_cost_unjudged_bias_and_intervals(summarizer: str, oc_library: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    data, page = _summary("pairwise", oc_library, tmp_path, monkeypatch, summarizer)
    metas = _metas(tmp_path / "work")
    usage = {(u["model"], u["dataset"]): u["judge"] for u in data["judge_usage"]} if data is not None else None
    judge_lines = {tuple(item.split(": ", 1)[0].split(" / ")): item for item in _note_items(page, "judge-note")}
    for (model, dataset), meta in metas.items():
        calls = meta["judge"]["calls"]
        if usage is not None:
            assert usage[(model, dataset)]["unjudged"] == meta["unjudged"]["count"]
        line = judge_lines[(model, dataset)]
        assert f"tokens {100 * calls} in / {10 * calls} out" in line
        assert f"cost {(200 * calls + 80 * calls) / 1e6:.4g}" in line
        assert f"{meta['unjudged']['count']} of {meta['samples']} samples unjudged" in line
    pair_lines = {tuple(item.split(" (judge", 1)[0].split(" / ")): item for item in _note_items(page, "pairwise-note")}
    if data is None:
        assert {key[1] for key in pair_lines} == {"alpaca_eval", "arenahard"}
        assert all("Elo" in line and "flip" in line for key, line in pair_lines.items() if key[1] == "arenahard")
        return
    entries = {(e["model"], e["dataset"]): e for e in data["pairwise"]["entries"]}
    arena = [key for key in entries if key[1] == "arenahard"]
    assert arena
    for key in arena:
        entry, line = entries[key], pair_lines[key]
        assert entry["position_bias"] is not None and entry["elo_interval"] is not None
        lo, hi = entry["win_rate_interval"]
        assert f"win rate {entry['win_rate']:.2f} [{lo:.2f}, {hi:.2f}]" in line
        assert f"Elo {entry['elo']:.1f} [{entry['elo_interval'][0]:.1f}, {entry['elo_interval'][1]:.1f}]" in line
        bias = entry["position_bias"]
        assert f"{bias['flipped']} of {bias['pairs']} questions flip" in line


@pytest.mark.slow
def test_single_score_run_shows_cost_and_unjudged(oc_library: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data, page = _summary("single", oc_library, tmp_path, monkeypatch)
    metas = _metas(tmp_path / "work")
    assert metas
    usage = {(u["model"], u["dataset"]): u["judge"] for u in data["judge_usage"]}
    judge_lines = {tuple(item.split(": ", 1)[0].split(" / ")): item for item in _note_items(page, "judge-note")}
    for (model, dataset), meta in metas.items():
        assert usage[(model, dataset)]["calls"] == meta["judge"]["calls"]
        line = judge_lines[(model, dataset)]
        assert f"tokens {100 * meta['judge']['calls']} in" in line
        assert f"{meta['unjudged']['count']} of {meta['samples']} samples unjudged" in line

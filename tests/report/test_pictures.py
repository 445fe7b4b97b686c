"""The report's ranking pictures: well-formed SVG with titles, labels in ranking order, colours that mean something."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from assay.report._pictures import (
    LOSS,
    TIE,
    WIN,
    forest_plot,
    heatmap,
    pair_matrix,
    ranking_heatmap,
    text_width,
)

NS = {"s": "http://www.w3.org/2000/svg"}
S = "{http://www.w3.org/2000/svg}"


def _entry(model: str, value: float, rank: int, low_rank: int, high_rank: int, tier: int, **extra: Any) -> dict:
    return {"model": model, "value": value, "low": value - 5, "high": value + 5, "rank": rank,
            "rank_low": low_rank, "rank_high": high_rank, "tier": tier, **extra}


def _ranking() -> dict:
    return {"metric": "accuracy", "kind": "dataset", "models": [
        _entry("alpha", 81.5, 1, 1, 2, 1),
        _entry("beta <&> \"quoted\"", 79.0, 2, 1, 2, 1),
        _entry("gamma-" + "x" * 80, 60.25, 3, 3, 3, 2, note="d1@accuracy drawn from its interval (no details)"),
        {**_entry("delta", 40.0, 4, 4, 4, 3), "low": None, "high": None},
    ]}


def _texts(root: ET.Element) -> list[ET.Element]:
    return [t for t in root.iter(f"{S}text")]


def _text_of(node: ET.Element) -> str:
    return (node.text or "").strip()


def _assert_not_clipped(root: ET.Element) -> None:
    width = float(root.get("width"))
    for node in _texts(root):
        if node.get("transform") or not node.get("x"):
            continue
        x = float(node.get("x"))
        w = text_width(_text_of(node), float(node.get("font-size") or 12))
        anchor = node.get("text-anchor", "start")
        left, right = {"start": (x, x + w), "end": (x - w, x), "middle": (x - w / 2, x + w / 2)}[anchor]
        assert left >= 0 and right <= width + 0.5, (_text_of(node), left, right, width)


def test_forest_plot_lists_the_models_in_ranking_order_with_their_values() -> None:
    svg = forest_plot(_ranking(), "mmlu", ident="f1")
    root = ET.fromstring(svg)
    assert root.tag == f"{S}svg" and root.get("role") == "img" and root.get("aria-labelledby") == "f1-title f1-desc"
    assert root.find("s:title", NS).text == "mmlu: accuracy with intervals, ranked"
    assert "4 models ranked by mmlu" in root.find("s:desc", NS).text
    rows = root.findall(".//s:g[@class='forest-row']", NS)
    labels = [_text_of(r.findall("s:text", NS)[1]) for r in rows]
    assert labels[:2] == ["alpha", 'beta <&> "quoted"']
    assert labels[2].endswith("… *") and len(labels[2]) <= 50  # shortened, marked: its interval rests on a fallback
    assert labels[3] == "delta"
    ys = [float(r.findall("s:text", NS)[1].get("y")) for r in rows]
    assert ys == sorted(ys)
    assert [_text_of(r.findall("s:text", NS)[0]) for r in rows] == ["1–2", "1–2", "3", "4"]
    assert [_text_of(r.findall("s:text", NS)[2]) for r in rows] == ["81.50", "79.00", "60.25", "40.00"]
    titles = [r.find("s:title", NS).text for r in rows]
    assert "gamma-" + "x" * 80 in titles[2] and "drawn from its interval" in titles[2]
    # an interval line for every model that has one; the point further right for the higher value
    assert [len(r.findall("s:line", NS)) for r in rows] == [1, 1, 1, 0]
    cx = [float(r.find("s:circle", NS).get("cx")) for r in rows]
    assert cx == sorted(cx, reverse=True)
    # the tiers: alpha and beta share a shaded band, gamma's is not shaded, delta's is
    bands = [b for b in root.findall("s:rect", NS) if b.find("s:title", NS) is not None]
    assert [b.find("s:title", NS).text for b in bands] == ["tier 1", "tier 3"]
    assert float(bands[0].get("height")) == 2 * float(bands[1].get("height"))
    _assert_not_clipped(root)


def test_heatmap_orders_columns_caps_rows_and_colours_each_row_on_its_own_scale() -> None:
    models = ["m1", "m2", "m3"]
    rows = [(f"flat_{i}", {"m1": 50.0, "m2": 50.0, "m3": 50.0}) for i in range(5)]
    rows.insert(2, ("spread_a", {"m1": 90.0, "m2": 50.0, "m3": 10.0}))
    rows.append(("spread_b", {"m1": 0.2, "m2": 0.9, "m3": None}))
    root = ET.fromstring(heatmap(models, rows, title="values", ident="h", max_rows=2))
    row_labels = [_text_of(t) for t in _texts(root) if t.get("class") == "row-label"]
    assert row_labels == ["spread_a", "spread_b"]  # the rows that tell the models apart, in their order
    col_labels = [_text_of(t) for t in _texts(root) if t.get("class") == "col-label"]
    assert col_labels == models
    caption = [t for t in _texts(root) if t.get("class") == "caption"]
    assert _text_of(caption[0]) == "2 of 7 rows shown: those whose models' ranks differ most"
    assert "2 of 7 rows shown" in root.find("s:desc", NS).text
    cells = {r.find("s:title", NS).text: r.get("fill") for r in root.findall("s:rect", NS)
             if r.find("s:title", NS) is not None}
    assert cells["m1 / spread_a: 90.00"] == "#fde725" and cells["m3 / spread_a: 10.00"] == "#440154"
    assert cells["m2 / spread_b: 0.90"] == "#fde725" and cells["m1 / spread_b: 0.20"] == "#440154"
    assert cells["m3 / spread_b: no value"] == "#eeeeee"
    _assert_not_clipped(root)


def test_heatmap_of_a_ranking_takes_the_datasets_in_the_order_of_the_chosen_ranking() -> None:
    def ranking(kind: str, order: list[tuple[str, float]]) -> dict:
        return {"metric": "accuracy", "kind": kind,
                "models": [_entry(m, v, i + 1, i + 1, i + 1, i + 1) for i, (m, v) in enumerate(order)]}

    data = {"default": "avg", "rankings": {
        "avg": ranking("group", [("b", 70.0), ("a", 60.0), ("c", 50.0)]),
        "d1": ranking("dataset", [("a", 80.0), ("b", 70.0), ("c", 10.0)]),
        "d2": ranking("dataset", [("c", 90.0), ("b", 40.0)]),
    }}
    root = ET.fromstring(ranking_heatmap(data))
    assert [_text_of(t) for t in _texts(root) if t.get("class") == "col-label"] == ["b", "a", "c"]
    assert [_text_of(t) for t in _texts(root) if t.get("class") == "row-label"] == ["d1 (accuracy)", "d2 (accuracy)"]
    titles = [r.find("s:title", NS).text for r in root.findall("s:rect", NS) if r.find("s:title", NS) is not None]
    assert "a / d2 (accuracy): no value" in titles
    assert root.find("s:title", NS).text == "values of every dataset, models in the order of avg"


def test_pair_matrix_colours_and_letters_each_pair_with_a_legend() -> None:
    def c(result: str, p: float, delta: float) -> dict:
        return {"result": result, "p": p, "delta": delta, "test": "mcnemar-exact"}

    pairs = {"by": "mmlu", "metric": "accuracy", "models": ["a", "b <x>", "c"], "confidence": 0.95,
             "cells": [[None, c("win", 0.001, 12.0), c("win", 0.0001, 20.0)],
                       [c("loss", 0.001, -12.0), None, None],
                       [c("loss", 0.0001, -20.0), None, None]]}
    pairs["cells"][1][2] = c("tie", 0.4, 1.5)
    pairs["cells"][2][1] = c("tie", 0.4, -1.5)
    svg = pair_matrix(pairs, ident="pm")
    root = ET.fromstring(svg)
    assert root.find("s:title", NS).text == "paired comparisons by mmlu"
    assert "Holm" in root.find("s:desc", NS).text
    groups = {g.find("s:title", NS).text.split(":")[0]: g for g in root.findall("s:g", NS)
              if (g.get("class") or "").startswith("pair-")}
    assert set(groups) == {"a vs b <x>", "a vs c", "b <x> vs a", "b <x> vs c", "c vs a", "c vs b <x>"}
    for name, fill, letter in (("a vs b <x>", WIN, "W"), ("b <x> vs a", LOSS, "L"), ("b <x> vs c", TIE, "T")):
        g = groups[name]
        assert g.find("s:rect", NS).get("fill") == fill and _text_of(g.find("s:text", NS)) == letter
    assert "difference 12.00" in groups["a vs b <x>"].find("s:title", NS).text
    legend = {g.get("class"): g for g in root.findall("s:g", NS) if (g.get("class") or "").startswith("legend-")}
    assert {k: g.find("s:rect", NS).get("fill") for k, g in legend.items()} == {
        "legend-win": WIN, "legend-tie": TIE, "legend-loss": LOSS}
    assert [_text_of(g.findall("s:text", NS)[1]) for g in legend.values()] == [
        "row model significantly better", "no significant difference", "row model significantly worse"]
    # row labels top to bottom and column labels left to right in the ranking's order
    rows = [t for t in _texts(root) if t.get("class") == "row-label"]
    assert [_text_of(t) for t in rows] == ["a", "b <x>", "c"]
    cols = [t for t in _texts(root) if t.get("class") == "col-label"]
    assert [_text_of(t) for t in cols] == ["a", "b <x>", "c"]
    width = float(root.get("width"))
    for t in cols:  # rotated column labels end inside the picture
        x = float(t.get("transform").split("(")[1].split(",")[0])
        assert x + text_width(_text_of(t)) * math.cos(math.radians(60)) <= width
    _assert_not_clipped(root)


def test_a_pair_that_cannot_be_tested_is_marked(tmp_path: Path) -> None:
    pairs = {"by": "g", "metric": "naive_average", "models": ["a", "b"], "confidence": 0.95,
             "cells": [[None, None], [None, None]]}
    root = ET.fromstring(pair_matrix(pairs))
    untested = [g for g in root.findall("s:g", NS) if g.find("s:title", NS) is not None
                and "not testable" in g.find("s:title", NS).text]
    assert len(untested) == 2 and all(_text_of(g.find("s:text", NS)) == "–" for g in untested)


def test_pictures_of_a_run_ranking(tmp_path: Path) -> None:
    from assay.rundir.ranking import run_ranking
    from assay.rundir.statistics import run_stats
    from assay.summarize import leaderboard_of
    from tests.stats.workdir_builder import make_run

    run = make_run(tmp_path)
    view = leaderboard_of(None, run)
    data = run_ranking(run, view, run_stats(run, view), rounds=200)
    forest = ET.fromstring(forest_plot(data["rankings"]["overall"], "overall"))
    assert [_text_of(r.findall("s:text", NS)[1]) for r in forest.findall(".//s:g[@class='forest-row']", NS)] == [
        "m1", "m2"]
    heat = ET.fromstring(ranking_heatmap(data))
    assert [_text_of(t) for t in _texts(heat) if t.get("class") == "row-label"][:2] == [
        "mcq (accuracy)", "qa (accuracy)"]
    matrix = ET.fromstring(pair_matrix(data["pairs"]))
    assert [_text_of(t) for t in _texts(matrix) if t.get("class") == "row-label"] == ["m1", "m2"]

"""Rank intervals and paired comparisons of a run directory's leaderboard (``run_ranking``)."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

import assay.rundir.ranking as ranking_module
from assay.rundir.ranking import run_ranking
from assay.rundir.statistics import run_stats
from assay.summarize import leaderboard_of
from tests.stats.workdir_builder import TIME, make_run


def _summary(run: Path) -> dict:
    return json.loads((run / "summary" / f"summary_{TIME}.json").read_text())


def test_every_top_level_group_and_dataset_is_ranked_with_the_summary_values(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    view = leaderboard_of(None, run)
    out = run_ranking(run, view, run_stats(run, view), rounds=300)
    # "core" is an input of "overall": not a column to rank by; the last top-level group is the default
    assert list(out["rankings"]) == ["core_weighted", "spread", "overall", "mcq", "qa", "rep", "summ", "mcc", "broken"]
    assert out["default"] == "overall"
    scores = _summary(run)["scores"]
    for abbr, ranking in out["rankings"].items():
        assert {"metric", "kind", "rounds", "seed", "confidence", "models", "ties", "note"} <= set(ranking)
        assert ranking["kind"] == ("group" if abbr in ("core_weighted", "spread", "overall") else "dataset")
        assert ranking["rounds"] == 300
        for entry in ranking["models"]:
            assert entry["value"] == scores[entry["model"]][abbr][ranking["metric"]]
            assert entry["rank_low"] <= entry["rank"] <= entry["rank_high"]
            if entry["low"] is not None:
                assert entry["low"] <= entry["high"]
    overall = out["rankings"]["overall"]
    assert [m["model"] for m in overall["models"]] == ["m1", "m2"]
    assert overall["metric"] == "naive_average"
    mcc = out["rankings"]["mcc"]["models"]
    assert all("held at its value" in m["note"] and "matthews_correlation" in m["note"] for m in mcc)
    broken = out["rankings"]["broken"]
    assert [m["model"] for m in broken["models"]] == ["m1"]
    assert broken["left_out"][0]["model"] == "m2" and "boom" in broken["left_out"][0]["reason"]
    pairs = out["pairs"]
    assert pairs["by"] == "overall" and pairs["models"] == ["m1", "m2"]
    assert pairs["cells"][0][0] is None and pairs["cells"][0][1]["result"] in ("win", "tie", "loss")
    assert pairs["cells"][1][0]["delta"] == -pairs["cells"][0][1]["delta"]
    json.dumps(out, allow_nan=False)  # JSON-ready


def test_per_sample_values_kept_by_the_statistics_give_the_same_rankings(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    view = leaderboard_of(None, run)
    from_details = run_ranking(run, view, run_stats(run, view), rounds=200)
    kept = run_stats(run, view, keep_samples=True)
    assert kept.samples
    assert run_ranking(run, view, kept, rounds=200) == from_details


def test_statistics_given_as_a_function_are_computed_only_for_a_cell_without_per_sample_values(tmp_path: Path) -> None:
    """Rankings given a function for the statistics call it once, when a cell without per-sample values needs its
    fallback, and are then those ranked with the statistics given; rankings of cells that all have per-sample values
    never call it."""
    run = make_run(tmp_path)
    view = leaderboard_of(None, run)
    stats = run_stats(run, view)
    calls: list[int] = []

    def later() -> object:
        calls.append(1)
        return stats

    want = run_ranking(run, view, stats, rounds=200)
    assert any(e.get("note") for r in want["rankings"].values() for e in r["models"])  # cells held at their values
    assert run_ranking(run, view, later, rounds=200) == want
    assert calls == [1]
    calls.clear()
    assert run_ranking(run, view, later, rounds=200, only=["mcq"], by="mcq") == run_ranking(
        run, view, stats, rounds=200, only=["mcq"], by="mcq")
    assert calls == []


def test_per_sample_values_come_from_the_stats_files_without_reading_the_details(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.rundir.results import content_digest
    from assay.rundir.sidecar import prediction_columns, save_stats

    run = make_run(tmp_path)
    view = leaderboard_of(None, run)
    stats = run_stats(run, view)
    want = run_ranking(run, view, stats, rounds=200)
    for path in sorted((run / "results").glob("*/*.json")):
        folder, abbr = path.parent.name, path.stem
        save_stats(path, content_digest(path), abbr, partial(prediction_columns, run, folder, abbr))

    def no_reading(*args: object) -> None:
        raise AssertionError(f"the result {args} was read")

    monkeypatch.setattr(ranking_module, "read_full_result", no_reading)
    assert run_ranking(run, view, stats, rounds=200) == want


def _with_stats_files(run: Path) -> None:
    from assay.rundir.results import content_digest
    from assay.rundir.sidecar import prediction_columns, save_stats

    for path in sorted((run / "results").glob("*/*.json")):
        folder, abbr = path.parent.name, path.stem
        save_stats(path, content_digest(path), abbr, partial(prediction_columns, run, folder, abbr))


def _no_reading(monkeypatch: pytest.MonkeyPatch, run: Path) -> None:
    """Reading a result's details or a ``.stats`` file fails from now on."""

    def no_reading(*args: object) -> None:
        raise AssertionError(f"the result {args} was read")

    monkeypatch.setattr(ranking_module, "read_full_result", no_reading)
    for stats in (run / "results").glob("*/*.stats"):
        stats.unlink()


def test_per_sample_values_come_from_the_run_index_without_reading_any_file(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.rundir.statistics import index_run

    run = make_run(tmp_path)
    view = leaderboard_of(None, run)
    stats = run_stats(run, view)
    want = run_ranking(run, view, stats, rounds=200)
    _with_stats_files(run)
    index_run(run)  # as `assay index` leaves a run: every result's samples in the index
    _no_reading(monkeypatch, run)
    assert run_ranking(run, view, stats, rounds=200) == want


def test_per_sample_values_already_looked_up_are_not_looked_up_again(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.rundir.index import Snapshot
    from assay.rundir.statistics import index_run, index_snapshot

    run = make_run(tmp_path)
    view = leaderboard_of(None, run)
    stats = run_stats(run, view)
    want = run_ranking(run, view, stats, rounds=200)
    _with_stats_files(run)
    index_run(run)
    snapshot = index_snapshot(run)
    assert snapshot is not None
    held = snapshot.current_samples(f"{model}/{abbr}.json" for model in view.models for abbr in view.dataset_abbrs)
    assert held
    _no_reading(monkeypatch, run)

    def no_lookup(*args: object) -> None:
        raise AssertionError(f"{args} looked up again")

    monkeypatch.setattr(Snapshot, "samples", no_lookup)
    assert run_ranking(run, view, stats, rounds=200, snapshot=snapshot, held=held) == want


def test_an_index_without_samples_takes_them_from_the_stats_files_once(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from assay.rundir.statistics import index_run

    run = make_run(tmp_path)
    view = leaderboard_of(None, run)
    stats = run_stats(run, view)
    want = run_ranking(run, view, stats, rounds=200)
    _with_stats_files(run)
    index_run(run)
    with sqlite3.connect(run / "index.sqlite") as con:  # an index written before it kept samples
        con.execute("DROP TABLE samples")
    assert run_ranking(run, view, stats, rounds=200) == want  # from the .stats files, kept in the index
    _no_reading(monkeypatch, run)
    assert run_ranking(run, view, stats, rounds=200) == want


def test_by_chooses_the_compared_column_and_an_unknown_one_is_named(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    view = leaderboard_of(None, run)
    stats = run_stats(run, view)
    out = run_ranking(run, view, stats, by="mcq", rounds=200, top=1)
    assert out["default"] == "overall" and out["pairs"]["by"] == "mcq" and out["pairs"]["models"] == ["m1"]
    out = run_ranking(run, view, stats, by="mcq", rounds=200)
    assert out["pairs"]["cells"][0][1]["test"] == "mcnemar-exact"
    with pytest.raises(ValueError, match=r"cannot rank by 'core'.*overall"):
        run_ranking(run, view, stats, by="core")


def test_a_run_without_groups_defaults_to_the_first_dataset_row(tmp_path: Path) -> None:
    run = make_run(tmp_path, summarize=False)
    from assay.summarize import run_summarizer
    from tests.stats.workdir_builder import run_config

    config = run_config(run)
    config["summarizer"] = {"dataset_abbrs": ["qa", "mcq", "rep"]}
    run_summarizer(config, time_str=TIME)
    view = leaderboard_of(None, run)
    out = run_ranking(run, view, run_stats(run, view, config=config), config=config, rounds=100)
    assert out["default"] == "qa"
    # the table's rows first, then the other datasets
    assert list(out["rankings"]) == ["qa", "mcq", "rep", "summ", "mcc", "broken"]
    assert out["pairs"]["by"] == "qa"


def test_only_the_columns_asked_for_are_ranked(tmp_path: Path) -> None:
    run = make_run(tmp_path)
    view = leaderboard_of(None, run)
    stats = run_stats(run, view)
    full = run_ranking(run, view, stats, rounds=200)
    out = run_ranking(run, view, stats, rounds=200, only=["qa"])
    assert list(out["rankings"]) == ["overall", "qa"]  # the default column is ranked for the comparisons
    assert out["rankings"]["qa"] == full["rankings"]["qa"] and out["pairs"] == full["pairs"]
    with pytest.raises(ValueError, match="cannot rank by 'nope'"):
        run_ranking(run, view, stats, only=["nope"])


def test_an_index_partly_written_by_the_version_before_is_read_without_any_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Results whose samples an older version put in the run index (per-sample values as compressed JSON)
    and results this version indexed (packed) give the same rankings, read from the index alone."""
    from assay.rundir.statistics import index_run
    from tests.rundir.old_index import rewrite_as_layout_1

    run = make_run(tmp_path)
    view = leaderboard_of(None, run)
    stats = run_stats(run, view)
    want = run_ranking(run, view, stats, rounds=200)
    _with_stats_files(run)
    index_run(run)
    assert rewrite_as_layout_1(run) > 0
    _no_reading(monkeypatch, run)
    assert run_ranking(run, view, stats, rounds=200) == want


def test_a_datasets_packed_values_are_read_together_the_same_as_one_by_one(tmp_path: Path) -> None:
    """The per-sample values the run index keeps packed alike for the models of a dataset are read as one array a
    (dataset, metric) — counts of right answers of one run and of four, and floats — and every model's values are
    those read from its own result (the same numbers, bit for bit); a result whose values are not alike the
    others' (here: another number of runs) is read by itself."""
    from assay.rundir.ranking import sample_values_of
    from assay.rundir.statistics import index_run, index_snapshot
    from assay.rundir.stats_index import sample_values_in
    from assay.stats import SampleStore

    run = make_run(tmp_path)
    _with_stats_files(run)
    index_run(run)
    snapshot = index_snapshot(run)
    assert snapshot is not None
    view = leaderboard_of(None, run)
    rels = {(m, a): f"{m}/{a}.json" for m in view.models for a in view.dataset_abbrs}
    held = snapshot.current_samples(rels.values())
    cells = [(abbr, metric) for abbr in view.dataset_abbrs for metric in view.metrics.get(abbr, [])]
    values, reasons = sample_values_of(run, view, cells, held=held, snapshot=snapshot)
    assert isinstance(values, SampleStore)
    together = {(a, m) for a, m in cells if values.block_of(a, m) is not None}
    assert {"mcq", "qa", "rep", "summ"} <= {a for a, _ in together}, together
    assert {values.block_of(a, m).runs for a, m in together} == {1, 4}  # type: ignore[union-attr]
    one_by_one, why = sample_values_of(run, view, cells)  # from the .stats files, each result by itself
    assert sorted(values) == sorted(one_by_one) and reasons == why
    for model, abbr, metric in values:
        got, own = values[(model, abbr, metric)], sample_values_in(*held[rels[(model, abbr)]][1:])
        assert own is not None
        want = own[1][metric]
        assert (got.kind, got.scale, got.runs, got.basis) == (want.kind, want.scale, want.runs, want.basis)
        assert got.units.dtype == want.units.dtype and got.units.tobytes() == want.units.tobytes()
        assert got.units.tobytes() == one_by_one[(model, abbr, metric)].units.tobytes()
    block = values.block_of("rep", view.metrics["rep"][0])
    assert block is not None and not block.units.flags.writeable and block.runs == 4
    # a result whose values are packed otherwise than the others' (as of 2 runs): read apart, the others together
    rel = f"{view.models[1]}/rep.json"
    digest, settings, data = held[rel]
    head_end = data.index(b"\n", 4)
    changed = data[:4] + data[4:head_end].replace(b'"mean",100.0,4,', b'"mean",100.0,2,') + data[head_end:]
    assert changed != data and len(changed) == len(data)
    values, _ = sample_values_of(run, view, cells, held={**held, rel: (digest, settings, changed)}, snapshot=snapshot)
    metric = view.metrics["rep"][0]
    block = values.block_of("rep", metric)  # type: ignore[attr-defined]
    assert block is not None and block.models == [view.models[0]]
    apart = values[(view.models[1], "rep", metric)]
    assert apart.runs == 2
    assert apart.units.tobytes() == (one_by_one[(view.models[1], "rep", metric)].units * 4 / 2).tobytes()

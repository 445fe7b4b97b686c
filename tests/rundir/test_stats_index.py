"""How the run index keeps a result's statistics: keyed by the values they were computed for, passed through unparsed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from assay.stats import StatsOptions


def test_statistics_in_the_index_pass_through_only_for_their_values_and_when_finite() -> None:
    """The run index keeps each result's statistics keyed by the values they were computed for; a
    summary takes them unparsed only for exactly those values, and never when they hold NaN."""
    import orjson

    from assay.rundir.index import DIGEST, STATS, STATS_DIGESTS, STATS_SETTINGS, Snapshot
    from assay.rundir.stats_index import index_lookup, index_settings, index_stats, indexed_output
    from assay.stats import CellStat, ResultStats, Unscorable

    options = StatsOptions()
    finite = ResultStats({"accuracy": CellStat(50.0, 5.0, 40.0, 60.0, "wilson")}, {}, Unscorable(total=10, unextracted=1))
    odd = ResultStats({"accuracy": CellStat(50.0, float("nan"), None, None, "t")}, {}, None)

    def snapshot_with(data: bytes) -> Snapshot:
        row: list[Any] = [None] * (STATS + 1)
        row[DIGEST] = row[STATS_DIGESTS] = "d"
        row[STATS_SETTINGS], row[STATS] = index_settings(options), data
        return Snapshot(Path("."), rows={"m/a.json": tuple(row)})

    _, data = index_stats(options, finite)
    lookup = index_lookup(snapshot_with(data), options)
    found = lookup("m", "a", {"accuracy": 50.0})
    assert found is not None
    assert orjson.loads(found[0]) == {"accuracy": finite.cells["accuracy"].to_json()}
    assert found[1] is not None and orjson.loads(found[1]) == {"total": 10, "unextracted": 1}
    assert lookup("m", "a", {"accuracy": 51.0}) is None  # other values: computed again
    assert lookup("m", "a", {"accuracy": 50.0, "f1": 1.0}) is None
    assert lookup("m", "b", {"accuracy": 50.0}) is None

    _, data = index_stats(options, odd)
    assert index_lookup(snapshot_with(data), options)("m", "a", {"accuracy": 50.0}) is None  # JSON cannot spell NaN
    out = indexed_output(data, {"accuracy": 50.0})
    assert out is not None and out.cells["accuracy"].method == "t" and out.cells["accuracy"].se != out.cells["accuracy"].se


def _saved(samples: dict[str, Any], columns: Any = None) -> Any:
    from assay.rundir.sidecar import REPORT_OPTIONS, SavedStats
    from assay.stats import ResultStats

    values = {m: float(sv["scale"]) * sum(sv["units"]) / len(sv["units"]) for m, sv in samples.items()}
    return SavedStats("0" * 64, None, REPORT_OPTIONS, values, ResultStats(columns=columns), samples, {"bleu": "corpus"})


def test_per_sample_values_in_the_index_are_packed_and_come_back_to_the_last_bit() -> None:
    """Counts of right answers take a byte a sample in the run index, other values eight; every value is
    read back exactly as the statistics computed it, the metrics without per-sample values with why."""
    import random

    from assay.rundir.stats_index import index_samples, sample_values_in

    rng = random.Random(3)
    n = 1000
    samples = {
        "accuracy": {"kind": "binary", "units": [float(rng.random() < 0.6) for _ in range(n)], "scale": 100.0,
                     "runs": 1, "basis": "correct"},
        "pass@3": {"kind": "mean", "units": [rng.randrange(4) / 3 for _ in range(n)], "scale": 100.0, "runs": 3,
                   "basis": "correct"},
        "score": {"kind": "mean", "units": [rng.random() for _ in range(n - 1)] + [float("nan")], "scale": 1.0,
                  "runs": 1, "basis": "score"},
    }
    settings, data = index_samples(_saved(samples))
    # one byte a sample for each count, eight for the others: nothing like the JSON of the values
    assert len(data) < 2 * n + 8 * n + 600
    values, found, no_samples = sample_values_in(settings, data)
    assert no_samples == {"bleu": "corpus"}
    assert values["accuracy"] == _saved(samples).values["accuracy"]
    for metric, sv in samples.items():
        got = found[metric]
        assert (got.kind, got.scale, got.runs, got.basis) == (sv["kind"], sv["scale"], sv["runs"], sv["basis"])
        assert got.units.dtype == "float64"
        assert got.units.tobytes() == __import__("numpy").asarray(sv["units"], dtype=float).tobytes(), metric



def test_per_sample_values_computed_under_other_statistics_rules_are_not_read() -> None:
    """Per-sample values the index holds from other statistics rules (an older version of assay) are not
    used by the readers, whatever the layout: they would give the rank intervals other numbers."""
    from assay.rundir.stats_index import index_samples, sample_values_in, sample_values_reader, samples_settings

    sv = {"kind": "binary", "units": [1.0, 0.0], "scale": 100.0, "runs": 1, "basis": "correct"}
    settings, data = index_samples(_saved({"accuracy": sv}))
    layout, _, limit = settings.partition(" ")
    major, _, rules = layout.partition(".")
    other = f"{major}.{int(rules) + 1} {limit}"
    read = sample_values_reader()
    assert read(settings, data) is not None
    assert read(other, data) is None
    assert sample_values_in(other, data) is None
    assert read(samples_settings(80), data) is not None  # the text limit is not the values' concern


def test_negative_zero_per_sample_values_come_back_with_their_sign() -> None:
    """A per-sample value of -0.0 is not stored as a count of right answers: it is read back as -0.0."""
    import numpy as np

    from assay.rundir.stats_index import index_samples, sample_values_in

    for runs, units in ((1, [-0.0, 1.0, 0.0]), (3, [-0.0, 1 / 3, 2 / 3])):
        sv = {"kind": "mean", "units": units, "scale": 100.0, "runs": runs, "basis": "correct"}
        settings, data = index_samples(_saved({"accuracy": sv}))
        got = sample_values_in(settings, data)
        assert got is not None
        assert got[1]["accuracy"].units.tobytes() == np.asarray(units, dtype=float).tobytes(), runs
        assert np.signbit(got[1]["accuracy"].units[0])


def test_the_browsers_columns_are_counted_before_their_stream_and_garbage_reads_as_none() -> None:
    """Layout 3 keeps the number of samples before the compressed columns (read without decompressing them), a
    result without columns a number that says so; cut or foreign bytes read as no columns, never as others."""
    from assay.rundir.stats_index import column_parts, index_samples, packed_columns
    from assay.stats import SampleColumns

    sv = {"kind": "binary", "units": [1.0, 0.0, 1.0], "scale": 100.0, "runs": 1, "basis": "correct"}
    columns = SampleColumns(["a", "b", "c"], ["A", "B", "C"], ["x", "y", "z"], ["A", "C", "C"], [1.0, 0.0, 1.0])
    _, data = index_samples(_saved({"accuracy": sv}, columns))
    n, stream = packed_columns(data)
    assert n == 3 and stream is not None
    assert column_parts(data) == (3, b'["a","b","c"]', b'["A","B","C"]', b'["x","y","z"]', b'["A","C","C"]',
                                  b"[1.0,0.0,1.0]")
    _, none = index_samples(_saved({"accuracy": sv}))
    assert packed_columns(none) == (0, None) and column_parts(none) is None
    for bad in (data[:-7], data[: len(data) - len(stream) + 3], b"", b"\x00\x00", b"\x00\x00\x00\x09abc"):
        assert column_parts(bad) is None


def test_the_locator_and_the_reader_read_the_same_results_and_refuse_the_same_garbage() -> None:
    """Where the rankings join many results' packed values (:func:`sample_units_locator`), they find what the
    one-by-one reader reads, and nothing where it reads nothing: a packing it does not know, a cut or longer
    value part, a head that is not JSON."""
    from assay.rundir.stats_index import index_samples, sample_units_locator, sample_values_reader

    sv = {"kind": "mean", "units": [0.25, 1.0, 0.5], "scale": 100.0, "runs": 4, "basis": "correct"}
    settings, data = index_samples(_saved({"accuracy": sv}))
    read, locate = sample_values_reader(), sample_units_locator()
    got, placed = read(settings, data), locate(settings, data)
    assert got is not None and placed is not None
    values, places, start = placed
    (_, _, runs, _, packing, count), begin, stop = places["accuracy"]
    assert values == got[0] and (runs, packing, count) == (4, "u1", 3) and data[start + begin:start + stop] == b"\x01\x04\x02"
    end = 4 + int.from_bytes(data[:4], "big")
    head_end = data.index(b"\n", 4)
    garbage = [
        data[:head_end].replace(b'"u1"', b'"u2"') + data[head_end:],  # a packing this version does not know
        data[:4] + b"[" + data[5:],  # a head that is not JSON
        (end - 5).to_bytes(4, "big") + data[4:],  # the values part cut by the length given
        (end - 3).to_bytes(4, "big") + data[4:],  # longer than the head says
    ]
    for bad in garbage:
        assert read(settings, bad) is None and locate(settings, bad) is None, bad[:60]

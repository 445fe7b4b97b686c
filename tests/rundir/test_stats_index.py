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

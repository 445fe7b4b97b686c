"""A run index's samples as earlier versions wrote them: before the number of samples was kept beside the
compressed columns (layout 2), and before the per-sample values were packed (layout 1)."""

from __future__ import annotations

import sqlite3
import zlib
from pathlib import Path

import orjson


def as_layout_1(settings: str, data: bytes) -> tuple[str, bytes]:
    """One result's samples (``settings``, ``data`` of this version's layout) in layout 1: the per-sample
    values as compressed JSON, then the browser's columns compressed."""
    from assay.rundir.stats_index import column_parts, sample_values_in

    found = sample_values_in(settings, data)
    assert found is not None
    values, samples, no_samples = found
    first = zlib.compress(orjson.dumps({"values": values, "samples": {m: sv.to_json() for m, sv in samples.items()},
                                        "no_samples": no_samples}), 1)
    parts = column_parts(data)
    columns = b"null" if parts is None else b"\n".join([str(parts[0]).encode(), *parts[1:]])
    return "1." + settings.partition(".")[2], len(first).to_bytes(4, "big") + first + zlib.compress(columns, 1)


def as_layout_2(settings: str, data: bytes) -> tuple[str, bytes]:
    """One result's samples (``settings``, ``data`` of this version's layout) in layout 2: the per-sample
    values as this version packs them, then the browser's columns compressed (``null`` when none), without
    their number of samples before them."""
    from assay.rundir.stats_index import column_parts

    end = 4 + int.from_bytes(data[:4], "big")
    parts = column_parts(data)
    columns = b"null" if parts is None else b"\n".join([str(parts[0]).encode(), *parts[1:]])
    return "2." + settings.partition(".")[2], data[:end] + zlib.compress(columns, 1)


def rewrite_as_layout_1(run: Path, every: int = 2, layout: int = 1) -> int:
    """Rewrite every ``every``-th result's samples in ``run``'s index in ``layout`` (1 or 2; as if an older
    version had indexed them, this one the others); how many were rewritten."""
    rewrite = as_layout_1 if layout == 1 else as_layout_2
    with sqlite3.connect(run / "index.sqlite") as con:
        rows = con.execute("SELECT path, settings, data FROM samples ORDER BY path").fetchall()
        old = [(*rewrite(settings, data), path) for path, settings, data in rows[::every]]
        con.executemany("UPDATE samples SET settings = ?, data = ? WHERE path = ?", old)
    return len(old)

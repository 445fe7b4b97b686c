"""The audit of a task scored in shards: the shards' audit records merged into one (R-9.2)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from assay.audit.record import AuditRecord

__all__ = ["ShardAudit", "merge_records"]

#: One shard's audit: its record (``None`` when the shard has none), its first sample, its samples and
#: its samples per subdivision.
ShardAudit = tuple[AuditRecord | None, int, int, Mapping[str, int]]


def merge_records(
    parts: Sequence[ShardAudit], merge_metrics: Callable[[list[tuple[dict[str, Any], int, Mapping[str, int]]]], dict[str, Any]]
) -> AuditRecord:
    """The audit of a task scored in shards, from each shard's audit.

    Counts add up, sample indices are shifted to the whole task's numbering
    and the would-be metrics are merged by ``merge_metrics`` — given each
    shard's ``(metrics, samples, samples per subdivision)``, as the shards'
    official metrics are merged.  A shard whose audit failed makes the
    merged record that failure; a shard without an audit (the shards
    disagree on the plan) is recorded as an error, never guessed.

    >>> from assay.audit.record import Reading
    >>> a = AuditRecord([], 2, 1, [1], [Reading(['x'], ['y'])], {'accuracy': 50.0})
    >>> b = AuditRecord([], 2, 0, [], [], {'accuracy': 100.0})
    >>> mean = lambda items: {'accuracy': sum(m['accuracy'] * s for m, s, _ in items) / sum(s for _, s, _ in items)}
    >>> merged = merge_records([(a, 0, 2, {}), (b, 2, 2, {})], mean)
    >>> merged.samples, merged.metrics
    ([1], {'accuracy': 75.0})
    """
    present = [record for record, _, _, _ in parts if record is not None]
    corrections = list(present[0].corrections) if present else []
    missing = [s for s, (record, _, _, _) in enumerate(parts) if record is None]
    if missing:
        return AuditRecord.failed(corrections, f"shards {missing} have no extraction audit")
    failed = [record.error for record in present if record.error is not None]
    if failed:
        return AuditRecord.failed(corrections, failed[0])
    records = [(record, lo, samples, subs) for record, lo, samples, subs in parts if record is not None]
    return AuditRecord(
        corrections,
        sum(record.replies for record, _, _, _ in records),
        sum(record.differ for record, _, _, _ in records),
        [lo + j for record, lo, _, _ in records for j in record.samples],
        [r for record, _, _, _ in records for r in record.readings],
        merge_metrics([(dict(record.metrics), samples, subs) for record, _, samples, subs in records]),
    )

"""The result-file format: one JSON object per (model, dataset).

A result file holds metric name → number, optional ``details`` (one entry per
sample), optional non-numeric extras, and assay's own bookkeeping under
``_meta`` (input fingerprint, assay version, timings).  A failed evaluation is
``{"error": "<message>", ...}`` (R-1.3).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from assay.errors import InputFileError
from assay.fileio import atomic_write_chunks, dumps_finite_json, loads_json, read_bytes, read_json

__all__ = [
    "DETAILS_CHUNK",
    "META_KEY",
    "METRIC_BLACKLIST",
    "METRIC_WHITELIST",
    "content_digest",
    "details_fragment",
    "details_last",
    "is_error",
    "merge_part_metrics",
    "numeric_metrics",
    "read_full_result",
    "read_result",
    "read_result_without_details",
    "result_head",
    "splice_details",
    "weighted_mean",
    "write_result",
    "write_result_keeping",
]

logger = logging.getLogger(__name__)

META_KEY = "_meta"

METRIC_WHITELIST: tuple[str, ...] = (
    "score",
    "auc_score",
    "accuracy",
    "humaneval_pass@1",
    "rouge1",
    "avg_toxicity_score",
    "bleurt_diff",
    "matthews_correlation",
    "truth",
    "f1",
    "exact_match",
    "extract_rate",
)
METRIC_BLACKLIST: frozenset[str] = frozenset({"bp", "sys_len", "ref_len", "type"})


#: Details are serialized this many samples at a time when a result is written.
DETAILS_CHUNK = 10_000


def write_result(
    path: str | os.PathLike[str], result: dict[str, Any], *, durable: bool = True, _kept: list[bytes] | None = None
) -> str:
    """Write a result dict atomically; long ``details`` are serialized a chunk at a time.

    Metrics and ``_meta`` come before ``details`` in the file, so that reading a
    result without its details never goes through them.  ``durable=False``
    skips the fsync (see :func:`~assay.fileio.atomic_write_bytes`).  Returns
    the :func:`content_digest` of the bytes written.

    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / 'r.json'
    >>> digest = write_result(p, {'details': [{'correct': [True]}, {'correct': [False]}], 'accuracy': 50.0})
    >>> list(read_result(p))
    ['accuracy', 'details']
    >>> digest == content_digest(p)
    True
    """
    result = details_last(result)
    details = result.get("details")
    if not isinstance(details, list) or len(details) <= DETAILS_CHUNK:
        chunks: Iterable[bytes] = (dumps_finite_json(result) + b"\n",)
    else:
        fragments = (details_fragment(details[i : i + DETAILS_CHUNK]) for i in range(0, len(details), DETAILS_CHUNK))
        chunks = splice_details({**result, "details": []}, fragments)
    digest = hashlib.sha256()

    def hashed() -> Iterator[bytes]:
        for chunk in chunks:
            digest.update(chunk)
            if _kept is not None:
                _kept.append(chunk)
            yield chunk

    atomic_write_chunks(path, hashed(), durable=durable)
    return digest.hexdigest()


def write_result_keeping(
    path: str | os.PathLike[str], result: dict[str, Any], *, durable: bool = True
) -> tuple[str, bytes]:
    """:func:`write_result`, also returning the bytes written (for a reader in the same process).

    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / 'r.json'
    >>> digest, data = write_result_keeping(p, {'accuracy': 50.0})
    >>> data == p.read_bytes() and digest == content_digest(p)
    True
    """
    kept: list[bytes] = []
    digest = write_result(path, result, durable=durable, _kept=kept)
    return digest, b"".join(kept)


def details_last(result: dict[str, Any]) -> dict[str, Any]:
    """``result`` with ``details`` (if any) moved after every other member.

    >>> list(details_last({'details': [], 'accuracy': 1, '_meta': {}}))
    ['accuracy', '_meta', 'details']
    """
    if "details" not in result or next(reversed(result)) == "details":
        return result
    out = {k: v for k, v in result.items() if k != "details"}
    out["details"] = result["details"]
    return out


def content_digest(path: str | os.PathLike[str]) -> str | None:
    """The SHA-256 of a file's bytes (hex), or ``None`` when it cannot be read.

    What a statistic computed from a result file is checked against: the
    content, never the file's size or times.

    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / 'r.json'
    >>> _ = p.write_bytes(b'{}')
    >>> content_digest(p)[:12]
    '44136fa355b3'
    """
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except OSError:
        return None


def read_result(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a result file; it must hold a JSON object."""
    data = read_json(path, what="result file")
    if not isinstance(data, dict):
        raise InputFileError(f"result file {Path(path)} must hold a JSON object, got {type(data).__name__}")
    return data


def is_error(result: dict[str, Any]) -> bool:
    """True when the result records a failed evaluation."""
    return "error" in result


def numeric_metrics(result: dict[str, Any]) -> dict[str, float | int]:
    """Top-level numeric metrics of a result, in file order.

    ``int``/``float`` values count, ``bool`` as 1/0; strings, lists, dicts,
    ``details``, ``_meta`` and the blacklisted keys do not.  Non-finite values are
    kept (callers decide how to show them).
    """
    out: dict[str, float | int] = {}
    for key, value in result.items():
        if key in METRIC_BLACKLIST or key == "details" or key == META_KEY:
            continue
        if isinstance(value, bool):
            out[key] = int(value)
        elif isinstance(value, (int, float)):
            out[key] = value
    return out


def order_metrics(names: list[str]) -> list[str]:
    """Whitelisted metrics first in whitelist order, then the rest in their given order."""
    rank = {m: i for i, m in enumerate(METRIC_WHITELIST)}
    return sorted(names, key=lambda m: rank.get(m, len(rank)))


# -- reading without details, split results --------------------------------------------


def read_result_without_details(
    path: str | os.PathLike[str], *, count_details: bool = False
) -> tuple[dict[str, Any], int | None]:
    """Read a result file, dropping ``details``; optionally count its entries.

    Result files may hold megabytes of per-sample details that a summary never
    shows.  When the file is pretty-printed JSON (as assay and OpenCompass write
    it), the top-level ``details`` member is cut out of the bytes and never
    parsed; its entries are counted from the line layout when asked.  Any other
    layout is parsed in full.  ``NaN``/``Infinity`` literals are accepted.

    Returns:
        ``(result without 'details', number of details entries or None)``; the
        count is ``None`` when there are no details or ``count_details`` is false.

    Raises:
        InputFileError: the file is missing, unreadable, not JSON or not an object;
            the message names the file.

    >>> import json, tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / 'r.json'
    >>> _ = p.write_text(json.dumps({'accuracy': 50, 'details': [{'c': 1}, {'c': 0}]}, indent=4))
    >>> read_result_without_details(p, count_details=True)
    ({'accuracy': 50}, 2)
    """
    p = os.fspath(path)
    return result_head(read_bytes(p, what="result file"), p, count_details=count_details)


def result_head(data: bytes, path: str, *, count_details: bool = False) -> tuple[dict[str, Any], int | None]:
    """:func:`read_result_without_details` of a result file's bytes, already read; ``path`` names it in errors.

    >>> result_head(b'{"accuracy": 1, "details": [{}, {}]}', 'r.json', count_details=True)
    ({'accuracy': 1}, 2)
    """
    p = path
    if len(data) > _SPLICE_THRESHOLD and b'"details"' in data:
        cut = _cut_details(data, count_details)
        if cut is not None:
            try:
                parsed = loads_json(cut[0])
            except ValueError:
                parsed = None
            if isinstance(parsed, dict) and "details" not in parsed:
                return parsed, cut[1]
    try:
        parsed = loads_json(data)
    except ValueError as exc:
        if not data.strip():
            raise InputFileError(f"result file {p} is empty") from None
        raise InputFileError(f"result file {p} is not valid JSON: {exc}") from None
    if not isinstance(parsed, dict):
        raise InputFileError(f"result file {p} must hold a JSON object, got {type(parsed).__name__}")
    details = parsed.pop("details", None)
    count = len(details) if count_details and isinstance(details, list) else None
    return parsed, count


# Below this size a full parse is as fast as cutting the details out.
_SPLICE_THRESHOLD = 1 << 16


def _cut_details(data: bytes, count: bool) -> tuple[bytes, int | None] | None:
    """``data`` without its top-level ``details`` member, or ``None`` when the layout is not recognised.

    Relies on pretty-printed JSON: each top-level member starts on its own line
    with the same indentation, deeper lines are indented further, and raw
    newlines cannot occur inside JSON strings.
    """
    brace = data.find(b"{")
    first_line = data.find(b"\n", brace) + 1
    if brace < 0 or first_line <= 0:
        return None
    quote = data.find(b'"', first_line)
    indent = data[first_line:quote]
    if not indent or indent.strip(b" "):
        return None
    key = b"\n" + indent + b'"details": '
    start = data.find(key)
    if start < 0:
        return None
    value_start = start + len(key)
    line_end = data.find(b"\n", value_start)
    if line_end < 0:
        return None
    head = data[value_start:line_end].rstrip(b"\r")
    n_entries: int | None = None
    if head in (b"[", b"{"):
        import re

        closing = b"\n" + indent + (b"]" if head == b"[" else b"}")
        # the first later line indented exactly like the top-level members closes `details`
        match = re.compile(rb"\n" + re.escape(indent) + rb"[^ \t]").search(data, value_start)
        if match is None or not data.startswith(closing, match.start()):
            return None
        end = match.start()
        after = end + len(closing)
        if count and head == b"[":
            element = re.compile(rb"\n" + re.escape(indent * 2) + rb"[^ \t\]}\r\n]")
            n_entries = sum(1 for _ in element.finditer(data, value_start, end + 1))
    else:
        after = line_end
        while after > value_start and data[after - 1 : after] in (b",", b"\r"):
            after -= 1
        if count and head.rstrip(b",") == b"[]":
            n_entries = 0
    if data[after : after + 1] == b",":
        return data[:start] + data[after + 1 :], n_entries
    # `details` was the last member: drop the comma that ended the previous one
    prev = data[:start].rstrip()
    if prev.endswith(b","):
        return prev[:-1] + data[after:], n_entries
    return prev + data[after:], n_entries


def read_full_result(run_dir: str | os.PathLike[str], model_dir: str, abbr: str) -> dict[str, Any] | None:
    """The result of ``model_dir``/``abbr`` in a run, with its details; split parts are concatenated.

    ``None`` when absent or unreadable (logged).
    """
    folder = Path(run_dir) / "results" / model_dir
    path = folder / f"{abbr}.json"
    try:
        if path.is_file():
            return read_result(path)
        parts = split_result_paths(folder, abbr)
        if not parts:
            return None
        merged: dict[str, Any] = {"details": []}
        for part in parts:
            result = read_result(part)
            if "error" in result:
                return result
            details = result.get("details")
            if not isinstance(details, list):
                merged.pop("details", None)
                break
            merged["details"].extend(details)
        return merged
    except Exception as exc:  # unreadable: the cell gets no statistics
        logger.info("cannot read %s: %s", path, exc)
        return None


def result_sample_count(result: dict[str, Any], details_count: int | None = None) -> int | None:
    """The number of samples behind a result: ``_meta.num_samples`` if present, else the details count.

    >>> result_sample_count({'accuracy': 1, '_meta': {'num_samples': 7}}, 5)
    7
    >>> result_sample_count({'accuracy': 1}, 5)
    5
    """
    meta = result.get(META_KEY)
    if isinstance(meta, dict):
        n = meta.get("num_samples")
        if isinstance(n, int) and not isinstance(n, bool) and n >= 0:
            return n
    return details_count


def split_result_paths(directory: str | os.PathLike[str], abbr: str, names: set[str] | None = None) -> list[Path]:
    """The split result files ``<abbr>_0.json, <abbr>_1.json, …`` of one dataset, in order.

    ``names`` (the file names in ``directory``) saves listing it again.  The
    parts must be contiguous from 0.

    Raises:
        InputFileError: a part is missing while a later one exists.

    >>> split_result_paths('.', 'ds', names={'ds_0.json', 'ds_1.json', 'other.json'})
    [PosixPath('ds_0.json'), PosixPath('ds_1.json')]
    """
    import re

    d = Path(directory)
    if names is None:
        try:
            names = {e.name for e in os.scandir(d)}
        except OSError:
            return []
    found = 0
    while f"{abbr}_{found}.json" in names:
        found += 1
    pattern = re.compile(re.escape(abbr) + r"_(\d+)\.json")
    later = sorted(int(m.group(1)) for n in names if (m := pattern.fullmatch(n)) and int(m.group(1)) >= found)
    if later:
        raise InputFileError(
            f"split results of {abbr!r} in {d} are not contiguous: {abbr}_{found}.json is missing "
            f"but {abbr}_{later[0]}.json exists"
        )
    return [d / f"{abbr}_{i}.json" for i in range(found)]


def weighted_mean(values: list[Any], weights: list[int]) -> Any:
    """The mean of the parts' values of one metric, weighted by their sample counts, rounded once.

    Computed in exact rational arithmetic, so that one part gives back its own
    value and the order of the parts does not matter; integers whose mean is
    an integer stay integers.  Non-finite values are averaged as floats.
    With no weight at all, the first value.

    >>> weighted_mean([97.8, 88.3], [1, 2]), weighted_mean([60, 90], [100, 200]), weighted_mean([1, 2], [1, 1])
    (91.46666666666667, 80, 1.5)
    """
    from fractions import Fraction

    total = sum(weights)
    if total == 0:
        return values[0]
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        exact = Fraction(sum(v * w for v, w in zip(values, weights)), total)
        return int(exact) if exact.denominator == 1 else float(exact)
    floats = [float(v) for v in values]
    if all(math.isfinite(v) for v in floats):
        return float(sum((Fraction(v) * w for v, w in zip(floats, weights)), Fraction(0)) / total)
    return math.fsum(v * w for v, w in zip(floats, weights)) / total


def merge_part_metrics(metrics: list[dict[str, Any]], weights: list[int]) -> tuple[dict[str, Any], list[str]]:
    """The merge policy for one evaluation's parts (split result files, shards): ``(merged, dropped)``.

    ``metrics`` holds each part's numeric metrics, ``weights`` its sample
    counts.  A metric every part has is their :func:`weighted_mean`; a metric
    some part lacks is dropped (listed in ``dropped``, sorted): a mean of the
    other parts would be a number on fewer samples than the dataset's, and
    for a metric that only some parts report (one present where a category of
    samples occurs) not even that, since the parts' sizes are the wrong
    weights.  Metrics keep the order of first appearance.

    >>> merge_part_metrics([{'accuracy': 50, 'f1': 1.0}, {'accuracy': 100}], [1, 3])
    ({'accuracy': 87.5}, ['f1'])
    """
    names: dict[str, None] = {}
    for ms in metrics:
        names.update(dict.fromkeys(ms))
    kept = [m for m in names if all(m in ms for ms in metrics)]
    merged = {m: weighted_mean([ms[m] for ms in metrics], weights) for m in kept}
    return merged, sorted(set(names) - set(kept))


def merge_split_results(parts: list[tuple[str, dict[str, Any], int | None]]) -> dict[str, Any]:
    """Merge the results of one dataset evaluated in parts (R-7.8).

    OpenCompass's summarizer does not read split result files at all (the
    dataset's cells stay empty); assay merges them.  Each part is ``(name,
    result without details, sample count)``; see :func:`result_sample_count`.
    The numeric metrics are merged by :func:`merge_part_metrics`, the policy
    shards are merged by too: weighted by the sample counts (metrics are taken
    to be per-sample means, like accuracy); metrics missing from some part are
    dropped and listed under ``_meta.dropped_metrics``.  A part with
    ``error``, or without a sample count, makes the merged result an
    ``error``.

    >>> merge_split_results([('d_0', {'accuracy': 60.5}, 100), ('d_1', {'accuracy': 90.5}, 200)])
    {'accuracy': 80.5, '_meta': {'num_samples': 300, 'merged_from': ['d_0', 'd_1']}}
    """
    if not parts:
        return {"error": "no split result to merge"}
    failed = [f"{name}: {result['error']}" for name, result, _ in parts if is_error(result)]
    if failed:
        return {"error": "split result failed: " + "; ".join(failed)}
    uncounted = [name for name, _, n in parts if n is None]
    if uncounted:
        return {
            "error": f"cannot weight split results: {uncounted!r} have neither _meta.num_samples nor details; "
            "re-run the evaluation with details kept"
        }
    counts = [n or 0 for _, _, n in parts]
    total = sum(counts)
    if total == 0:
        return {"error": "cannot weight split results: every part has 0 samples"}
    merged, dropped = merge_part_metrics([numeric_metrics(result) for _, result, _ in parts], counts)
    meta: dict[str, Any] = {"num_samples": total, "merged_from": [name for name, _, _ in parts]}
    if dropped:
        meta["dropped_metrics"] = dropped
    merged[META_KEY] = meta
    return merged


def details_fragment(details: list[Any]) -> bytes:
    """The bytes of ``details``' entries as they appear inside a result file.

    A result file is ``dumps_finite_json`` of the result (2-space indent), so
    its ``details`` entries are indented by four spaces and separated by
    ``,``; the fragment is that text, starting with the newline before the
    first entry, so fragments joined by ``,`` are the entries of all shards.

    >>> details_fragment([{'a': 1}])
    b'\\n    {\\n      "a": 1\\n    }'
    """
    data = dumps_finite_json({"details": details})
    head = b'{\n  "details": ['
    tail = b"\n  ]\n}"
    if not details:
        return b""
    assert data.startswith(head) and data.endswith(tail), "unexpected JSON layout"
    return data[len(head) : -len(tail)]


_DETAILS_SLOT = b'\n  "details": []'


def splice_details(result: dict[str, Any], fragments: Iterable[Path | bytes]) -> Iterator[bytes]:
    """Yield the bytes of ``result`` as a result file, its ``details`` taken from ``fragments``.

    ``result`` must hold ``details`` (an empty list standing for the
    concatenated fragments, each a :func:`details_fragment` or a file holding
    one); the bytes equal those of writing the whole result at once, and no
    more than one fragment is held in memory.
    """
    data = dumps_finite_json(details_last(result)) + b"\n"
    at = data.find(_DETAILS_SLOT)
    assert at >= 0, "the result has no details slot"
    yield data[: at + len(_DETAILS_SLOT) - 1]
    wrote = False
    for fragment in fragments:
        chunk = fragment if isinstance(fragment, bytes) else fragment.read_bytes()
        if not chunk:
            continue
        if wrote:
            yield b","
        yield chunk
        wrote = True
    yield b"\n  ]" if wrote else b"]"
    yield data[at + len(_DETAILS_SLOT) :]

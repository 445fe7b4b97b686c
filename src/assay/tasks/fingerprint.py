"""Input fingerprints: a result is reused only while its inputs are unchanged (R-6.2).

The fingerprint hashes the prediction file bytes, the test-set files, the
dataset config (loader, reader, eval config, n, k; secrets such as a judge's
API key left out, so a dumped config with them redacted reuses the result), the model-level
postprocessor, the source file of the evaluator class, whether details are
kept, and assay's version.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from pathlib import Path
from typing import Any

from assay import __version__
from assay.config.dump import plainify
from assay.config.secrets import redact_secrets

__all__ = ["INPUT_NAMES", "changed_inputs", "file_digest", "files_digest", "fingerprint_of", "source_digest", "task_inputs"]

_CHUNK = 1 << 20


def file_digest(path: Path) -> str:
    """SHA-256 of a file, or of every file below a folder (names and bytes).

    A file's digest is remembered by this process while its size and
    modification time stay the same (the test file of a dataset is hashed once
    per worker, not once per model).
    """
    try:
        st = path.stat()
    except OSError:
        return "missing"
    if not path.is_dir():
        key = (str(path.resolve()), st.st_size, st.st_mtime_ns, st.st_ino)
        known = _DIGESTS.get(key)
        if known is None:
            known = _DIGESTS[key] = _hash_file(path)
            while len(_DIGESTS) > 256:
                del _DIGESTS[next(iter(_DIGESTS))]
        return known
    h = hashlib.sha256()
    for p in sorted(q for q in path.rglob("*") if q.is_file()):
        h.update(str(p.relative_to(path)).encode())
        h.update(file_digest(p).encode())
    return h.hexdigest()


_DIGESTS: dict[tuple[str, int, int, int], str] = {}


def _hash_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def files_digest(paths: list[Path], *, keep: dict[Path, bytes] | None = None, keep_below: int = 0) -> str:
    """The digest of several files' bytes, in order (each preceded by its length).

    ``keep`` receives the bytes of each file smaller than ``keep_below``, for a
    caller that reads them next.
    """
    h = hashlib.sha256()
    for p in paths:
        data = p.read_bytes()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
        if keep is not None and len(data) < keep_below:
            keep[p] = data
    return h.hexdigest()


def source_digest(obj: Any) -> str:
    """The digest of the source file defining ``obj`` (``'builtin'`` without one)."""
    try:
        src = inspect.getsourcefile(obj)
    except TypeError:
        return "builtin"
    return file_digest(Path(src)) if src else "unknown"


#: Names of the fingerprinted inputs, as a reason for recomputing names them.
INPUT_NAMES: dict[str, str] = {
    "assay": "assay's version",
    "predictions": "the prediction file",
    "dataset": "the dataset config",
    "model_postprocessor": "the model's pred_postprocessor",
    "test_files": "the test-set file",
    "evaluator_source": "the evaluator's source",
    "dump_details": "the details option",
    "references": "where the references come from",
    "extraction_audit": "the extraction audit's corrected postprocessors",
}


def task_inputs(
    *,
    predictions_digest: str,
    dataset_cfg: dict[str, Any],
    model_cfg: dict[str, Any],
    test_files: list[Path],
    evaluator_type: Any,
    dump_details: bool,
    references: str = "data",
    extraction_audit: Any = None,
) -> dict[str, str]:
    """A digest of each input of one task, by name (see :data:`INPUT_NAMES`).

    ``references`` is ``'gold'`` for a task whose references come from the
    prediction files (it is an input only then, so results scored from the
    test set keep their fingerprint).  ``extraction_audit`` (the audit's substitutions, plain data) is an input
    only when the task's chain has a corrected counterpart.
    """
    payload: dict[str, Any] = {
        "assay": __version__,
        "predictions": predictions_digest,
        "dataset": redact_secrets(plainify({k: v for k, v in dataset_cfg.items() if k != "infer_cfg"})),
        "model_postprocessor": redact_secrets(plainify(model_cfg.get("pred_postprocessor"))),
        "test_files": [file_digest(p) for p in test_files],
        "evaluator_source": source_digest(evaluator_type) if not isinstance(evaluator_type, str) else evaluator_type,
        "dump_details": dump_details,
    }
    if references != "data":
        payload["references"] = references
    if extraction_audit is not None:
        payload["extraction_audit"] = extraction_audit
    return {key: _digest(value) for key, value in payload.items()}


def fingerprint_of(inputs: dict[str, str]) -> str:
    """The fingerprint (hex SHA-256) of the digests :func:`task_inputs` returns."""
    return _digest(inputs)


def changed_inputs(old: Any, new: dict[str, str]) -> list[str]:
    """Human names of the inputs whose digest differs between a stored ``old`` and ``new``.

    >>> changed_inputs({'predictions': 'a', 'dataset': 'b'}, {'predictions': 'a', 'dataset': 'c'})
    ['the dataset config']
    >>> changed_inputs({'predictions': 'a', 'extraction_audit': 'x'}, {'predictions': 'a'})
    ["the extraction audit's corrected postprocessors"]
    """
    if not isinstance(old, dict):
        return []
    changed = [INPUT_NAMES.get(key, key) for key, value in new.items() if old.get(key) != value]
    return changed + [INPUT_NAMES.get(str(key), str(key)) for key in old if key not in new]


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()

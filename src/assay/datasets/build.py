"""Building the test set handed to evaluators (R-3.1 – R-3.4).

Steps: call the loader, pick the test split, apply ``test_range``, add the
``subdivision``/``idx`` columns, concatenate ``n`` copies (run-major), apply
``dataset_postprocessor`` to the output column, and take the references.

Unlike OpenCompass, ``test_range`` is applied *before* the ``n`` copies are
made, so a range never cuts across runs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay.datasets.reader import select_indices
from assay.errors import ConfigError, InputFileError
from assay.postprocess.chain import build_postprocessor
from assay.registry import LOAD_DATASET, resolve_type

__all__ = ["FRAMEWORK_KEYS", "TestSet", "build_test_set"]

#: Dataset-config keys that belong to assay, not to the loader.
FRAMEWORK_KEYS = frozenset({"abbr", "type", "reader_cfg", "infer_cfg", "eval_cfg", "n", "k", "summarizer"})


@dataclass
class TestSet:
    """The evaluated rows, ``n`` copies laid out run-major."""

    dataset: Any
    references: list[Any] | None
    output_column: str | None
    size: int
    n: int
    files: list[Path] = field(default_factory=list)


def build_test_set(
    dataset_cfg: dict[str, Any],
    *,
    resolve_path: Callable[[str], Path] | None = None,
    where: str = "dataset",
) -> TestSet:
    """Load and prepare the test set of one dataset config.

    Args:
        dataset_cfg: the dataset's config dict.
        resolve_path: maps a relative ``path`` option to a file (default: as is).
        where: how to name this dataset in error messages.
    """
    import datasets

    abbr = dataset_cfg.get("abbr", "dataset")
    loader = resolve_type(dataset_cfg.get("type"), LOAD_DATASET, key=f"{where}.type")
    kwargs = {k: v for k, v in dataset_cfg.items() if k not in FRAMEWORK_KEYS}
    files: list[Path] = []
    if isinstance(kwargs.get("path"), str):
        resolved = resolve_path(kwargs["path"]) if resolve_path else Path(kwargs["path"])
        kwargs["path"] = str(resolved)
        files.append(resolved)
    load = getattr(loader, "load", None)
    try:
        raw = load(**kwargs) if callable(load) else loader(**kwargs)
    except TypeError as exc:
        raise ConfigError(f"{where}: loader {getattr(loader, '__name__', loader)} rejected its arguments {sorted(kwargs)}: {exc}") from exc

    reader_cfg = dict(dataset_cfg.get("reader_cfg") or {})
    test = _test_split(raw, reader_cfg, where)
    if isinstance(test, list):
        test = datasets.Dataset.from_list(test)
    if not isinstance(test, datasets.Dataset):
        raise InputFileError(f"{where}: the loader returned {type(test).__name__}, expected a datasets.Dataset, DatasetDict or list of rows")

    indices = select_indices(len(test), reader_cfg.get("test_range"))
    if len(indices) != len(test):
        test = test.select(indices, new_fingerprint=_fingerprint(test, "test_range", str(reader_cfg.get("test_range"))))

    output_column = reader_cfg.get("output_column")
    references: list[Any] | None = None
    if output_column is not None:
        if output_column not in test.column_names:
            raise InputFileError(
                f"{where}: reader_cfg.output_column={output_column!r} is not a column of the test set "
                f"(columns: {', '.join(c for c in test.column_names if c not in ('subdivision', 'idx'))})"
            )
        eval_cfg = dataset_cfg.get("eval_cfg") or {}
        post = build_postprocessor(eval_cfg.get("dataset_postprocessor"), where=f"{where}.eval_cfg.dataset_postprocessor")
        if post is not None:
            values = [post(v) for v in test[output_column][:]]
            test = test.remove_columns(output_column, new_fingerprint=_fingerprint(test, "drop", output_column))
            test = test.add_column(output_column, values, new_fingerprint=_fingerprint(test, "post", output_column))
        references = test[output_column][:]
    if "subdivision" not in test.column_names:
        test = test.add_column("subdivision", [abbr] * len(test), new_fingerprint=_fingerprint(test, "subdivision", abbr))
    if "idx" not in test.column_names:
        test = test.add_column("idx", list(range(len(test))), new_fingerprint=_fingerprint(test, "idx"))

    size = len(test)
    n = dataset_cfg.get("n", 1)
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ConfigError(f"{where}: n={n!r} must be a positive integer")
    if n > 1:
        test = datasets.concatenate_datasets([test] * n)
        if references is not None:
            references = references * n
    return TestSet(dataset=test, references=references, output_column=output_column, size=size, n=n, files=files)


def _fingerprint(dataset: Any, *parts: str) -> str:
    """A fingerprint for a derived dataset, so that ``datasets`` need not hash the new column's values."""
    h = hashlib.sha256(str(getattr(dataset, "_fingerprint", "")).encode())
    for part in parts:
        h.update(b"\0" + part.encode())
    return h.hexdigest()[:16]


def _test_split(raw: Any, reader_cfg: dict[str, Any], where: str) -> Any:
    if hasattr(raw, "column_names") and hasattr(raw, "select"):
        return raw
    if isinstance(raw, list):
        return raw
    test_attr = getattr(raw, "test", None)
    if test_attr is not None and not callable(test_attr):
        return test_attr
    if hasattr(raw, "keys"):
        split = reader_cfg.get("test_split", "test")
        if split not in raw:
            raise InputFileError(f"{where}: the loaded dataset has no split {split!r} (splits: {', '.join(raw.keys())}); set reader_cfg.test_split")
        return raw[split]
    return raw

"""Results of other evaluation tools, read from their own files.

One reader per tool turns the files it writes into tool-neutral records
(:mod:`assay.sources.model`): ``lm_eval`` (lm-evaluation-harness's
``results_<time>.json`` and ``samples_<task>_<time>.jsonl``,
:mod:`assay.sources.lm_eval`), ``inspect_ai`` (inspect_ai's ``.eval`` and
``.json`` logs, :mod:`assay.sources.inspect_ai`) and ``helm`` (HELM's run
folders, :mod:`assay.sources.helm`).  :func:`read_source` picks the reader by
the tool's name.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from assay.errors import ConfigError
from assay.sources.model import ExternalGroup, ExternalResult, ExternalRun, ExternalSample, SourceInfo, mean_stderr

__all__ = [
    "READERS",
    "ExternalGroup",
    "ExternalResult",
    "ExternalRun",
    "ExternalSample",
    "SourceInfo",
    "mean_stderr",
    "read_source",
]


def _inspect_ai(path: str | os.PathLike[str]) -> list[ExternalRun]:
    from assay.sources.inspect_ai import read_inspect_ai

    return read_inspect_ai(path)


def _lm_eval(path: str | os.PathLike[str]) -> list[ExternalRun]:
    from assay.sources.lm_eval import read_lm_eval

    return read_lm_eval(path)


def _helm(path: str | os.PathLike[str]) -> list[ExternalRun]:
    from assay.sources.helm import read_helm

    return read_helm(path)


#: tool name → reader of its output at a path.
READERS: dict[str, Callable[[str | os.PathLike[str]], list[ExternalRun]]] = {
    "helm": _helm, "inspect_ai": _inspect_ai, "lm_eval": _lm_eval,
}


def read_source(tool: str, path: str | os.PathLike[str]) -> list[ExternalRun]:
    """The runs in ``tool``'s output at ``path`` (a file or a folder).

    >>> read_source('helmet', '.')
    Traceback (most recent call last):
    ...
    assay.errors.ConfigError: unknown source tool 'helmet'; assay reads: helm, inspect_ai, lm_eval
    """
    reader = READERS.get(tool)
    if reader is None:
        raise ConfigError(f"unknown source tool {tool!r}; assay reads: {', '.join(sorted(READERS))}")
    return reader(path)

"""assay: score saved LLM outputs and turn the scores into leaderboards.

The public API, imported lazily so that ``import assay`` stays fast::

    from assay import BaseEvaluator, ICL_EVALUATORS, TEXT_POSTPROCESSORS, read_base
    from assay import load_config, DefaultSummarizer

The registries taken from here also resolve the names OpenCompass registers
(see :mod:`assay.registry`).
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "read_base": "assay.config.compat",
    "load_config": "assay.config.loader",
    "RunConfig": "assay.config.loader",
    "BaseEvaluator": "assay.evaluate.base",
    "ICL_EVALUATORS": "assay.registry",
    "TEXT_POSTPROCESSORS": "assay.registry",
    "DICT_POSTPROCESSORS": "assay.registry",
    "LOAD_DATASET": "assay.registry",
    "SUMMARIZERS": "assay.registry",
    "MODELS": "assay.registry",
    "DefaultSummarizer": "assay.summarize",
    "AssayError": "assay.errors",
    "ConfigError": "assay.errors",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'assay' has no attribute {name!r}")
    if module == "assay.registry":
        import assay.config.compat  # noqa: F401 - the registries answer the names OpenCompass registers too

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)

"""assay: score saved LLM outputs and turn the scores into leaderboards.

The public API, imported lazily so that ``import assay`` stays fast::

    from assay import BaseEvaluator, ICL_EVALUATORS, TEXT_POSTPROCESSORS, read_base
    from assay import load_config, DefaultSummarizer

The registries and ``load_config`` taken from here come with the OpenCompass
layer (:mod:`assay.opencompass`): configs may import ``opencompass.*`` and
``mmengine.config`` names, and the registries resolve the names OpenCompass
registers.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "read_base": "assay.config.loader",
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
    if module in ("assay.registry", "assay.config.loader"):
        import assay.opencompass  # noqa: F401 - configs import OpenCompass's names; the registries answer them

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)

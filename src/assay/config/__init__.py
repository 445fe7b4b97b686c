"""Loading Python config files (``read_base``, ``type`` resolution, OpenCompass aliases)."""

from __future__ import annotations

from assay.config.abbr import dataset_abbr, model_abbr, summarizer_abbr
from assay.config.compat import read_base
from assay.config.dump import dump_config_source, plainify, type_path
from assay.config.loader import RunConfig, load_config

__all__ = [
    "RunConfig",
    "dataset_abbr",
    "dump_config_source",
    "load_config",
    "model_abbr",
    "plainify",
    "read_base",
    "summarizer_abbr",
    "type_path",
]

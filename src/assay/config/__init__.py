"""Loading Python config files (``read_base``, ``type`` resolution, validation, dumping)."""

from __future__ import annotations

from assay.config.abbr import dataset_abbr, model_abbr, summarizer_abbr
from assay.config.dump import dump_config_source, plainify, type_path
from assay.config.loader import ImportLayer, RunConfig, load_config, read_base, set_import_layer

__all__ = [
    "ImportLayer",
    "RunConfig",
    "dataset_abbr",
    "dump_config_source",
    "load_config",
    "model_abbr",
    "plainify",
    "read_base",
    "set_import_layer",
    "summarizer_abbr",
    "type_path",
]

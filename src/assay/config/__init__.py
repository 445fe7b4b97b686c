"""Loading Python config files (``read_base``, ``type`` resolution, OpenCompass aliases)."""

from __future__ import annotations

from assay.config.dump import dump_config_source, plainify, type_path

__all__ = ["dump_config_source", "plainify", "type_path"]

"""Abbreviations that name models and datasets in file paths and tables."""

from __future__ import annotations

import os
from typing import Any

from assay.config.dump import type_path
from assay.errors import ConfigError

__all__ = ["dataset_abbr", "model_abbr", "summarizer_abbr"]


def model_abbr(cfg: dict[str, Any]) -> str:
    """A model's ``abbr``; without one, ``<type>_<last two components of path>`` as OpenCompass derives it."""
    if isinstance(cfg, (list, tuple)):
        return "_".join(model_abbr(c) for c in cfg)
    abbr = cfg.get("abbr")
    if isinstance(abbr, str) and abbr:
        return abbr
    path = cfg.get("path")
    if not isinstance(path, str) or not path:
        raise ConfigError(f"model config {cfg!r} has neither 'abbr' nor 'path'; give it an abbr")
    type_ = cfg.get("type", "")
    type_name = type_ if isinstance(type_, str) else type_path(type_)
    type_name = type_name.rsplit(".", 1)[-1]
    parts = os.path.realpath(path).split(os.sep)[-2:]
    return f"{type_name}_" + "_".join(parts)


def summarizer_abbr(cfg: dict[str, Any]) -> str:
    """The model's column name in summary tables: ``summarizer_abbr``, else its abbr."""
    name = cfg.get("summarizer_abbr")
    return name if isinstance(name, str) and name else model_abbr(cfg)


def dataset_abbr(cfg: dict[str, Any]) -> str:
    """A dataset's ``abbr`` (required: files and tables are named by it)."""
    abbr = cfg.get("abbr")
    if isinstance(abbr, str) and abbr:
        return abbr
    path = cfg.get("path")
    if isinstance(path, str) and path:
        name = cfg.get("name")
        return (f"{path}_{name}" if name else path).replace("/", "_")
    raise ConfigError(f"dataset config has no 'abbr' (and no 'path' to derive one from): {sorted(cfg)}")

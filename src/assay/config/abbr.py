"""Abbreviations that name models and datasets in file paths and tables.

A model or dataset without ``abbr`` is named as OpenCompass 0.5.4 names it
(``model_abbr_from_cfg``, ``dataset_abbr_from_cfg``), so that the prediction
and result folders of an OpenCompass run are found under the same names:

* a model: its ``type`` as a dotted name (a string as it stands — dumped
  configs spell types as the import path the config used, e.g.
  ``'opencompass.models.huggingface.HuggingFace'``; a class by the path it
  was imported under), ``_``, then the last two components of the *real*
  path of ``path`` (symbolic links resolved, relative to the working
  directory, as OpenCompass resolves it), joined by ``_``;
  every ``/`` of the result becomes ``_``.  A relative ``path`` of one
  component therefore brings in the working directory's name
  (``'gpt-4'`` run in ``/home/me/eval``: ``'opencompass.models.OpenAI_eval_gpt-4'``);
* a dataset: ``path``, then ``_<name>`` when the config has a ``name`` key,
  with every ``/`` replaced by ``_`` (``'opencompass/xsum'``, name ``'v1'``:
  ``'opencompass_xsum_v1'``).

Example:
    >>> model_abbr({'type': 'opencompass.models.huggingface.HuggingFace', 'path': '/m/lesliehd/Mistral-7B'})
    'opencompass.models.huggingface.HuggingFace_lesliehd_Mistral-7B'
    >>> dataset_abbr({'path': 'opencompass/xsum', 'name': 'v1'})
    'opencompass_xsum_v1'
"""

from __future__ import annotations

import os
from typing import Any

from assay.config.dump import type_path
from assay.errors import ConfigError

__all__ = ["dataset_abbr", "model_abbr", "summarizer_abbr"]


def _given_abbr(cfg: dict[str, Any], what: str) -> str | None:
    """The config's own ``abbr``; ``None`` when it has none (an empty or non-string one is an error)."""
    if "abbr" not in cfg:
        return None
    abbr = cfg["abbr"]
    if not isinstance(abbr, str) or not abbr:
        raise ConfigError(f"{what} 'abbr' must be a non-empty string (it names files), got {abbr!r}")
    return abbr


def model_abbr(cfg: dict[str, Any]) -> str:
    """A model's ``abbr``; without one, ``<dotted type>_<last two parts of the real path>`` as OpenCompass derives it.

    A list of model configs (a judge pairing) joins their names with ``_``.

    Raises:
        ConfigError: no ``abbr`` and no ``type`` or ``path`` to derive one from,
            or an ``abbr`` that is not a non-empty string.
    """
    if isinstance(cfg, (list, tuple)):
        return "_".join(model_abbr(c) for c in cfg)
    abbr = _given_abbr(cfg, "model")
    if abbr is not None:
        return abbr
    path = cfg.get("path")
    if not isinstance(path, str):
        raise ConfigError(f"model config has no 'abbr' and no 'path' string to derive one from (keys {sorted(cfg)}); give it an abbr")
    type_ = cfg.get("type")
    if type_ is None:
        raise ConfigError(f"model config has no 'abbr' and no 'type' to derive one from (path {path!r}); give it an abbr")
    dotted = type_ if isinstance(type_, str) else type_path(type_)
    tail = os.path.realpath(path).split("/")[-2:]
    return f"{dotted}_{'_'.join(tail)}".replace("/", "_")


def summarizer_abbr(cfg: dict[str, Any]) -> str:
    """The model's column name in summary tables: ``summarizer_abbr``, else its abbr."""
    name = cfg.get("summarizer_abbr")
    return name if isinstance(name, str) and name else model_abbr(cfg)


def dataset_abbr(cfg: dict[str, Any]) -> str:
    """A dataset's ``abbr``; without one, ``<path>[_<name>]`` with ``/`` as ``_``, as OpenCompass derives it.

    Raises:
        ConfigError: no ``abbr`` and no ``path`` string (or a ``name`` that is
            not a string) to derive one from, or an ``abbr`` that is not a
            non-empty string.
    """
    abbr = _given_abbr(cfg, "dataset")
    if abbr is not None:
        return abbr
    path = cfg.get("path")
    if not isinstance(path, str) or not path:
        raise ConfigError(f"dataset config has no 'abbr' and no 'path' to derive one from (keys {sorted(cfg)}); give it an abbr")
    if "name" in cfg:
        name = cfg["name"]
        if not isinstance(name, str):
            raise ConfigError(f"dataset config has no 'abbr', and its 'name' {name!r} is not a string to derive one from")
        path += "_" + name
    return path.replace("/", "_")

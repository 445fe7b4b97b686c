"""OpenCompass compatibility: ``opencompass.*`` and ``mmengine.config`` served by assay (R-2.5).

OpenCompass configs import from ``opencompass.registry``,
``opencompass.openicl.icl_evaluator``, ``opencompass.datasets`` and so on, from
OpenCompass's own config library (``opencompass.configs.datasets...``), and
``read_base``/``ConfigDict`` from ``mmengine.config``.  This package serves
those names — assay's implementation where it has one, an inert marker for
inference-side classes, a stand-in that fails when used for the rest — whether
OpenCompass is installed or not:

* :func:`install` serves them to plain Python code, scripts and notebooks
  that use OpenCompass's API::

      import assay.opencompass
      assay.opencompass.install()

      from opencompass.utils.text_postprocessors import first_option_postprocess
      first_option_postprocess('The answer is B.', 'ABCD')   # 'B', computed by assay

* importing this package makes every config loaded by :mod:`assay.config`
  serve them too (it installs itself as the loader's import layer,
  :func:`assay.config.set_import_layer`), and makes the names OpenCompass
  registers (``type='GaokaoBenchEvaluator_single_choice'``) resolve in assay's
  registries (:func:`assay.registry.set_fallback`).  ``assay.load_config``,
  the ``assay`` registries, :mod:`assay.tasks` and the command line import it.

Modules: :mod:`~assay.opencompass.finder` (the import finder, its alias
modules, :func:`prefer_builtin`, :func:`origin`), :mod:`~assay.opencompass.names`
(OpenCompass 0.5.4's name table; which OpenCompass is installed),
:mod:`~assay.opencompass.standins` (inert markers and stand-ins),
:mod:`~assay.opencompass.mmengine` (``ConfigDict``, ``read_base``).
Nothing below this package imports it.
"""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any

from assay.config import read_base, set_import_layer
from assay.errors import ConfigError
from assay.opencompass.finder import install, origin, prefer_builtin, uninstall
from assay.opencompass.mmengine import ConfigDict
from assay.opencompass.names import LIBRARY_ENV, MODE_ENV, library_root, opencompass_mode, opencompass_version
from assay.opencompass.standins import (
    OFFLINE_LIMITS,
    OFFLINE_REASONS,
    OPENCOMPASS_FAILS,
    ComponentUnavailable,
    InertComponent,
    StandIn,
    is_inert,
    is_standin,
    registered_name,
    standin_for_type_name,
    standin_name,
    unavailable_message,
)
from assay.registry import set_fallback

__all__ = [
    "LIBRARY_ENV",
    "MODE_ENV",
    "ComponentUnavailable",
    "ConfigDict",
    "InertComponent",
    "OFFLINE_LIMITS",
    "OFFLINE_REASONS",
    "OPENCOMPASS_FAILS",
    "StandIn",
    "install",
    "is_inert",
    "is_standin",
    "library_root",
    "opencompass_mode",
    "opencompass_version",
    "origin",
    "prefer_builtin",
    "read_base",
    "registered_name",
    "standin_for_type_name",
    "standin_name",
    "unavailable_message",
    "uninstall",
]


class _ConfigImports:
    """The config loader's import layer: ``opencompass.*`` and ``mmengine.config`` in configs."""

    def prepare(self) -> None:
        install()

    def finish(self, variables: dict[str, Any]) -> None:
        if opencompass_mode() == "full":
            prefer_builtin(variables)

    def explain(self, exc: ImportError, message: str) -> str:
        name = getattr(exc, "name", None) or ""
        if name.startswith("opencompass.configs.") and "config library" not in message:
            try:
                where = library_root()
            except ConfigError:
                where = None
            return f"{message} (no such file in OpenCompass's config library{f' {where}' if where else ''})"
        if opencompass_mode() == "full":
            frames = traceback.extract_tb(exc.__traceback__)
            if name and not name.startswith("opencompass") and any("opencompass" in Path(f.filename).parts for f in frames):
                return (f"{message} (OpenCompass is installed, but one of its imports fails; {MODE_ENV}=files makes "
                        "assay serve opencompass.* itself)")
            return message
        if (name.startswith("opencompass") or "opencompass" in message) and "config library" not in message:
            return f"{message} (OpenCompass is not installed; assay provides only the names it implements)"
        return message


# From now on, configs loaded by assay.config serve OpenCompass's imports, and the names
# OpenCompass registers resolve in assay's registries.
set_import_layer(_ConfigImports())
set_fallback(registered_name)

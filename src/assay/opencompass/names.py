"""OpenCompass 0.5.4's names, and which OpenCompass (if any) is installed beside assay.

The name table (``opencompass_names.json``, made from OpenCompass's source by
``scripts/extract_opencompass_names.py`` without importing it) lists, per
module of OpenCompass, each name it defines (kind letter, where it is defined,
the literal value of a constant), the names OpenCompass registers in its
registries, and the third-party modules its packages import at module level.

:func:`opencompass_mode` tells, without importing OpenCompass, how
``opencompass.*`` imports are served: ``'full'`` (OpenCompass and every module
it needs are importable), ``'files'`` (its files only: a no-deps install, or a
folder named by ``ASSAY_OPENCOMPASS``) or ``'none'``.
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import logging
import os
from pathlib import Path
from typing import Any

from assay.errors import ConfigError

logger = logging.getLogger(__name__)

__all__ = ["LIBRARY_ENV", "MODE_ENV", "library_root", "opencompass_mode", "opencompass_version"]

#: The environment variable naming a folder that holds ``opencompass/configs``.
LIBRARY_ENV = "ASSAY_OPENCOMPASS"
#: ``files`` makes assay serve ``opencompass.*`` even where OpenCompass is fully installed.
MODE_ENV = "ASSAY_OPENCOMPASS_MODE"


# -- the table of OpenCompass's names ------------------------------------------------------


@functools.cache
def _table() -> dict[str, Any]:
    path = Path(__file__).with_name("opencompass_names.json")
    import orjson  # parses the table twice as fast as json

    table: dict[str, Any] = orjson.loads(path.read_bytes())
    return table


def _modules() -> dict[str, Any]:
    modules: dict[str, Any] = _table()["modules"]
    return modules


def _entry(module: str, name: str) -> list[Any] | None:
    """``[kind letter, origin, literal?]`` of ``module.name`` in OpenCompass 0.5.4, or ``None``."""
    info = _modules().get(module)
    if info is None:
        return None
    entry: list[Any] | None = info["names"].get(name)
    return entry


def opencompass_version() -> str:
    """The OpenCompass version the name table was made from.

    >>> opencompass_version()
    '0.5.4'
    """
    return str(_table().get("opencompass_version") or "0.5.4")


# -- which OpenCompass is there -------------------------------------------------------------


@functools.cache
def _installed_package() -> Path | None:
    """The folder of an ``opencompass`` package on ``sys.path`` (found, not imported)."""
    spec = importlib.machinery.PathFinder.find_spec("opencompass")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


@functools.cache
def _fully_importable() -> bool:
    """OpenCompass's package is found and so is every third-party module it imports at module level."""
    if _installed_package() is None:
        return False
    missing = [name for name in _table()["requires"] if importlib.util.find_spec(name) is None]
    if missing:
        logger.debug("OpenCompass's files are installed without %s: assay serves opencompass.*", ", ".join(missing))
    return not missing


def opencompass_mode() -> str:
    """``'full'``, ``'files'`` or ``'none'``: how ``opencompass.*`` imports are served (see the module doc)."""
    return _mode(os.environ.get(MODE_ENV, "").strip().lower(), os.environ.get(LIBRARY_ENV) or "")


@functools.cache
def _mode(forced: str, named: str) -> str:
    if forced not in ("", "auto", "files"):
        raise ConfigError(f"{MODE_ENV}={forced!r}: expected 'auto' or 'files'")
    if forced != "files" and _fully_importable():
        return "full"
    return "files" if _library_root(named) is not None else "none"


def library_root() -> Path | None:
    """The ``opencompass`` folder whose ``configs`` assay reads: ``$ASSAY_OPENCOMPASS/opencompass``, else the
    installed package's (``None`` when there is neither).

    Raises:
        ConfigError: ``ASSAY_OPENCOMPASS`` names a folder without ``opencompass/configs``.
    """
    return _library_root(os.environ.get(LIBRARY_ENV) or "")


@functools.cache
def _library_root(named: str) -> Path | None:
    if named:
        root = Path(named).expanduser()
        for candidate in (root / "opencompass", root):
            if (candidate / "configs").is_dir() and candidate.name == "opencompass":  # not a run directory
                return candidate.resolve()
        raise ConfigError(f"{LIBRARY_ENV}={named}: this folder holds no opencompass/configs (expected an unpacked "
                          "OpenCompass wheel or a checkout of its repository)")
    package = _installed_package()
    if package is not None and (package / "configs").is_dir():  # not a run directory
        return package
    return None


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
from collections.abc import Iterator
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
#
# The table is one JSON object laid out a line per part (``scripts/extract_opencompass_names.py``
# writes it so): the version and ``requires``, then ``registered``, then ``"modules":{`` and one
# line per module.  JSON strings hold no raw newline, so a line is one part; a run reads the
# header and the lines of the modules its config imports, not the 600 KB of the whole table.
# A table in another layout is parsed whole.

_MODULES_LINE = b'"modules":{'


@functools.cache
def _layout() -> tuple[dict[str, Any], bytes, _ModuleTable]:
    """(the table's header, its ``registered`` line, its modules), each parsed when first asked for."""
    import orjson  # parses twice as fast as json

    raw = Path(__file__).with_name("opencompass_names.json").read_bytes()
    lines = raw.split(b"\n")
    if len(lines) > 4 and lines[2] == _MODULES_LINE and lines[1].startswith(b'"registered":') and lines[-2] == b"}}":
        header: dict[str, Any] = orjson.loads(lines[0].rstrip(b",") + b"}")
        return header, lines[1].rstrip(b","), _ModuleTable(lines[3:-2])
    table: dict[str, Any] = orjson.loads(raw)
    modules = table.pop("modules")
    return table, b'"registered":' + orjson.dumps(table.pop("registered", {})), _ModuleTable(None, modules)


class _ModuleTable:
    """The ``modules`` part of the table (a read-only mapping): module name → ``{"names": …, "package": …}``,
    each module's line parsed the first time it is looked up."""

    def __init__(self, lines: list[bytes] | None, parsed: dict[str, Any] | None = None) -> None:
        self._lines: dict[str, bytes] = {}
        for line in lines or ():
            end = line.index(b'"', 1)  # module names are dotted identifiers: no escaped quote
            self._lines[line[1:end].decode()] = line
        self._parsed: dict[str, Any] = parsed if parsed is not None else {}

    def get(self, module: str, default: Any = None) -> Any:
        found = self._parsed.get(module)
        if found is not None:
            return found
        line = self._lines.get(module)
        if line is None:
            return default
        import orjson

        entry = self._parsed[module] = orjson.loads(line[len(module) + 3:].rstrip(b","))
        return entry

    def __getitem__(self, module: str) -> Any:
        found = self.get(module)
        if found is None:
            raise KeyError(module)
        return found

    def __contains__(self, module: object) -> bool:
        return module in self._lines or module in self._parsed

    def __iter__(self) -> Iterator[str]:
        return iter(self._lines or self._parsed)

    def __len__(self) -> int:
        return len(self._lines or self._parsed)


def _header() -> dict[str, Any]:
    """The table's ``opencompass_version`` and ``requires``."""
    return _layout()[0]


@functools.cache
def _registered() -> dict[str, dict[str, list[Any]]]:
    """The names OpenCompass registers: registry name → {name: ``[kind letter, origin]``}."""
    import orjson

    registered: dict[str, dict[str, list[Any]]] = orjson.loads(b"{" + _layout()[1] + b"}")["registered"]
    return registered


def _modules() -> _ModuleTable:
    return _layout()[2]


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
    return str(_header().get("opencompass_version") or "0.5.4")


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
    missing = [name for name in _header()["requires"] if importlib.util.find_spec(name) is None]
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


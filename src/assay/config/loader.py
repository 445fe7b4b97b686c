"""Loading Python config files.

A config is a Python file whose top-level names (``datasets``, ``models``,
``summarizer``, ``work_dir``, ``eval``, …) make up the configuration (R-2.1).
``with read_base(): from .groups.mmlu import mmlu_summary_groups`` imports
names from sibling config files, relative to the importing file (R-2.3);
``read_base`` may come from ``mmengine.config`` or from ``assay`` — mmengine
itself is not needed.

While a config loads, its own folder is importable (so it can import a sibling
module that registers an evaluator).  Imports no installed package answers —
``opencompass.*`` and ``mmengine.config`` — are served by the *import layer*
installed with :func:`set_import_layer`: :mod:`assay.opencompass` installs
itself when it is imported (``assay.load_config``, the command line and
:mod:`assay.tasks` import it); this module imports nothing above it.

Example:
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / 'base.py').write_text("groups = [dict(name='g', subsets=['a', 'b'])]\\n")
    >>> _ = (d / 'cfg.py').write_text(
    ...     "from assay.config import read_base\\n"
    ...     "with read_base():\\n"
    ...     "    from .base import groups\\n"
    ...     "summarizer = dict(summary_groups=groups)\\n")
    >>> load_config(d / 'cfg.py').variables['summarizer']['summary_groups'][0]['name']
    'g'
"""

from __future__ import annotations

import builtins
import hashlib
import os
import sys
import traceback
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from assay._dataclass import FACTORY, DataclassMethods
from assay.errors import ConfigError

__all__ = ["ImportLayer", "RunConfig", "load_config", "read_base", "set_import_layer"]


@contextmanager
def read_base() -> Iterator[None]:
    """Marks imports of base config files (``with read_base(): from .x import y``).

    The loader resolves relative imports itself, so this is a no-op context
    manager, kept so that configs written for mmengine load unchanged.
    """
    yield


class ImportLayer(Protocol):
    """What serves the imports of configs that no installed package answers (see :func:`set_import_layer`)."""

    def prepare(self) -> None:
        """Called before a config file runs (e.g. to put an import finder in ``sys.meta_path``)."""

    def finish(self, variables: dict[str, Any]) -> None:
        """Called with a loaded config's top-level variables, which it may change in place."""

    def explain(self, exc: ImportError, message: str) -> str:
        """The message for an import of the config that failed (``message`` is the loader's own)."""


_layer: ImportLayer | None = None


def set_import_layer(layer: ImportLayer | None) -> ImportLayer | None:
    """Install ``layer`` as the import layer of every config loaded from now on; return the previous one.

    ``None`` removes it: configs then import only what is installed.
    """
    global _layer
    previous, _layer = _layer, layer
    return previous


@dataclass(init=False, repr=False, eq=False)
class RunConfig(DataclassMethods):
    """A loaded config: its file and its top-level variables."""

    path: Path
    variables: dict[str, Any] = field(default_factory=dict)

    def __init__(self, path: Path, variables: dict[str, Any] = FACTORY) -> None:
        self.path = path
        self.variables = {} if variables is FACTORY else variables

    @property
    def models(self) -> list[dict[str, Any]]:
        return list(self.variables.get("models") or [])

    @property
    def datasets(self) -> list[dict[str, Any]]:
        return list(self.variables.get("datasets") or [])

    @property
    def summarizer(self) -> dict[str, Any] | None:
        value = self.variables.get("summarizer")
        return value if isinstance(value, dict) else None

    @property
    def work_dir(self) -> str | None:
        value = self.variables.get("work_dir")
        return value if isinstance(value, str) else None

    @property
    def eval(self) -> dict[str, Any]:
        value = self.variables.get("eval")
        return value if isinstance(value, dict) else {}

    def resolve_path(self, value: str) -> Path:
        """A path named in the config: absolute, else relative to the working directory if it
        exists there, else relative to the config file's folder.  A dataset id of OpenCompass's
        table (``'opencompass/humaneval'``) is kept as it is, for the loader to resolve."""
        from assay.datasets.location import is_dataset_id

        if is_dataset_id(value):
            return Path(value)
        p = Path(os.path.expanduser(value))
        if p.is_absolute() or p.exists():
            return p
        return self.path.parent / p


_CONFIG_MODULE_PREFIX = "_assay_config_"


def _module_name(path: Path) -> str:
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
    stem = "".join(c if c.isalnum() else "_" for c in path.stem)
    return f"{_CONFIG_MODULE_PREFIX}{digest}_{stem}"


class _Loader:
    """Executes config files; relative imports load sibling config files."""

    def __init__(self) -> None:
        self._cache: dict[Path, types.ModuleType] = {}
        self._loading: list[Path] = []

    def load_file(self, path: Path) -> types.ModuleType:
        path = path.resolve()
        if path in self._cache:
            return self._cache[path]
        if path in self._loading:
            chain = " -> ".join(str(p) for p in [*self._loading, path])
            raise ConfigError(f"circular config import: {chain}")
        try:
            source = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigError(f"config file {path} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"config file {path} cannot be read: {exc}") from None
        try:
            code = compile(source, str(path), "exec")
        except SyntaxError as exc:
            raise ConfigError(f"{path}:{exc.lineno}: syntax error: {exc.msg}") from None

        module = types.ModuleType(_module_name(path))
        module.__file__ = str(path)
        module_builtins = dict(vars(builtins))
        module_builtins["__import__"] = self._make_import(path)
        module.__dict__["__builtins__"] = module_builtins
        sys.modules[module.__name__] = module
        self._loading.append(path)
        try:
            exec(code, module.__dict__)
        except ConfigError:
            raise
        except SystemExit as exc:
            # sys.exit(), exit(), quit(), raise SystemExit: would end the command with nothing done
            line = _config_line(exc, path)
            where = f"{path}:{line}" if line else str(path)
            raise ConfigError(
                f"{where}: the config exits while it is loaded (SystemExit({exc.code!r})); "
                "a config file must only define its variables"
            ) from None
        except Exception as exc:
            line = _config_line(exc, path)
            where = f"{path}:{line}" if line else str(path)
            if isinstance(exc, ImportError):
                raise ConfigError(f"{where}: {_import_message(exc)}") from exc
            raise ConfigError(f"{where}: {type(exc).__name__}: {exc}") from exc
        finally:
            self._loading.pop()
        self._cache[path] = module
        return module

    def _make_import(self, importer: Path) -> Any:
        real_import = builtins.__import__

        def config_import(
            name: str,
            globals: dict[str, Any] | None = None,
            locals: dict[str, Any] | None = None,
            fromlist: tuple[str, ...] | list[str] | None = (),
            level: int = 0,
        ) -> Any:
            if level == 0:
                return real_import(name, globals, locals, fromlist or (), 0)
            return self._relative_import(importer, name, tuple(fromlist or ()), level)

        return config_import

    def _relative_import(self, importer: Path, name: str, fromlist: tuple[str, ...], level: int) -> Any:
        base = importer.parent
        for _ in range(level - 1):
            base = base.parent
        target = base.joinpath(*name.split(".")) if name else base
        module = self._load_target(target, importer, name, level)
        for item in fromlist:
            if item == "*" or hasattr(module, item):
                continue
            child = target / item
            if child.with_suffix(".py").is_file() or child.is_dir():
                setattr(module, item, self._load_target(child, importer, f"{name}.{item}" if name else item, level))
        return module

    def _load_target(self, target: Path, importer: Path, name: str, level: int) -> types.ModuleType:
        py = target.with_suffix(".py")
        if py.is_file():
            return self.load_file(py)
        init = target / "__init__.py"
        if init.is_file():
            return self.load_file(init)
        if target.is_dir():
            module = types.ModuleType(_module_name(target))
            module.__path__ = [str(target)]
            return module
        dots = "." * level
        raise ConfigError(f"{importer}: `from {dots}{name} import …` found neither {py} nor {target}/")


def _config_line(exc: BaseException, path: Path) -> int | None:
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if Path(frame.filename) == path:
            line = frame.lineno
    return line


def _import_message(exc: ImportError) -> str:
    msg = str(exc)
    if _layer is not None:
        return _layer.explain(exc, msg)
    name = getattr(exc, "name", None) or ""
    if name.split(".", 1)[0] in ("opencompass", "mmengine"):
        return (f"{msg} (opencompass.* and mmengine.* names are served by assay.opencompass: import it before "
                "loading the config, or load it with assay.load_config)")
    return msg


def load_config(path: str | os.PathLike[str]) -> RunConfig:
    """Load a Python config file and return its top-level variables.

    Raises:
        ConfigError: the file is missing, has a syntax error, or raises or
            exits (``sys.exit``, ``exit()``, ``raise SystemExit``) while
            executing; the message names the file and line.
    """
    cfg_path = Path(path).expanduser().resolve()
    if not cfg_path.is_file():
        raise ConfigError(f"config file {cfg_path} does not exist" if not cfg_path.exists() else f"config path {cfg_path} is not a file")
    if _layer is not None:
        _layer.prepare()
    folder = str(cfg_path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module = _Loader().load_file(cfg_path)
    variables = {
        name: value
        for name, value in module.__dict__.items()
        if not name.startswith("__") and not isinstance(value, types.ModuleType)
    }
    if _layer is not None:
        _layer.finish(variables)
    from assay.config.secrets import restore_secrets

    restore_secrets(variables)  # a dumped config's redacted keys, from the environment
    return RunConfig(path=cfg_path, variables=variables)

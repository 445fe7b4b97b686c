"""The ``mmengine`` names OpenCompass's configs and code use: ``ConfigDict`` and ``read_base``.

``mmengine.config`` is served by assay where mmengine itself is not installed
(:mod:`assay.opencompass.finder`): ``from mmengine.config import read_base,
ConfigDict`` works in configs, scripts and notebooks alike.  The dicts of
OpenCompass's config library files become :class:`ConfigDict`s, as mmengine
gives them to the files importing them.
"""

from __future__ import annotations

import copy
import importlib.machinery
import importlib.util
import types
from typing import Any

from assay.config import read_base

__all__ = ["ConfigDict", "read_base", "served"]


def _convert(value: Any) -> Any:
    """``value`` with every plain dict in it (through lists and tuples) a :class:`ConfigDict`."""
    if isinstance(value, dict) and not isinstance(value, ConfigDict):
        return ConfigDict(value)
    if type(value) in (list, tuple):
        return type(value)(_convert(v) for v in value)
    return value


class ConfigDict(dict[str, Any]):
    """mmengine's ``ConfigDict``: a dict whose keys read and write as attributes.

    As in mmengine, every dict put into one — at creation, by item or
    attribute assignment, or ``update`` — becomes a ``ConfigDict`` too, through
    lists and tuples (which are copied); a missing key read as an attribute
    raises ``AttributeError`` (so ``hasattr`` and ``getattr(d, k, default)``
    work), read as an item ``KeyError``.  ``to_dict()`` gives plain dicts back,
    ``copy()`` a shallow ``ConfigDict``, ``deepcopy()`` a deep one.

    >>> d = ConfigDict(abbr='x', eval_cfg={'evaluator': {'type': 'AccEvaluator'}}, subsets=[{'name': 'a'}])
    >>> d.abbr, d.eval_cfg.evaluator.type, d.subsets[0].name
    ('x', 'AccEvaluator', 'a')
    >>> d.work_dir = 'out'; d['work_dir'], hasattr(d, 'missing')
    ('out', False)
    >>> type(d.to_dict()['eval_cfg']) is dict, d.deepcopy() == d, d.deepcopy() is d
    (True, True, False)
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.update(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'") from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value

    def __delattr__(self, name: str) -> None:
        try:
            del self[name]
        except KeyError:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'") from None

    def __setitem__(self, key: str, value: Any) -> None:
        super().__setitem__(key, _convert(value))

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def copy(self) -> ConfigDict:
        out = ConfigDict()
        for key, value in self.items():
            dict.__setitem__(out, key, value)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Plain dicts (lists and tuples copied), as the config was written."""

        def plain(value: Any) -> Any:
            if isinstance(value, dict):
                return {k: plain(v) for k, v in value.items()}
            if type(value) in (list, tuple):
                return type(value)(plain(v) for v in value)
            return value

        out: dict[str, Any] = plain(self)
        return out

    def deepcopy(self) -> ConfigDict:
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> ConfigDict:
        out = ConfigDict()
        memo[id(self)] = out
        for k, v in self.items():
            dict.__setitem__(out, k, copy.deepcopy(v, memo))
        return out

    def __copy__(self) -> ConfigDict:
        return self.copy()

    def __reduce__(self) -> Any:
        return (ConfigDict, (dict(self),))


def served(module: str) -> dict[str, Any]:
    """The names assay serves in ``mmengine`` / ``mmengine.config``."""
    return {"read_base": read_base, "ConfigDict": ConfigDict}


def _config_dicts(value: Any, seen: dict[int, Any]) -> Any:
    """``value`` with its dicts made :class:`ConfigDict`s in place of them; lists are changed in place, and a
    dict reached twice gives the same ``ConfigDict``."""
    if id(value) in seen:
        return seen[id(value)]
    if type(value) is dict:
        out = ConfigDict()
        seen[id(value)] = out
        for k, v in value.items():
            dict.__setitem__(out, k, _config_dicts(v, seen))
        return out
    if type(value) is list:
        seen[id(value)] = value
        value[:] = [_config_dicts(v, seen) for v in value]
        return value
    return value


_LIBRARY_PREFIX = "opencompass.configs."


def _fresh_library_module(name: str) -> types.ModuleType | None:
    """A new execution of the library file ``name`` (not kept in ``sys.modules``), or ``None`` for a package."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is not None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _library_import(real_import: Any) -> Any:
    """The ``__import__`` of a library file: each ``from <library file> import …`` executes that file anew.

    mmengine reads each base file a config imports by itself, so that a file
    changing what it imported (``needlebench_eval_cfg['evaluator']['type'] =
    …``, as NeedleBench's multi-needle files do to the single-needle file's
    evaluation config) changes its own copy only, never the datasets of the
    file it imported from nor those another file imports from it.
    """

    def library_import(
        name: str,
        globals: dict[str, Any] | None = None,
        locals: dict[str, Any] | None = None,
        fromlist: Any = (),
        level: int = 0,
    ) -> Any:
        if fromlist and "*" not in fromlist:
            package = (globals or {}).get("__package__") or ""
            try:
                target = importlib.util.resolve_name("." * level + name, package) if level else name
            except (ImportError, ValueError):
                target = ""
            if target.startswith(_LIBRARY_PREFIX):
                module = _fresh_library_module(target)
                if module is not None:
                    return module
        return real_import(name, globals, locals, fromlist, level)

    return library_import


class _LibraryLoader(importlib.machinery.SourceFileLoader):
    """Executes a file of OpenCompass's config library; its top-level dicts become :class:`ConfigDict`.

    The file's imports of other library files execute them anew (:func:`_library_import`).
    """

    def exec_module(self, module: types.ModuleType) -> None:
        import builtins

        module_builtins = dict(vars(builtins))
        module_builtins["__import__"] = _library_import(builtins.__import__)
        module.__dict__["__builtins__"] = module_builtins
        # some library files delete every global whose name starts with '_' when they end (GaokaoBench's
        # `del globals()[_t]`), dunders included: put back the module's own, so that the import system
        # still finds its spec when another file imports it later in the same process
        dunders = {k: v for k, v in vars(module).items() if k.startswith("__") and k.endswith("__")}
        super().exec_module(module)
        for key, value in dunders.items():
            module.__dict__.setdefault(key, value)
        seen: dict[int, Any] = {}
        for name, value in list(vars(module).items()):
            if not name.startswith("__") and type(value) in (dict, list):
                setattr(module, name, _config_dicts(value, seen))


def _library_spec(fullname: str, path: Any) -> importlib.machinery.ModuleSpec | None:
    spec = importlib.machinery.PathFinder.find_spec(fullname, path)
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return spec
    loader = _LibraryLoader(fullname, spec.origin)
    return importlib.util.spec_from_file_location(
        fullname, spec.origin, loader=loader, submodule_search_locations=spec.submodule_search_locations
    )


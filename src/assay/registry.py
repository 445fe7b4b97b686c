"""Registries of named components and the one ``type`` resolver.

A config names a component by its ``type``: a class or function object, a short
name registered in one of the registries below (``'first-capital'``), or a
dotted import path (``'my_pkg.module.my_fn'``).  :func:`resolve_type` is the only
place where that resolution happens.

A short name no registry holds goes last to the *fallback* installed with
:func:`set_fallback`.  The OpenCompass layer (:mod:`assay.opencompass`)
installs one when it is imported — the command line, :mod:`assay.tasks` and
the registries exported by the ``assay`` package do — which answers the names
OpenCompass registers (``'GaokaoBenchEvaluator_single_choice'``): this module
imports nothing above it.

Example:
    >>> from assay.registry import TEXT_POSTPROCESSORS
    >>> fn = TEXT_POSTPROCESSORS.get('first-capital')
    >>> fn('the answer is B')
    'B'
"""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast, overload

from assay.errors import RegistryError

logger = logging.getLogger(__name__)

T = TypeVar("T")

ENTRY_POINT_GROUP = "assay.plugins"

#: ``fallback(registry_name, name)``: what a short name no registry holds stands for, or ``None``.
Fallback = Callable[[str, str], Any]

_fallback: Fallback | None = None


def set_fallback(fallback: Fallback | None) -> Fallback | None:
    """Install ``fallback`` as :func:`resolve_type`'s last resort for a name no registry holds; return the previous one.

    ``fallback(registry_name, name)`` is asked after the registry (and, for an
    ``opencompass.*`` dotted string, its short name) and before the name is
    imported as a dotted path; what it returns is used unless it is ``None``.
    A stand-in it returns gives way to an implementation registered under the
    same name (:func:`replacement`).  ``None`` removes the fallback.
    """
    global _fallback
    previous, _fallback = _fallback, fallback
    return previous


class Registry:
    """A name → object table for one kind of component.

    Registering a *different* object under a name that is already taken is an
    error; registering the same object again is a no-op (modules may be
    imported twice under different names).
    """

    def __init__(self, name: str, populate: tuple[str, ...] = ()) -> None:
        self.name = name
        self._items: dict[str, Any] = {}
        self._populate = populate
        self._populated = False

    def __repr__(self) -> str:
        return f"Registry({self.name!r}, {len(self._items)} items)"

    def _ensure_populated(self) -> None:
        """Import every module that registers into this registry (its packages whole, the name table's modules) and the plugins."""
        if self._populated:
            return
        self._populated = True
        load_plugins()
        for package in self._populate:
            import_all(package)
        for module in sorted(set(_builtin_names().get(self.name, {}).values())):
            importlib.import_module(module)

    def _import_defining(self, name: str) -> None:
        """Import the built-in module that registers ``name`` here, if the name table has one not yet imported."""
        module = _builtin_names().get(self.name, {}).get(name)
        if module is not None and module not in sys.modules:
            importlib.import_module(module)

    # -- registration -------------------------------------------------
    def register(self, name: str, obj: Any, *, force: bool = False) -> None:
        """Register ``obj`` under ``name``."""
        if not isinstance(name, str) or not name:
            raise RegistryError(f"{self.name}: a registered name must be a non-empty string, got {name!r}")
        if name not in self._items:
            # the built-in holding the name registers first, as if every built-in had been imported already
            self._import_defining(name)
        existing = self._items.get(name)
        if existing is not None and existing is not obj and not force:
            if _same_definition(existing, obj):
                self._items[name] = obj
                return
            raise RegistryError(
                f"{self.name}: the name {name!r} is already registered to "
                f"{_describe(existing)}; refusing to overwrite it with {_describe(obj)}. "
                "Register the new object under another name."
            )
        self._items[name] = obj

    @overload
    def register_module(self, name: Callable[..., Any]) -> Callable[..., Any]: ...

    @overload
    def register_module(
        self, name: str | list[str] | None = None, force: bool = False, module: Any = None
    ) -> Callable[[T], T]: ...

    def register_module(self, name: Any = None, force: bool = False, module: Any = None) -> Any:
        """Decorator registering a class or function.

        ``@REG.register_module()`` registers under the object's own name;
        ``@REG.register_module('short-name')`` (or a list of names) under others.
        ``REG.register_module(module=obj)`` registers without decorating.
        """
        if callable(name) and not isinstance(name, str):
            obj = name
            self.register(obj.__name__, obj, force=force)
            return obj

        def decorator(obj: T) -> T:
            names = name if isinstance(name, (list, tuple)) else [name or cast(Any, obj).__name__]
            for n in names:
                self.register(n, obj, force=force)
            return obj

        if module is not None:
            return decorator(module)
        return decorator

    # -- lookup --------------------------------------------------------
    def get(self, name: str) -> Any:
        """Return the object registered under ``name`` (or importable at that dotted path)."""
        return resolve_type(name, self)

    def lookup(self, name: str) -> Any | None:
        """The object registered under exactly ``name``, or ``None``.

        Imports only what can register the name: the plugins (``assay.plugins``
        entry points, once) and the built-in module the name table
        (:mod:`assay._names`) says registers it; a name neither holds is not
        registered by any built-in, so nothing else is imported.
        """
        if not self._populated:
            load_plugins()
            if name not in self._items:
                self._import_defining(name)
        return self._items.get(name)

    def names(self) -> list[str]:
        """All registered names, sorted."""
        self._ensure_populated()
        return sorted(self._items)

    def items(self) -> Iterator[tuple[str, Any]]:
        self._ensure_populated()
        return iter(sorted(self._items.items()))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.lookup(name) is not None

    def __len__(self) -> int:
        self._ensure_populated()
        return len(self._items)

    def build(self, cfg: dict[str, Any], **defaults: Any) -> Any:
        """Instantiate (or call) the component described by ``cfg``."""
        if not isinstance(cfg, dict) or "type" not in cfg:
            raise RegistryError(f"{self.name}: a component config must be a dict with a 'type' key, got {cfg!r}")
        kwargs = {k: v for k, v in cfg.items() if k != "type"}
        obj = resolve_type(cfg["type"], self)
        return obj(**{**defaults, **kwargs})


def _describe(obj: Any) -> str:
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', repr(obj))}"


def _same_definition(a: Any, b: Any) -> bool:
    """True when two objects are one source definition loaded twice.

    A module may be imported under two names (as a sibling of a config file and
    by its dotted path); its classes then differ as objects but are one
    definition: same qualified name, same source file.
    """
    qa, qb = getattr(a, "__qualname__", None), getattr(b, "__qualname__", None)
    if qa is None or qa != qb:
        return False
    return _source_file(a) is not None and _source_file(a) == _source_file(b)


def _source_file(obj: Any) -> str | None:
    import os
    import sys

    module = sys.modules.get(getattr(obj, "__module__", "") or "")
    path = getattr(module, "__file__", None)
    return os.path.realpath(path) if path else None


def import_dotted(path: str) -> Any:
    """Import ``'pkg.module.attr'`` (or ``'pkg.module:attr'``) and return the object."""
    if ":" in path:
        module_name, _, attr_path = path.partition(":")
        obj: Any = importlib.import_module(module_name)
        for part in attr_path.split("."):
            obj = getattr(obj, part)
        return obj
    parts = path.split(".")
    for i in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:i])
        try:
            obj = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and module_name.startswith(exc.name):
                continue
            raise
        try:
            for part in parts[i:]:
                obj = getattr(obj, part)
        except AttributeError:
            continue
        return obj
    raise ImportError(f"cannot import {path!r}")


def resolve_type(spec: Any, registry: Registry | None = None, *, key: str = "type") -> Any:
    """Resolve a config ``type`` to a class or function.

    Args:
        spec: a class or callable (returned as is), a registered name, or a
            dotted import path.
        registry: where short names are looked up.
        key: the config key being resolved, for the error message.

    Raises:
        RegistryError: naming the key, the registry searched and the closest
            registered names.
    """
    if callable(spec) and not isinstance(spec, str):
        if getattr(spec, "_assay_standin", False) is True:
            return replacement(spec, registry) or spec
        return spec
    if not isinstance(spec, str):
        where = f" in {registry.name}" if registry else ""
        raise RegistryError(f"{key}={spec!r} cannot be resolved{where}: expected a class, a function, a registered name or a dotted import path")
    if registry is not None:
        found = registry.lookup(spec)
        if found is not None:
            return found
        # `opencompass.x.y.Name` written as a string: try the short name too.
        short = spec.rsplit(".", 1)[-1]
        if "." in spec and spec.split(".", 1)[0] == "opencompass":
            found = registry.lookup(short)
            if found is not None:
                return found
        found = _fallback(registry.name, spec) if _fallback is not None else None  # e.g. a name OpenCompass registers
        if found is not None:
            return replacement(found, registry) or found
    if "." in spec or ":" in spec:
        try:
            return import_dotted(spec)
        except (ImportError, AttributeError) as exc:
            import_error: Exception | None = exc
        else:  # pragma: no cover - import_dotted returns or raises
            import_error = None
    else:
        import_error = None
    import difflib

    where = f"registry {registry.name}" if registry is not None else "no registry"
    candidates = registry.names() if registry is not None else []
    close = difflib.get_close_matches(spec, candidates, n=5, cutoff=0.5)
    if not close:
        lowered = {c.lower(): c for c in candidates}
        close = [lowered[c] for c in difflib.get_close_matches(spec.lower(), list(lowered), n=5, cutoff=0.5)]
    msg = f"{key}={spec!r} is not a registered name in {where}"
    if "." in spec or ":" in spec:
        msg += f" and cannot be imported as a dotted path ({import_error})"
    if close:
        msg += f"; closest registered names: {', '.join(repr(c) for c in close)}"
    raise RegistryError(msg)


def replacement(standin: Any, registry: Registry | None = None) -> Any:
    """The implementation registered under the name of a stand-in (an OpenCompass name assay lacks), or ``None``.

    ``registry`` is searched first, then every registry; the short name
    (``'XEvaluator'``) and the dotted name are both looked for.
    """
    dotted = str(getattr(standin, "_assay_dotted", "") or "")
    if not dotted:
        return None
    names = (dotted.rsplit(".", 1)[-1], dotted)
    registries = [registry] if registry is not None else []
    registries += [r for r in ALL_REGISTRIES if r is not registry]
    for reg in registries:
        for name in names:
            found = reg.lookup(name)
            if found is not None and getattr(found, "_assay_standin", False) is not True:
                return found
    return None


def public_submodules(package: str) -> list[str]:
    """The dotted names of ``package``'s public submodules (not starting with ``_``), sorted."""
    import pkgutil

    path = importlib.import_module(package).__path__
    return [f"{package}.{info.name}" for info in sorted(pkgutil.iter_modules(path), key=lambda i: i.name) if not info.name.startswith("_")]


def import_all(package: str) -> None:
    """Import ``package``, each of its public submodules and what its ``__all__`` names (the modules
    a lazily filled package imports only when asked): what enumerating a registry needs."""
    for module in public_submodules(package):
        importlib.import_module(module)
    namespace = importlib.import_module(package)
    for name in getattr(namespace, "__all__", ()):
        getattr(namespace, name)


def _builtin_names() -> dict[str, dict[str, str]]:
    """The name table: registry → name → the built-in module whose import registers it."""
    from assay._names import REGISTERED

    return REGISTERED


_entry_points_loaded = False


def load_plugins() -> None:
    """Import the third-party plugins declared under the ``assay.plugins`` entry-point group (once)."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    if not _may_declare_plugins():
        return
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            ep.load()
        except Exception:  # a broken plugin must not break assay
            logger.warning("could not load the assay plugin %r (%s)", ep.name, ep.value, exc_info=True)


def _may_declare_plugins() -> bool:
    """Whether a distribution on the path may declare an ``assay.plugins`` entry point.

    A quick look, without :mod:`importlib.metadata` (slow to import and to
    scan): the ``entry_points.txt`` of every ``*.dist-info``/``*.egg-info``
    folder of every ``sys.path`` folder, as :func:`importlib.metadata.entry_points`
    finds them, is searched for the group's header.  ``False`` only when none
    has it; ``True`` also wherever the quick look cannot tell (a zip or egg on
    the path, a finder of distributions other than the standard one), so that
    the entry points are then read properly.
    """
    import os
    import sys
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:
        if finder is not PathFinder and getattr(finder, "find_distributions", None) is not None:
            return True
    header = f"[{ENTRY_POINT_GROUP}]".encode()
    for entry in sys.path:
        if not isinstance(entry, str):
            return True
        if entry.lower().endswith(".egg"):
            return True
        try:
            names = os.listdir(entry or ".")
        except NotADirectoryError:  # a zip file
            return True
        except OSError:  # not there, or not readable: importlib.metadata passes it over too
            continue
        for name in names:
            if not name.lower().endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(entry or ".", name, "entry_points.txt"), "rb") as fh:
                    if header in fh.read():
                        return True
            except OSError:  # no entry points (or an egg-info file)
                continue
    return False


TEXT_POSTPROCESSORS = Registry("TEXT_POSTPROCESSORS", populate=("assay.postprocess",))
DICT_POSTPROCESSORS = Registry("DICT_POSTPROCESSORS", populate=("assay.postprocess", "assay.judge", "assay.subjective"))
ICL_EVALUATORS = Registry("ICL_EVALUATORS", populate=("assay.evaluators", "assay.subjective"))
LOAD_DATASET = Registry("LOAD_DATASET", populate=("assay.datasets",))
SUMMARIZERS = Registry("SUMMARIZERS", populate=("assay.summarize", "assay.subjective"))
MODELS = Registry("MODELS", populate=("assay.judge",))
ICL_PROMPT_TEMPLATES = Registry("ICL_PROMPT_TEMPLATES", populate=("assay.judge",))
#: Every registry of assay.
ALL_REGISTRIES = (LOAD_DATASET, ICL_EVALUATORS, TEXT_POSTPROCESSORS, DICT_POSTPROCESSORS, MODELS, SUMMARIZERS, ICL_PROMPT_TEMPLATES)

__all__ = [
    "DICT_POSTPROCESSORS",
    "ICL_EVALUATORS",
    "ICL_PROMPT_TEMPLATES",
    "LOAD_DATASET",
    "MODELS",
    "SUMMARIZERS",
    "TEXT_POSTPROCESSORS",
    "Registry",
    "import_dotted",
    "replacement",
    "resolve_type",
    "set_fallback",
]

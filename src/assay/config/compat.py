"""``opencompass.*`` and ``mmengine.config`` import aliases, OpenCompass's config library and stand-ins.

OpenCompass configs import from ``opencompass.registry``,
``opencompass.openicl.icl_evaluator``, ``opencompass.datasets`` and so on, and
from OpenCompass's own config library (``opencompass.configs.datasets...``).
:func:`install` makes those imports work in one of three modes
(:func:`opencompass_mode`):

``'full'``
    OpenCompass is installed with its dependencies: every ``opencompass.*``
    import is OpenCompass's own.  After a config loads, each OpenCompass object
    in it that assay implements under the same name is replaced by assay's
    (:func:`prefer_builtin`): assay's built-in wins, OpenCompass serves the rest.
``'files'``
    OpenCompass's files are present without its dependencies
    (``pip install --no-deps opencompass``, or a folder named by the
    ``ASSAY_OPENCOMPASS`` environment variable holding ``opencompass/configs``):
    ``opencompass.configs.*`` is imported from those files; every other
    ``opencompass.*`` name is served by assay, as in ``'none'``.
``'none'``
    Neither: ``opencompass.*`` names are served by assay;
    ``opencompass.configs`` is an error saying how to get it.

assay serves a name as follows:

* evaluators, postprocessors, dataset loaders, registries, judge models and
  summarizers map to assay's implementations;
* inference-side classes that evaluation never instantiates (prompt templates,
  retrievers, inferencers, model classes, partitioners, runners, tasks) map to
  *inert markers*: classes that keep their OpenCompass name and module (so that
  ``infer_cfg`` still tells gen/ppl mode and hashes to OpenCompass's version
  string) but refuse to be instantiated;
* any other name OpenCompass 0.5.4 defines (listed in ``opencompass_names.json``,
  made from its source by ``scripts/extract_opencompass_names.py``) is a
  *stand-in*: a class, function or value of the same kind that knows its
  dotted name (``_assay_standin = True``) and fails, naming it, when used —
  so a config importing it loads, and only the tasks that use it fail;
* a name OpenCompass does not define either (in a module it has or not) is a
  stand-in too, whose error says so: OpenCompass itself imports such names
  lazily and fails only when it builds the object, so a config loads in assay
  whenever it loads in OpenCompass.

OpenCompass's mode is found without importing it: its package is found on
``sys.path``, and every third-party module its packages import at module level
(listed in the same table) is findable.  ``ASSAY_OPENCOMPASS_MODE=files``
forces assay's aliases even where OpenCompass is fully installed.
"""

from __future__ import annotations

import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import logging
import os
import re
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from assay.errors import ConfigError
from assay.registry import set_fallback

logger = logging.getLogger(__name__)

__all__ = [
    "ComponentUnavailable",
    "ConfigDict",
    "InertComponent",
    "StandIn",
    "install",
    "is_inert",
    "is_standin",
    "library_root",
    "opencompass_mode",
    "origin",
    "prefer_builtin",
    "read_base",
    "registered_name",
    "standin_for_type_name",
    "standin_name",
    "unavailable_message",
]

#: The environment variable naming a folder that holds ``opencompass/configs``.
LIBRARY_ENV = "ASSAY_OPENCOMPASS"
#: ``files`` makes assay serve ``opencompass.*`` even where OpenCompass is fully installed.
MODE_ENV = "ASSAY_OPENCOMPASS_MODE"


@contextmanager
def read_base() -> Iterator[None]:
    """Marks imports of base config files (``with read_base(): from .x import y``).

    assay's config loader resolves relative imports itself, so this is a no-op
    context manager kept for compatibility with OpenCompass configs.
    """
    yield


class ComponentUnavailable(ConfigError):
    """A config uses an OpenCompass name that assay does not implement (a stand-in)."""


class InertComponent:
    """Base of inert marker classes standing for OpenCompass inference components."""

    _assay_inert = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise ConfigError(
            f"{type(self).__module__}.{type(self).__qualname__} is an inference component; "
            "assay scores saved predictions and never instantiates it"
        )


_markers: dict[tuple[str, str], type] = {}


def _marker(module: str, name: str) -> type:
    key = (module, name)
    cls = _markers.get(key)
    if cls is None:
        cls = type(name, (InertComponent,), {"__module__": module, "__qualname__": name, "__doc__": f"Inert stand-in for {module}.{name}."})
        _markers[key] = cls
    return cls


def is_inert(obj: Any) -> bool:
    """True for an inert marker class standing for an inference component."""
    return isinstance(obj, type) and issubclass(obj, InertComponent)


# -- the table of OpenCompass's names ------------------------------------------------------


@functools.cache
def _table() -> dict[str, Any]:
    path = Path(__file__).with_name("opencompass_names.json")
    table: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
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


def _origin_of(module: str, name: str, entry: list[Any]) -> str:
    return entry[1] or f"{module}.{name}"


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        if set(value) == {"__tuple__"}:
            return tuple(_decode(v) for v in value["__tuple__"])
        return {k: _decode(v) for k, v in value.items()}
    return value


# -- stand-ins ---------------------------------------------------------------------------


def unavailable_message(dotted: str | list[str]) -> str:
    """How to get OpenCompass components assay does not implement.

    >>> unavailable_message('opencompass.datasets.x.XEvaluator').split(';')[0]
    'assay does not implement opencompass.datasets.x.XEvaluator'
    """
    names = [dotted] if isinstance(dotted, str) else list(dotted)
    unknown = [n for n in names if n in _UNKNOWN]
    if unknown:
        return (
            f"{', '.join(unknown)}: neither assay nor OpenCompass {_table().get('opencompass_version')} defines "
            f"{'this name' if len(unknown) == 1 else 'these names'} (misspelt, or from another OpenCompass version); "
            "register an implementation under the name to use it"
        ) + ("; " + unavailable_message([n for n in names if n not in _UNKNOWN]) if len(unknown) < len(names) else "")
    shorts = ", ".join(repr(n.rsplit(".", 1)[-1]) for n in names)
    version = _table().get("opencompass_version") or "0.5.4"
    return (
        f"assay does not implement {', '.join(names)}; to use {'it' if len(names) == 1 else 'them'}, install OpenCompass "
        f"with its dependencies next to assay (pip install opencompass=={version}), or register an implementation "
        f"under the name {shorts} (e.g. @ICL_EVALUATORS.register_module() for an evaluator, @LOAD_DATASET or "
        "@TEXT_POSTPROCESSORS for a loader or a postprocessor, in a module the config imports or an 'assay.plugins' "
        "entry point)"
    )


class _StandInAttributeError(AttributeError):
    pass


class _StandInMeta(type):
    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise _StandInAttributeError(f"{cls._assay_dotted}.{name}: {unavailable_message(cls._assay_dotted)}")


class StandIn(metaclass=_StandInMeta):
    """Base of stand-in classes: OpenCompass classes assay does not implement.

    A stand-in keeps OpenCompass's module and name; creating one raises
    :class:`ComponentUnavailable` naming it and the ways to get it.
    """

    _assay_standin = True
    _assay_dotted = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise ComponentUnavailable(unavailable_message(type(self)._assay_dotted))


class _StandInValue:
    """A constant of OpenCompass that assay does not have: any use of it fails, naming it."""

    _assay_standin = True

    def __init__(self, dotted: str) -> None:
        object.__setattr__(self, "_assay_dotted", dotted)

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        raise ComponentUnavailable(unavailable_message(object.__getattribute__(self, "_assay_dotted")))

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise _StandInAttributeError(unavailable_message(object.__getattribute__(self, "_assay_dotted")))

    def __repr__(self) -> str:
        return f"<stand-in for {object.__getattribute__(self, '_assay_dotted')}>"

    __str__ = __repr__  # printing or dumping a config that holds one works; using it does not

    def __bool__(self) -> bool:
        return True

    __call__ = __iter__ = __len__ = __getitem__ = __contains__ = _fail
    __add__ = __radd__ = __mul__ = _fail


_standins: dict[str, Any] = {}
#: dotted names imported from OpenCompass's packages that OpenCompass 0.5.4 does not define either
_UNKNOWN: set[str] = set()


def _standin(dotted: str, kind: str) -> Any:
    """The one stand-in object of the OpenCompass definition ``dotted``."""
    found = _standins.get(dotted)
    if found is not None:
        return found
    module, _, name = dotted.rpartition(".")
    obj: Any
    if kind == "c":
        obj = _StandInMeta(name, (StandIn,), {
            "__module__": module, "__qualname__": name, "_assay_dotted": dotted,
            "__doc__": f"Stand-in for {dotted}, which assay does not implement.",
        })
    elif kind == "f":
        def standin(*args: Any, **kwargs: Any) -> Any:
            raise ComponentUnavailable(unavailable_message(dotted))

        standin.__name__ = standin.__qualname__ = name
        standin.__module__ = module
        standin.__doc__ = f"Stand-in for {dotted}, which assay does not implement."
        standin._assay_standin = True  # type: ignore[attr-defined]
        standin._assay_dotted = dotted  # type: ignore[attr-defined]
        obj = standin
    else:
        obj = _StandInValue(dotted)
    _standins[dotted] = obj
    return obj


def registered_name(registry: str, name: str) -> Any:
    """What OpenCompass registered as ``name`` in its registry ``registry`` (e.g. ``'ICL_EVALUATORS'``), or ``None``.

    Where OpenCompass is fully installed, its own object; else a stand-in.
    Used for ``type='GaokaoBenchEvaluator_single_choice'``-style registry names:
    importing this module installs it as the registries' fallback
    (:func:`assay.registry.set_fallback`).
    """
    entry = _table().get("registered", {}).get(registry, {}).get(name)
    if entry is None:
        if opencompass_mode() == "full":  # registered in OpenCompass's registry by the user's own code
            real = getattr(importlib.import_module("opencompass.registry"), registry, None)
            found = real.get(name) if real is not None and name in getattr(real, "module_dict", {}) else None
            return found
        return None
    kind, dotted = entry[0], entry[1]
    if opencompass_mode() == "full":
        module, _, attr = dotted.rpartition(".")
        mod = importlib.import_module(module)
        if hasattr(mod, attr):
            return getattr(mod, attr)
        real = importlib.import_module("opencompass.registry")
        return getattr(real, registry).get(name)
    return _standin(dotted, kind)


def standin_for_type_name(name: str) -> Any:
    """The stand-in for a ``type`` given as a string — a name OpenCompass registers, or an ``opencompass.*``
    dotted path — that assay does not implement, or ``None``."""
    from assay import registry

    short = name.rsplit(".", 1)[-1] if name.startswith("opencompass.") else name
    if any(getattr(registry, r).lookup(short) is not None for r in _REGISTRIES):
        return None
    if short != name:  # a dotted path, as in a config OpenCompass dumped
        try:
            obj = registry.import_dotted(name)
        except (ImportError, AttributeError):
            return None
        return obj if is_standin(obj) else None
    for reg_name in _table().get("registered", {}):
        found = registered_name(reg_name, name)
        if found is not None:
            return found if is_standin(found) else None
    return None


def is_standin(obj: Any) -> bool:
    """True for a stand-in: an OpenCompass name assay does not implement."""
    try:
        return getattr(obj, "_assay_standin", False) is True
    except Exception:
        return False


def standin_name(obj: Any) -> str:
    """The dotted OpenCompass name a stand-in stands for."""
    try:
        return str(object.__getattribute__(obj, "_assay_dotted"))
    except AttributeError:  # marked by hand: its own module and name
        return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', None) or getattr(obj, '__name__', repr(obj))}"


# -- what assay itself provides under OpenCompass's names ------------------------------------

_CAPWORD = re.compile(r"^[A-Z][A-Za-z0-9_]*$")


def _ends_with(*suffixes: str) -> Callable[[str], bool]:
    return lambda name: bool(_CAPWORD.match(name)) and name.endswith(suffixes)


def _any_capword(name: str) -> bool:
    return bool(_CAPWORD.match(name))


def _registry_names() -> dict[str, Any]:
    from assay import registry

    return {name: getattr(registry, name) for name in registry.__all__}


def _base_names() -> dict[str, Any]:
    from assay.evaluate.base import BaseEvaluator

    return {"BaseEvaluator": BaseEvaluator}


def _dataset_base() -> dict[str, Any]:
    from assay.datasets.base import BaseDataset

    return {"BaseDataset": BaseDataset}


def _utils_names() -> dict[str, Any]:
    from assay.datasets.location import get_data_path

    return {"get_data_path": get_data_path, **_registry_names()}


def _read_base() -> dict[str, Any]:
    return {"read_base": read_base}


_EVALUATOR_SOURCES = ("assay.evaluators",)
_POSTPROCESS_SOURCES = ("assay.postprocess",)


class _Spec:
    def __init__(
        self,
        sources: tuple[str, ...] = (),
        names: Callable[[], dict[str, Any]] | None = None,
        inert: Callable[[str], bool] | None = None,
    ) -> None:
        self.sources = sources
        self.names = names
        self.inert = inert


_INFERENCERS = _ends_with("Inferencer", "OutputHandler")
_RETRIEVERS = _ends_with("Retriever")
_TEMPLATES = _ends_with("PromptTemplate", "Template")

_SPECS: dict[str, _Spec] = {
    "opencompass": _Spec(),
    "opencompass.registry": _Spec(names=_registry_names),
    "opencompass.openicl": _Spec(
        sources=_EVALUATOR_SOURCES,
        names=_base_names,
        inert=lambda n: _INFERENCERS(n) or _RETRIEVERS(n) or _TEMPLATES(n) or n == "DatasetReader",
    ),
    "opencompass.openicl.icl_evaluator": _Spec(sources=_EVALUATOR_SOURCES, names=_base_names),
    "opencompass.openicl.icl_prompt_template": _Spec(inert=_TEMPLATES),
    "opencompass.openicl.icl_raw_prompt_template": _Spec(inert=_TEMPLATES),
    "opencompass.openicl.icl_retriever": _Spec(inert=_RETRIEVERS),
    "opencompass.openicl.icl_inferencer": _Spec(inert=_INFERENCERS),
    "opencompass.openicl.icl_dataset_reader": _Spec(inert=lambda n: n == "DatasetReader"),
    "opencompass.evaluator": _Spec(sources=_EVALUATOR_SOURCES, names=_base_names),
    "opencompass.datasets": _Spec(
        sources=("assay.datasets", *_POSTPROCESS_SOURCES, *_EVALUATOR_SOURCES), names=_dataset_base
    ),
    "opencompass.utils": _Spec(sources=_POSTPROCESS_SOURCES, names=_utils_names),
    "opencompass.utils.datasets": _Spec(names=_utils_names),
    "opencompass.utils.text_postprocessors": _Spec(sources=_POSTPROCESS_SOURCES),
    "opencompass.models": _Spec(sources=("assay.judge",), inert=_any_capword),
    "opencompass.partitioners": _Spec(inert=_any_capword),
    "opencompass.runners": _Spec(inert=_any_capword),
    "opencompass.tasks": _Spec(inert=_any_capword),
    "opencompass.summarizers": _Spec(sources=("assay.summarize",)),
    "mmengine": _Spec(names=_read_base),
    "mmengine.config": _Spec(names=_read_base),
}

#: Module names that ``mmengine`` aliases (when mmengine is not installed).
_MMENGINE_MODULES = {"mmengine", "mmengine.config"}


def _spec_for(fullname: str) -> _Spec:
    """What assay provides in ``fullname``: its own entry, else its nearest aliased parent's."""
    parts = fullname.split(".")
    for i in range(len(parts), 1, -1):
        parent = ".".join(parts[:i])
        if parent in _SPECS:
            return _SPECS[parent]
    return _SPECS.get(fullname, _SPECS["opencompass"])


_REGISTRIES = (
    "LOAD_DATASET", "ICL_EVALUATORS", "TEXT_POSTPROCESSORS", "DICT_POSTPROCESSORS", "MODELS", "SUMMARIZERS", "ICL_PROMPT_TEMPLATES",
)


def _registered(name: str) -> Any:
    """An implementation registered in one of assay's registries under OpenCompass's ``name``."""
    from assay import registry

    for reg_name in _REGISTRIES:
        found = getattr(registry, reg_name).lookup(name)
        if found is not None and not is_standin(found):
            return found
    return None


def _assay_object(module: str, name: str) -> Any:
    """assay's implementation of ``module.name`` (an OpenCompass name), or ``None``."""
    spec = _spec_for(module)
    if spec.names is not None:
        names = spec.names()
        if name in names:
            return names[name]
    for src in spec.sources:
        mod = importlib.import_module(src)
        if name in getattr(mod, "__all__", ()):
            return getattr(mod, name)
    return _registered(name) if module.startswith("opencompass") else None


def _lookup(module: str, name: str) -> Any:
    entry = _entry(module, name)
    if entry is not None and entry[0] == "m":
        return importlib.import_module(_origin_of(module, name, entry))
    found = _assay_object(module, name)
    if found is not None:
        return found
    spec = _spec_for(module)
    if spec.inert is not None and spec.inert(name) and (entry is None or entry[0] == "c"):
        return _marker(module, name)
    if entry is None:
        # OpenCompass reads such an import lazily and fails only when it builds the object: so does assay
        dotted = f"{module}.{name}"
        _UNKNOWN.add(dotted)
        return _standin(dotted, "c" if _CAPWORD.match(name) else "f")
    kind = entry[0]
    if kind == "v" and len(entry) > 2:
        return _decode(entry[2])
    origin_name = _origin_of(module, name, entry)
    if kind == "c":
        # an inference component re-exported elsewhere stays inert
        home, _, short = origin_name.rpartition(".")
        home_spec = _spec_for(home)
        if home_spec.inert is not None and home_spec.inert(short):
            return _marker(home, short)
    return _standin(origin_name, kind)


class _AliasModule(types.ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # private names (and probes such as `_assay_standin`) are not served
            raise AttributeError(name)
        value = _lookup(self.__name__, name)
        setattr(self, name, value)
        return value

    def __dir__(self) -> list[str]:
        names = set(super().__dir__())
        spec = _spec_for(self.__name__)
        for src in spec.sources:
            names.update(getattr(importlib.import_module(src), "__all__", ()))
        if spec.names:
            names.update(spec.names())
        info = _modules().get(self.__name__)
        if info is not None:
            names.update(info["names"])
        return sorted(names)


class _AliasLoader(importlib.abc.Loader):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return _AliasModule(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        info = _modules().get(module.__name__)
        module.__dict__.setdefault("__all__", sorted(info["names"]) if info else [])
        if info is None and module.__name__ not in _SPECS:  # a module OpenCompass 0.5.4 does not have
            _UNKNOWN.add(module.__name__)
            module.__dict__["_assay_standin"] = True
            module.__dict__["_assay_dotted"] = module.__name__


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


class ConfigDict(dict[str, Any]):
    """The dicts of OpenCompass's library config files, as mmengine gives them to the files importing them:
    keys read as attributes, and ``deepcopy()``.

    >>> d = ConfigDict(abbr='x', eval_cfg={'k': 1})
    >>> d.abbr, d.deepcopy() == d, d.deepcopy() is d
    ('x', True, False)
    """

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value

    def deepcopy(self) -> ConfigDict:
        import copy

        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> ConfigDict:
        import copy

        out = ConfigDict()
        memo[id(self)] = out
        for k, v in self.items():
            out[k] = copy.deepcopy(v, memo)
        return out


def _config_dicts(value: Any, seen: dict[int, Any]) -> Any:
    if id(value) in seen:
        return seen[id(value)]
    if type(value) is dict:
        out = ConfigDict()
        seen[id(value)] = out
        for k, v in value.items():
            out[k] = _config_dicts(v, seen)
        return out
    if type(value) is list:
        seen[id(value)] = value
        value[:] = [_config_dicts(v, seen) for v in value]
        return value
    return value


class _LibraryLoader(importlib.machinery.SourceFileLoader):
    """Executes a file of OpenCompass's config library; its top-level dicts become :class:`ConfigDict`."""

    def exec_module(self, module: types.ModuleType) -> None:
        super().exec_module(module)
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


def _no_library(fullname: str) -> ModuleNotFoundError:
    version = _table().get("opencompass_version") or "0.5.4"
    return ModuleNotFoundError(
        f"{fullname}: OpenCompass's config library is not installed; get its files with "
        f"`pip install --no-deps opencompass=={version}` (assay serves everything else), or set {LIBRARY_ENV} "
        "to a folder holding opencompass/configs (an unpacked wheel or a checkout)",
        name=fullname,
    )


@functools.cache
def _real_mmengine() -> bool:
    return importlib.machinery.PathFinder.find_spec("mmengine") is not None


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Any = None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        root = fullname.split(".", 1)[0]
        if root == "mmengine":
            if fullname not in _MMENGINE_MODULES or _real_mmengine():
                return None
            return self._alias(fullname, package=True)
        if root != "opencompass":
            return None
        configs = fullname == "opencompass.configs" or fullname.startswith("opencompass.configs.")
        if opencompass_mode() == "full":
            if configs and path is not None:  # OpenCompass's own library files, with mmengine's ConfigDicts
                return _library_spec(fullname, path)
            # a module OpenCompass 0.5.4 lacks: unknown stand-ins, as without OpenCompass
            if fullname != "opencompass" and path is not None and importlib.machinery.PathFinder.find_spec(fullname, path) is None:
                return self._alias(fullname, package=True)
            return None
        if configs:
            library = library_root()
            if library is None:
                raise _no_library(fullname)
            return _library_spec(fullname, [str(library)] if fullname == "opencompass.configs" else path)
        info = _modules().get(fullname)
        # a module OpenCompass 0.5.4 lacks: served too, its names being unknown stand-ins (OpenCompass
        # itself resolves such imports lazily, when it builds the object)
        return self._alias(fullname, package=True if info is None else bool(info["package"]))

    @staticmethod
    def _alias(fullname: str, package: bool) -> importlib.machinery.ModuleSpec:
        spec = importlib.machinery.ModuleSpec(fullname, _AliasLoader(), is_package=package)
        if package:
            spec.submodule_search_locations = []
        return spec


_FINDER = _AliasFinder()


def install() -> None:
    """Make ``opencompass.*`` and ``mmengine.config`` importable (idempotent).

    The finder goes first in ``sys.meta_path``, so that OpenCompass's files
    installed without its dependencies do not shadow assay's aliases; it
    steps aside where OpenCompass is fully installed (or mmengine is).
    """
    if sys.meta_path and sys.meta_path[0] is _FINDER:
        return
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    sys.meta_path.insert(0, _FINDER)


# -- OpenCompass fully installed: assay's built-ins win ------------------------------------


def prefer_builtin(value: Any) -> Any:
    """Replace, in a loaded config, each OpenCompass object that assay implements by assay's.

    Used where OpenCompass is fully installed (:func:`opencompass_mode` is
    ``'full'``): a config's ``from opencompass.datasets import GSM8KDataset``
    then gives OpenCompass's class, and assay's built-in of the same name wins.
    Inference-side classes in ``infer_cfg`` and model ``type``s become inert
    markers named by the package configs import them from, so that
    ``infer_cfg`` hashes as in OpenCompass (elsewhere, e.g. the prompt template
    of an OpenCompass evaluator, they stay OpenCompass's, which builds them).
    Dicts and lists are changed in place; the value is returned.
    """
    seen: set[tuple[int, bool]] = set()

    def walk(v: Any, inference: bool) -> Any:
        if isinstance(v, dict):
            if (id(v), inference) not in seen:
                seen.add((id(v), inference))
                for k, item in v.items():
                    v[k] = walk(item, inference or str(k).endswith("infer_cfg"))
            return v
        if isinstance(v, list):
            if (id(v), inference) not in seen:
                seen.add((id(v), inference))
                v[:] = [walk(item, inference) for item in v]
            return v
        if isinstance(v, tuple):
            items = [walk(item, inference) for item in v]
            return type(v)(*items) if hasattr(v, "_fields") else tuple(items)
        return _builtin_for(v, inference)

    if isinstance(value, dict):
        for key, item in value.items():
            value[key] = walk(item, key == "models" or str(key).endswith("infer_cfg"))
        return value
    return walk(value, False)


def _builtin_for(obj: Any, inference: bool = False) -> Any:
    if not callable(obj) or not isinstance(getattr(obj, "__module__", None), str):
        return obj
    module = obj.__module__
    if not module.startswith("opencompass.") or module.startswith("opencompass.configs"):
        return obj
    name = getattr(obj, "__name__", None)
    if not isinstance(name, str):
        return obj
    try:
        found = _assay_object(module, name)
    except Exception:  # an assay package that fails to import must not break the config
        logger.debug("no built-in for %s.%s", module, name, exc_info=True)
        return obj
    if found is None or is_standin(found) or is_inert(found):
        return _inert_for(obj, module, name) if inference else obj
    if isinstance(obj, type) != isinstance(found, type):
        return obj
    return found


def _inert_for(obj: Any, module: str, name: str) -> Any:
    """The inert marker for OpenCompass's own inference-side class (``GenInferencer``), named by the package
    configs import it from (``opencompass.openicl.icl_inferencer``), so that ``infer_cfg`` hashes as in
    OpenCompass, which hashes the import path as written; else ``obj``."""
    if not isinstance(obj, type):
        return obj
    parts = module.split(".")
    for i in range(len(parts), 1, -1):
        package = ".".join(parts[:i])
        spec = _SPECS.get(package)
        if spec is not None and spec.inert is not None and spec.inert(name):
            return _marker(package, name)
    return obj


def origin(obj: Any) -> str:
    """Which implementation serves a resolved component, for plans and dry runs.

    One of ``'built in'`` (assay's own), ``'OpenCompass'`` (OpenCompass's own
    code, when it is installed and serves the name), ``'stand-in'`` (a name
    assay does not implement: the task using it cannot run) and
    ``'user-registered'`` (anything else: the user's or a plugin's code).
    """
    if is_standin(obj):
        return "stand-in"
    module = getattr(obj, "__module__", "") or ""
    if module == "assay" or module.startswith("assay."):
        return "built in"
    if module == "opencompass" or module.startswith("opencompass."):
        return "stand-in" if is_inert(obj) else "OpenCompass"
    return "user-registered"


# The names OpenCompass registers resolve in assay's registries from now on.
set_fallback(registered_name)

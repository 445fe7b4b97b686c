"""``opencompass.*`` and ``mmengine.config`` import aliases.

OpenCompass configs and evaluator modules import from ``opencompass.registry``,
``opencompass.openicl.icl_evaluator``, ``opencompass.datasets`` and so on.  When
OpenCompass itself is not installed, :func:`install` makes those imports give
assay's own objects:

* evaluators, postprocessors, dataset loaders, registries and summarizers map to
  assay's implementations;
* inference-side classes that evaluation never instantiates (prompt templates,
  retrievers, inferencers, model classes, partitioners, runners, tasks) map to
  *inert markers*: classes that keep their OpenCompass name and module (so that
  ``infer_cfg`` still tells gen/ppl mode and hashes to OpenCompass's version
  string) but refuse to be instantiated;
* any other ``opencompass.*`` name is an ``ImportError`` naming it.

The finder is appended to ``sys.meta_path``, so an installed OpenCompass (or
mmengine) always takes precedence.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import re
import sys
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from assay.errors import ConfigError

__all__ = ["InertComponent", "install", "is_inert", "origin", "read_base"]


@contextmanager
def read_base() -> Iterator[None]:
    """Marks imports of base config files (``with read_base(): from .x import y``).

    assay's config loader resolves relative imports itself, so this is a no-op
    context manager kept for compatibility with OpenCompass configs.
    """
    yield


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


# What each aliased module provides: assay modules whose ``__all__`` it re-exports,
# explicit names, and a rule for inert marker names.
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


def _data_path_names() -> dict[str, Any]:
    from assay.datasets.location import get_data_path

    return {"get_data_path": get_data_path}


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
        package: bool = True,
    ) -> None:
        self.sources = sources
        self.names = names
        self.inert = inert
        self.package = package


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
    "opencompass.openicl.icl_retriever": _Spec(inert=_RETRIEVERS),
    "opencompass.openicl.icl_inferencer": _Spec(inert=_INFERENCERS),
    "opencompass.openicl.icl_dataset_reader": _Spec(inert=lambda n: n == "DatasetReader"),
    "opencompass.evaluator": _Spec(sources=_EVALUATOR_SOURCES, names=_base_names),
    "opencompass.datasets": _Spec(
        sources=("assay.datasets", *_POSTPROCESS_SOURCES, *_EVALUATOR_SOURCES), names=_dataset_base
    ),
    "opencompass.utils": _Spec(sources=_POSTPROCESS_SOURCES, names=_data_path_names),
    "opencompass.utils.datasets": _Spec(names=_data_path_names),
    "opencompass.utils.text_postprocessors": _Spec(sources=_POSTPROCESS_SOURCES),
    "opencompass.models": _Spec(sources=("assay.judge",), inert=_any_capword),
    "opencompass.partitioners": _Spec(inert=_any_capword),
    "opencompass.runners": _Spec(inert=_any_capword),
    "opencompass.tasks": _Spec(inert=_any_capword),
    "opencompass.summarizers": _Spec(sources=("assay.summarize",)),
    "mmengine": _Spec(names=_read_base),
    "mmengine.config": _Spec(names=_read_base),
}

# Deeper OpenCompass module paths (``opencompass.datasets.gsm8k``) fall back to the
# nearest aliased parent.  ``opencompass.configs`` (packaged configs) is not provided.
_NO_DEEPER = {"opencompass", "opencompass.registry", "mmengine", "mmengine.config", "opencompass.utils"}


def _spec_for(fullname: str) -> _Spec | None:
    if fullname in _SPECS:
        return _SPECS[fullname]
    parts = fullname.split(".")
    if parts[-1][:1].isupper():  # a class name, not a module: `from pkg import Name` probing
        return None
    for i in range(len(parts) - 1, 0, -1):
        parent = ".".join(parts[:i])
        if parent in _SPECS and parent not in _NO_DEEPER:
            return _SPECS[parent]
    return None


class _AliasModule(types.ModuleType):
    _assay_spec: _Spec

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        value = _lookup(self.__name__, self._assay_spec, name)
        setattr(self, name, value)
        return value

    def __dir__(self) -> list[str]:
        names = set(super().__dir__())
        spec = self._assay_spec
        for src in spec.sources:
            names.update(getattr(importlib.import_module(src), "__all__", ()))
        if spec.names:
            names.update(spec.names())
        return sorted(names)


def _lookup(module: str, spec: _Spec, name: str) -> Any:
    if spec.names is not None:
        names = spec.names()
        if name in names:
            return names[name]
    for src in spec.sources:
        mod = importlib.import_module(src)
        if name in getattr(mod, "__all__", ()):
            return getattr(mod, name)
    if spec.inert is not None and spec.inert(name):
        return _marker(module, name)
    raise AttributeError(f"assay provides no equivalent of {module}.{name}")


class _AliasLoader(importlib.abc.Loader):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = _AliasModule(spec.name)
        alias = _spec_for(spec.name)
        assert alias is not None
        module._assay_spec = alias
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        module.__dict__.setdefault("__all__", [])


class _AliasFinder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Any = None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        root = fullname.split(".", 1)[0]
        if root not in ("opencompass", "mmengine"):
            return None
        if fullname == "opencompass.configs" or fullname.startswith("opencompass.configs."):
            raise ModuleNotFoundError(
                f"{fullname}: assay does not ship OpenCompass's packaged configs; copy the config file "
                "next to yours and import it relatively inside `with read_base():`",
                name=fullname,
            )
        if _spec_for(fullname) is None:
            return None
        spec = importlib.machinery.ModuleSpec(fullname, _AliasLoader(), is_package=True)
        spec.submodule_search_locations = []
        return spec


_FINDER = _AliasFinder()


def install() -> None:
    """Make ``opencompass.*`` and ``mmengine.config`` importable (idempotent)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.append(_FINDER)


def origin(obj: Any) -> str:
    """Which implementation serves a resolved component, for plans and dry runs.

    One of ``'built in'`` (assay's own), ``'OpenCompass'`` (OpenCompass's own
    code, when it is installed and serves the name), ``'stand-in'`` (a name
    assay does not implement: the task using it cannot run) and
    ``'user-registered'`` (anything else: the user's or a plugin's code).
    """
    if getattr(obj, "_assay_standin", False):
        return "stand-in"
    module = getattr(obj, "__module__", "") or ""
    if module == "assay" or module.startswith("assay."):
        return "built in"
    if module == "opencompass" or module.startswith("opencompass."):
        return "stand-in" if is_inert(obj) else "OpenCompass"
    return "user-registered"

"""The import finder that serves ``opencompass.*`` and ``mmengine.config``, and its alias modules.

:func:`install` puts the finder first in ``sys.meta_path``.  How it serves an
``opencompass.*`` import depends on :func:`~assay.opencompass.names.opencompass_mode`:

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

An alias module answers a name with, in order: a submodule (per the name
table), assay's implementation (its package's ``__all__`` or a registry entry
under the name), an inert marker (inference-side classes), a literal constant,
or a stand-in of the kind OpenCompass has (:mod:`assay.opencompass.standins`).
A name OpenCompass does not define either (in a module it has or not) is a
stand-in too, whose error says so: OpenCompass itself imports such names
lazily and fails only when it builds the object, so a config loads in assay
whenever it loads in OpenCompass.  ``mmengine`` and ``mmengine.config`` are
served where mmengine is not installed (:mod:`assay.opencompass.mmengine`).
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import importlib.util
import logging
import re
import sys
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from assay.opencompass.mmengine import _library_spec, served
from assay.opencompass.names import LIBRARY_ENV, _entry, _modules, library_root, opencompass_mode, opencompass_version
from assay.opencompass.standins import (
    _UNKNOWN,
    REGISTRIES,
    _marker,
    _standin,
    is_inert,
    is_standin,
)

logger = logging.getLogger(__name__)

__all__ = ["install", "origin", "prefer_builtin", "uninstall"]


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


def _openicl_names() -> dict[str, Any]:
    # openicl's CircularEvaluator reads the pattern from each reference, unlike opencompass.datasets.circular's
    from assay.evaluators import circular_letters

    return {**_base_names(), "CircularEvaluator": circular_letters.CircularLetterEvaluator}


def _dataset_base() -> dict[str, Any]:
    from assay.datasets.base import BaseDataset

    return {"BaseDataset": BaseDataset}


def _utils_names() -> dict[str, Any]:
    from assay.datasets.location import get_data_path

    return {"get_data_path": get_data_path, **_registry_names()}


def _evaluators() -> types.ModuleType:
    from assay import evaluators

    return evaluators


def _postprocessors() -> types.ModuleType:
    from assay import postprocess

    return postprocess


def _datasets() -> types.ModuleType:
    from assay import datasets

    return datasets


def _judge() -> types.ModuleType:
    from assay import judge

    return judge


def _summarizers() -> types.ModuleType:
    from assay import summarize

    return summarize


def _lcb_testing_util() -> types.ModuleType:
    from assay.evaluators import lcb_testing_util

    return lcb_testing_util


def _code_execution() -> types.ModuleType:
    from assay.evaluators import code_execution

    return code_execution


def _math_evaluator() -> types.ModuleType:
    from assay.evaluators import math_evaluator

    return math_evaluator


def _lcb_evaluator_names() -> dict[str, Any]:
    module = _lcb_testing_util()
    return {
        **_dataset_base(),
        "codegen_check_correctness": module.codegen_check_correctness,
        "DEFAULT_MEMORY_LIMIT_BYTES": module.DEFAULT_MEMORY_LIMIT_BYTES,
    }


def _medcalc_names() -> dict[str, Any]:
    from assay.evaluators import medcalc

    return {**_dataset_base(), "check_correctness": medcalc.check_correctness, "extract_answer": medcalc.extract_answer}


def _needlebench_v2_names() -> dict[str, Any]:
    # NeedleBench v2 scores single needles differently from v1, under the same class name
    from assay.datasets import needlebench as loaders
    from assay.evaluators import needlebench

    return {
        **_dataset_base(),
        "NeedleBenchOriginEvaluator": needlebench.NeedleBenchV2OriginEvaluator,
        "NeedleBenchOriginDataset": loaders.NeedleBenchV2OriginDataset,
        "NeedleBenchParallelDataset": loaders.NeedleBenchV2ParallelDataset,
        "NeedleBenchMultiDataset": loaders.NeedleBenchV2MultiDataset,
        "NeedleBenchATCDataset": loaders.NeedleBenchV2ATCDataset,
    }


def _needlebench_atc_choice_names() -> dict[str, Any]:
    from assay.datasets import needlebench as loaders

    return {**_dataset_base(), "NeedleBenchATCDataset": loaders.NeedleBenchATCChoiceDataset}


def _needlebench_atc_names() -> dict[str, Any]:
    from assay.datasets import needlebench as loaders

    return {
        **_dataset_base(),
        "NeedleBenchATCDataset": loaders.NeedleBenchATCFreeDataset,
        "NeedleBenchATCOrderedDataset": loaders.NeedleBenchATCOrderedDataset,
    }


def _mol_instructions_chem_names() -> dict[str, Any]:
    # Mol-Instructions' evaluators share their class names with SMolInstruct's and compute differently
    from assay.datasets import smolinstruct as loaders
    from assay.evaluators import smolinstruct

    return {
        **_dataset_base(),
        "MolInstructionsDataset": loaders.MolInstructionsDataset,
        "FTSEvaluator": smolinstruct.MolInstructionsFTSEvaluator,
        "MAEEvaluator": smolinstruct.MolInstructionsMAEEvaluator,
        "MeteorEvaluator": smolinstruct.MolInstructionsMeteorEvaluator,
    }


#: OpenCompass modules served as one of assay's modules itself, so that patching one of its names (as tests
#: do) reaches the functions of the module that call it.
_SERVED_MODULES: dict[str, Callable[[], types.ModuleType]] = {
    "opencompass.datasets.livecodebench.testing_util": _lcb_testing_util,
    "opencompass.utils.code_execution": _code_execution,
    "opencompass.evaluator.math_evaluator": _math_evaluator,
}

def _summarizer_namespace() -> dict[str, Any]:
    from assay.summarize import DefaultSummarizer

    return DefaultSummarizer.__init__.__globals__


#: Names that a class of an OpenCompass module calls through its module's namespace when it runs
#: (``DefaultSummarizer`` calls ``get_logger()`` when it is built), with the namespace assay's class
#: reads them from.  The module's alias serves such a name from that namespace, and setting it on the
#: alias (as ``unittest.mock.patch`` does) sets it there too, so that assay's class calls what was set;
#: deleting it puts assay's own back.
_CALLED_BY_NAME: dict[str, tuple[Callable[[], dict[str, Any]], frozenset[str]]] = {
    "opencompass.summarizers.default": (_summarizer_namespace, frozenset({"get_logger"})),
}

#: assay's own value of each name in `_CALLED_BY_NAME` that was set through an alias module.
_OWN_VALUES: dict[tuple[str, str], Any] = {}


def _called_by_name(module: str, name: str) -> dict[str, Any] | None:
    """The namespace assay's class reads ``module.name`` from when it runs, or ``None``."""
    shared = _CALLED_BY_NAME.get(module)
    return shared[0]() if shared is not None and name in shared[1] else None


_EVALUATOR_SOURCES = (_evaluators,)
_POSTPROCESS_SOURCES = (_postprocessors,)


class _Spec:
    def __init__(
        self,
        sources: tuple[Callable[[], types.ModuleType], ...] = (),
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
        names=_openicl_names,
        inert=lambda n: _INFERENCERS(n) or _RETRIEVERS(n) or _TEMPLATES(n) or n == "DatasetReader",
    ),
    "opencompass.openicl.icl_evaluator": _Spec(sources=_EVALUATOR_SOURCES, names=_openicl_names),
    "opencompass.openicl.icl_prompt_template": _Spec(inert=_TEMPLATES),
    "opencompass.openicl.icl_raw_prompt_template": _Spec(inert=_TEMPLATES),
    "opencompass.openicl.icl_retriever": _Spec(inert=_RETRIEVERS),
    "opencompass.openicl.icl_inferencer": _Spec(inert=_INFERENCERS),
    "opencompass.openicl.icl_dataset_reader": _Spec(inert=lambda n: n == "DatasetReader"),
    "opencompass.evaluator": _Spec(sources=_EVALUATOR_SOURCES, names=_base_names),
    "opencompass.datasets": _Spec(
        sources=(_datasets, *_POSTPROCESS_SOURCES, *_EVALUATOR_SOURCES), names=_dataset_base
    ),
    "opencompass.datasets.livecodebench.evaluator": _Spec(
        sources=(_datasets, *_POSTPROCESS_SOURCES, *_EVALUATOR_SOURCES), names=_lcb_evaluator_names
    ),
    "opencompass.datasets.needlebench.atc_choice": _Spec(
        sources=(_datasets, *_POSTPROCESS_SOURCES, *_EVALUATOR_SOURCES), names=_needlebench_atc_choice_names
    ),
    "opencompass.datasets.needlebench.atc": _Spec(
        sources=(_datasets, *_POSTPROCESS_SOURCES, *_EVALUATOR_SOURCES), names=_needlebench_atc_names
    ),
    "opencompass.datasets.needlebench_v2": _Spec(
        sources=(_datasets, *_POSTPROCESS_SOURCES, *_EVALUATOR_SOURCES), names=_needlebench_v2_names
    ),
    "opencompass.datasets.mol_instructions_chem": _Spec(
        sources=(_datasets, *_POSTPROCESS_SOURCES, *_EVALUATOR_SOURCES), names=_mol_instructions_chem_names
    ),
    "opencompass.datasets.MedCalc_Bench": _Spec(
        sources=(_datasets, *_POSTPROCESS_SOURCES, *_EVALUATOR_SOURCES), names=_medcalc_names
    ),
    "opencompass.utils": _Spec(sources=_POSTPROCESS_SOURCES, names=_utils_names),
    "opencompass.utils.datasets": _Spec(names=_utils_names),
    "opencompass.utils.text_postprocessors": _Spec(sources=_POSTPROCESS_SOURCES),
    "opencompass.models": _Spec(sources=(_judge,), inert=_any_capword),
    "opencompass.partitioners": _Spec(inert=_any_capword),
    "opencompass.runners": _Spec(inert=_any_capword),
    "opencompass.tasks": _Spec(inert=_any_capword),
    "opencompass.summarizers": _Spec(sources=(_summarizers,)),
    "mmengine": _Spec(names=lambda: served("mmengine")),
    "mmengine.config": _Spec(names=lambda: served("mmengine.config")),
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




def _registered(name: str) -> Any:
    """An implementation registered in one of assay's registries under OpenCompass's ``name``."""
    from assay import registry

    for reg_name in REGISTRIES:
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
        mod = src()
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
    if entry is None and (f"{module}.{name}" in _modules() or f"{module}.{name}" in _SERVED_MODULES):
        # a submodule the package does not import itself: `from package import submodule` imports it
        return importlib.import_module(f"{module}.{name}")
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


if TYPE_CHECKING:
    from importlib.abc import Loader as _LoaderBase
else:  # the loaders below are importlib.abc.Loaders without importing that module (and importlib.resources)
    _LoaderBase = object


class _AliasModule(types.ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # private names (and probes such as `_assay_standin`) are not served
            raise AttributeError(name)
        namespace = _called_by_name(self.__name__, name)
        value = namespace[name] if namespace is not None else _lookup(self.__name__, name)
        setattr(self, name, value)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        namespace = _called_by_name(self.__name__, name)
        if namespace is not None:
            _OWN_VALUES.setdefault((self.__name__, name), namespace[name])
            namespace[name] = value

    def __delattr__(self, name: str) -> None:
        super().__delattr__(name)
        namespace = _called_by_name(self.__name__, name)
        if namespace is not None and (self.__name__, name) in _OWN_VALUES:
            namespace[name] = _OWN_VALUES.pop((self.__name__, name))

    def __dir__(self) -> list[str]:
        names = set(super().__dir__())
        spec = _spec_for(self.__name__)
        for src in spec.sources:
            names.update(getattr(src(), "__all__", ()))
        if spec.names:
            names.update(spec.names())
        info = _modules().get(self.__name__)
        if info is not None:
            names.update(info["names"])
        return sorted(names)


class _AliasLoader(_LoaderBase):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return _AliasModule(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        info = _modules().get(module.__name__)
        module.__dict__.setdefault("__all__", sorted(info["names"]) if info else [])
        if info is None and module.__name__ not in _SPECS:  # a module OpenCompass 0.5.4 does not have
            _UNKNOWN.add(module.__name__)
            module.__dict__["_assay_standin"] = True
            module.__dict__["_assay_dotted"] = module.__name__



class _ServedLoader(_LoaderBase):
    """Serves an OpenCompass module name with one of assay's modules (itself, not an alias module).

    A name the OpenCompass module has (per the name table) that assay's module lacks is given to it as an
    alias module would answer it (a registry, a literal constant, a stand-in).
    """

    def __init__(self, module: Callable[[], types.ModuleType]) -> None:
        self._module = module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = self._module()
        info = _modules().get(spec.name)
        for name in info["names"] if info is not None else ():
            if not hasattr(module, name):
                setattr(module, name, _lookup(spec.name, name))
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        pass


def _no_library(fullname: str) -> ModuleNotFoundError:
    version = opencompass_version()
    return ModuleNotFoundError(
        f"{fullname}: OpenCompass's config library is not installed; get its files with "
        f"`pip install --no-deps opencompass=={version}` (assay serves everything else), or set {LIBRARY_ENV} "
        "to a folder holding opencompass/configs (an unpacked wheel or a checkout)",
        name=fullname,
    )


@functools.cache
def _real_mmengine() -> bool:
    return importlib.machinery.PathFinder.find_spec("mmengine") is not None



class _AliasFinder:  # an importlib.abc.MetaPathFinder, without importing that module
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
        if fullname in _SERVED_MODULES:
            return importlib.machinery.ModuleSpec(fullname, _ServedLoader(_SERVED_MODULES[fullname]))
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
    """Serve ``opencompass.*`` and ``mmengine.config`` imports from now on (idempotent).

    The finder goes first in ``sys.meta_path``, so that OpenCompass's files
    installed without its dependencies do not shadow assay's aliases; it
    steps aside where OpenCompass is fully installed (or mmengine is).
    """
    if sys.meta_path and sys.meta_path[0] is _FINDER:
        return
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    sys.meta_path.insert(0, _FINDER)


def uninstall() -> None:
    """Stop serving ``opencompass.*`` and ``mmengine.config`` imports (modules already imported stay)."""
    while _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)


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


"""The built-in packages' submodules, the names they export and register, and lazy package namespaces.

:mod:`assay.evaluators`, :mod:`assay.postprocess` and :mod:`assay.datasets`
import no submodule themselves: each re-exports its submodules' ``__all__``
through :func:`lazy_exports`, which imports a submodule the first time one of
its names is asked for, and the registries (:mod:`assay.registry`) import only
the module that registers the name looked up.  Both read the name table
:mod:`assay._names`, which :func:`name_table_source` generates by importing
every built-in module (``scripts/update_name_table.py`` writes it;
``tests/test_name_table.py`` fails when it is out of date).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

#: The packages whose submodules define the built-in components, in the order they are imported to enumerate them.
COMPONENT_PACKAGES = ("assay.postprocess", "assay.evaluators", "assay.datasets", "assay.judge", "assay.summarize", "assay.subjective")

#: The packages whose namespace is filled lazily from the name table.
LAZY_PACKAGES = ("assay.postprocess", "assay.evaluators", "assay.datasets")


def lazy_exports(package: str) -> tuple[list[str], Callable[[str], Any]]:
    """``package``'s ``__all__`` (its public submodules' ``__all__``, in module order) and its ``__getattr__``.

    The ``__getattr__`` (PEP 562) answers an exported name by importing the
    submodule defining it (the last one, when two export the same name), and a
    submodule's own name by importing it; anything else is an ``AttributeError``.
    """
    from assay._names import EXPORTED

    pairs = EXPORTED.get(package, [])
    where = dict(pairs)
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return [name for name, _ in pairs], __getattr__


def lazy_names(package: str, where: dict[str, tuple[str, ...]]) -> Callable[[str], Any]:
    """``package``'s ``__getattr__`` (PEP 562) for the names its private submodules define.

    ``where`` maps each submodule (relative to the package, ``"_client"``, or a
    dotted name for another package's names it re-exports) to
    the names it exports (``"exported=defined"`` for a name the submodule
    defines under another); a name is imported with its submodule the first
    time it is asked for, so that importing the package imports none of them.
    """
    owner: dict[str, tuple[str, str]] = {}
    for module, names in where.items():
        for entry in names:
            exported, _, defined = entry.partition("=")
            owner[exported] = (module if "." in module else f"{package}.{module}", defined or exported)
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        found = owner.get(name)
        if found is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(found[0]), found[1])
        namespace[name] = value
        return value

    return __getattr__


# -- generating the name table --------------------------------------------------------------------


def _registering_module() -> str | None:
    """The module whose top-level code is running the current registration (the innermost ``<module>`` frame)."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_name == "<module>":
            name = frame.f_globals.get("__name__")
            return name if isinstance(name, str) else None
        frame = frame.f_back  # type: ignore[assignment]
    return None


def build_name_table() -> tuple[dict[str, dict[str, str]], dict[str, list[tuple[str, str]]]]:
    """(registry → name → the module whose import registers it, lazy package → [(exported name, submodule)]).

    Run in a fresh interpreter: every registration is recorded from the start,
    then every built-in module is imported as enumerating the registries does.
    A name is attributed to the module whose import stored the object it ends
    up with; names registered by modules outside assay (plugins) are left out.
    """
    from assay import registry
    from assay.registry import import_all, public_submodules

    if any(name.startswith(COMPONENT_PACKAGES) for name in sys.modules):
        raise RuntimeError("the name table must be built in a fresh interpreter, before any component module is imported")
    seen: dict[str, dict[str, str]] = {}
    original = registry.Registry.register

    def recording(self: registry.Registry, name: str, obj: Any, *, force: bool = False) -> None:
        before = self._items.get(name)
        original(self, name, obj, force=force)
        if self._items.get(name) is not before:
            module = _registering_module()
            table = seen.setdefault(self.name, {})
            if module is not None and module.split(".")[0] == "assay":
                table[name] = module
            else:
                table.pop(name, None)

    registry.Registry.register = recording  # type: ignore[method-assign]
    try:
        for reg in registry.ALL_REGISTRIES:
            reg.names()
        for package in LAZY_PACKAGES:
            import_all(package)
    finally:
        registry.Registry.register = original  # type: ignore[method-assign]
    registered = {reg: dict(sorted(names.items())) for reg, names in sorted(seen.items())}
    exported: dict[str, list[tuple[str, str]]] = {}
    for package in LAZY_PACKAGES:
        pairs = exported[package] = []
        for module in public_submodules(package):
            pairs += [(name, module) for name in getattr(sys.modules[module], "__all__", ())]
    return registered, exported


def name_table_source() -> str:
    """The text of :mod:`assay._names` for the modules as they are now (see :func:`build_name_table`)."""
    registered, exported = build_name_table()
    lines = [
        '"""Where each built-in name is defined: generated by ``scripts/update_name_table.py``, not edited by hand.',
        "",
        "``REGISTERED``: registry → registered name → the module whose import registers it.",
        "``EXPORTED``: lazily filled package → its ``__all__`` in order, each name with the submodule defining it.",
        '"""',
        "",
        "REGISTERED: dict[str, dict[str, str]] = {",
    ]
    for reg, names in registered.items():
        lines.append(f"    {reg!r}: {{")
        lines += [f"        {name!r}: {module!r}," for name, module in names.items()]
        lines.append("    },")
    lines += ["}", "", "EXPORTED: dict[str, list[tuple[str, str]]] = {"]
    for package, pairs in exported.items():
        lines.append(f"    {package!r}: [")
        lines += [f"        ({name!r}, {module!r})," for name, module in pairs]
        lines.append("    ],")
    lines += ["}", ""]
    return "\n".join(lines)

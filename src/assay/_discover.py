"""Import every submodule of a package and collect the names they export."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any


def import_submodules(package: str, path: list[str], namespace: dict[str, Any]) -> list[str]:
    """Import each public submodule of ``package`` and copy its ``__all__`` into ``namespace``.

    Returns the exported names, in module then ``__all__`` order.  Modules whose
    name starts with ``_`` are private and skipped.
    """
    exported: list[str] = []
    for info in sorted(pkgutil.iter_modules(path), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        for name in getattr(module, "__all__", ()):
            namespace[name] = getattr(module, name)
            exported.append(name)
    return exported

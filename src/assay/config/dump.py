"""Turning a loaded config back into plain data and Python source.

Classes and functions become their dotted import path (``'pkg.module.Name'``),
exactly as OpenCompass's dumped configs spell them, so that version hashes of
``infer_cfg`` agree with OpenCompass's.
"""

from __future__ import annotations

import pprint
from typing import Any

__all__ = ["dump_config_source", "plainify", "type_path"]


def type_path(obj: Any) -> str:
    """The dotted import path of a class or function (``'module.QualName'``)."""
    module = getattr(obj, "__module__", None) or ""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or repr(obj)
    return f"{module}.{name}" if module else name


def plainify(obj: Any) -> Any:
    """A deep copy with classes/functions replaced by their dotted paths and tuples by lists."""
    if isinstance(obj, dict):
        return {k: plainify(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plainify(v) for v in obj]
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if isinstance(obj, type) or callable(obj):
        return type_path(obj)
    return repr(obj)


def dump_config_source(variables: dict[str, Any]) -> str:
    """Python source that rebuilds ``variables`` with types as dotted-path strings."""
    lines = ["# Resolved configuration written by assay.", ""]
    for name, value in variables.items():
        lines.append(f"{name} = {pprint.pformat(plainify(value), indent=1, width=100, sort_dicts=False)}")
        lines.append("")
    return "\n".join(lines)

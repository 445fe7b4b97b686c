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
    """Python source that rebuilds ``variables`` with types as dotted-path strings, secrets redacted.

    API keys, tokens and ``Authorization`` headers are written as
    ``'<redacted>'`` (see :mod:`assay.config.secrets`); everything else as it is.
    """
    from assay.config.secrets import KEY_VARIABLES, REDACTED, redact_secrets

    lines = [
        "# Resolved configuration written by assay.",
        f"# Secrets (API keys, tokens, Authorization headers) are written as {REDACTED!r}; when this file is",
        f"# used again they are read from {' or '.join(KEY_VARIABLES)}.",
        "",
    ]
    plain = redact_secrets({name: plainify(value) for name, value in variables.items()})
    printer = _PlainPrinter(indent=1, width=100, sort_dicts=False)
    for name, value in plain.items():
        lines.append(f"{name} = {printer.pformat(value)}")
        lines.append("")
    return "\n".join(lines)


class _PlainPrinter(pprint.PrettyPrinter):
    """``pprint``'s layout of plain data (what :func:`plainify` returns: dicts, lists, strings, numbers,
    booleans, ``None``; no cycles), each value's one-line form taken from ``repr``.

    For such values ``repr`` is the text ``pprint`` writes; ``pprint`` builds it by walking the value
    in Python again at every level it breaks over lines, ``repr`` at C speed.
    """

    def format(self, object: Any, context: dict[int, int], maxlevels: int, level: int) -> tuple[str, bool, bool]:
        return repr(object), True, False

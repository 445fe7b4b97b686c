"""Helpers shared by the built-in postprocessors (private)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, cast

from assay.errors import ConfigError

__all__: list[str] = []


def as_text(value: Any) -> str:
    """The text a postprocessor works on: ``None`` becomes ``''``, other values ``str(value)``."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return str(value)


@lru_cache(maxsize=256)
def compile_user_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """Compile a regex given in a config once; a bad pattern is a :class:`ConfigError`."""
    try:
        return re.compile(pattern, flags)
    except re.error as exc:
        raise ConfigError(f"invalid regular expression {pattern!r}: {exc}") from exc


class _LazyPattern:
    """A regular expression compiled the first time it is used, then the compiled pattern's own.

    Its matching methods become the compiled pattern's bound methods, kept on
    the object, so that a pattern searched a million times costs what the
    compiled one does, and one never reached costs nothing.
    """

    _METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")

    def __init__(self, source: str, flags: int) -> None:
        self._source, self._flags = source, flags

    def _compiled(self) -> re.Pattern[str]:
        compiled: re.Pattern[str] | None = self.__dict__.get("_pattern")
        if compiled is None:
            compiled = self.__dict__["_pattern"] = re.compile(self._source, self._flags)
            for name in self._METHODS:
                self.__dict__[name] = getattr(compiled, name)
        return compiled

    def __getattr__(self, name: str) -> Any:  # anything not kept yet: compile, then answer as the pattern
        if name.startswith("__") or name in ("_source", "_flags", "_pattern"):
            raise AttributeError(name)
        return getattr(self._compiled(), name)

    def __repr__(self) -> str:
        return repr(self._compiled())

    def __eq__(self, other: object) -> bool:
        return self._compiled() == (other._compiled() if isinstance(other, _LazyPattern) else other)

    def __hash__(self) -> int:
        return hash(self._compiled())

    def __reduce__(self) -> tuple[Any, ...]:
        return (re.compile, (self._source, self._flags))


def lazy_pattern(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, done the first time the pattern is used (see :class:`_LazyPattern`).

    For module-level patterns and cascades of which a run may use a few: compiling
    each costs about as much as a thousand searches.  It works wherever its methods
    and attributes are used; ``re.sub(pattern, …)`` and the like want ``re.compile``.

    >>> p = lazy_pattern("([0-9]+)")
    >>> p.search("x 12").group(1), p.pattern
    ('12', '([0-9]+)')
    """
    return cast("re.Pattern[str]", _LazyPattern(source, flags))


def option_class(options: str) -> str:
    """A regex character class body matching any of the option characters, escaped."""
    return "".join(re.escape(ch) if ch in "\\]^-[" else ch for ch in options)

"""Helpers shared by the built-in postprocessors (private)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

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


def option_class(options: str) -> str:
    """A regex character class body matching any of the option characters, escaped."""
    return "".join(re.escape(ch) if ch in "\\]^-[" else ch for ch in options)

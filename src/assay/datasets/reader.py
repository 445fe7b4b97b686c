"""``test_range``: which rows of the test set are evaluated (R-3.4).

A string is one or more Python-style slices, ``'[0:100]'``, ``'[::2]'``,
``'[10:][0:5]'`` (applied left to right); it is parsed, never evaluated.  An
int (or a float in (0, 1), a fraction) selects a seeded random subset of that
size; ``None`` selects everything.

Example:
    >>> select_indices(10, '[::3]')
    [0, 3, 6, 9]
    >>> select_indices(10, '[2:8][1:3]')
    [3, 4]
"""

from __future__ import annotations

import re

from assay.errors import ConfigError

__all__ = ["parse_slices", "select_indices"]

_SLICE = re.compile(r"\[\s*(-?\d+)?\s*(?::\s*(-?\d+)?\s*(?::\s*(-?\d+)?\s*)?)?\]")


def parse_slices(spec: str) -> list[slice]:
    """Parse ``'[a:b:c][d:e]…'`` into slices; anything else is a :class:`ConfigError`."""
    text = spec.strip()
    pos = 0
    out: list[slice] = []
    while pos < len(text):
        m = _SLICE.match(text, pos)
        if m is None or ":" not in m.group(0):
            raise ConfigError(f"test_range={spec!r} is not a slice like '[0:100]' or '[::2]'")
        a, b, c = (int(g) if g is not None else None for g in m.groups())
        if c == 0:
            raise ConfigError(f"test_range={spec!r}: slice step cannot be zero")
        out.append(slice(a, b, c))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    if not out:
        raise ConfigError(f"test_range={spec!r} is empty")
    return out


def select_indices(size: int, test_range: str | int | float | None) -> list[int]:
    """Row indices selected from a test set of ``size`` rows."""
    indices = list(range(size))
    if test_range is None or test_range == "":
        return indices
    if isinstance(test_range, bool):
        raise ConfigError(f"test_range={test_range!r} must be a slice string or a number")
    if isinstance(test_range, (int, float)):
        count = int(test_range * size) if isinstance(test_range, float) and 0 < test_range < 1 else int(test_range)
        if count <= 0 or count >= size:
            return indices
        import random

        rng = random.Random(size)
        rng.shuffle(indices)
        return sorted(indices[:count])
    if not isinstance(test_range, str):
        raise ConfigError(f"test_range={test_range!r} must be a slice string or a number")
    for s in parse_slices(test_range):
        indices = indices[s]
    return indices

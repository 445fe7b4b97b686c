"""The methods ``@dataclass`` would write for assay's dataclasses, shared instead of generated per class.

``@dataclass`` writes each method it adds (``__init__``, ``__repr__``,
``__eq__``, and for a frozen class ``__setattr__``, ``__delattr__`` and
``__hash__``) as Python source and compiles it when the class is created:
about a millisecond a class, which a short run paid for each of the dozens
of classes it imports.  assay's dataclasses are declared
``@dataclass(repr=False, eq=False)`` — only ``__init__`` is generated — and
take the other methods from :class:`DataclassMethods`, or from
:class:`FrozenMethods` in place of ``frozen=True``.  They behave as
``@dataclass`` and ``@dataclass(frozen=True)`` classes do: the same ``repr``,
equality between instances of the same class field by field (the fields
with ``compare``), frozen instances hashed from their fields and refusing
assignment with :class:`dataclasses.FrozenInstanceError`; ``fields``,
``replace`` and ``asdict`` work on them as on any dataclass.

The dataclasses a run imports (the planning, the tasks, the run directory, the
summary) are declared ``@dataclass(init=False, repr=False, eq=False)`` with
their ``__init__`` written out in the class as ``@dataclass`` would write it:
the same parameters in the same order, with the same defaults, a field with a
``default_factory`` defaulting to :data:`FACTORY` (shown as ``<factory>``, as
``@dataclass`` shows it) and given a fresh value when it is not passed, then
``__post_init__`` where the class has one.  Nothing is compiled when such a
class is created (``tests/test_dataclass.py`` checks each against the
``__init__`` ``@dataclass`` would generate, and reads every module's source
so that a dataclass is either one of them or listed there as generating its
``__init__``).

>>> from dataclasses import dataclass, field
>>> @dataclass(repr=False, eq=False)
... class Point(FrozenMethods):
...     x: int
...     y: int = 0
...     tags: list[str] = field(default_factory=list, compare=False)
>>> p = Point(1, 2)
>>> p, p == Point(1, 2, ['a']), p == Point(1, 3), hash(p) == hash(Point(1, 2))
(Point(x=1, y=2, tags=[]), True, False, True)
>>> p.x = 5
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'x'
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from dataclasses import FrozenInstanceError, fields
from operator import attrgetter
from typing import Any

__all__ = ["FACTORY", "DataclassMethods", "FrozenMethods"]


class _Factory:
    """The default of a written-out ``__init__``'s parameter whose field has a ``default_factory``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


#: The default of a field with a ``default_factory`` in a written-out ``__init__``: the field is
#: given ``default_factory()`` when the parameter is this object (as ``@dataclass``'s sentinel).
FACTORY: Any = _Factory()

#: (class, "repr" | "compare" | "hash") → the function giving an instance's values of those fields, as a tuple
_GETTERS: dict[tuple[type, str], Callable[[Any], tuple[Any, ...]]] = {}


def _getter(cls: Any, which: str) -> Callable[[Any], tuple[Any, ...]]:
    got = _GETTERS.get((cls, which))
    if got is None:
        if which == "repr":
            names = [f.name for f in fields(cls) if f.repr]
        elif which == "compare":
            names = [f.name for f in fields(cls) if f.compare]
        else:  # as @dataclass hashes: a field's `hash`, else its `compare`
            names = [f.name for f in fields(cls) if (f.compare if f.hash is None else f.hash)]
        if len(names) > 1:
            got = attrgetter(*names)
        elif names:
            one = attrgetter(names[0])
            got = lambda obj: (one(obj),)  # noqa: E731
        else:
            got = lambda obj: ()  # noqa: E731
        _GETTERS[(cls, which)] = got
    return got


class DataclassMethods:
    """``__repr__`` and ``__eq__`` of a ``@dataclass(repr=False, eq=False)`` class, as ``@dataclass`` writes
    them; instances are unhashable, as a non-frozen dataclass's are."""

    __slots__ = ()

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        cls = type(self)
        names = [f.name for f in fields(cls) if f.repr]  # type: ignore[arg-type]
        values = _getter(cls, "repr")(self)
        return f"{cls.__qualname__}({', '.join(f'{n}={v!r}' for n, v in zip(names, values))})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            compared = _getter(self.__class__, "compare")
            return bool(compared(self) == compared(other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class FrozenMethods(DataclassMethods):
    """:class:`DataclassMethods` for a frozen class: a field is set once, by ``__init__``; every later
    assignment or deletion raises :class:`dataclasses.FrozenInstanceError`; instances hash by their fields."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self.__dict__ or name not in self.__dataclass_fields__:  # type: ignore[attr-defined]
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(_getter(self.__class__, "hash")(self))

"""``assay._dataclass``: a class declared ``@dataclass(repr=False, eq=False)`` with its methods behaves as ``@dataclass``."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from assay._dataclass import DataclassMethods, FrozenMethods


@dataclass
class Plain:
    name: str
    items: list[int] = field(default_factory=list)
    note: str = field(default="", compare=False)
    secret: str = field(default="", repr=False)


@dataclass(repr=False, eq=False)
class Mine(DataclassMethods):
    name: str
    items: list[int] = field(default_factory=list)
    note: str = field(default="", compare=False)
    secret: str = field(default="", repr=False)


@dataclass(frozen=True)
class FrozenPlain:
    x: int
    y: Any = None
    label: str = field(default="", compare=False)


@dataclass(repr=False, eq=False)
class FrozenMine(FrozenMethods):
    x: int
    y: Any = None
    label: str = field(default="", compare=False)


@dataclass(repr=False, eq=False)
class Child(Mine):
    extra: int = 0


def _same(ours: Any, theirs: Any) -> None:
    assert repr(ours).replace(type(ours).__qualname__, "C") == repr(theirs).replace(type(theirs).__qualname__, "C")


def test_repr_and_equality_as_a_dataclass() -> None:
    a, b = Mine("a", [1], "x", "s"), Plain("a", [1], "x", "s")
    _same(a, b)
    assert (a == Mine("a", [1], "other note", "s")) == (b == Plain("a", [1], "other note", "s")) is True
    assert (a == Mine("b", [1])) == (b == Plain("b", [1])) is False
    assert a != b and a.__eq__(b) is NotImplemented  # another class is never equal
    with pytest.raises(TypeError):
        hash(a)
    assert repr(Child("c", extra=2)) == "Child(name='c', items=[], note='', extra=2)"  # the subclass's fields too
    assert Child("c") != Mine("c")


def test_a_frozen_class_hashes_by_its_compared_fields_and_refuses_assignment() -> None:
    ours, theirs = FrozenMine(1, (2,), "l"), FrozenPlain(1, (2,), "l")
    _same(ours, theirs)
    assert hash(ours) == hash(theirs) == hash((1, (2,)))
    assert ours == FrozenMine(1, (2,), "other") and {ours: 1}[FrozenMine(1, (2,))] == 1
    for target in (ours, theirs):
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
            target.x = 5  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            target.new = 1  # type: ignore[attr-defined]
        with pytest.raises(dataclasses.FrozenInstanceError):
            del target.y  # type: ignore[misc]
    assert ours.x == 1


def test_the_dataclass_functions_copies_and_pickles_work() -> None:
    ours = FrozenMine(1, [3])
    assert dataclasses.replace(ours, x=2) == FrozenMine(2, [3])
    assert dataclasses.asdict(ours) == {"x": 1, "y": [3], "label": ""}
    assert [f.name for f in dataclasses.fields(Mine)] == ["name", "items", "note", "secret"]
    assert pickle.loads(pickle.dumps(ours)) == ours and copy.deepcopy(ours) == ours
    assert pickle.loads(pickle.dumps(Mine("a", [1]))) == Mine("a", [1])


def test_a_recursive_value_is_shown_once() -> None:
    a = Mine("a")
    a.items.append(a)  # type: ignore[arg-type]
    assert repr(a) == "Mine(name='a', items=[...], note='')"

"""``assay._dataclass``: a class declared ``@dataclass(repr=False, eq=False)`` with its methods behaves as ``@dataclass``."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import assay
from assay._dataclass import FACTORY, DataclassMethods, FrozenMethods


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


def _written_out() -> list[type]:
    """assay's dataclasses declared ``init=False`` with an ``__init__`` of their own (every module that declares one imported)."""
    root = Path(assay.__file__).parent
    for path in sorted(root.rglob("*.py")):
        if "@dataclass(init=False" in path.read_text(encoding="utf-8"):
            importlib.import_module(".".join(("assay", *path.relative_to(root).with_suffix("").parts)))
    return [cls for name, module in sorted(sys.modules.items()) if name.startswith("assay.")
            for cls in vars(module).values()
            if isinstance(cls, type) and cls.__module__ == name and dataclasses.is_dataclass(cls)
            and not cls.__dataclass_params__.init and "__init__" in vars(cls)]


def _generated(cls: type) -> type:
    """A subclass of ``cls`` whose ``__init__`` is the one ``@dataclass`` writes for ``cls``'s fields."""
    return dataclass(repr=False, eq=False)(type(cls.__name__, (cls,), {"__qualname__": cls.__qualname__, "__module__": cls.__module__}))


def test_a_written_out_init_is_the_one_dataclass_would_generate() -> None:
    """Each ``__init__`` written in the class takes the parameters ``@dataclass``'s would (names, order, kinds,
    annotations, defaults; ``<factory>`` where the field has a ``default_factory``) and leaves the instance with
    the same fields: the defaults, a fresh value from each factory, ``__post_init__`` run."""
    classes = _written_out()
    assert len(classes) >= 40  # the run's dataclasses (planning, tasks, run directory, summary)
    for cls in classes:
        reference = _generated(cls)
        ours, theirs = inspect.signature(cls.__init__).parameters, inspect.signature(reference.__init__).parameters
        assert [(p.name, p.kind, p.annotation) for p in ours.values()] == [(p.name, p.kind, p.annotation) for p in theirs.values()], cls
        for name, param in ours.items():
            expected = theirs[name].default
            if repr(expected) == "<factory>":
                assert param.default is FACTORY, (cls, name)
            else:
                assert param.default == expected or (param.default is expected), (cls, name)
        required = {name: object() for name, p in ours.items() if name != "self" and p.default is inspect.Parameter.empty}
        made: list[Any] = []
        for kind in (cls, reference):
            try:
                made.append(vars(kind(**required)))
            except Exception as exc:  # a __post_init__ refusing the stand-in values: both refuse them alike
                made.append((type(exc), str(exc)))
        if isinstance(made[0], dict) and isinstance(made[1], dict):  # a factory's value may differ run to run (a clock)
            made_by = {f.name for f in dataclasses.fields(cls) if f.default_factory is not dataclasses.MISSING}
            made[0], made[1] = ({k: type(v) if k in made_by else v for k, v in one.items()} for one in made[:2])
        assert made[0] == made[1], cls
        if isinstance(made[0], dict):
            one, two = vars(cls(**required)), vars(cls(**required))
            fresh = [name for name, value in one.items() if isinstance(value, (list, dict, set)) and name not in required]
            assert all(one[name] is not two[name] for name in fresh), cls  # a factory's value is new each time

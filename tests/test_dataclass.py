"""``assay._dataclass``: a class declared ``@dataclass(repr=False, eq=False)`` with its methods behaves as ``@dataclass``."""

from __future__ import annotations

import ast
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


#: assay's dataclasses whose ``__init__`` ``@dataclass`` generates (compiled as the class is created), by module.
#: Every other dataclass of assay has its ``__init__`` written out and checked above: a new one, wherever it is
#: declared, is one or the other, never neither.
GENERATED: dict[str, set[str]] = {
    # the sandbox's, code execution's, math-verify's and the expression checks' modules, which a sandboxed or worker
    # program imports alone: plain dataclasses
    "assay.sandbox._runner": {"_Capture"},
    "assay.sandbox._types": {"Limits", "RunResult"},
    "assay.evaluators._code_exec": {"Checked", "Verdict"},
    "assay.evaluators._mathverify_worker": {"Outcome"},
    "assay.evaluators._pyeval": {"Check", "Verdict"},
    "assay.evaluators._toolchains": {"Toolchain"},
    # imported by a run only for its report (the statistics, the report's pages) or its worker processes: the
    # quickstart run without them imports none (tests/test_cli_imports.py)
    "assay._pool": {"_Worker"},
    "assay.report._html": {"_Context"},
    "assay.report._samples": {"Source", "_Tables"},
    "assay.rundir.sidecar": {"SavedStats"},
    "assay.rundir.statistics": {"RunStats", "SampleTables", "Task"},
    "assay.stats._columns": {"PredictionColumns", "SampleColumns"},
    "assay.stats._groups": {"_Draws", "_Layout", "_Linear"},
    "assay.stats._paired": {"PairedResult"},
    "assay.stats._ranks": {"ModelRank", "PairMatrix", "Ranking", "_Bucket", "_Capture", "_DatasetPlan", "_Usual"},
    "assay.stats._result": {"ResultStats", "StatsOptions"},
    "assay.stats._unscorable": {"Unscorable", "_Reader"},
    "assay.summarize.needle_grid": {"NeedleGrid"},
    # not imported by the quickstart run: other commands, judges, evaluators and summarizers it does not use
    "assay.audit.check": {"AuditCheck"},
    "assay.commands.verify": {"Mismatch", "VerifyReport"},
    "assay.evaluators.evalplus": {"PlusResult", "_Truth"},
    "assay.evaluators.ifeval": {"_Tally"},
    "assay.judge._client": {"JudgeReply"},
    "assay.judge._estimate": {"JudgeEstimate"},
    "assay.rundir.sources": {"ImportedSources"},
    "assay.sources.model": {"ExternalGroup", "ExternalResult", "ExternalRun", "ExternalSample", "SourceInfo"},
    "assay.stats._align": {"Alignment", "SampleIdentity"},
    "assay.stats._compare": {"Comparison", "DatasetComparison"},
    "assay.subjective.task": {"SubjectiveOutcome", "_Prepared"},
    "assay.summarize._multi_faceted": {"SummaryFacet"},
}


def _is_dataclass_decorator(node: ast.expr) -> ast.Call | bool:
    """``node`` is ``@dataclass`` (``True``), ``@dataclass(...)`` (the call) or neither (``False``)."""
    target = node.func if isinstance(node, ast.Call) else node
    named = (isinstance(target, ast.Name) and target.id == "dataclass") or (
        isinstance(target, ast.Attribute) and target.attr == "dataclass")
    if not named:
        return False
    return node if isinstance(node, ast.Call) else True


def _declared() -> dict[tuple[str, str], bool]:
    """Every dataclass declared in assay's source, read without importing it: (module, qualified name) → whether
    it is declared ``init=False`` with an ``__init__`` in its body."""
    root = Path(assay.__file__).parent
    found: dict[tuple[str, str], bool] = {}

    def visit(node: ast.AST, module: str, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                qualname = prefix + child.name
                for decorator in child.decorator_list:
                    kind = _is_dataclass_decorator(decorator)
                    if kind is False:
                        continue
                    no_init = isinstance(kind, ast.Call) and any(
                        k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False for k in kind.keywords)
                    own = any(isinstance(n, ast.FunctionDef) and n.name == "__init__" for n in child.body)
                    found[(module, qualname)] = no_init and own
                visit(child, module, qualname + ".")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, module, prefix + child.name + ".<locals>.")
            else:
                visit(child, module, prefix)

    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        module = ".".join(("assay", *(parts[:-1] if parts[-1] == "__init__" else parts)))
        visit(ast.parse(path.read_text(encoding="utf-8")), module, "")
    return found


def test_every_dataclass_has_its_init_checked_or_is_listed_as_generating_it() -> None:
    """Each dataclass declared in assay is either declared ``init=False`` with its ``__init__`` written out — and
    then among those the test above checks — or listed in :data:`GENERATED`; the list names no class that is gone."""
    declared = _declared()
    written = {key for key, own in declared.items() if own}
    assert written == {(cls.__module__, cls.__qualname__) for cls in _written_out()}  # none escapes the check above
    generated = {key for key, own in declared.items() if not own}
    listed = {(module, name) for module, names in GENERATED.items() for name in names}
    assert sorted(generated - listed) == [], "a dataclass neither written out (init=False) nor listed in GENERATED"
    assert sorted(listed - generated) == [], "listed in GENERATED, but no such dataclass generates its __init__"

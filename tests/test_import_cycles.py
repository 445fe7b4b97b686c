"""No module of assay imports a module that imports it back (directly or through others).

That holds for the imports that run when a module is imported and, in every
package, for those inside functions (deferred until called) and under
``if TYPE_CHECKING:`` too: a deferred import that closes a cycle is a
dependency going the wrong way, merely hidden until the function runs.
Importing ``a.b.c`` runs the packages ``a`` and ``a.b`` too, unless the
importer is inside them.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def modules_of_assay() -> dict[str, Path]:
    """Dotted name → file of every module of assay."""
    out: dict[str, Path] = {}
    for path in sorted((SRC / "assay").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _module_level(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The import statements that run when the module is imported."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If):
            test = node.test
            if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
            ):
                found.extend(_module_level(node.orelse))
                continue
            found.extend(_module_level(node.body) + _module_level(node.orelse))
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *[h.body for h in node.handlers]):
                found.extend(_module_level(block))
        elif isinstance(node, ast.With):
            found.extend(_module_level(node.body))
    return found


def everywhere(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, deferred ones included."""
    return [n for b in body for n in ast.walk(b) if isinstance(n, (ast.Import, ast.ImportFrom))]


def package_of(name: str, path: Path) -> str:
    """The package a module's relative imports start from."""
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def import_targets(node: ast.Import | ast.ImportFrom, package: str, modules: Mapping[str, Path]) -> list[str]:
    """The assay modules an import statement in ``package`` names (the nearest module of each name)."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            anchor = package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
    found = []
    for target in targets:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target:
            found.append(target)
    return found


def import_graph(*, deferred: bool = False) -> dict[str, set[str]]:
    """Module → the assay modules importing it runs (``deferred``: or that it imports inside functions)."""
    find = everywhere if deferred else _module_level
    modules = modules_of_assay()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in find(ast.parse(path.read_text(encoding="utf-8")).body):
            for target in import_targets(node, package_of(name, path), modules):
                while target and target != name and not name.startswith(target + "."):
                    edges.add(target)  # the module and the packages it is in, but those of the importer
                    target = target.rpartition(".")[0]
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_finder_sees_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_assay_is_in_an_import_cycle() -> None:
    graph = import_graph()
    assert len(graph) > 50 and graph["assay.cli"] is not None
    assert cycles(graph) == []


def test_no_package_has_a_cycle_even_through_deferred_imports() -> None:
    graph = import_graph(deferred=True)
    assert "assay.tasks" in graph["assay.commands.run"] and "assay.tasks" not in import_graph()["assay.commands.run"]  # inside functions
    assert cycles(graph) == []


def test_the_registry_imports_nothing_above_it() -> None:
    """The OpenCompass names reach the registries through the fallback the OpenCompass layer installs."""
    graph = import_graph(deferred=True)
    assert graph["assay.registry"] <= {"assay.errors", "assay._names"}  # the name table: data, importing nothing
    assert "assay.registry" in graph["assay.opencompass"]

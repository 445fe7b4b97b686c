"""Only :mod:`assay.rundir` builds paths inside a run directory from the layout's names.

Every other module takes a run directory's folders and files from the
package (``RunDir(root).results``, ``result_path``, ``stats_path`` …), so that
the layout is spelled in one place.  The check parses every module of assay
outside ``assay/rundir`` and reports each expression that builds a path from
one of the names (``root / "results"``, ``os.path.join(x, ".shards")``,
``Path(x, "configs")``, ``p.name == "results"``, ``f"{abbr}.stats"``,
``"index.sqlite"``, ``".assay.lock"``).  A line that joins one of the names
onto a folder that is not in a run directory says so: ``# not a run directory``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_import_cycles import SRC, modules_of_assay

#: The run directory's folders, which only assay.rundir joins onto a path.
FOLDERS = frozenset({"results", "predictions", "configs", "summary", "logs", ".shards", ".scratch"})
#: Names that only assay.rundir spells, wherever they appear in a string.
FILES = ("index.sqlite", ".assay.lock")
#: The suffix of a result's statistics file.
STATS_SUFFIX = ".stats"
#: The comment that exempts a line whose path is not in a run directory.
EXEMPT = "# not a run directory"
_PATH_CALLS = frozenset({"Path", "PurePath", "PosixPath", "join", "joinpath"})


def _layout_name(node: ast.AST) -> str | None:
    """The layout name a constant string spells as a path piece (``"results"``, ``"results/x"``), else ``None``."""
    if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
        return None
    head = node.value.strip("/").split("/", 1)[0]
    return head if head in FOLDERS else None


def _spells_file(value: str) -> bool:
    return any(name in value for name in FILES) or value.endswith(STATS_SUFFIX)


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring constants (prose, not paths)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def layout_literals(source: str) -> list[tuple[int, str]]:
    """``(line, what)`` for each place ``source`` builds a run-directory path from a layout name.

    >>> layout_literals('p = root / "results" / m\\nq = Path(root, ".shards")\\nok = row["results"]')
    [(1, '/ "results"'), (2, 'Path(..., ".shards")')]
    >>> layout_literals('s = f"{abbr}.stats"\\nt = p.with_suffix(".stats")\\nu = p.name == "logs"')
    [(1, "f-string ending '.stats'"), (2, "'.stats'"), (3, '.name == "logs"')]
    """
    tree = ast.parse(source)
    lines = source.splitlines()
    skip = _docstrings(tree)
    skip |= {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}  # seen whole
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            for side in (node.left, node.right):
                name = _layout_name(side)
                if name is not None:
                    found.append((node.lineno, f'/ "{name}"'))
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in _PATH_CALLS:
                for arg in node.args:
                    name = _layout_name(arg)
                    if name is not None:
                        found.append((node.lineno, f'{called}(..., "{name}")'))
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) and node.left.attr in ("name", "stem"):
            for other in node.comparators:
                name = _layout_name(other)
                if name is not None:
                    found.append((node.lineno, f'.{node.left.attr} == "{name}"'))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if _spells_file(node.value):
                found.append((node.lineno, repr(node.value)))
        elif isinstance(node, ast.JoinedStr):
            last = node.values[-1] if node.values else None
            if isinstance(last, ast.Constant) and isinstance(last.value, str) and last.value.endswith(STATS_SUFFIX):
                found.append((node.lineno, f"f-string ending {STATS_SUFFIX!r}"))
            for before, part in zip(node.values, node.values[1:]):  # f"{root}/results/…": a path joined in text
                if isinstance(before, ast.FormattedValue) and isinstance(part, ast.Constant) and isinstance(part.value, str):
                    name = _layout_name(ast.Constant(part.value[1:])) if part.value.startswith("/") else None
                    if name is not None:
                        found.append((node.lineno, f'f-string "{{…}}/{name}"'))
    return sorted({(line, what) for line, what in found if not lines[line - 1].rstrip().endswith(EXEMPT)})


def test_only_assay_rundir_spells_the_run_directory_layout() -> None:
    owner = SRC / "assay" / "rundir"
    offenders = []
    for path in modules_of_assay().values():
        if owner in path.parents:
            continue
        for line, what in layout_literals(path.read_text(encoding="utf-8")):
            offenders.append(f"{path.relative_to(SRC)}:{line}: {what}")
    assert not offenders, "run-directory paths built outside assay.rundir (use its API):\n" + "\n".join(offenders)


def test_the_check_sees_a_path_built_outside_the_package(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""Reads results/ and index.sqlite."""\nimport os\n\ndef f(root):\n    return os.path.join(root, "results", "m")\n')
    assert layout_literals(module.read_text()) == [(5, 'join(..., "results")')]
    module.write_text('def f(package):\n    return package / "configs"  # not a run directory\n')
    assert layout_literals(module.read_text()) == []

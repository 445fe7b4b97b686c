"""No module of assay imports another package's private module.

A module whose name starts with ``_`` (``assay.stats._samples``) is private to
its package: only modules inside that package (``assay.stats`` and below)
import it; everything else takes its names from the package's exports or a
public module.  ``assay._pool`` and the other private modules of the top
package are thus open to all of assay.  The examples in docstrings, which run
as tests, count too; the project's own tests may import private modules.
"""

from __future__ import annotations

import ast
import doctest
from pathlib import Path

from tests.test_import_cycles import SRC, everywhere, import_targets, modules_of_assay, package_of


def private_owner(module: str) -> str | None:
    """The package a private module belongs to, or ``None`` for a public module.

    >>> private_owner('assay.stats._samples'), private_owner('assay._pool'), private_owner('assay.stats')
    ('assay.stats', 'assay', None)
    >>> private_owner('assay.__main__') is None
    True
    """
    parts = module.split(".")
    for i, part in enumerate(parts[1:], start=1):
        if part.startswith("_") and not (part.startswith("__") and part.endswith("__")):
            return ".".join(parts[:i])
    return None


def _doctest_imports(tree: ast.Module) -> list[tuple[int, ast.Import | ast.ImportFrom]]:
    """The import statements of the examples in the module's docstrings, with the docstring's line."""
    found: list[tuple[int, ast.Import | ast.ImportFrom]] = []
    parser = doctest.DocTestParser()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        doc = ast.get_docstring(node)
        if not doc or ">>>" not in doc:
            continue
        line = node.body[0].lineno
        for example in parser.get_examples(doc):
            try:
                code = ast.parse(example.source)
            except SyntaxError:
                continue
            found.extend((line + example.lineno, n) for n in everywhere(code.body))
    return found


def foreign_private_imports() -> list[str]:
    """``file:line: importer imports private`` for each import of a private module from outside its package."""
    modules = modules_of_assay()
    found: set[tuple[str, int, str, str]] = set()
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        statements = [(n.lineno, n) for n in everywhere(tree.body)] + _doctest_imports(tree)
        for line, node in statements:
            for target in import_targets(node, package_of(name, path), modules):
                owner = private_owner(target)
                if owner is not None and name != owner and not name.startswith(owner + "."):
                    found.add((str(path.relative_to(SRC.parent)), line, name, target))
    return [f"{file}:{line}: {name} imports {target}" for file, line, name, target in sorted(found)]


def test_the_check_sees_every_kind_of_import(tmp_path: Path) -> None:
    modules = {"assay": Path("__init__.py"), "assay.stats": Path("__init__.py"), "assay.stats._samples": Path("_samples.py")}
    for source in ("from assay.stats._samples import sample_values", "import assay.stats._samples", "from assay.stats import _samples"):
        node = ast.parse(source).body[0]
        assert isinstance(node, (ast.Import, ast.ImportFrom))
        assert [private_owner(t) for t in import_targets(node, "assay.tasks", modules)] == ["assay.stats"], source
    tree = ast.parse('def f():\n    """Example.\n\n    >>> from assay.stats._samples import sample_values\n    """\n')
    [(line, node)] = _doctest_imports(tree)
    assert line == 4 and [private_owner(t) for t in import_targets(node, "assay.tasks", modules)] == ["assay.stats"]


def test_no_module_imports_a_private_module_of_another_package() -> None:
    found = foreign_private_imports()
    assert found == [], "import these names from their package instead:\n" + "\n".join(found)

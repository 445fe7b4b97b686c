"""``assay.stats`` is mathematics only: it reads no file, index or config.

Its functions take parsed results, per-sample values, counts and mappings,
and return plain values.  Reading a run directory for them is
:mod:`assay.rundir.statistics`; so no module of ``assay.stats`` imports the
modules that know files (``assay.rundir``: the layout, the result,
prediction and config files, the index; configs, file I/O, summaries), nor ``pathlib``, nor
calls ``open`` or a ``Path``'s reading and writing methods — imports inside
functions and under ``TYPE_CHECKING`` included.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_import_cycles import SRC, everywhere, import_targets, modules_of_assay, package_of

#: Packages and modules that read or write files, which ``assay.stats`` may not import.
FILE_MODULES = (
    "assay.config",
    "assay.fileio",
    "assay.rundir",
    "assay.summarize",
)

#: Calls that read or write files, by the name called (``open(…)``, ``path.read_text()``, …).
FILE_CALLS = frozenset({"open", "read_text", "read_bytes", "write_text", "write_bytes", "iterdir", "glob", "rglob"})

def _stats_modules() -> dict[str, Path]:
    return {name: path for name, path in modules_of_assay().items() if name == "assay.stats" or name.startswith("assay.stats.")}


def _violations(name: str, path: Path, source: str | None = None) -> list[str]:
    """``file:line: what`` for each file-reading import or call in the module ``name`` at ``path``
    (its text ``source`` when given, else the file's)."""
    modules = modules_of_assay()
    tree = ast.parse(source if source is not None else path.read_text(encoding="utf-8"))
    rel = path.relative_to(SRC)
    found = []
    for node in everywhere(tree.body):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        if not getattr(node, "level", 0) and any(n == "pathlib" or n.startswith("pathlib.") for n in names):
            found.append(f"{rel}:{node.lineno}: imports pathlib")
        for target in import_targets(node, package_of(name, path), modules):
            if any(target == m or target.startswith(m + ".") for m in FILE_MODULES):
                found.append(f"{rel}:{node.lineno}: imports {target}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if called in FILE_CALLS:
                found.append(f"{rel}:{node.lineno}: calls {called}()")
    return list(dict.fromkeys(found))


def test_no_module_of_assay_stats_reads_files() -> None:
    modules = _stats_modules()
    assert "assay.stats._intervals" in modules  # the package was found
    found = [v for name, path in modules.items() for v in _violations(name, path)]
    assert not found, "assay.stats is mathematics only; move file access to assay.rundir:\n" + "\n".join(found)


def test_the_check_finds_file_access() -> None:
    """The check sees imports of the file modules (deferred, relative, of pathlib) and reading calls."""
    source = (
        "from pathlib import Path\n"
        "def f(p):\n"
        "    from assay.fileio import read_json\n"
        "    from .. import config\n"
        "    with open(p) as fh:\n"
        "        return Path(p).read_bytes(), fh\n"
        "def g(values):\n"
        "    return sum(values) / len(values)\n"
    )
    found = _violations("assay.stats._probe", SRC / "assay" / "stats" / "_probe.py", source)
    assert sorted(v.split(": ", 1)[1] for v in found) == [
        "calls open()", "calls read_bytes()", "imports assay.config", "imports assay.fileio", "imports pathlib"
    ]
    assert all(v.startswith("assay/stats/_probe.py:") for v in found)

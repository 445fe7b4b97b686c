"""Only :mod:`assay.audit` knows the keys of the audit record: every other module reads it through the typed record."""

from __future__ import annotations

import ast

from tests.test_import_cycles import SRC, modules_of_assay

#: The record's key in a result and the keys inside it that no other module may read by name.
RECORD_KEYS = frozenset({"extraction_audit", "corrections", "replies", "differ", "readings"})


def _key_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, key)`` of each read of a record key: ``x['key']``, ``x.get('key')``/``pop``/``setdefault``, ``'key' in x``,
    and each name given a key to read by (``KEY = 'extraction_audit'``)."""
    found: list[tuple[int, str]] = []

    def key(node: ast.AST | None) -> str | None:
        return node.value if isinstance(node, ast.Constant) and node.value in RECORD_KEYS else None

    for node in ast.walk(tree):
        k = None
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            k = key(node.slice)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "pop", "setdefault"):
            k = key(node.args[0]) if node.args else None
        elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            k = key(node.left)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            k = key(node.value)
        if k is not None:
            found.append((node.lineno, k))
    return sorted(found)


def test_the_check_sees_each_kind_of_read() -> None:
    source = ("a = r['extraction_audit']\nb = r.get('differ')\nc = 'readings' in r\nr['extraction_audit'] = {}\nd = {'replies': 1}\n"
              "KEY = 'extraction_audit'\n")
    assert _key_reads(ast.parse(source)) == [(1, "extraction_audit"), (2, "differ"), (3, "readings"), (6, "extraction_audit")]


def test_no_module_outside_the_audit_package_reads_the_record_by_key() -> None:
    found = []
    for name, path in modules_of_assay().items():
        if name == "assay.audit" or name.startswith("assay.audit."):
            continue
        for line, k in _key_reads(ast.parse(path.read_text(encoding="utf-8"))):
            found.append(f"{path.relative_to(SRC.parent)}:{line}: {k!r}")
    assert found == [], "read the audit record through assay.audit (AuditRecord, record_of, has_record):\n" + "\n".join(found)

"""Only :mod:`assay.audit` knows the keys of the audit record: every other module reads it through the typed record."""

from __future__ import annotations

import ast

from tests.test_import_cycles import SRC, modules_of_assay

#: The record's key in a result and the keys inside it that no other module may read by name.
RECORD_KEYS = frozenset({"extraction_audit", "corrections", "replies", "differ", "readings"})


def _key_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, key)`` of each read of a record key: ``x['key']``, ``x.get('key')``/``pop``/``setdefault``, ``'key' in x``."""
    found: list[tuple[int, str]] = []

    def key(node: ast.AST | None) -> str | None:
        return node.value if isinstance(node, ast.Constant) and node.value in RECORD_KEYS else None

    for node in ast.walk(tree):
        if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and (k := key(node.slice))) or (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("get", "pop", "setdefault") and node.args and (k := key(node.args[0]))) or (isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) and (k := key(node.left))):
            found.append((node.lineno, k))
    return found


def test_the_check_sees_each_kind_of_read() -> None:
    source = "a = r['extraction_audit']\nb = r.get('differ')\nc = 'readings' in r\nr['extraction_audit'] = {}\nd = {'replies': 1}\n"
    assert _key_reads(ast.parse(source)) == [(1, "extraction_audit"), (2, "differ"), (3, "readings")]


def test_no_module_outside_the_audit_package_reads_the_record_by_key() -> None:
    found = []
    for name, path in modules_of_assay().items():
        if name == "assay.audit" or name.startswith("assay.audit."):
            continue
        for line, k in _key_reads(ast.parse(path.read_text(encoding="utf-8"))):
            found.append(f"{path.relative_to(SRC.parent)}:{line}: {k!r}")
    assert found == [], "read the audit record through assay.audit (AuditRecord, record_of, has_record):\n" + "\n".join(found)

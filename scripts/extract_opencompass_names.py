"""Write the table of every ``opencompass.*`` name OpenCompass defines, read from its source.

Usage::

    python scripts/extract_opencompass_names.py OPENCOMPASS_ROOT [-o src/assay/opencompass/opencompass_names.json]

``OPENCOMPASS_ROOT`` is a folder holding the ``opencompass`` package (an unpacked
wheel or a checkout).  The source is parsed with :mod:`ast`, never imported, so
no dependency of OpenCompass is needed.  Its ``configs`` package is left out:
assay reads those files themselves.

For each module the table lists the public names a ``from MODULE import NAME``
gives in OpenCompass, each as ``[kind, dotted name of the definition]`` (plus
the value, for constants that are literals):

* ``class``, ``function``: defined by a ``class`` / ``def`` statement;
* ``module``: a submodule (``from opencompass.datasets import gsm8k``);
* ``value``: any other assignment (a constant).

Re-exports (``from .generic import *`` in a package ``__init__``) are followed,
so ``opencompass.datasets.generic_llmjudge_postprocess`` is a function defined in
``opencompass.datasets.generic``.  Names bound to other libraries' objects
(``from datasets import Dataset``) are not OpenCompass's definitions and are left
out.  The table also lists the third-party modules OpenCompass's packages import
at module level (``requires``): where one of them is missing, OpenCompass cannot
be imported, and assay serves every ``opencompass.*`` name itself.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path
from typing import Any

Entry = list[Any]  # [kind, origin] or ["value", origin, literal]

#: Constants whose literal value is longer (as JSON) are listed without it.
MAX_LITERAL = 256
KINDS = {"class": "c", "function": "f", "module": "m", "value": "v"}


class Source:
    """OpenCompass's modules (outside ``configs``) and their parsed syntax trees."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, Path] = {}
        self.packages: set[str] = set()
        self.namespace_packages: set[str] = set()
        for path in sorted((root / "opencompass").rglob("*.py")):
            rel = path.relative_to(root).with_suffix("")
            parts = list(rel.parts)
            if len(parts) > 1 and parts[1] == "configs":
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
                self.packages.add(".".join(parts))
            self.files[".".join(parts)] = path
        # folders without __init__.py are namespace packages: importable, defining nothing
        for folder in sorted((root / "opencompass").rglob("*")):
            rel = folder.relative_to(root).parts
            if not folder.is_dir() or (len(rel) > 1 and rel[1] == "configs") or "__pycache__" in rel:
                continue
            if not (folder / "__init__.py").exists() and any(folder.rglob("*.py")):
                name = ".".join(rel)
                self.packages.add(name)
                self.namespace_packages.add(name)
        self._ns: dict[str, dict[str, Entry]] = {}
        self._busy: set[str] = set()
        self.external: set[str] = set()

    def is_module(self, name: str) -> bool:
        return name in self.files or name in self.namespace_packages

    def statements(self, module: str) -> list[ast.stmt]:
        if module not in self.files:
            return []
        tree = ast.parse(self.files[module].read_text(encoding="utf-8"), str(self.files[module]))
        return list(_flatten(tree.body))

    def namespace(self, module: str) -> dict[str, Entry]:
        """The names bound at the end of executing ``module`` (OpenCompass objects only)."""
        if module in self._ns:
            return self._ns[module]
        ns: dict[str, Entry] = {}
        if module in self._busy:  # a circular import: the names bound so far
            return ns
        self._busy.add(module)
        try:
            for stmt in self.statements(module):
                self._bind(module, stmt, ns)
        finally:
            self._busy.discard(module)
        self._ns[module] = ns
        return ns

    def public(self, module: str) -> dict[str, Entry]:
        """What ``from module import *`` binds."""
        ns = self.namespace(module)
        names = self.all_names(module)
        if names is not None:
            return {n: ns[n] for n in names if n in ns}
        return {n: e for n, e in ns.items() if not n.startswith("_")}

    def all_names(self, module: str) -> list[str] | None:
        for stmt in self.statements(module):
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets):
                try:
                    return list(ast.literal_eval(stmt.value))
                except ValueError:
                    return None
        return None

    def _bind(self, module: str, stmt: ast.stmt, ns: dict[str, Entry]) -> None:
        package = module if module in self.packages else module.rpartition(".")[0]
        if isinstance(stmt, ast.ClassDef):
            ns[stmt.name] = ["class", f"{module}.{stmt.name}"]
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            ns[stmt.name] = ["function", f"{module}.{stmt.name}"]
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                for name in _target_names(target):
                    entry: Entry = ["value", f"{module}.{name}"]
                    if isinstance(target, ast.Name) and stmt.value is not None:
                        literal = _literal(stmt.value)
                        if literal is not _NO_LITERAL and len(json.dumps(literal)) <= MAX_LITERAL:
                            entry.append(literal)
                    ns[name] = entry
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    if self.is_module(alias.name):
                        ns[alias.asname] = ["module", alias.name]
                    else:
                        ns.pop(alias.asname, None)
                        self._note_external(alias.name)
                else:
                    top = alias.name.split(".")[0]
                    if top == "opencompass":
                        ns[top] = ["module", top]
                    else:
                        ns.pop(top, None)
                        self._note_external(alias.name)
        elif isinstance(stmt, ast.ImportFrom):
            base = _absolute(stmt.module, stmt.level, package)
            internal = base == "opencompass" or base.startswith("opencompass.")
            if not internal:
                self._note_external(base)
                for alias in stmt.names:
                    ns.pop(alias.asname or alias.name, None)
                return
            if not self.is_module(base):
                return
            # importing a submodule of this package binds it in the package
            if module in self.packages and base.startswith(module + "."):
                child = base[len(module) + 1 :].split(".")[0]
                ns[child] = ["module", f"{module}.{child}"]
            for alias in stmt.names:
                if alias.name == "*":
                    ns.update(self.public(base))
                    continue
                bound = alias.asname or alias.name
                source_ns = self.namespace(base)
                if alias.name in source_ns:
                    ns[bound] = source_ns[alias.name]
                elif self.is_module(f"{base}.{alias.name}"):
                    ns[bound] = ["module", f"{base}.{alias.name}"]
                else:
                    ns.pop(bound, None)

    def _note_external(self, name: str) -> None:
        self.external.add(name.split(".")[0])


def _flatten(body: list[ast.stmt]) -> list[ast.stmt]:
    """Module-level statements, including those inside ``if``/``try``/``with`` blocks, in order."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.If):
            out += _flatten(stmt.body) + _flatten(stmt.orelse)
        elif isinstance(stmt, ast.Try):
            out += _flatten(stmt.body)
            for handler in stmt.handlers:
                out += _flatten(handler.body)
            out += _flatten(stmt.orelse) + _flatten(stmt.finalbody)
        elif isinstance(stmt, ast.With):
            out += _flatten(stmt.body)
        else:
            out.append(stmt)
    return out


def _guarded_imports(body: list[ast.stmt], guarded: bool = False) -> list[tuple[ast.stmt, bool]]:
    """Module-level import statements, each with whether a ``try`` guards it."""
    out: list[tuple[ast.stmt, bool]] = []
    for stmt in body:
        if isinstance(stmt, ast.If):
            out += _guarded_imports(stmt.body, True) + _guarded_imports(stmt.orelse, True)
        elif isinstance(stmt, ast.Try):
            out += _guarded_imports(stmt.body, True)
            for handler in stmt.handlers:
                out += _guarded_imports(handler.body, True)
            out += _guarded_imports(stmt.orelse, True) + _guarded_imports(stmt.finalbody, guarded)
        elif isinstance(stmt, ast.With):
            out += _guarded_imports(stmt.body, guarded)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            out.append((stmt, guarded))
    return out


def _target_names(target: ast.expr) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for elt in target.elts for n in _target_names(elt)]
    return []


def _absolute(module: str | None, level: int, package: str) -> str:
    if level == 0:
        return module or ""
    parts = package.split(".")
    base = parts[: len(parts) - (level - 1)]
    return ".".join(base + ([module] if module else []))


_NO_LITERAL = object()


def _literal(node: ast.expr) -> Any:
    """A JSON encoding of a literal value (tuples and sets tagged), or ``_NO_LITERAL``."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NO_LITERAL
    try:
        return _encode(value)
    except TypeError:
        return _NO_LITERAL


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise TypeError("not a JSON number")
        return value
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, tuple):
        return {"__tuple__": [_encode(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        raise TypeError("sets are left out")
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value) or "__tuple__" in value:
            raise TypeError("only string keys")
        return {k: _encode(v) for k, v in value.items()}
    raise TypeError(type(value).__name__)


def _beside(path: Path, name: str) -> bool:
    """A module shipped next to the importing file (OpenCompass puts such folders on ``sys.path``)."""
    folder = path.parent
    return (folder / name).is_dir() or (folder / f"{name}.py").is_file()


def required_modules(source: Source, packages: tuple[str, ...]) -> list[str]:
    """Third-party modules imported, unguarded, at module level by the modules ``packages`` import."""
    seen: set[str] = set()
    needed: set[str] = set()
    todo = [p for p in packages if source.is_module(p)]
    stdlib = set(sys.stdlib_module_names)
    while todo:
        module = todo.pop()
        if module in seen or module not in source.files:
            continue
        seen.add(module)
        package = module if module in source.packages else module.rpartition(".")[0]
        tree = ast.parse(source.files[module].read_text(encoding="utf-8"))
        for stmt, guarded in _guarded_imports(tree.body):
            targets: list[str] = []
            if isinstance(stmt, ast.Import):
                targets = [a.name for a in stmt.names]
            elif isinstance(stmt, ast.ImportFrom):
                base = _absolute(stmt.module, stmt.level, package)
                targets = [base] + [f"{base}.{a.name}" for a in stmt.names if a.name != "*"]
            for target in targets:
                top = target.split(".")[0]
                if top == "opencompass":
                    # importing a.b.c runs a, a.b and a.b.c
                    parts = target.split(".")
                    todo += [".".join(parts[:i]) for i in range(1, len(parts) + 1) if source.is_module(".".join(parts[:i]))]
                elif top and top not in stdlib and not guarded and top != "__future__" and not _beside(source.files[module], top):
                    needed.add(top)
    return sorted(needed)


def _compact(module: str, name: str, entry: Entry) -> Entry:
    """``[kind letter, origin]``; the origin is ``""`` when it is ``module.name`` itself."""
    kind, origin, *rest = entry
    return [KINDS[kind], "" if origin == f"{module}.{name}" else origin, *rest]


def registered_names(source: Source) -> dict[str, dict[str, Entry]]:
    """``{registry: {name: [kind letter, dotted name]}}`` of the ``@REGISTRY.register_module(...)`` decorators."""
    out: dict[str, dict[str, Entry]] = {}
    for module in sorted(source.files):
        for stmt in source.statements(module):
            if not isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            kind = "c" if isinstance(stmt, ast.ClassDef) else "f"
            for deco in stmt.decorator_list:
                if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute) and deco.func.attr == "register_module"):
                    continue
                if not isinstance(deco.func.value, ast.Name):
                    continue
                registry = deco.func.value.id
                arg: ast.expr | None = deco.args[0] if deco.args else None
                for kw in deco.keywords:
                    if kw.arg == "name":
                        arg = kw.value
                names: list[str] = [stmt.name]
                if arg is not None:
                    try:
                        value = ast.literal_eval(arg)
                    except ValueError:
                        value = None
                    if isinstance(value, str):
                        names = [value]
                    elif isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
                        names = list(value)
                for name in names:
                    out.setdefault(registry, {})[name] = [kind, f"{module}.{stmt.name}"]
        for registry, name in _loop_registrations(source, module):
            out.setdefault(registry, {})[name] = ["c", f"{module}.{name}"]
    return out


def _loop_registrations(source: Source, module: str) -> list[tuple[str, str]]:
    """Names registered in a module-level loop over a literal (``for t in TYPES: REG.register_module(name='X_' + t, ...)``)."""
    literals = {n: e[2] for n, e in source.namespace(module).items() if e[0] == "value" and len(e) > 2}
    out: list[tuple[str, str]] = []
    for stmt in source.statements(module):
        if not (isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name)):
            continue
        it = stmt.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "keys":
            it = it.func.value
        if not isinstance(it, ast.Name) or it.id not in literals:
            continue
        values = literals[it.id]
        if isinstance(values, dict) and "__tuple__" in values:
            values = values["__tuple__"]
        if not isinstance(values, (list, dict)):
            continue
        for node in ast.walk(stmt):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "register_module"):
                continue
            if not isinstance(node.func.value, ast.Name):
                continue
            expr = next((kw.value for kw in node.keywords if kw.arg == "name"), None)
            for value in values:
                name = _string_expr(expr, stmt.target.id, value) if expr is not None else None
                if isinstance(name, str):
                    out.append((node.func.value.id, name))
    return out


def _string_expr(node: ast.expr, var: str, value: Any) -> Any:
    """Evaluate a small string expression (constants, ``+``, ``.replace``) with ``var`` bound to ``value``."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id == var:
        return value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _string_expr(node.left, var, value), _string_expr(node.right, var, value)
        return left + right if isinstance(left, str) and isinstance(right, str) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "replace":
        base = _string_expr(node.func.value, var, value)
        args = [_string_expr(a, var, value) for a in node.args]
        if isinstance(base, str) and all(isinstance(a, str) for a in args) and len(args) == 2:
            return base.replace(args[0], args[1])
    return None


def build_table(root: Path) -> dict[str, Any]:
    source = Source(root)
    modules: dict[str, Any] = {}
    for module in sorted(set(source.files) | source.namespace_packages):
        names = {n: _compact(module, n, e) for n, e in sorted(source.namespace(module).items()) if not n.startswith("_")}
        modules[module] = {"package": module in source.packages, "names": names}
    version = ""
    init = source.files.get("opencompass")
    if init is not None:
        for stmt in ast.parse(init.read_text(encoding="utf-8")).body:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__version__" for t in stmt.targets):
                version = str(ast.literal_eval(stmt.value))
    requires = required_modules(source, ("opencompass.datasets", "opencompass.openicl", "opencompass.utils", "opencompass.evaluator"))
    return {"opencompass_version": version, "requires": requires, "modules": modules, "registered": registered_names(source)}


def dump_table(table: dict[str, Any]) -> str:
    """The table as one JSON object, a line per part, so that assay reads the lines it needs
    (:mod:`assay.opencompass.names`): the version and ``requires``, ``registered``, then
    ``"modules":{`` and a line per module, sorted.

    >>> print(dump_table({"opencompass_version": "1", "requires": [], "registered": {}, "modules": {"a": {}, "b": {}}}), end="")
    {"opencompass_version":"1","requires":[],
    "registered":{},
    "modules":{
    "a":{},
    "b":{}
    }}
    """
    def compact(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"), sort_keys=True)

    head = {k: table[k] for k in ("opencompass_version", "requires")}
    lines = [compact(head)[:-1] + ",", '"registered":' + compact(table["registered"]) + ",", '"modules":{']
    modules = sorted(table["modules"].items())
    lines += [f"{compact(name)}:{compact(info)}" + ("," if i < len(modules) - 1 else "") for i, (name, info) in enumerate(modules)]
    return "\n".join([*lines, "}}"]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("root", type=Path, help="folder holding the opencompass package")
    parser.add_argument("-o", "--output", type=Path, default=Path(__file__).resolve().parent.parent / "src/assay/opencompass/opencompass_names.json")
    args = parser.parse_args(argv)
    if not (args.root / "opencompass" / "__init__.py").is_file():
        parser.error(f"{args.root} holds no opencompass/__init__.py")
    table = build_table(args.root)
    args.output.write_text(dump_table(table), encoding="utf-8")
    count = sum(len(m["names"]) for m in table["modules"].values())
    print(f"{args.output}: {len(table['modules'])} modules, {count} names, OpenCompass {table['opencompass_version']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

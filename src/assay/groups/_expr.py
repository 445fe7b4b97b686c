"""Safe arithmetic expressions in ``x`` for summary-group ``transforms``.

A transform such as ``'100 - x'`` rewrites one input of a group before it is
aggregated.  The expression is parsed with :mod:`ast` and compiled into plain
Python closures; it is never passed to ``eval``.  Allowed: numbers, the name
``x``, ``True``/``False``, ``+ - * / ** %``, unary ``+``/``-``/``not``,
parentheses, comparisons (``< <= > >= == !=``, chained as in Python),
``and``/``or``, conditional expressions (``'x - 0.5 if x > 1 else x'``) and
the functions ``abs``, ``min``, ``max`` and ``round``.  Everything else
(attribute access, other names, subscripts, keyword arguments, ``is``/``in``,
lambdas, strings…) is rejected when the expression is compiled, i.e. when the
config is validated.

The value is Python's for the same expression, as OpenCompass 0.5.4 computes
it with ``eval``: a comparison is 1 or 0 (``True``/``False``), ``and``/``or``
give one of their operands and evaluate the right one only when Python does,
and a conditional evaluates only the branch it takes.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field

from assay._dataclass import FrozenMethods

__all__ = ["Transform", "TransformError", "compile_transform"]

#: Longest accepted expression, in characters (deeply nested input could exhaust the parser).
MAX_LENGTH = 500
#: Largest accepted exponent magnitude for ``**``.
MAX_EXPONENT = 1000.0

_Fn = Callable[[float], float]


class TransformError(ValueError):
    """An expression is not allowed, or failed on a value."""


def _pow(a: float, b: float) -> float:
    if abs(b) > MAX_EXPONENT:
        raise TransformError(f"exponent {b!r} is larger than {MAX_EXPONENT:g} in magnitude")
    if a < 0 and not float(b).is_integer():
        raise TransformError(f"{a!r} ** {b!r} is not a real number")
    return float(a**b)


def _mod(a: float, b: float) -> float:
    return a % b


_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: _pow,
    ast.Mod: _mod,
}


def _round(*args: float) -> float:
    if len(args) == 1:
        return float(round(args[0]))
    if len(args) == 2:
        digits = args[1]
        if not float(digits).is_integer():
            raise TransformError(f"round() needs a whole number of digits, got {digits!r}")
        return float(round(args[0], int(digits)))
    raise TransformError(f"round() takes 1 or 2 arguments, got {len(args)}")


def _abs(*args: float) -> float:
    if len(args) != 1:
        raise TransformError(f"abs() takes 1 argument, got {len(args)}")
    return abs(args[0])


def _min(*args: float) -> float:
    if not args:
        raise TransformError("min() needs at least 1 argument")
    return min(args)


def _max(*args: float) -> float:
    if not args:
        raise TransformError("max() needs at least 1 argument")
    return max(args)


_FUNCTIONS: dict[str, Callable[..., float]] = {"abs": _abs, "min": _min, "max": _max, "round": _round}

_COMPARE: dict[type[ast.cmpop], Callable[[float, float], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}


@dataclass(init=False, repr=False, eq=False)
class Transform(FrozenMethods):
    """A compiled transform: call it with the input value.

    >>> t = compile_transform('100 - x')
    >>> t(30.0)
    70.0
    """

    source: str
    _fn: _Fn = field(repr=False, compare=False)

    def __init__(self, source: str, _fn: _Fn) -> None:
        self.source = source
        self._fn = _fn

    def __call__(self, x: float) -> float:
        """Apply the expression to ``x``; raise :class:`TransformError` on a bad result."""
        try:
            value = self._fn(float(x))
        except TransformError:
            raise
        except (ArithmeticError, ValueError) as exc:  # ZeroDivisionError, OverflowError, …
            raise TransformError(f"{self.source!r} failed for x={x!r}: {exc}") from None
        if not math.isfinite(value):
            raise TransformError(f"{self.source!r} gives {value!r} for x={x!r}")
        return value


def compile_transform(source: str) -> Transform:
    """Compile an arithmetic expression in ``x``.

    Raises:
        TransformError: the expression uses anything but the allowed syntax.

    >>> compile_transform('max(0, min(100, x * 2))')(70)
    100.0
    >>> compile_transform('x - 0.5 if x > 1 else x')(3), compile_transform('0 < x <= 1 and 2 or 3')(0.5)
    (2.5, 2.0)
    >>> compile_transform("__import__('os')")
    Traceback (most recent call last):
    ...
    assay.groups._expr.TransformError: '__import__' is not allowed (only x and the functions abs, max, min, round)
    """
    if not isinstance(source, str):
        raise TransformError(f"a transform must be a string expression in x, got {type(source).__name__}")
    if len(source) > MAX_LENGTH:
        raise TransformError(f"expression is longer than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise TransformError(f"not a valid expression: {exc}") from None
    return Transform(source, _compile(tree.body))


def _compile(node: ast.AST) -> _Fn:
    if isinstance(node, ast.Constant):
        value = node.value
        if not isinstance(value, (int, float)) or isinstance(value, complex):
            raise TransformError(f"constant {value!r} is not allowed (only numbers)")
        try:
            number = float(value)
        except OverflowError:
            raise TransformError(f"constant {value!r} is too large") from None
        return lambda x: number
    if isinstance(node, ast.Name):
        if node.id != "x":
            raise TransformError(f"name {node.id!r} is not allowed (only x)")
        return lambda x: x
    if isinstance(node, ast.UnaryOp):
        inner = _compile(node.operand)
        if isinstance(node.op, ast.USub):
            return lambda x: -inner(x)
        if isinstance(node.op, ast.UAdd):
            return inner
        if isinstance(node.op, ast.Not):
            return lambda x: float(not inner(x))
        raise TransformError(f"operator {type(node.op).__name__} is not allowed")
    if isinstance(node, ast.BinOp):
        op = _BINARY.get(type(node.op))
        if op is None:
            raise TransformError(f"operator {type(node.op).__name__} is not allowed (only + - * / ** %)")
        left, right = _compile(node.left), _compile(node.right)
        return lambda x: op(left(x), right(x))
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name):
            raise TransformError(f"call of {ast.unparse(node.func)!r} is not allowed (only abs, max, min, round)")
        fn = _FUNCTIONS.get(node.func.id)
        if fn is None:
            raise TransformError(f"{node.func.id!r} is not allowed (only x and the functions abs, max, min, round)")
        if node.keywords:
            raise TransformError(f"keyword arguments to {node.func.id}() are not allowed")
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise TransformError(f"*arguments to {node.func.id}() are not allowed")
        args = [_compile(a) for a in node.args]
        return lambda x: fn(*(a(x) for a in args))
    if isinstance(node, ast.Compare):
        return _compile_compare(node)
    if isinstance(node, ast.BoolOp):
        operands = [_compile(v) for v in node.values]
        if isinstance(node.op, ast.And):
            return lambda x: _and(operands, x)
        return lambda x: _or(operands, x)
    if isinstance(node, ast.IfExp):
        test, body, orelse = _compile(node.test), _compile(node.body), _compile(node.orelse)
        return lambda x: body(x) if test(x) else orelse(x)
    if isinstance(node, ast.Attribute):
        raise TransformError(f"attribute access {ast.unparse(node)!r} is not allowed")
    raise TransformError(f"{type(node).__name__} ({ast.unparse(node)!r}) is not allowed in a transform")


def _compile_compare(node: ast.Compare) -> _Fn:
    """``a < b <= c``: each comparison in turn, stopping at the first false one (Python's chaining)."""
    ops: list[Callable[[float, float], bool]] = []
    for op in node.ops:
        fn = _COMPARE.get(type(op))
        if fn is None:
            raise TransformError(f"comparison {type(op).__name__} is not allowed (only < <= > >= == !=)")
        ops.append(fn)
    first = _compile(node.left)
    rest = [_compile(c) for c in node.comparators]

    def compare(x: float) -> float:
        left = first(x)
        for op, right_fn in zip(ops, rest):
            right = right_fn(x)
            if not op(left, right):
                return 0.0
            left = right
        return 1.0

    return compare


def _and(operands: list[_Fn], x: float) -> float:
    value = 0.0
    for fn in operands:
        value = fn(x)
        if not value:
            return value
    return value


def _or(operands: list[_Fn], x: float) -> float:
    value = 0.0
    for fn in operands:
        value = fn(x)
        if value:
            return value
    return value

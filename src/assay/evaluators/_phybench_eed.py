"""PHYBench's expression edit distance (EED) as OpenCompass 0.5.4 computes it (private).

Runs in the worker processes of :class:`assay.evaluators.phybench.MathEEDEvaluator`
(SymPy imported there, never in the calling process).  Two LaTeX answers are
cleaned in two stages (the text after the last comparison sign, commands and
braces stripped, fractions and vectors rewritten), converted by
latex2sympy2_extended, simplified by SymPy (30 s limit per call, the expression
kept unsimplified past it) and compared (equal, difference simplifying to 0, or
``equals`` within 10 s: score 100); otherwise both become trees (numbers,
symbols, ``Add``/``Mul``/``Pow``, functions) and the score is
``max(0, 60 - 100 * distance / size)`` where ``distance`` is a tree edit
distance whose removal or insertion of a subtree of ``s > 5`` nodes costs
``0.6 * (s - 5) + 5`` and ``size`` counts the reference's nodes.

OpenCompass's quirks are kept: the answer is taken after the *last-listed*
comparison sign present (``>`` over ``<`` over ``\\leq`` … over ``=``), from one
character after its last position (``x \\approx 2`` keeps ``approx 2``); a
command not followed by ``{`` is removed with the character after it; each
command is removed once, and a command still present after that (``\\mathrm``
twice, ``\\text`` in two ``\\textbf``, two ``\\bar`` in one ``\\vec{…}``, a
second ``\\boxed``) makes the clean-up fail; a brace group alone in the text is
unwrapped with whatever stands outside it; ``I`` and ``e_`` become ``\\bar{…}``
symbols; any failure scores 0.
"""

from __future__ import annotations

import contextlib
import re
import signal
import threading
from collections.abc import Iterator
from typing import Any

__all__: list[str] = []

SIMPLIFY_SECONDS = 30.0
EQUALS_SECONDS = 10.0

_COMPARISONS = ("=", "\\approx", "\\ge", "\\le", "\\geq", "\\leq", "<", ">")
_OPENING = {")": "(", "]": "[", "}": "{"}

_KILLED_COMMANDS = ("\\begin", "\\end")
_UNWRAPPED_COMMANDS = ("\\text", "\\mathbf", "\\mathrm", "\\pmb", "\\hat", "\\overline", "\\boldsymbol")
_DROPPED_TEXT = (
    "\\,", "$", ",", "`", "latex", "\\left", "\\right", "\\text", "\\mathrm", "\\Bigr", "\\Bigl", "\n", "\\]", "\\[",
    "\\Big", "\\bigl", "\\bigr", "\\biggl", "\\biggr", "\\displaystyle", "\\boldsymbol", "\\infty",
)
_REPLACED_TEXT = (
    ("\\operatorname{asin}", "\\asin"), ("\\operatorname{sech}", "\\sech"), ("\\operatorname{acos}", "\\acos"),
    ("\\operatorname{sinh}", "\\sinh"), ("\\dfrac", "\\frac"), ("\\tfrac", "\\frac"), ("\\Exp", "\\exp"),
    ("\\times", "\\bar{times}"), ("\\partial", "\\bar{partial}"), ("\\perp", "\\bar{perp}"), ("\\epsilon", "\\varepsilon"),
    ("\\varOmega", "\\Omega"), ("I", "\\bar{I}"), ("_e", "_{e}"), ("e_", "\\bar{e}_"), ("E_", "\\bar{E}_"), ("\\pm", "+"),
    ("\\mp", "-"), ("{+}", "{p}"), ("{-}", "{m}"), ("_+", "_p"), ("_-", "_m"),
)
_FRACTION_PART = r"(\\[a-zA-Z]+|\d|[a-zA-Z]|\{[^{}]*\})"
_LOOSE_FRACTION = re.compile(r"\\frac" + _FRACTION_PART + _FRACTION_PART)
_VECTOR_SUBSCRIPT = re.compile(r"\\vec\{([^{}]+)_\{([^{}]+)\}\}")
_BARE_VECTOR = re.compile(r"\\vec(\s*)(\\?[a-zA-Zα-ωΑ-Ω]+)")
_MAX_FINDS = 100
_MAX_POWER_REWRITES = 100
_MAX_UNWRAPS = 10


# -- LaTeX clean-up ------------------------------------------------------------------------------------------


def balanced(text: str) -> bool:
    """Whether ``()``, ``[]`` and ``{}`` nest properly in ``text`` (escaped or not)."""
    stack: list[str] = []
    for ch in text:
        if ch in "([{":
            stack.append(ch)
        elif ch in _OPENING and (not stack or stack.pop() != _OPENING[ch]):
            return False
    return not stack


def _closing_brace(text: str, brace: int) -> int:
    """Where the group opened at ``brace`` closes, braces counted (no escapes): the index of its ``}``, or
    ``len(text)`` when it is never closed.

    >>> _closing_brace("a{b{c}}d", 1), _closing_brace("a{b", 1)
    (6, 3)
    """
    depth = 0
    for i in range(brace, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def strip_command(text: str, command: str, keep_inside: bool, fails_with: type[Exception]) -> str:
    """The first ``command{…}`` removed, its group's content kept or not.

    A command not followed by ``{`` is removed with the character after it.
    An unclosed group runs to the end of the text.  When ``command`` is still in
    the text after that one removal (a second occurrence, or one the kept content
    brings), ``fails_with`` is raised: OpenCompass's clean-up has nothing to go
    on with then and fails with that exception at its next step, so the sample
    scores 0.
    """
    pos = text.find(command)
    if pos < 0:
        return text
    after = pos + len(command)
    end = after
    if end < len(text) and text[end] == "{":
        end = _closing_brace(text, end)
    inner = text[after + 1 : end] if keep_inside else ""
    text = text[:pos] + inner + text[end + 1 :]
    if command in text:
        raise fails_with(f"{command} still in the text after its first removal: {text!r}")
    return text


def _first_open_brace(text: str) -> int:
    escaped = False
    for i, ch in enumerate(text):
        if ch == "\\" and not escaped:
            escaped = True
            continue
        if ch == "{" and not escaped:
            return i
        escaped = False
    return -1


def _group_end(text: str, brace: int) -> tuple[str | None, int]:
    """The content of the group opened at ``brace`` and the index of its closing brace (``(None, -1)`` if unclosed)."""
    depth = 0
    escaped = False
    for i in range(brace + 1, len(text)):
        ch = text[i]
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            if depth == 0:
                return text[brace + 1 : i], i
            depth -= 1
    return None, -1


def _command_before(text: str, brace: int) -> str | None:
    """What the group at ``brace`` belongs to: ``^``/``_``, a command's name (optional ``[…]`` skipped), or ``None``."""
    i = brace - 1
    in_option = False
    while i >= 0:
        ch = text[i]
        if not in_option:
            if ch in "^_":
                return ch
            if ch not in " \t[]":
                break
        if ch == "]":
            in_option = True
        elif ch == "[" and in_option:
            in_option = False
        i -= 1
    if i < 0 or text[i] == "\\":
        return None
    last = i
    i -= 1
    while i >= 0 and text[i].isalpha():
        i -= 1
    # i is -1 when letters run to the start: the check then reads the text's last character
    if text[i] != "\\":
        return None
    return text[i + 1 : last + 1]


def unwrap_group(text: str, fails_with: type[Exception] = ValueError) -> tuple[str, bool]:
    """The content of the first brace group when it belongs to no command and no ``}`` follows it.

    Whatever stands before or after the group is dropped with the braces; an unclosed group with no ``}`` after it
    raises ``fails_with`` (what the caller's OpenCompass step fails with).
    """
    brace = _first_open_brace(text)
    if brace == -1:
        return text, False
    if not _command_before(text, brace):
        content, close = _group_end(text, brace)
        if "}" not in text[close + 1 :]:
            if content is None:
                raise fails_with("an unclosed brace group")
            return content, True
    return text, False


def _unwrap_groups(text: str, fails_with: type[Exception] = ValueError) -> str:
    """:func:`unwrap_group` again and again, at most ten times, while it unwraps."""
    for _ in range(_MAX_UNWRAPS):
        text, changed = unwrap_group(text, fails_with)
        if not changed:
            break
    return text


def after_comparison(text: str) -> str:
    """The text after the last-listed comparison sign present, from one character after its last position."""
    content = text
    for sign in _COMPARISONS:
        if sign in text:
            content = text[text.rfind(sign) + 1 :]
    return content.strip()


def first_stage(text: str) -> str:
    """``\\{``/``\\}`` as parentheses; if balanced: ``\\boxed`` unwrapped, lone groups unwrapped,
    the part before ``\\quad``, the text after the comparison, lone groups unwrapped."""
    text = text.replace("\\{", "(").replace("\\}", ")")
    if not balanced(text):
        return text
    text = _unwrap_groups(strip_command(text, "\\boxed", keep_inside=True, fails_with=TypeError))
    if "\\quad" in text:
        text = text.split("\\quad")[0]
    return _unwrap_groups(after_comparison(text))


def _loose_fraction(match: re.Match[str]) -> str:
    parts = [p if p.startswith("{") and p.endswith("}") else "{" + p + "}" for p in match.groups()]
    return "\\frac" + parts[0] + parts[1]


def _find_all(text: str, part: str) -> list[int]:
    found: list[int] = []
    start = 0
    while len(found) < _MAX_FINDS:
        pos = text.find(part, start)
        if pos == -1:
            break
        found.append(pos)
        start = pos + 1
    return found


def _unbar_vectors(text: str) -> str:
    """``\\bar`` removed (content kept) inside each ``\\vec{…}``."""
    for n in range(len(_find_all(text, "\\vec{"))):
        brace = _find_all(text, "\\vec{")[n] + 4  # IndexError when a vector went away, as OpenCompass fails
        end = _closing_brace(text, brace)
        text = text[: brace + 1] + strip_command(text[brace + 1 : end], "\\bar", keep_inside=True, fails_with=TypeError) + text[end:]
    return text


def _brace_power_fraction(text: str) -> str:
    """The first ``^\\frac…`` with the fraction (up to its second group's last character) wrapped in braces."""
    start = text.find("^\\frac") + 1
    if start == 0:
        return text
    closed = 0
    depth = 0
    i = start
    while i < len(text):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                closed += 1
                if closed == 2:
                    break
        i += 1
    return text[:start] + "{" + text[start:i] + "}" + text[i:]


def _brace_power_fractions(text: str) -> str:
    new = _brace_power_fraction(text)
    rounds = 0
    while new != text and rounds < _MAX_POWER_REWRITES:
        rounds += 1
        text = new
        new = _brace_power_fraction(text)
    return text


def second_stage(text: str) -> str:
    """Environments removed, formatting commands unwrapped, spacing and sizing text dropped, symbols renamed,
    fractions and vectors written in full, powers of fractions braced, a final ``.`` dropped."""
    for command in _KILLED_COMMANDS:
        text = strip_command(text, command, keep_inside=False, fails_with=AttributeError)
    for command in _UNWRAPPED_COMMANDS:
        text = strip_command(text, command, keep_inside=True, fails_with=AttributeError)
    for dropped in _DROPPED_TEXT:
        text = text.replace(dropped, "")
    for old, new in _REPLACED_TEXT:
        text = text.replace(old, new)
    text = _LOOSE_FRACTION.sub(_loose_fraction, text)
    text = _unbar_vectors(text)
    text = _VECTOR_SUBSCRIPT.sub(r"\\vec{\1}_{\2}", text)
    text = _BARE_VECTOR.sub(r"\\vec{\2}", text)
    text = _brace_power_fractions(text)
    return text[:-1] if text.endswith(".") else text


def to_sympy(text: str) -> Any:
    """Both stages, then latex2sympy2_extended with OpenCompass's settings."""
    from latex2sympy2_extended import latex2sympy
    from latex2sympy2_extended.latex2sympy2 import ConversionConfig
    from latex2sympy2_extended.math_normalization import NormalizationConfig

    normalization = NormalizationConfig(basic_latex=True, units=False, malformed_operators=True, nits=True, boxed="all", equations=False)
    conversion = ConversionConfig(interpret_as_mixed_fractions=False, interpret_simple_eq_as_assignment=False,
                                  interpret_contains_as_eq=True, lowercase_symbols=False)
    return latex2sympy(second_stage(first_stage(text)), normalization_config=normalization, conversion_config=conversion)


# -- time limits --------------------------------------------------------------------------------------------


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """``TimeoutError`` raised inside the block after ``seconds`` (SIGALRM; no limit outside the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def alarm(signum: int, frame: Any) -> None:
        raise TimeoutError("time limit")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _simplified(expr: Any) -> Any:
    from sympy import simplify

    try:
        with _time_limit(SIMPLIFY_SECONDS):
            return simplify(expr)
    except TimeoutError:
        return expr


def _equal(a: Any, b: Any) -> Any:
    try:
        with _time_limit(EQUALS_SECONDS):
            return a.equals(b)
    except TimeoutError:
        return False


# -- trees and their distance --------------------------------------------------------------------------------

#: Costs: one per node inserted, removed or relabelled; a subtree of size s > 5 removed or inserted at once
#: costs 0.6 * (s - 5) + 5.
_BAR = 5
_SLOPE = 0.6


class Node:
    """A node of an expression tree: ``kind`` (number, symbol, operator, function), ``label``, children."""

    __slots__ = ("_size", "children", "kind", "label")

    def __init__(self, kind: str, name: str, children: list[Node]) -> None:
        self.kind = kind
        self.label = f"{kind}_{name}"
        self.children = children
        self._size = 0

    def size(self) -> int:
        if not self._size:
            self._size = 1 + sum(child.size() for child in self.children)
        return self._size


def to_tree(expr: Any) -> Node:
    """The tree of a SymPy expression; ``ValueError`` on anything but numbers, symbols, ``Add``/``Mul``/``Pow``, functions."""
    from sympy import Add, Float, Function, Integer, Mul, Pow, Rational, Symbol
    from sympy.core.numbers import Exp1, Infinity, NegativeInfinity, Pi

    if isinstance(expr, (Integer, Pi, Exp1, Float, Rational, Infinity, NegativeInfinity)):
        return Node("number", str(expr), [])
    if isinstance(expr, Symbol):
        return Node("symbol", str(expr), [])
    if isinstance(expr, (Add, Mul, Pow)):
        return Node("operator", type(expr).__name__, [to_tree(a) for a in expr.args])
    if isinstance(expr, Function):
        return Node("function", expr.func.__name__, [to_tree(a) for a in expr.args])
    raise ValueError(f"unsupported SymPy type: {type(expr).__name__}")


def _subtree_cost(node: Node) -> float:
    if not node.children:
        return 1
    s = node.size()
    return min(s, _SLOPE * (s - _BAR) + _BAR)


def _postorder(root: Node) -> tuple[list[Node], list[int], list[int]]:
    """The nodes in post-order, each one's leftmost leaf's index, and the key roots (ascending)."""
    nodes: list[Node] = []
    leftmost: list[int] = []

    def visit(node: Node) -> int:
        first = -1
        for child in node.children:
            leaf = visit(child)
            if first < 0:
                first = leaf
        nodes.append(node)
        leftmost.append(first if first >= 0 else len(nodes) - 1)
        return leftmost[-1]

    visit(root)
    last_with_leaf: dict[int, int] = {}
    for i, leaf in enumerate(leftmost):
        last_with_leaf[leaf] = i
    return nodes, leftmost, sorted(last_with_leaf.values())


def tree_distance(a: Node, b: Node) -> float:
    """The edit distance from tree ``a`` to tree ``b`` (Zhang–Shasha, with discounted subtree moves)."""
    an, al, akeys = _postorder(a)
    bn, bl, bkeys = _postorder(b)
    tree: list[list[float]] = [[0.0] * len(bn) for _ in an]
    forest: list[list[float]] = [[1000.0] * (len(bn) + 1) for _ in range(len(an) + 1)]
    for x in akeys:
        for y in bkeys:
            ax, by = al[x], bl[y]
            forest[ax][by] = 0
            for i in range(ax, x + 1):
                forest[i + 1][by] = forest[al[i]][by] + _subtree_cost(an[i])
            for j in range(by, y + 1):
                forest[ax][j + 1] = forest[ax][bl[j]] + _subtree_cost(bn[j])
            for i in range(ax, x + 1):
                for j in range(by, y + 1):
                    best = min(
                        forest[i][j + 1] + 1,
                        forest[i + 1][j] + 1,
                        forest[al[i]][j + 1] + _subtree_cost(an[i]),
                        forest[i + 1][bl[j]] + _subtree_cost(bn[j]),
                    )
                    if al[i] == ax and bl[j] == by:
                        relabel = 0 if an[i].label == bn[j].label else 1
                        tree[i][j] = min(best, forest[i][j] + relabel)
                        forest[i + 1][j + 1] = tree[i][j]
                    else:
                        forest[i + 1][j + 1] = min(best, forest[al[i]][bl[j]] + tree[i][j])
    return tree[-1][-1]


# -- the score -------------------------------------------------------------------------------------------------


def eed(answer: str, test: str) -> tuple[float, float, int, float]:
    """``(score, relative distance, reference tree size, distance)`` of ``test`` against ``answer``, as OpenCompass's ``EED``.

    Scores 0 for an empty ``test``, either side using ``\\int`` or ``\\sum``, or
    ``test`` more than three times as long as ``answer``; 100 for identical text.
    """
    if not test:
        return 0, -1, -1, -1
    if "\\int" in test or "\\int" in answer:
        return 0, -1, -1, -1
    if "\\sum" in test or "\\sum" in answer:
        return 0, -1, -1, 1
    if answer == test:
        return 100, 0.0, -1, 0
    if len(test) > 3 * len(answer):
        return 0, -1, -1, -1
    try:
        answer_expr = to_sympy(answer)
        test_expr = to_sympy(test)
    except Exception:
        return 0, -1, -1, -1
    from sympy import expand, posify

    try:
        answer_expr, answer_subs = posify(answer_expr)
        answer_expr = _simplified(answer_expr)
        test_expr, test_subs = posify(test_expr)
        test_expr = _simplified(test_expr)
        answer_expr = answer_expr.subs(answer_subs)
        test_expr = test_expr.subs(test_subs)
        difference = _simplified(expand(answer_expr - test_expr))
        if answer_expr == test_expr or difference == 0:
            return 100, 0.0, 0, 0
        if _equal(answer_expr, test_expr):
            return 100, 0.0, 0, 0
    except Exception:
        return 0, -1, -1, -1
    try:
        answer_tree = to_tree(answer_expr)
        test_tree = to_tree(test_expr)
    except Exception:
        return 0, -1, -1, -1
    distance = tree_distance(test_tree, answer_tree)
    size = answer_tree.size()
    score = 100 if distance == 0.0 else max(0, 100 * _SLOPE - 100 * distance / size)
    return score, distance / size, size, distance

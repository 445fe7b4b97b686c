"""The pairs of the extraction audit: an OpenCompass-named postprocessor and its corrected counterpart (R-9.2).

A postprocessor under an OpenCompass name computes what OpenCompass computes,
bugs included; its corrected behaviour lives under an assay name.  Declaring
the pair here makes every evaluation whose postprocessor chain uses the
OpenCompass one also score the predictions with the corrected one put in its
place, and record — beside the official, unchanged numbers — how many replies
the two read differently and what each metric would be with the correction
(the audit record, :mod:`assay.audit.record`).

One type, :class:`Pair`, describes a pair wherever it is met: the built-in
table (:data:`BUILTIN_PAIRS`), a plugin's or a user's declaration, and the
audit plan of a task (:mod:`assay.audit.plan`).

A pair names both postprocessors by their registered names (or dotted import
paths) and says how the official one's options become the corrected one's:

* ``options=None``: the same options;
* a mapping ``{official option: corrected option}`` renames options (``None``
  drops one); options it does not name are passed on unchanged;
* a function from the official options (a dict) to the corrected options.

Built-in pairs (:data:`BUILTIN_PAIRS`) are declared when this module is
imported; a plugin (see the ``assay.plugins`` entry points) or a user's code
declares its own with :func:`declare_correction` before the evaluation starts.

Example:
    >>> from assay.registry import TEXT_POSTPROCESSORS
    >>> @TEXT_POSTPROCESSORS.register_module('doc-first-capital-fixed')
    ... def first_capital_fixed(text):
    ...     return next((c for c in text if c.isupper()), '')
    >>> c = declare_correction('first-capital', 'doc-first-capital-fixed')
    >>> correction_for('first_capital_postprocess') is c   # any name of the same function
    True
    >>> c.corrected_config({'type': 'first-capital'})
    {'type': 'doc-first-capital-fixed'}
    >>> withdraw_correction('first-capital') is c
    True
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from assay._dataclass import FrozenMethods
from assay.errors import ConfigError

logger = logging.getLogger(__name__)

__all__ = [
    "BUILTIN_PAIRS",
    "KeepOptions",
    "Pair",
    "corrected_counterpart",
    "correction_for",
    "declare_correction",
    "declared_corrections",
    "withdraw_correction",
]

OptionMap = Mapping[str, str | None] | Callable[[dict[str, Any]], Mapping[str, Any]] | None


@dataclass(init=False, repr=False, eq=False)
class Pair(FrozenMethods):
    """An OpenCompass-named postprocessor and its corrected counterpart.

    Attributes:
        official: the registered name (or dotted path) of the OpenCompass-named postprocessor.
        corrected: the registered name (or dotted path) of the corrected one.
        options: how the official options become the corrected ones (see the module docs).
        registered: a shorter registered name of the corrected one, where it has
            one (the built-in pairs: ``'assay-gsm8k'``); not part of the pair's identity.
    """

    official: str
    corrected: str
    options: OptionMap = None
    registered: str | None = field(default=None, compare=False)

    def __init__(self, official: str, corrected: str, options: OptionMap = None, registered: str | None = None) -> None:
        self.official = official
        self.corrected = corrected
        self.options = options
        self.registered = registered

    def corrected_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The corrected postprocessor's options for the official one's ``options``.

        >>> Pair('a', 'b', {'cushion': None, 'options': 'letters'}).corrected_options(
        ...     {'options': 'ABCD', 'cushion': True, 'x': 1})
        {'letters': 'ABCD', 'x': 1}
        """
        given = dict(options)
        mapping = self.options
        if mapping is None:
            return given
        if callable(mapping) and not isinstance(mapping, Mapping):
            out = mapping(given)
            if not isinstance(out, Mapping):
                raise ConfigError(
                    f"the option mapping of the correction {self.official!r} -> {self.corrected!r} "
                    f"returned {type(out).__name__}, not a dict of options"
                )
            return dict(out)
        result: dict[str, Any] = {}
        for key, value in given.items():
            if key in mapping:
                target = mapping[key]
                if target is not None:
                    result[target] = value
            else:
                result[key] = value
        return result

    def corrected_config(self, cfg: Mapping[str, Any]) -> dict[str, Any]:
        """The postprocessor config with the corrected one in place of the official one."""
        options = {k: v for k, v in cfg.items() if k != "type"}
        return {"type": self.corrected, **self.corrected_options(options)}

    def describe_options(self) -> Any:
        """The option mapping as plain data (for fingerprints and result files).

        >>> BUILTIN_PAIRS['xml_tag_postprocessor'].describe_options(), Pair('a', 'b', {'x': 'y'}).describe_options()
        ({'keep': ['tag']}, {'x': 'y'})
        """
        mapping = self.options
        if mapping is None:
            return None
        if isinstance(mapping, KeepOptions):  # by what it keeps, wherever the class lives
            return {"keep": list(mapping.names)}
        if callable(mapping) and not isinstance(mapping, Mapping):
            return f"{getattr(mapping, '__module__', '?')}.{getattr(mapping, '__qualname__', repr(mapping))}"
        return dict(mapping)


_DECLARED: dict[str, Pair] = {}
# the resolved official postprocessor's id → (the object, its correction); rebuilt after a change
_BY_OBJECT: dict[int, tuple[Any, Pair]] | None = None


def declare_correction(official: str, corrected: str, *, options: OptionMap = None, replace: bool = False) -> Pair:
    """Declare that the postprocessor ``official`` has the corrected counterpart ``corrected``.

    Args:
        official: registered name (or dotted path) of the OpenCompass-named postprocessor.
        corrected: registered name (or dotted path) of its corrected counterpart.
        options: how the official options become the corrected ones: ``None``
            (the same), a mapping renaming options (``None`` drops one), or a
            function from the official options dict to the corrected options.
        replace: replace an earlier declaration for ``official`` (else that is an error).

    Returns:
        the declared :class:`Pair`.

    Raises:
        ConfigError: a name is not a non-empty string, the mapping is of the
            wrong kind, or ``official`` already has a counterpart.

    The names are resolved when an evaluation looks the pair up, so a pair
    may be declared before its postprocessors are registered.
    """
    global _BY_OBJECT
    for label, value in (("official", official), ("corrected", corrected)):
        if not isinstance(value, str) or not value:
            raise ConfigError(f"declare_correction: {label} must be a registered name or a dotted path, got {value!r}")
    if options is not None and not isinstance(options, Mapping) and not callable(options):
        raise ConfigError(
            f"declare_correction({official!r}, {corrected!r}): options must be a dict renaming options or a function, "
            f"got {type(options).__name__}"
        )
    if isinstance(options, Mapping):
        bad = {k: v for k, v in options.items() if not isinstance(k, str) or (v is not None and not isinstance(v, str))}
        if bad:
            raise ConfigError(
                f"declare_correction({official!r}, {corrected!r}): options must map option names to option names "
                f"(or None), got {bad!r}"
            )
    existing = _DECLARED.get(official)
    correction = Pair(official, corrected, options)
    if existing is not None and not replace and not _same_pair(existing, correction):
        raise ConfigError(
            f"the postprocessor {official!r} already has the corrected counterpart {existing.corrected!r}; "
            "pass replace=True to declare another"
        )
    _DECLARED[official] = correction
    _BY_OBJECT = None
    return correction


def _same_pair(a: Pair, b: Pair) -> bool:
    """One declaration made twice (a config loaded again defines its mapping function again)."""
    return a.official == b.official and a.corrected == b.corrected and a.describe_options() == b.describe_options()


def withdraw_correction(official: str) -> Pair | None:
    """Remove the declaration for ``official``; the removed :class:`Pair`, or ``None``."""
    global _BY_OBJECT
    removed = _DECLARED.pop(official, None)
    if removed is not None:
        _BY_OBJECT = None
    return removed


def declared_corrections() -> dict[str, Pair]:
    """Every declared pair, by the official postprocessor's name (plugins loaded first)."""
    _load_plugins()
    return dict(_DECLARED)


def _load_plugins() -> None:
    from assay.registry import load_plugins

    load_plugins()  # the entry-point plugins, which may declare pairs; the built-in pairs are declared below


def _by_object() -> dict[int, tuple[Any, Pair]]:
    global _BY_OBJECT
    _load_plugins()
    if _BY_OBJECT is not None:
        return _BY_OBJECT
    from assay.errors import AssayError
    from assay.registry import TEXT_POSTPROCESSORS, resolve_type

    table: dict[int, tuple[Any, Pair]] = {}
    for name, correction in _DECLARED.items():
        try:
            obj = resolve_type(name, TEXT_POSTPROCESSORS, key=f"the corrected counterpart of {name!r}")
        except (AssayError, ImportError) as exc:
            logger.warning("the corrected counterpart declared for %r is ignored: %s", name, exc)
            continue
        known = table.get(id(obj))
        if known is not None and known[1] != correction:
            logger.warning(
                "%r and %r name one postprocessor and declare different counterparts; %r is used",
                known[1].official, name, known[1].official,
            )
            continue
        table[id(obj)] = (obj, correction)
    _BY_OBJECT = table
    return table


def correction_for(spec: Any) -> Pair | None:
    """The declared correction of the postprocessor ``spec`` (a function, a registered name or a dotted path).

    ``None`` when it has none, or when ``spec`` cannot be resolved.
    """
    table = _by_object()
    if not table:
        return None
    if isinstance(spec, str):
        from assay.errors import AssayError
        from assay.registry import TEXT_POSTPROCESSORS, resolve_type

        try:
            spec = resolve_type(spec, TEXT_POSTPROCESSORS)
        except (AssayError, ImportError):
            return None
    found = table.get(id(spec))
    return found[1] if found is not None and found[0] is spec else None


# -- built-in pairs ------------------------------------------------------------------------------


@dataclass(init=False, repr=False, eq=False)
class KeepOptions(FrozenMethods):
    """An option mapping that passes on the named options and drops the others.

    >>> KeepOptions(('tag',))({'tag': 'answer', 'other': 1})
    {'tag': 'answer'}
    """

    names: tuple[str, ...]

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names

    def __call__(self, options: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in options.items() if k in self.names}

    def __repr__(self) -> str:
        return f"keep options {list(self.names)}"


def _builtin(official: str, corrected: str, registered: str, keep: tuple[str, ...] = ()) -> Pair:
    return Pair(official, corrected, KeepOptions(keep), registered)


#: assay's corrected counterparts of OpenCompass-named postprocessors, by the
#: OpenCompass function's name; each takes the listed options of the official one.
BUILTIN_PAIRS: dict[str, Pair] = {
    p.official: p
    for p in (
        _builtin("gsm8k_postprocess", "gsm8k_extract", "assay-gsm8k"),
        _builtin("math_postprocess_v2", "math_answer_extract", "assay-math"),
        _builtin("first_option_postprocess", "first_option_extract", "assay-first-option", ("options", "cushion")),
        _builtin("first_capital_postprocess_multi", "option_run_extract", "assay-first-capital-multi"),
        _builtin("general_cn_postprocess", "general_cn_extract", "assay-general-cn"),
        _builtin("think_pred_postprocess", "think_answer_extract", "assay-think-pred", ("re_pattern",)),
        _builtin("xml_tag_postprocessor", "xml_tag_extract", "assay-xml-tag", ("tag",)),
        _builtin("extract_non_reasoning_content", "strip_reasoning", "assay-strip-reasoning",
                 ("think_start_token", "think_end_token")),
        _builtin("bbh_mcq_postprocess", "bbh_mcq_extract", "assay-bbh-mcq"),
        _builtin("bbh_freeform_postprocess", "bbh_freeform_extract", "assay-bbh-freeform"),
    )
}


def corrected_counterpart(fn: Any, options: Mapping[str, Any] | None = None) -> Callable[[Any], Any] | None:
    """The declared corrected counterpart of a postprocessor, bound to its options, or ``None``.

    ``fn`` is the function, any of its registered names or a dotted path;
    ``options`` are those the official one is called with, passed on as the
    pair's option mapping says (a built-in pair keeps those it lists).

    >>> corrected_counterpart('gsm8k')('costs $1,234')
    '1234'
    >>> corrected_counterpart('first_option_postprocess', {'options': 'ABC', 'cushion': False})('Dolphin (C)')
    'C'
    >>> corrected_counterpart('general') is None
    True
    """
    from assay.registry import TEXT_POSTPROCESSORS, resolve_type

    pair = correction_for(fn)
    if pair is None:
        return None
    corrected = resolve_type(pair.corrected, TEXT_POSTPROCESSORS, key=f"the corrected counterpart of {pair.official!r}")
    kept = pair.corrected_options(options or {})

    def bound(text: Any) -> Any:
        return corrected(text, **kept)

    bound.__name__ = getattr(corrected, "__name__", pair.corrected)
    return bound


def _declare_builtin_pairs() -> None:
    global _BY_OBJECT
    _DECLARED.update(BUILTIN_PAIRS)
    _BY_OBJECT = None


_declare_builtin_pairs()

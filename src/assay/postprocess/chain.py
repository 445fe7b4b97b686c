"""Building postprocessors from config and applying them to predictions.

A postprocessor config is ``dict(type=<function | registered name | dotted path>, **options)``;
the function is called as ``fn(text, **options)`` on every prediction, and on
every element of a list prediction (several return sequences, R-4.4).

A postprocessor may come with a *binder* (:func:`register_binder`): called once
with the config's options, it returns the one-argument callable to use, which
can be quicker than passing ``**options`` on every call.  Its results are those
of the plain call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import FunctionType
from typing import Any

from assay.errors import ConfigError
from assay.registry import TEXT_POSTPROCESSORS, resolve_type

__all__ = ["Postprocessor", "apply_postprocessor", "build_postprocessor", "register_binder"]

Postprocessor = Callable[[Any], Any]

_BINDERS: dict[Callable[..., Any], Callable[..., Postprocessor]] = {}


def register_binder(fn: Callable[..., Any], binder: Callable[..., Postprocessor]) -> None:
    """Let :func:`build_postprocessor` fix the options of ``fn`` with ``binder(**options)``.

    ``binder(**options)(text)`` must return what ``fn(text, **options)`` returns
    and raise what it raises; a ``TypeError`` from ``binder`` itself (options
    ``fn`` does not take) makes the plain call be used.
    """
    _BINDERS[fn] = binder


def build_postprocessor(cfg: Any, *, where: str = "pred_postprocessor") -> Postprocessor | None:
    """Turn a postprocessor config into a one-argument callable (``None`` for no config).

    ``where`` names the config location for error messages.
    """
    if cfg is None or cfg == {}:
        return None
    if callable(cfg) and not isinstance(cfg, dict):
        return cfg
    if not isinstance(cfg, dict):
        raise ConfigError(f"{where}: expected dict(type=...), got {cfg!r}")
    if "type" not in cfg:
        raise ConfigError(f"{where}: the postprocessor config {cfg!r} has no 'type' key")
    options = {k: v for k, v in cfg.items() if k != "type"}
    fn = resolve_type(cfg["type"], TEXT_POSTPROCESSORS, key=f"{where}.type")
    if not callable(fn):
        raise ConfigError(f"{where}.type={cfg['type']!r} resolved to {fn!r}, which is not callable")
    if not options:
        return fn
    bound = _bind(fn, options)
    bound.__name__ = getattr(fn, "__name__", "postprocessor")
    bound.__qualname__ = bound.__name__
    return bound


def _bind(fn: Callable[..., Any], options: dict[str, Any]) -> Callable[[Any], Any]:
    """``fn`` with ``options`` fixed: through its binder if it has one that takes them."""
    binder = _BINDERS.get(fn) if isinstance(fn, FunctionType) else None
    if binder is not None:
        try:
            return binder(**options)
        except TypeError:
            pass  # options fn does not take: the plain call raises on every sample, as it should

    def bound(text: Any) -> Any:
        return fn(text, **options)

    return bound


def apply_postprocessor(fn: Postprocessor | None, predictions: Sequence[Any]) -> list[Any]:
    """Apply ``fn`` to each prediction; list predictions are processed element-wise."""
    if fn is None:
        return list(predictions)
    if all(type(pred) is str for pred in predictions):  # the usual case: one string per sample
        return [fn(pred) for pred in predictions]
    out: list[Any] = []
    for pred in predictions:
        if isinstance(pred, list):
            out.append([fn(p) for p in pred])
        else:
            out.append(fn(pred))
    return out

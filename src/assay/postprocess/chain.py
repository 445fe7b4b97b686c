"""Building postprocessors from config and applying them to predictions.

A postprocessor config is ``dict(type=<function | registered name | dotted path>, **options)``;
the function is called as ``fn(text, **options)`` on every prediction, and on
every element of a list prediction (several return sequences, R-4.4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from assay.errors import ConfigError
from assay.registry import TEXT_POSTPROCESSORS, resolve_type

__all__ = ["Postprocessor", "apply_postprocessor", "build_postprocessor"]

Postprocessor = Callable[[Any], Any]


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

    def bound(text: Any) -> Any:
        return fn(text, **options)

    bound.__name__ = getattr(fn, "__name__", "postprocessor")
    bound.__qualname__ = bound.__name__
    return bound


def apply_postprocessor(fn: Postprocessor | None, predictions: Sequence[Any]) -> list[Any]:
    """Apply ``fn`` to each prediction; list predictions are processed element-wise."""
    if fn is None:
        return list(predictions)
    return [[fn(p) for p in pred] if isinstance(pred, list) else fn(pred) for pred in predictions]

"""Building postprocessors from config and applying them to predictions.

A postprocessor config is ``dict(type=<function | registered name | dotted path>, **options)``;
the function is called as ``fn(text, **options)`` on every prediction, and on
every element of a list prediction (several return sequences, R-4.4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeVar

from assay.errors import ConfigError
from assay.registry import TEXT_POSTPROCESSORS, resolve_type

__all__ = ["Postprocessor", "apply_postprocessor", "build_postprocessor", "deterministic", "resolve_postprocessor_type"]

Postprocessor = Callable[[Any], Any]

_F = TypeVar("_F", bound=Callable[..., Any])

# In a batch of texts (the usual one) each distinct text is processed once.  In a
# batch holding other values (lists of replies, ``None``) a reply at most this long
# is looked up among the replies already processed (short replies such as "B" or
# "The answer is (B)." repeat a lot; long ones hardly ever do).
_MEMO_LENGTH = 64
_MEMO_RESULTS = (str, int, float, bool, type(None))
_MEMO_TYPES = set(_MEMO_RESULTS)


def deterministic(fn: _F) -> _F:
    """Mark a postprocessor whose result depends on its text (and options) only.

    :func:`apply_postprocessor` then processes each distinct reply of a batch
    of texts once (of another batch, each distinct short reply).  A postprocessor that keeps state, reads the clock or calls a
    model must not be marked.
    """
    fn.__assay_deterministic__ = True  # type: ignore[attr-defined]
    return fn


def build_postprocessor(cfg: Any, *, where: str = "pred_postprocessor", resolved: Any = None) -> Postprocessor | None:
    """Turn a postprocessor config into a one-argument callable (``None`` for no config).

    ``where`` names the config location for error messages; ``resolved`` is
    the function ``cfg['type']`` resolves to, when the caller has resolved it
    already (see :func:`resolve_postprocessor_type`).
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
    fn = resolved if resolved is not None else resolve_type(cfg["type"], TEXT_POSTPROCESSORS, key=f"{where}.type")
    if not callable(fn):
        raise ConfigError(f"{where}.type={cfg['type']!r} resolved to {fn!r}, which is not callable")
    if not options:
        return fn
    bound: Any = partial(fn, **options)  # fn(text, **options), called without a Python frame of its own
    bound.__name__ = getattr(fn, "__name__", "postprocessor")
    bound.__qualname__ = bound.__name__
    if getattr(fn, "__assay_deterministic__", False):
        deterministic(bound)
    return bound


def resolve_postprocessor_type(cfg: Any) -> Any:
    """The function a postprocessor config's ``type`` names, or ``None`` when there is no config or it
    cannot be resolved (building the postprocessor then says why).

    >>> resolve_postprocessor_type({'type': 'general'}).__name__, resolve_postprocessor_type(None)
    ('general_postprocess', None)
    """
    from assay.errors import AssayError

    if isinstance(cfg, dict):
        spec = cfg.get("type")
    elif callable(cfg):
        return cfg
    else:
        return None
    try:
        return resolve_type(spec, TEXT_POSTPROCESSORS) if spec is not None else None
    except (AssayError, ImportError):
        return None


def apply_postprocessor(fn: Postprocessor | None, predictions: Sequence[Any]) -> list[Any]:
    """Apply ``fn`` to each prediction; list predictions are processed element-wise."""
    if fn is None:
        return list(predictions)
    if not getattr(fn, "__assay_deterministic__", False):
        return [[fn(p) for p in pred] if isinstance(pred, list) else fn(pred) for pred in predictions]
    if predictions and set(map(type, predictions)) == _TEXTS:
        return _each_text_once(fn, predictions)
    memo: dict[str, Any] = {}

    def once(text: Any) -> Any:
        if type(text) is not str or len(text) > _MEMO_LENGTH:
            return fn(text)
        try:
            return memo[text]
        except KeyError:
            result = fn(text)
            if type(result) in _MEMO_RESULTS:  # a mutable result is not shared between samples
                memo[text] = result
            return result

    out: list[Any] = []
    append = out.append
    for pred in predictions:  # once() spelled out for the usual reply, a string
        if type(pred) is str:
            if len(pred) > _MEMO_LENGTH:
                append(fn(pred))
                continue
            try:
                append(memo[pred])
            except KeyError:
                result = fn(pred)
                if type(result) in _MEMO_RESULTS:
                    memo[pred] = result
                append(result)
        elif isinstance(pred, list):
            append([once(p) for p in pred])
        else:
            append(once(pred))
    return out


_TEXTS = {str}
#: Stands for an answer already handed to a sample (a mutable answer is computed again for the next one).
_GIVEN = object()


def _each_text_once(fn: Postprocessor, texts: Sequence[str]) -> list[Any]:
    """``fn`` of each text of a batch of texts, each distinct text processed once (in order of first occurrence).

    A text's answer is shared by the samples with that text when it is immutable (a text, a number, ``None``);
    each further sample with a mutable answer gets one of its own.
    """
    answers: dict[str, Any] = dict.fromkeys(texts)
    for text in answers:
        answers[text] = fn(text)  # a value replaced while the keys are walked: the dict's size stays
    if set(map(type, answers.values())) <= _MEMO_TYPES:
        return list(map(answers.__getitem__, texts))
    out: list[Any] = []
    for text in texts:
        answer = answers[text]
        if type(answer) not in _MEMO_TYPES:
            if answer is _GIVEN:
                answer = fn(text)
            else:
                answers[text] = _GIVEN
        out.append(answer)
    return out

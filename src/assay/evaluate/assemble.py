"""Assembling the keyword arguments of ``score()`` (R-5.2).

Fields come from the prediction file (every key of any record), then
``predictions`` (postprocessed), ``references``, ``test_set`` and
``origin_prompt`` are added or overwritten.  ``score()``'s signature decides
what is passed: named parameters that a field supplies; parameters with a
default keep it when no field supplies them; a required parameter without a
field is an error naming it and the available fields; ``**kwargs`` receives
every field.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from assay.errors import EvaluationError

__all__ = ["assemble_score_kwargs"]


def assemble_score_kwargs(score: Callable[..., Any], fields: dict[str, Any], *, evaluator: str, source: str) -> dict[str, Any]:
    """Select the fields that ``score()`` accepts.

    Args:
        score: the bound ``score`` method.
        fields: every available field (name → column).
        evaluator: the evaluator's name, for messages.
        source: where the fields came from (the prediction file), for messages.
    """
    try:
        params = inspect.signature(score).parameters
    except (TypeError, ValueError) as exc:
        raise EvaluationError(f"{evaluator}.score(): cannot read its signature ({exc})") from exc
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return dict(fields)
    out: dict[str, Any] = {}
    for name, p in params.items():
        if p.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            continue
        if p.kind is inspect.Parameter.POSITIONAL_ONLY:
            raise EvaluationError(f"{evaluator}.score(): parameter {name!r} is positional-only; score() parameters must be nameable")
        if name in fields:
            out[name] = fields[name]
        elif p.default is inspect.Parameter.empty:
            raise EvaluationError(
                f"{evaluator}.score() requires {name!r}, which no field supplies; "
                f"available fields (from {source} and the task): {', '.join(sorted(fields))}"
            )
    return out

"""Doctests that run programs in the sandbox skip, with the reason, where it cannot run them.

A doctest needs the sandbox when one of its examples constructs a
:class:`assay.sandbox.Sandbox`, calls ``run_program`` or builds a
``HumanEvalEvaluator``; unit tests mark themselves with
``assay.sandbox.isolation_unavailable``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

_RUNS_PROGRAMS = re.compile(r"\b(?:Sandbox|run_program|HumanEvalEvaluator)\(")


def pytest_collection_modifyitems(config: pytest.Config, items: list[Any]) -> None:
    needing = [
        item
        for item in items
        if type(item).__name__ == "DoctestItem"
        and getattr(item, "dtest", None) is not None
        and any(_RUNS_PROGRAMS.search(example.source) for example in item.dtest.examples)
    ]
    if not needing:
        return
    from assay.sandbox import isolation_unavailable

    reason = isolation_unavailable("auto")
    if reason is None:
        return
    for item in needing:
        item.add_marker(pytest.mark.skip(reason=f"the sandbox cannot run programs here: {reason}"))

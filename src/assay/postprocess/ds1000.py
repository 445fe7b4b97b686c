"""DS-1000's code extraction under OpenCompass 0.5.4's names, and the code-evaluation service's.

``ds1000_postprocess``, ``ds1000_completion_postprocess`` and
``ds1000_matplotlib_postprocess`` compute what OpenCompass's functions of the same
names compute; :func:`ds1000_service_postprocess` is what OpenCompass's DS-1000
code-evaluation service applies to a raw reply (one step more than
``ds1000_postprocess``: the text before a ``</code>``).  These never raise;
``None`` becomes ``''``.
"""

from __future__ import annotations

import re
from typing import Any

from assay.postprocess._text import as_text
from assay.registry import TEXT_POSTPROCESSORS

__all__ = [
    "ds1000_completion_postprocess",
    "ds1000_matplotlib_postprocess",
    "ds1000_postprocess",
    "ds1000_service_matplotlib_postprocess",
    "ds1000_service_postprocess",
]

_TAGGED = re.compile(r"<code>(.*?)</code>", re.DOTALL)
_BEFORE_CLOSE = re.compile(r"(.*?)</code>", re.DOTALL)
_PYTHON_FENCE = re.compile(r"```python(.*?)```", re.DOTALL)
_ANY_FENCE = re.compile(r"```(.*?)```", re.DOTALL)
_SOLUTION = re.compile(r"BEGIN SOLUTION(.*?)END SOLUTION", re.DOTALL)
#: lines holding one of these are dropped from Matplotlib solutions (they would clear the figure)
_PLOT_CLEARING = ("plt.show()", "plt.clf()", "plt.close()", "savefig")


def _narrow(text: str, patterns: tuple[re.Pattern[str], ...]) -> str:
    for pattern in patterns:
        match = pattern.search(text)
        if match:
            text = match.group(1)
    return text


@TEXT_POSTPROCESSORS.register_module("ds1000")
def ds1000_postprocess(text: Any) -> str:
    """The reply narrowed in turn to a ``<code>`` element, a ```` ```python ```` block, any fenced block
    and the text between ``BEGIN SOLUTION`` and ``END SOLUTION``, each step where it matches.

    Example:
        >>> ds1000_postprocess("Answer:\\n```python\\nresult = a.sum()\\n```")
        '\\nresult = a.sum()\\n'
    """
    return _narrow(as_text(text), (_TAGGED, _PYTHON_FENCE, _ANY_FENCE, _SOLUTION))


def ds1000_service_postprocess(text: Any) -> str:
    """What OpenCompass's DS-1000 code-evaluation service takes from a raw reply: as
    :func:`ds1000_postprocess`, with the text before the first ``</code>`` kept after the
    ``<code>`` step.

    Example:
        >>> ds1000_service_postprocess("result = a.sum()\\n</code>\\nEND SOLUTION")
        'result = a.sum()\\n'
    """
    return _narrow(as_text(text), (_TAGGED, _BEFORE_CLOSE, _PYTHON_FENCE, _ANY_FENCE, _SOLUTION))


@TEXT_POSTPROCESSORS.register_module("ds1000_completion")
def ds1000_completion_postprocess(text: Any) -> str:
    """The reply up to its first ``</code>`` (all of it when there is none).

    Example:
        >>> ds1000_completion_postprocess("x = 1\\n</code>\\nmore")
        'x = 1\\n'
    """
    return _narrow(as_text(text) + "</code>", (_BEFORE_CLOSE,))


def _without_plot_clearing(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not any(p in line for p in _PLOT_CLEARING))


@TEXT_POSTPROCESSORS.register_module("ds1000_matplotlib")
def ds1000_matplotlib_postprocess(text: Any) -> str:
    """:func:`ds1000_postprocess`, then the lines calling ``plt.show()``, ``plt.clf()``,
    ``plt.close()`` or holding ``savefig`` dropped.

    Example:
        >>> ds1000_matplotlib_postprocess("```python\\nplt.plot(x)\\nplt.show()\\n```")
        '\\nplt.plot(x)\\n'
    """
    return _without_plot_clearing(ds1000_postprocess(text))


def ds1000_service_matplotlib_postprocess(text: Any) -> str:
    """The service's Matplotlib reading: :func:`ds1000_service_postprocess`, the plot-clearing lines dropped."""
    return _without_plot_clearing(ds1000_service_postprocess(text))

"""Built-in text postprocessors: pure functions turning model text into answers.

Each public submodule's ``__all__`` is re-exported here, and the submodule
imported the first time one of its names is asked for
(:func:`assay._discover.lazy_exports`): importing the package imports none of
them.  :data:`assay.registry.TEXT_POSTPROCESSORS` imports the one module that
registers the name looked up.
"""

from __future__ import annotations

from typing import Any

from assay._discover import lazy_exports

__all__, _getattr = lazy_exports(__name__)


def __getattr__(name: str) -> Any:
    return _getattr(name)

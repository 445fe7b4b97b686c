"""Built-in evaluators, registered in :data:`assay.registry.ICL_EVALUATORS`.

Each public submodule's ``__all__`` is re-exported here, and the submodule
imported the first time one of its names is asked for
(:func:`assay._discover.lazy_exports`): importing the package imports none of
them.
"""

from __future__ import annotations

from typing import Any

from assay._discover import lazy_exports

__all__, _getattr = lazy_exports(__name__)


def __getattr__(name: str) -> Any:
    return _getattr(name)

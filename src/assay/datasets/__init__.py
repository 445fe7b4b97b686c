"""Dataset loaders (registered in :data:`assay.registry.LOAD_DATASET`) and test-set building.

Every public submodule is imported here and its ``__all__`` re-exported.
"""

from __future__ import annotations

from assay._discover import import_submodules

__all__ = import_submodules(__name__, __path__, globals())

"""Built-in text postprocessors: pure functions turning model text into answers.

Every public submodule is imported here and its ``__all__`` re-exported, so that
importing :mod:`assay.postprocess` registers every built-in in
:data:`assay.registry.TEXT_POSTPROCESSORS`.
"""

from __future__ import annotations

from assay._discover import import_submodules

__all__ = import_submodules(__name__, __path__, globals())

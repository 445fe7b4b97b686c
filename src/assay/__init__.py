"""assay: score saved LLM outputs and turn the scores into leaderboards."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]

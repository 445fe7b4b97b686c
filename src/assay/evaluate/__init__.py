"""The evaluation core: ``BaseEvaluator``, G-Pass@k and ``score()`` argument assembly."""

from __future__ import annotations

from assay.evaluate.base import (
    CORPUS_BLEU,
    CORRECTNESS_KEYS,
    SANDBOX_UNSCORABLE,
    UNSCORABLE_KINDS,
    BaseEvaluator,
    SampleOutcome,
    correctness,
    is_unextracted,
)
from assay.evaluate.gpass import g_pass_at_k, mg_pass_at_k, pass_at_k

__all__ = [
    "CORPUS_BLEU",
    "CORRECTNESS_KEYS",
    "SANDBOX_UNSCORABLE",
    "UNSCORABLE_KINDS",
    "BaseEvaluator",
    "SampleOutcome",
    "correctness",
    "g_pass_at_k",
    "is_unextracted",
    "mg_pass_at_k",
    "pass_at_k",
]

"""PI-LLM's grader as OpenCompass 0.5.4 computes it (``PILLMEvaluator``).

Each reference is the JSON of the tracked keys' last values.  A reply is read into a mapping:
each line ``key: value`` (split at its first colon), then, taking precedence, each sentence like
``The current value of <key> is <value>`` (``most recent``, ``final``, ``last``, ``latest``,
``up-to-date``, ``asked``, ``queried`` or ``specified`` as well; ``value``, ``word`` or ``term``;
``is`` or ``was``), keys and values stripped of ``* ' " [ ] { } ( ) < >`` and blanks, the key
``key`` dropped — after backslashes (but those before ``n``) and asterisks are taken out.  An
empty reply, one that mentions ``error code``, starts with ``error``/``Error``, or, under 680
characters, contains the word ``error``, reads as nothing.  A sample's accuracy is the share of
the reference's keys whose value the reply gives exactly (as strings); 0 where the reference is
not a JSON object or has no keys.

The metrics (fractions): ``avg_accuracy``, the mean; ``auc_log1.5``, the mean weighted by
``log_base(max(n_updates, 2))`` (``n_updates`` from the test set's row, 2 where it has none);
``total_samples``; and where the first row's ``experiment`` contains ``exp_keys`` (or
``exp_valuelength``) the weighted means of the rows with ``n_updates`` at most 125 (4),
``auc_log1.5_easy``, and at least 350 (20), ``auc_log1.5_hard`` (0 where there are none).

Details (assay's; OpenCompass gives none): ``pred``, ``answer``, ``accuracy``, ``n_updates``.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import no_samples
from assay.registry import ICL_EVALUATORS

__all__ = ["PILLMEvaluator", "pi_llm_accuracy", "pi_llm_pairs"]

_STRIP = re.compile(r"""[*'"\[\]{}()<>]""")
_BACKSLASH = re.compile(r"\\(?!n)")
_ERROR_WORD = re.compile(r"\berror\b", re.IGNORECASE)
_WORD = r"""["'\[<]?\w+(?:\s+\w+)?["'\]>]?"""
_VERBAL = re.compile(
    r"(?:the)?\s*(?:most recent|final|last|latest|current|up-to-date|asked|queried|specified)\s+(?:value|word|term)?"
    r"(?:s)?(?:\s+\w+){0,1}\s+(?:with|for|of|to)?\s+(?:the )?(?:category|key)?\s*"
    rf"({_WORD})\s+(?:is|was)(?:\s*:\s*)?\s+({_WORD})(?=\n|[,.;:]|$)",
    re.IGNORECASE | re.DOTALL,
)


def _clean(text: str) -> str:
    return _STRIP.sub("", text).strip()


def pi_llm_pairs(reply: str) -> dict[str, str] | None:
    """The key-value mapping a reply gives (sentences over ``key: value`` lines), ``None`` for an empty or error reply.

    >>> pi_llm_pairs('apple: red\\nThe current value of pear is green.')
    {'apple': 'red', 'pear': 'green'}
    """
    if len(reply) == 0 or "error code" in reply.lower() or reply.startswith(("error", "Error")):
        return None
    if _ERROR_WORD.search(reply) and len(reply) < 680:
        return None
    text = _BACKSLASH.sub("", reply).replace("*", "")
    pairs: dict[str, str] = {}
    for line in text.split("\n"):
        if ":" in line:
            key, value = (_clean(part) for part in line.split(":", 1))
            if key and value:
                pairs[key] = value
    for raw_key, raw_value in _VERBAL.findall(text):
        key, value = _clean(raw_key), _clean(raw_value)
        if key and value:
            pairs[key] = value
    pairs.pop("key", None)
    return pairs


def pi_llm_accuracy(reply: Any, answer: Any) -> float:
    """The share of the reference's keys the reply gives the right value for (0.0 where either cannot be read)."""
    try:
        truth = json.loads(answer)
        pairs = pi_llm_pairs(reply)
    except Exception:
        return 0.0
    if not isinstance(truth, dict) or not isinstance(pairs, dict) or not truth:
        return 0.0
    return sum(1 for k in truth if pairs.get(k) == truth.get(k)) / len(truth)


@ICL_EVALUATORS.register_module()
class PILLMEvaluator(BaseEvaluator):
    """PI-LLM's accuracy and its log-weighted mean (``auc_log1.5``) over ``n_updates`` (see the module)."""

    sample_outcome = SampleOutcome(scores={"avg_accuracy": "accuracy"})

    def __init__(self, log_base: float = 1.5, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.log_base = log_base

    def _weighted(self, samples: list[dict[str, Any]]) -> float:
        weights = [math.log(max(s["n_updates"], 2), self.log_base) for s in samples]
        total = sum(weights)
        return sum(s["accuracy"] * w for s, w in zip(samples, weights)) / total if total else 0.0

    def score(self, predictions: list[Any], references: list[Any], test_set: Any = None) -> dict[str, Any]:
        name = type(self).__name__
        if len(predictions) != len(references):
            return {"error": f"{name}: {len(predictions)} predictions but {len(references)} references"}
        if not predictions:
            return no_samples(self)
        rows = [dict(r) for r in test_set] if test_set is not None else []
        if not rows:
            return {"error": f"{name}: the test set's rows are needed (their experiment and n_updates)"}
        details = []
        for i, (pred, ref) in enumerate(zip(predictions, references)):
            row = rows[i] if i < len(rows) else {}
            n_updates = row.get("n_updates", 2)
            if not isinstance(n_updates, (int, float)):
                return {"error": f"{name}: row {i}: n_updates {n_updates!r} is not a number"}
            details.append({"pred": pred, "answer": ref, "accuracy": pi_llm_accuracy(pred, ref), "n_updates": n_updates,
                            "experiment": row.get("experiment", "")})
        out: dict[str, Any] = {"avg_accuracy": sum(d["accuracy"] for d in details) / len(details),
                               "auc_log1.5": self._weighted(details)}
        experiment = details[0]["experiment"] or ""
        thresholds = (125, 350) if "exp_keys" in experiment else (4, 20) if "exp_valuelength" in experiment else None
        if thresholds is not None:
            easy = [d for d in details if d["n_updates"] <= thresholds[0]]
            hard = [d for d in details if d["n_updates"] >= thresholds[1]]
            out["auc_log1.5_easy"] = self._weighted(easy) if easy else 0.0
            out["auc_log1.5_hard"] = self._weighted(hard) if hard else 0.0
        out["total_samples"] = len(details)
        out["details"] = details
        return out

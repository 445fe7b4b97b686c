"""LLM judges (R-10.2): an OpenAI-compatible client, its reply cache, prompts and verdicts.

* :class:`ChatClient` posts chat completions with a per-request timeout,
  bounded retries (exponential backoff with jitter on timeouts, connection
  errors, 429 and 5xx), bounded concurrency and a persistent
  :class:`JudgeCache` keyed by (model, messages, parameters): a rerun of the
  same evaluation sends no request.
* :class:`OpenAISDK` is the same client configured the way OpenCompass
  configures its ``OpenAISDK`` judge model (registered in ``MODELS``).
* :func:`render_messages` turns a judge ``prompt_template`` into messages
  (:class:`RawPromptTemplate`, registered in ``ICL_PROMPT_TEMPLATES``, as
  OpenCompass renders it);
  :func:`generic_llmjudge_postprocess` grades the replies as OpenCompass
  does (:func:`assay_llmjudge_postprocess`: assay's stricter reading).
* :func:`usage_summary` / :func:`judge_usage`: what
  judging cost (calls, cache hits, failures, tokens, seconds, money at the
  ``price`` set), recorded in a result's ``_meta.judge``;
  :func:`enable_progress` shows a progress line while judging.

Importing this package does not import ``httpx``.

Example:
    >>> from assay.judge import parse_verdict
    >>> parse_verdict('The answer is correct: A')
    'A'
"""

from __future__ import annotations

import os
from typing import Any

from assay.judge._cache import CachedReply, JudgeCache, request_key
from assay.judge._client import ChatClient, JudgeReply, OpenAISDK, chat_url
from assay.judge._prompt import RawPromptTemplate, render_messages
from assay.judge._usage import (
    JudgeProgress,
    check_price,
    disable_progress,
    enable_progress,
    judge_usage,
    price_cost,
    usage_summary,
)
from assay.judge._verdict import (
    assay_llmjudge_postprocess,
    cascade_judge_correct,
    generic_llmjudge_academic_postprocess,
    generic_llmjudge_postprocess,
    judge_metrics,
    opencompass_grade,
    parse_verdict,
)

__all__ = [
    "CachedReply",
    "ChatClient",
    "JudgeCache",
    "JudgeProgress",
    "JudgeReply",
    "OpenAISDK",
    "RawPromptTemplate",
    "assay_llmjudge_postprocess",
    "cascade_judge_correct",
    "chat_url",
    "check_price",
    "default_judge_cfg",
    "disable_progress",
    "enable_progress",
    "generic_llmjudge_academic_postprocess",
    "generic_llmjudge_postprocess",
    "judge_metrics",
    "judge_usage",
    "opencompass_grade",
    "parse_verdict",
    "price_cost",
    "render_messages",
    "request_key",
    "usage_summary",
]


def default_judge_cfg() -> dict[str, Any]:
    """The judge used when ``judge_cfg`` is empty, from ``OC_JUDGE_MODEL``,
    ``OC_JUDGE_API_KEY`` and ``OC_JUDGE_API_BASE`` (as in OpenCompass).

    Raises:
        KeyError: naming the variable when ``OC_JUDGE_MODEL`` is not set.

    Example:
        >>> import os
        >>> from unittest import mock
        >>> with mock.patch.dict(os.environ, {'OC_JUDGE_MODEL': 'judge-1'}):
        ...     default_judge_cfg()['path']
        'judge-1'
    """
    model = os.environ.get("OC_JUDGE_MODEL")
    if not model:
        raise KeyError("judge_cfg is empty and OC_JUDGE_MODEL is not set: configure a judge or set OC_JUDGE_MODEL, OC_JUDGE_API_KEY and OC_JUDGE_API_BASE")
    return {
        "type": OpenAISDK,
        "path": model,
        "key": os.environ.get("OC_JUDGE_API_KEY", "ENV"),
        "openai_api_base": os.environ.get("OC_JUDGE_API_BASE", "https://api.openai.com/v1/"),
        "query_per_second": 16,
        "max_workers": 16,
        "temperature": 0.001,
        "max_out_len": 16384,
        "retry": 4,
    }

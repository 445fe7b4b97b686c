"""LLM judges (R-10.2): an OpenAI-compatible client, its reply cache, prompts and verdicts.

* :class:`ChatClient` posts chat completions with a per-request timeout,
  bounded retries (exponential backoff with jitter on timeouts, connection
  errors, 429 and 5xx), bounded concurrency and a persistent
  :class:`JudgeCache` keyed by (endpoint, model, messages, parameters): a rerun of
  the same evaluation against the same server sends no request.
* :class:`OpenAISDK` is the same client configured the way OpenCompass
  configures its ``OpenAISDK`` judge model (registered in ``MODELS``).
* :func:`template_prompt`, :func:`api_prompt` and :func:`api_messages` take
  a judge ``prompt_template`` to the messages OpenCompass 0.5.4 sends: its
  filling of the fields, its API models' meta-template parsing and
  ``OpenAISDK``'s roles (:class:`RawPromptTemplate`, registered in
  ``ICL_PROMPT_TEMPLATES``, as OpenCompass renders it);
  :func:`render_messages` is a plain rendering, each role its own message
  (no meta template);
  :func:`generic_llmjudge_postprocess` grades the replies as OpenCompass
  does (:func:`assay_llmjudge_postprocess`: assay's stricter reading).
* :func:`usage_summary` / :func:`judge_usage`: what
  judging cost (calls, cache hits, failures, tokens, seconds, money at the
  ``price`` set), recorded in a result's ``_meta.judge``;
  :func:`enable_progress` shows a progress line while judging;
  :func:`estimate_judge_calls` (a :class:`JudgeEstimate`): the calls and at
  most what they cost, before anything is sent (``assay run --dry-run``).

Importing this package imports none of its modules (each the first time one of
its names is asked for), and never ``httpx``.

Example:
    >>> from assay.judge import parse_verdict
    >>> parse_verdict('The answer is correct: A')
    'A'
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from assay._discover import lazy_names

if TYPE_CHECKING:
    from assay.judge._cache import CachedReply, JudgeCache, endpoint_id, request_key
    from assay.judge._client import ChatClient, JudgeReply, OpenAISDK, chat_url
    from assay.judge._estimate import JudgeEstimate, estimate_judge_calls, open_cache_readonly
    from assay.judge._prompt import (
        DEFAULT_JUDGE_META_TEMPLATE,
        RawPromptTemplate,
        api_messages,
        api_prompt,
        render_messages,
        template_prompt,
    )
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
        livereasonbench_grade,
        livereasonbench_postprocess,
        opencompass_grade,
        parse_verdict,
    )

#: Each submodule and the names it exports, imported the first time one of them is asked for.
_WHERE = {
    "_cache": ("CachedReply", "JudgeCache", "endpoint_id", "request_key"),
    "_client": ("ChatClient", "JudgeReply", "OpenAISDK", "chat_url"),
    "_estimate": ("JudgeEstimate", "estimate_judge_calls", "open_cache_readonly"),
    "_prompt": (
        "DEFAULT_JUDGE_META_TEMPLATE", "RawPromptTemplate", "api_messages", "api_prompt", "render_messages",
        "template_prompt",
    ),
    "_usage": (
        "JudgeProgress", "check_price", "disable_progress", "enable_progress", "judge_usage", "price_cost", "usage_summary",
    ),
    "_verdict": (
        "assay_llmjudge_postprocess",
        "cascade_judge_correct",
        "generic_llmjudge_academic_postprocess",
        "generic_llmjudge_postprocess",
        "judge_metrics",
        "livereasonbench_grade",
        "livereasonbench_postprocess",
        "opencompass_grade",
        "parse_verdict",
    ),
}
__all__ = [
    "CachedReply",
    "DEFAULT_JUDGE_META_TEMPLATE",
    "ChatClient",
    "JudgeCache",
    "JudgeEstimate",
    "JudgeProgress",
    "JudgeReply",
    "OpenAISDK",
    "RawPromptTemplate",
    "api_messages",
    "api_prompt",
    "assay_llmjudge_postprocess",
    "cascade_judge_correct",
    "chat_url",
    "check_price",
    "default_judge_cfg",
    "disable_progress",
    "enable_progress",
    "endpoint_id",
    "estimate_judge_calls",
    "generic_llmjudge_academic_postprocess",
    "generic_llmjudge_postprocess",
    "judge_metrics",
    "judge_usage",
    "livereasonbench_grade",
    "livereasonbench_postprocess",
    "open_cache_readonly",
    "opencompass_grade",
    "parse_verdict",
    "price_cost",
    "render_messages",
    "request_key",
    "template_prompt",
    "usage_summary",
]
_getattr = lazy_names(__name__, _WHERE)


def __getattr__(name: str) -> Any:
    return _getattr(name)


def default_judge_cfg() -> dict[str, Any]:
    """The judge used when ``judge_cfg`` is empty, from ``OC_JUDGE_MODEL``,
    ``OC_JUDGE_API_KEY`` and ``OC_JUDGE_API_BASE``, as OpenCompass 0.5.4 builds it.

    ``judge_cfg`` given in the config wins over the variables, whole (none of
    them fills a key it lacks).  Same as OpenCompass's: the meta template
    (HUMAN and BOT, no SYSTEM role — a SYSTEM prompt falls back to HUMAN and
    is merged into the user's message), ``temperature=0.001``,
    ``max_out_len=16384``, ``max_seq_len=49152``, ``query_per_second=16``,
    the base URL ``https://api.openai.com/v1/`` by default.  assay's own:
    ``retry=4`` (OpenCompass: 2), ``max_workers=16``, and
    ``OC_JUDGE_API_KEY`` may be unset (``OPENAI_API_KEY`` is read then;
    OpenCompass stops with a ``KeyError``).

    Raises:
        KeyError: naming the variable when ``OC_JUDGE_MODEL`` is not set.

    Example:
        >>> import os
        >>> from unittest import mock
        >>> with mock.patch.dict(os.environ, {'OC_JUDGE_MODEL': 'judge-1'}):
        ...     default_judge_cfg()['path']
        'judge-1'
    """
    from assay.judge._client import OpenAISDK
    from assay.judge._prompt import DEFAULT_JUDGE_META_TEMPLATE

    model = os.environ.get("OC_JUDGE_MODEL")
    if not model:
        raise KeyError("judge_cfg is empty and OC_JUDGE_MODEL is not set: configure a judge or set OC_JUDGE_MODEL, OC_JUDGE_API_KEY and OC_JUDGE_API_BASE")
    return {
        "type": OpenAISDK,
        "path": model,
        "key": os.environ.get("OC_JUDGE_API_KEY", "ENV"),
        "openai_api_base": [os.environ.get("OC_JUDGE_API_BASE", "https://api.openai.com/v1/")],
        "meta_template": DEFAULT_JUDGE_META_TEMPLATE,
        "query_per_second": 16,
        "max_workers": 16,
        "temperature": 0.001,
        "tokenizer_path": "gpt-4o-2024-05-13",
        "max_out_len": 16384,
        "max_seq_len": 49152,
        "retry": 4,
    }

"""What judging would cost before anything is sent: judge calls, cache hits and an upper bound on money.

:func:`estimate_judge_calls` takes the conversations a judged evaluator would
send — rendered as the real run renders them — and the judge client it would
send them with, and counts them against the run's reply cache without sending
anything or writing anything.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assay._dataclass import FrozenMethods
from assay.judge._cache import request_key
from assay.judge._usage import price_cost

__all__ = ["JudgeEstimate", "estimate_judge_calls", "open_cache_readonly"]

#: Tokens a chat message costs beyond its content (role, separators), and a reply's priming: OpenAI's rule.
MESSAGE_TOKENS = 4
REPLY_PRIMING_TOKENS = 3


@dataclass(repr=False, eq=False)
class JudgeEstimate(FrozenMethods):
    """The judge calls one task would make, and what they would cost at most.

    Attributes:
        model: the judge model.
        prompts: conversations judged (every sample × replica; for an upper
            bound, every one the judge could be asked).
        cached: of them, the ones the reply cache answers (no request).
        upper_bound: ``calls`` is at most this many (e.g. ``CascadeEvaluator``
            with ``parallel=False``: the rule step decides which samples the
            judge sees); ``why`` says why.
        prompt_tokens: the prompt tokens of the calls, counted by ``tokens_rule``.
        completion_tokens: the calls' ``max_tokens`` summed (the most the judge
            may reply); ``None`` when a request sets no limit.
        price: per million tokens, as ``judge_cfg``'s ``price``; ``None``: not set.
        tokens_rule: how ``prompt_tokens`` were counted.
        unsendable: conversations the client would refuse to send (their prompt
            leaves no room for a reply): counted neither as calls nor as cached.
    """

    model: str
    prompts: int
    cached: int
    upper_bound: bool = False
    why: str = ""
    prompt_tokens: int = 0
    completion_tokens: int | None = 0
    price: dict[str, float] | None = None
    tokens_rule: str = ""
    unsendable: int = 0
    notes: tuple[str, ...] = field(default=())

    @property
    def calls(self) -> int:
        """Judge requests that would be made (first attempts; retries come on top of failures)."""
        return self.prompts - self.cached - self.unsendable

    @property
    def cost(self) -> float | None:
        """An upper bound on the calls' cost at :attr:`price` (``None``: no price, or replies without a limit)."""
        return price_cost(self.price, self.prompt_tokens, self.completion_tokens)

    def line(self) -> str:
        """The estimate on one line, its rules stated.

        >>> JudgeEstimate('gpt-4o', 10, 4, prompt_tokens=1200, completion_tokens=600, price={'input': 2.5, 'output': 10.0},
        ...               tokens_rule='tiktoken o200k_base').line()
        'judge gpt-4o: 6 calls (10 prompts, 4 in the reply cache); cost at most 0.0090 (prompt tokens 1200 by tiktoken o200k_base, replies 600 at max_out_len)'
        """
        at_most = "at most " if self.upper_bound else ""
        text = f"judge {self.model}: {at_most}{self.calls} calls ({self.prompts} prompts, {self.cached} in the reply cache"
        if self.unsendable:
            text += f", {self.unsendable} leaving no room for a reply"
        text += ")"
        if self.upper_bound and self.why:
            text += f" — an upper bound: {self.why}"
        if self.price is None:
            text += "; no price set (judge_cfg price=dict(input=…, output=…) per million tokens)"
        elif self.completion_tokens is None:
            text += f"; cost unknown: no max_out_len bounds the replies (prompt tokens {self.prompt_tokens} by {self.tokens_rule})"
        else:
            text += (f"; cost at most {self.cost:.4f} (prompt tokens {self.prompt_tokens} by {self.tokens_rule}, "
                     f"replies {self.completion_tokens} at max_out_len)")
        return text

    def __add__(self, other: JudgeEstimate) -> JudgeEstimate:
        """Two estimates of the same task (e.g. two judge steps) together."""
        completion = None if self.completion_tokens is None or other.completion_tokens is None else (
            self.completion_tokens + other.completion_tokens)
        return JudgeEstimate(
            self.model if self.model == other.model else f"{self.model}, {other.model}",
            self.prompts + other.prompts, self.cached + other.cached, self.upper_bound or other.upper_bound,
            "; ".join(w for w in (self.why, other.why) if w), self.prompt_tokens + other.prompt_tokens, completion,
            self.price if self.price == other.price else None,
            self.tokens_rule if self.tokens_rule == other.tokens_rule else f"{self.tokens_rule}; {other.tokens_rule}",
            self.unsendable + other.unsendable, self.notes + other.notes,
        )


class _ReadOnlyCache:
    """Look-ups in a reply cache opened read-only (nothing created, nothing written)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)

    def lookup(self, key: str) -> Any:
        """The stored reply's row for ``key``, or ``None``."""
        return self._conn.execute("SELECT reply FROM replies WHERE key = ?", (key,)).fetchone()

    def close(self) -> None:
        self._conn.close()


def open_cache_readonly(path: str | Path | None) -> Any:
    """The reply cache at ``path`` for look-ups only (``lookup(key)``), or ``None`` when there is none
    (nothing is created).

    Raises:
        ValueError: naming the file, when it is not a judge reply cache.
    """
    if path is None or not Path(path).is_file():
        return None
    try:
        cache = _ReadOnlyCache(Path(path))
        cache.lookup("")
    except sqlite3.DatabaseError as exc:
        raise ValueError(f"{path}: not a judge reply cache ({exc})") from None
    return cache


def _counter(client: Any) -> tuple[Any, str]:
    """A prompt-token counter and its rule: tiktoken with the encoding the judge counts with (as
    :class:`~assay.judge.OpenAISDK` counts its prompts) when installed, else UTF-8 bytes."""
    try:
        import tiktoken
    except ImportError:
        encoding = None
    else:
        from assay.judge._client import _tiktoken_encoding

        encoding = _tiktoken_encoding(tiktoken, str(getattr(client, "tokenizer_path", None) or getattr(client, "model", "")))
    if encoding is not None:
        return (lambda text: len(encoding.encode(text, disallowed_special=()))), (
            f"tiktoken {encoding.name}, +{MESSAGE_TOKENS} a message; the judge's own tokenizer may count otherwise")
    return (lambda text: len(text.encode("utf-8"))), (
        f"UTF-8 bytes, +{MESSAGE_TOKENS} a message: at most one token a byte (install tiktoken for a closer count)")


def estimate_judge_calls(
    client: Any,
    conversations: Sequence[list[dict[str, Any]]],
    *,
    cache: Any = "client",
    upper_bound: bool = False,
    why: str = "",
) -> JudgeEstimate:
    """The judge calls ``conversations`` would cost with ``client``, nothing sent or written.

    Each conversation is keyed as :meth:`~assay.judge.ChatClient.complete`
    keys it (the client's ``request_params`` for it: ``max_tokens`` cut to the
    room the prompt leaves, as sent) and looked up in ``cache`` (default: the
    client's own; ``None``: none; or :func:`open_cache_readonly`'s).  The same
    conversation twice is sent twice (both are asked before either reply is kept).  Those it
    holds cost nothing.  For the others, an upper bound on the cost at the
    client's ``price``: the replies at their ``max_tokens`` (the most the
    judge may write), the prompts counted with tiktoken (the encoding the
    judge's ``tokenizer_path`` or model name selects, else ``cl100k_base``)
    when installed, else as their UTF-8 bytes (a byte-level tokenizer's token
    holds at least one byte), plus a few tokens a message.  ``upper_bound``
    (and ``why``) mark the count itself as a bound — e.g. a judge that sees
    only the samples a rule step fails.

    Judged evaluators call it with the conversations they would send (see
    ``GenericLLMEvaluator.judge_conversations``); ``assay run --dry-run``
    prints the result for every judged task.

    Example:
        >>> from assay.judge import ChatClient
        >>> judge = ChatClient('http://127.0.0.1:9/v1', 'j', params={'max_tokens': 100}, price={'input': 1.0, 'output': 2.0})
        >>> est = estimate_judge_calls(judge, [[{'role': 'user', 'content': 'Grade: 4'}]] * 3, cache=None)
        >>> est.calls, est.completion_tokens
        (3, 300)
    """
    store = getattr(client, "cache", None) if cache == "client" else cache
    count, rule = _counter(client)
    prompt_tokens = 0
    completion_tokens: int | None = 0
    unsendable = 0
    sendable: list[tuple[str, int, int | None]] = []
    for messages in conversations:
        try:
            params = client.request_params(messages)
        except ValueError:  # the prompt leaves no room for a reply: the client refuses it
            unsendable += 1
            continue
        key = request_key(client.model, messages, params, endpoint=str(getattr(client, "endpoint", "")))
        tokens = REPLY_PRIMING_TOKENS + sum(
            MESSAGE_TOKENS + count(m["content"] if isinstance(m.get("content"), str) else json.dumps(m.get("content")))
            for m in messages)
        limit = params.get("max_tokens", params.get("max_completion_tokens"))
        sendable.append((key, tokens, int(limit) if isinstance(limit, (int, float)) and math.isfinite(limit) else None))
    present: set[str] = set()
    if store is not None:
        present = {key for key in dict.fromkeys(k for k, _, _ in sendable) if store.lookup(key) is not None}
    cached = 0
    for key, tokens, limit in sendable:
        if key in present:
            cached += 1
            continue
        prompt_tokens += tokens
        completion_tokens = None if completion_tokens is None or limit is None else completion_tokens + limit
    return JudgeEstimate(
        str(getattr(client, "model", type(client).__name__)), len(conversations), cached, upper_bound, why,
        prompt_tokens, completion_tokens, getattr(client, "price", None), rule, unsendable,
    )

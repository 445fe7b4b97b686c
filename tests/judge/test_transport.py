"""The judge client's HTTP/1.1 exchange against real local servers sending raw responses: every way a
body can be delimited, interim responses, kept-alive connections the server closes, HTTPS."""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import ssl
import struct
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from assay.judge import ChatClient

Respond = Callable[[int, dict[str, Any]], list[bytes]]


def completion(text: str) -> bytes:
    return json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": text}}]}).encode()


class RawServer:
    """A TCP server on 127.0.0.1 reading HTTP requests and writing what ``respond(n, body)`` returns for the
    ``n``-th request (from 1): a list of byte strings, each sent by itself; ``b""`` closes the connection
    there.  ``connections`` counts the connections accepted."""

    def __init__(self, respond: Respond, context: ssl.SSLContext | None = None) -> None:
        self.respond = respond
        self.context = context
        self.requests = 0
        self.connections = 0
        self.heads: list[str] = []
        self._lock = threading.Lock()
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"{'https' if context else 'http'}://127.0.0.1:{self.port}/v1"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        try:
            if self.context is not None:
                conn = self.context.wrap_socket(conn, server_side=True)
            data = b""
            while True:
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    data += chunk
                head, _, data = data.partition(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                length = next(int(v) for k, _, v in (ln.partition(":") for ln in lines[1:]) if k.lower() == "content-length")
                while len(data) < length:
                    data += conn.recv(65536)
                body, data = json.loads(data[:length]), data[length:]
                with self._lock:
                    self.requests += 1
                    n = self.requests
                    self.heads.append(head.decode("latin-1"))
                for piece in self.respond(n, body):
                    if not piece:
                        return
                    conn.sendall(piece)
        except (OSError, ssl.SSLError):
            return
        finally:
            conn.close()

    def close(self) -> None:
        self.sock.close()


def _client(url: str, **kw: Any) -> ChatClient:
    opts: dict[str, Any] = dict(timeout=10, max_attempts=1, max_concurrency=1)
    opts.update(kw)
    return ChatClient(url, "judge", **opts)


def _ask(client: ChatClient, text: str = "q") -> Any:
    return client.complete([{"role": "user", "content": text}])


def _head(status: str, *fields: str) -> bytes:
    return ("\r\n".join([f"HTTP/1.1 {status}", *fields]) + "\r\n\r\n").encode()


def test_bodies_by_length_in_pieces_chunked_and_to_the_end_of_the_connection():
    payload = completion("A, verdict reached")

    def respond(n, body):
        if n == 1:  # Content-Length, head and body split mid-line, several sends
            whole = _head("200 OK", f"Content-Length: {len(payload)}") + payload
            return [whole[:10], whole[10:40], whole[40:]]
        if n == 2:  # chunked, with an extension and a trailer
            return [_head("200 OK", "Transfer-Encoding: chunked"),
                    f"{10:x};ext=1\r\n".encode() + payload[:10] + b"\r\n",
                    f"{len(payload) - 10:x}\r\n".encode() + payload[10:] + b"\r\n", b"0\r\nX-Trailer: 1\r\n\r\n"]
        return [_head("200 OK", "Connection: close") + payload, b""]  # no length: the body ends with the connection

    server = RawServer(respond)
    client = _client(server.url)
    try:
        replies = [_ask(client, str(i)) for i in range(3)]
        assert [r.text for r in replies] == ["A, verdict reached"] * 3
        assert server.connections == 1  # kept alive until the server closed it
        assert _ask(client).text == "A, verdict reached" and server.connections == 2
    finally:
        client.close()
        server.close()


def test_a_response_without_a_body_is_not_waited_for():
    # 204 has no body whatever its headers say; the connection stays open
    server = RawServer(lambda n, body: [_head("204 No Content")])
    try:
        reply = _ask(_client(server.url, timeout=30))
        assert reply.text is None and reply.error.startswith("malformed reply")
    finally:
        server.close()


def test_an_interim_response_is_skipped():
    payload = completion("B")
    server = RawServer(lambda n, body: [_head("100 Continue"), _head("200 OK", f"Content-Length: {len(payload)}") + payload])
    try:
        assert _ask(_client(server.url)).text == "B"
    finally:
        server.close()


def test_a_kept_alive_connection_the_server_closed_is_opened_again_within_the_attempt():
    payload = completion("A")
    # the server answers, then closes each connection without saying so: the next request meets a closed one
    server = RawServer(lambda n, body: [_head("200 OK", f"Content-Length: {len(payload)}") + payload, b""])
    client = _client(server.url)
    try:
        replies = [_ask(client, str(i)) for i in range(3)]
        assert [(r.text, r.attempts) for r in replies] == [("A", 1)] * 3
        assert server.requests == 3 and server.connections == 3
    finally:
        client.close()
        server.close()


def test_a_response_cut_short_is_not_sent_again_unless_asked():
    payload = completion("A")

    def respond(n, body):
        if n == 1:
            return [_head("200 OK", f"Content-Length: {len(payload)}") + payload[:5], b""]
        return [_head("200 OK", f"Content-Length: {len(payload)}") + payload]

    server = RawServer(respond)
    try:
        reply = _ask(_client(server.url, max_attempts=3, backoff=0.01))
        assert reply.text is None and reply.attempts == 1 and server.requests == 1
        assert "after the request was sent" in reply.error and "retry_interrupted=True" in reply.error
    finally:
        server.close()
    server = RawServer(respond)
    try:
        reply = _ask(_client(server.url, max_attempts=2, backoff=0.01, retry_interrupted=True))
        assert reply.text == "A" and reply.attempts == 2 and server.requests == 2
    finally:
        server.close()
    server = RawServer(lambda n, body: [b"SSH-2.0-not-http\r\n\r\n", b""])
    try:
        reply = _ask(_client(server.url))
        assert reply.text is None and reply.error.startswith("connection error") and "not an HTTP/1.x response" in reply.error
    finally:
        server.close()


def _reset(conn: socket.socket) -> None:
    """Drop ``conn`` with a TCP reset (no orderly close), as a crashed proxy does."""
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


@pytest.mark.parametrize("drop", ["close", "reset", "stall"])
def test_a_kept_alive_connection_dropped_mid_response_is_not_sent_again(drop):
    # the first request is answered on a kept-alive connection; the second, on the same connection, gets
    # part of its response and then the connection is closed, reset or stalls: the server has the request
    payload = completion("A")
    whole = _head("200 OK", f"Content-Length: {len(payload)}") + payload
    conns: list[socket.socket] = []
    released = threading.Event()

    class Dropping(RawServer):
        def _serve(self, conn: socket.socket) -> None:
            conns.append(conn)
            super()._serve(conn)

    def respond(n, body):
        if n != 2:
            return [whole]
        if drop == "close":
            return [whole[:40], b""]
        if drop == "reset":
            conns[-1].sendall(whole[:40])
            _reset(conns[-1])
            return [b""]
        conns[-1].sendall(whole[:40])
        released.wait(30)  # stalls past the client's timeout
        return [b""]

    server = Dropping(respond)
    client = _client(server.url, max_attempts=3, backoff=0.01, timeout=1 if drop == "stall" else 10)
    try:
        assert _ask(client, "first").text == "A"
        reply = _ask(client, "second")
        assert reply.text is None and "not sent again" in reply.error and reply.attempts == 1
        assert server.requests == 2  # asked once: no second request billed
        assert _ask(client, "third").text == "A"  # the client goes on with a new connection
        assert server.requests == 3
    finally:
        released.set()
        client.close()
        server.close()


def test_the_request_carries_the_key_the_host_and_one_json_body():
    payload = completion("A")
    server = RawServer(lambda n, body: [_head("200 OK", f"Content-Length: {len(payload)}") + payload])
    try:
        _client(server.url, api_key="sk-test-key", params={"temperature": 0}).complete([{"role": "user", "content": "é"}])
        head = server.heads[0].split("\r\n")
        assert head[0] == "POST /v1/chat/completions HTTP/1.1"
        fields = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in head[1:])}
        assert fields["host"] == f"127.0.0.1:{server.port}"
        assert fields["authorization"] == "Bearer sk-test-key" and fields["content-type"] == "application/json"
    finally:
        server.close()


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (made by the openssl command)."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is not installed")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


def test_https_checks_the_certificate(certificate, monkeypatch):
    cert, key = certificate
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    payload = completion("A")
    server = RawServer(lambda n, body: [_head("200 OK", f"Content-Length: {len(payload)}") + payload], context)
    try:
        monkeypatch.delenv("SSL_CERT_DIR", raising=False)
        monkeypatch.delenv("SSL_CERT_FILE", raising=False)
        refused = _ask(_client(server.url))
        assert refused.text is None and "CERTIFICATE_VERIFY_FAILED" in refused.error
        assert refused.attempts == 1 and "SSL_CERT_FILE" in refused.error  # not retried: the same certificate comes back
        monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the certificate trusted: the same server answers
        client = _client(server.url)
        assert [_ask(client, str(i)).text for i in range(2)] == ["A", "A"]
        assert server.connections == 2  # the refused one, then one kept alive
        client.close()
    finally:
        server.close()


def _ctrl_c_during(client: ChatClient, wait_for: Callable[[], bool]) -> tuple[list[float], Any]:
    """Run six requests, Ctrl-C once ``wait_for()`` holds; when KeyboardInterrupt came, and what complete_many gave."""
    import signal
    import time

    main, raised_at = threading.get_ident(), []

    def ctrl_c() -> None:
        deadline = time.monotonic() + 60
        while not wait_for() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.2)
        signal.pthread_kill(main, signal.SIGINT)

    timer = threading.Thread(target=ctrl_c)
    began = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            client.complete_many([[{"role": "user", "content": f"q{i}"}] for i in range(6)])
        raised_at.append(time.monotonic() - began)
    finally:
        timer.join()
    return raised_at, client


@contextlib.contextmanager
def _silent_listener() -> Iterator[tuple[tuple[str, int], int]]:
    """A local address whose connects are never answered (its accept queue full, the next connects wait for the
    server's answer): ``(address, port)``, closed after the block."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    address = listener.getsockname()
    filling = []
    try:
        for _ in range(4):  # connects the queue cannot take
            sock = socket.socket()
            filling.append(sock)
            sock.setblocking(False)
            sock.connect_ex(address)
        yield address, address[1]
    finally:
        for sock in [listener, *filling]:
            sock.close()


def test_ctrl_c_stops_requests_still_connecting():
    """A server that never answers the connect (its accept queue full): Ctrl-C ends the requests at once, not
    after the connect timeout."""
    with _silent_listener() as (_, port):
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "j", api_key="k", timeout=300, max_attempts=1,
                            max_concurrency=2)
        raised_at, _ = _ctrl_c_during(client, lambda: len(client._opened) == 2)
    assert raised_at[0] < 120  # not the 300 s connect timeout


def test_ctrl_c_stops_requests_waiting_for_their_turn():
    """At 0.02 requests a second, the queued requests wait minutes for their turn: Ctrl-C ends them at once."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()  # nothing listens there: each request is refused at once
    client = ChatClient(f"http://127.0.0.1:{port}/v1", "j", api_key="k", timeout=300, max_attempts=1,
                        max_concurrency=4, qps=0.02)
    raised_at, _ = _ctrl_c_during(client, lambda: client._limiter._next > 0)
    assert raised_at[0] < 120  # not the 150 s the fourth request waits for its turn


def test_a_failed_tls_handshake_leaves_no_socket_open(recwarn):
    """A server that answers TLS with plain HTTP: the handshake fails, the request's error says so, and the
    client's TLS socket is closed (nothing is left for the garbage collector to warn about)."""
    import gc
    import warnings

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    listener.settimeout(0.2)
    done = threading.Event()

    def plain() -> None:
        while not done.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    server = threading.Thread(target=plain, daemon=True)
    server.start()
    try:
        warnings.simplefilter("always", ResourceWarning)
        client = _client(f"https://127.0.0.1:{port}/v1", max_attempts=2, backoff=0.01)
        reply = _ask(client)
        assert reply.text is None and reply.attempts == 2
        assert reply.error.startswith(f"connection error (127.0.0.1:{port}): SSLError")
        client.close()
        del client
        gc.collect()
        leaked = [str(w.message) for w in recwarn if issubclass(w.category, ResourceWarning)
                  and f"{port})" in str(w.message)]  # this server's sockets (not garbage of earlier tests)
        assert leaked == []
    finally:
        done.set()
        server.join()
        listener.close()


def test_an_address_that_does_not_answer_passes_to_the_next(monkeypatch):
    """A host name with two addresses, the first one's connect never answered (its accept queue full): after
    the connect timeout the client tries the second one, which answers, within the same attempt."""
    payload = completion("A")
    server = RawServer(lambda n, body: [_head("200 OK", f"Content-Length: {len(payload)}") + payload])
    with _silent_listener() as (silent, _):
        addresses = [silent, ("127.0.0.1", server.port)]
        monkeypatch.setattr(socket, "getaddrinfo", lambda host, port, *a, **k: [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", address) for address in addresses])
        client = _client("http://judge.test/v1", timeout=1, deadline=30)
        try:
            reply = _ask(client)
            assert reply.text == "A" and reply.attempts == 1
            assert server.requests == 1
        finally:
            client.close()
            server.close()


def test_a_refused_connection_names_the_server():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()  # nothing listens there
    reply = _ask(_client(f"http://127.0.0.1:{port}/v1"))
    assert reply.text is None
    assert reply.error.startswith(f"connection error (127.0.0.1:{port}): ConnectionRefusedError")


def test_a_connect_timing_out_on_every_address_says_how_long_it_took_in_all(monkeypatch):
    """A host name with two addresses, neither answering the connect (their accept queue full): each waits the
    timeout, and the reply's error says the connect took both waits, tried on two addresses — not one timeout."""
    with _silent_listener() as (silent, _):
        monkeypatch.setattr(socket, "getaddrinfo", lambda host, port, *a, **k: [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", silent)] * 2)
        client = _client("http://judge.test/v1", timeout=0.5, deadline=30, max_attempts=1)
        try:
            reply = _ask(client)
        finally:
            client.close()
    assert reply.text is None
    assert reply.error.startswith("timeout: connecting took "), reply.error
    took = float(reply.error.removeprefix("timeout: connecting took ").split(" s ")[0])
    assert took >= 1.0  # two waits of 0.5 s
    assert "2 addresses of the host tried, the last one timed out after 0.5 s; judge.test:80)" in reply.error

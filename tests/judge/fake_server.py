"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for judge tests.

``script(messages, attempt)`` decides each answer: ``attempt`` counts the
requests seen so far for the same last user message (1 for the first).
It returns one of:

* ``("reply", text)`` — a normal completion;
* ``("status", code)`` — an error status (e.g. 429, 500);
* ``("malformed", body)`` — a 200 response whose body is not valid JSON;
* ``("slow", seconds, text)`` — a completion sent after a delay;
* ``("hang",)`` — no answer at all: the request is held until the client
  asks again for the same prompt (it gave up on this one: its timeout is
  the only clock involved) or the server stops, then the connection is
  closed unanswered;
* ``("trickle", seconds, text)`` — a completion sent one byte every
  ``seconds``, status line and headers included;
* ``("echo_auth", code)`` — an error status whose body quotes the request's
  ``Authorization`` header, as some servers do;
* ``("message", message, finish_reason)`` — a completion whose one choice has
  this ``message`` object as it is (``"content": None``, a
  ``reasoning_content``, …) and this ``finish_reason``.

``usage(prompt, text)``, when given, returns the ``usage`` object of each
completion (``None``: the reply has none, as by default).
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pytest

Script = Callable[[list[dict[str, Any]], int], tuple[Any, ...]]

#: The judge model the recorded judge families name in OpenCompass's ``OC_JUDGE_*`` environment, and its key.
JUDGE_MODEL = "judge-model"
JUDGE_KEY = "sk-judge-test"

#: The replies :func:`hashed_verdict` chooses among: clean verdicts, verdicts OpenCompass's
#: two readers take differently, and garbage.
VERDICTS = ("A", "B", "A", "B", "A.", "**A**", "CORRECT", "B: INCORRECT", "Based on the reference, the answer is A",
            "", "I cannot tell.", " a\n", "INCORRECT", "A: CORRECT")


def hashed_verdict(messages: list[dict[str, Any]]) -> str:
    """A reply that depends only on the messages (their SHA-256): the same request gets the same reply
    from every judge server, whoever sends it."""
    import hashlib

    digest = hashlib.sha256(json.dumps(messages, sort_keys=True, ensure_ascii=False).encode()).digest()
    return VERDICTS[int.from_bytes(digest[:8], "big") % len(VERDICTS)]


#: The replies :func:`subjective_reply` chooses among: verdicts in the styles of the subjective
#: benchmarks (AlignBench, MT-Bench, AlpacaEval, Arena-Hard), and garbage.
SUBJECTIVE_REPLIES = (
    "The answer is accurate and clear. {'事实正确性': 8, '满足用户需求': 7, '综合得分': 7}",
    "回答有明显错误。{'事实正确性': 2, '满足用户需求': 3, '清晰度': 5, '综合得分': 2}",
    "Rating: [[8]]",
    "The assistant's answer is unhelpful. Rating: [[2.5]]",
    "m",
    "M",
    "My final verdict is: [[A>B]]",
    "Assistant B is significantly better: [[B>>A]]",
    "My final verdict is tie: [[A=B]]",
    "",
    "I cannot judge this.",
)


def subjective_reply(messages: list[dict[str, Any]]) -> str:
    """A judge reply for the subjective benchmarks that depends only on the messages (their SHA-256)."""
    import hashlib

    digest = hashlib.sha256(json.dumps(messages, sort_keys=True, ensure_ascii=False).encode()).digest()
    return SUBJECTIVE_REPLIES[int.from_bytes(digest[:8], "big") % len(SUBJECTIVE_REPLIES)]


def by_item(replies: list[str]) -> Script:
    """The judge of the recorded judge families: the sample whose messages say ``item N`` gets
    ``replies[N % len(replies)]`` (``replies[0]`` when none says it), as the recording's server answered."""
    import re

    item = re.compile(r"item (\d+)")

    def script(messages: list[dict[str, Any]], attempt: int) -> tuple[Any, ...]:
        match = item.search("\n".join(str(m.get("content")) for m in messages))
        return ("reply", replies[(int(match.group(1)) if match else 0) % len(replies)])

    return script


def in_stable_order(bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Request bodies in an order independent of when they arrived (their JSON text, keys sorted)."""
    return sorted(bodies, key=lambda b: json.dumps(b, sort_keys=True, ensure_ascii=False))


class FakeJudge:
    def __init__(self, script: Script, usage: Callable[[str, str], dict[str, Any] | None] | None = None) -> None:
        self.script = script
        self.usage = usage
        self.requests = 0
        self.per_prompt: Counter[str] = Counter()
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self._asked = threading.Condition(self._lock)  # notified on each request and when the server stops
        self._stopping = False
        judge = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                messages = body.get("messages", [])
                prompt = messages[-1]["content"] if messages else ""
                with judge._lock:
                    judge.requests += 1
                    judge.per_prompt[prompt] += 1
                    attempt = judge.per_prompt[prompt]
                    judge.bodies.append(body)
                    judge.headers.append(dict(self.headers))
                    judge._asked.notify_all()
                action = judge.script(messages, attempt)
                kind = action[0]
                if kind == "hang":
                    with judge._asked:
                        judge._asked.wait_for(lambda: judge._stopping or judge.per_prompt[prompt] > attempt)
                    self.close_connection = True
                elif kind == "status":
                    self._send(action[1], b'{"error": {"message": "injected"}}')
                elif kind == "malformed":
                    self._send(200, action[1].encode())
                elif kind == "slow":
                    time.sleep(action[1])
                    self._reply(action[2], prompt)
                elif kind == "trickle":
                    self._trickle(action[1], action[2])
                elif kind == "message":
                    data = {"id": "x", "object": "chat.completion", "model": "judge",
                            "choices": [{"index": 0, "message": action[1], "finish_reason": action[2]}]}
                    self._send(200, json.dumps(data).encode())
                elif kind == "echo_auth":
                    auth = self.headers.get("Authorization", "")
                    self._send(action[1], json.dumps({"error": {"message": f"invalid credentials: {auth}"}}).encode())
                else:
                    self._reply(action[1], prompt)

            def _reply(self, text: str, prompt: str) -> None:
                data: dict[str, Any] = {"id": "x", "object": "chat.completion", "model": "judge",
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]}
                usage = judge.usage(prompt, text) if judge.usage is not None else None
                if usage is not None:
                    data["usage"] = usage
                self._send(200, json.dumps(data).encode())

            def _trickle(self, seconds: float, text: str) -> None:
                data = {"id": "x", "object": "chat.completion", "model": "judge",
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]}
                payload = json.dumps(data).encode()
                raw = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                       + f"Content-Length: {len(payload)}\r\n\r\n".encode() + payload)
                try:
                    for i in range(len(raw)):
                        self.wfile.write(raw[i:i + 1])
                        self.wfile.flush()
                        time.sleep(seconds)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

            def _send(self, code: int, payload: bytes) -> None:
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeJudge:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        with self._asked:
            self._stopping = True
            self._asked.notify_all()
        self.server.shutdown()
        self.server.server_close()


def free_port() -> int:
    """A port on 127.0.0.1 with nothing listening (bound then released)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def use_as_oc_judge(server: FakeJudge, monkeypatch: pytest.MonkeyPatch) -> None:
    """``server`` as OpenCompass's ``OC_JUDGE_*`` judge, under the recordings' model name and key."""
    monkeypatch.setenv("OC_JUDGE_MODEL", JUDGE_MODEL)
    monkeypatch.setenv("OC_JUDGE_API_KEY", JUDGE_KEY)
    monkeypatch.setenv("OC_JUDGE_API_BASE", server.base_url)


def write_judged_config(path: Path, text: str, *servers: FakeJudge) -> Path:
    """A recorded config written at ``path``, its ``{JUDGE_BASE}`` the first server's address (``{JUDGE_BASE2}``
    the second's, …); ``path``."""
    for n, server in enumerate(servers, start=1):
        text = text.replace("{JUDGE_BASE}" if n == 1 else f"{{JUDGE_BASE{n}}}", server.base_url)
    path.write_text(text, encoding="utf-8")
    return path

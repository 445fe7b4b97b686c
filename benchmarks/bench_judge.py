"""Judge client throughput against a local server that answers each request after a fixed delay.

The server (a separate process, so that it does not share the client's
interpreter) answers every chat completion after ``--delay`` seconds (200 ms
by default).  ``ChatClient.complete_many`` sends ``--calls`` distinct prompts
at each ``--concurrency`` given, its reply cache on (every reply written to
it, as in a run); the rate is compared with the ideal of that concurrency
(``concurrency / delay`` calls per second) and with OpenCompass's default
``query_per_second=16`` (at most 16 request starts a second, whatever the
concurrency).

Usage: python benchmarks/bench_judge.py [--calls N] [--concurrency 32 64] [--delay 0.2] [--qps Q]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import tempfile
import time
from pathlib import Path
from typing import Any

from assay.judge import ChatClient

OPENCOMPASS_QPS = 16


def _serve(delay: float, ready: Any, port: Any) -> None:
    """An HTTP/1.1 chat-completions server on one event loop: each request answered after ``delay`` seconds,
    connections kept alive, no thread per connection: the server costs little next to the client."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                body = json.loads(await reader.readexactly(length))
                await asyncio.sleep(delay)
                text = "A" if len(body["messages"][-1]["content"]) % 2 else "B"
                payload = json.dumps({
                    "id": "x", "object": "chat.completion", "model": body.get("model"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 200, "completion_tokens": 1, "total_tokens": 201},
                }).encode()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                             + f"Content-Length: {len(payload)}\r\n\r\n".encode() + payload)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    async def serve() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=1024)
        port.value = server.sockets[0].getsockname()[1]
        ready.set()
        await server.serve_forever()

    asyncio.run(serve())


def measure(url: str, calls: int, concurrency: int, qps: float | None, cache: Path) -> float:
    """Calls per second of ``calls`` distinct prompts at ``concurrency``."""
    client = ChatClient(url, "bench-judge", max_concurrency=concurrency, qps=qps, timeout=30, cache=cache)
    prompts = [[{"role": "user", "content": f"{cache.name} prompt {i} " + "x" * (i % 7)}] for i in range(calls)]
    start = time.perf_counter()
    replies = client.complete_many(prompts)
    elapsed = time.perf_counter() - start
    client.close()
    failed = sum(r.text is None for r in replies)
    if failed:
        raise SystemExit(f"{failed} of {calls} judge calls failed: {next(r.error for r in replies if r.text is None)}")
    return calls / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[32, 64])
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--qps", type=float, default=None, help="also run at this request rate (e.g. 16)")
    args = parser.parse_args()

    ctx = multiprocessing.get_context("spawn")
    ready, port = ctx.Event(), ctx.Value("i", 0)
    server = ctx.Process(target=_serve, args=(args.delay, ready, port), daemon=True)
    server.start()
    ready.wait(30)
    url = f"http://127.0.0.1:{port.value}/v1"
    try:
        with tempfile.TemporaryDirectory() as tmp:
            measure(url, 50, 8, None, Path(tmp) / "warmup.sqlite")
            print(f"server delay {args.delay * 1000:.0f} ms, {args.calls} calls, reply cache on")
            print(f"{'concurrency':>11} {'qps limit':>9} {'calls/s':>8} {'ideal':>8} {'of ideal':>8} {'OpenCompass qps=16':>19}")
            runs = [(c, None) for c in args.concurrency] + ([(c, args.qps) for c in args.concurrency] if args.qps else [])
            for concurrency, qps in runs:
                rate = measure(url, args.calls, concurrency, qps, Path(tmp) / f"c{concurrency}-q{qps}.sqlite")
                ideal = concurrency / args.delay if qps is None else min(qps, concurrency / args.delay)
                oc = min(OPENCOMPASS_QPS, concurrency / args.delay)
                limit = "-" if qps is None else f"{qps:g}"
                print(f"{concurrency:>11} {limit:>9} {rate:>8.1f} {ideal:>8.1f} {rate / ideal:>8.1%} {oc:>19.1f}")
    finally:
        server.terminate()
        server.join(10)


if __name__ == "__main__":
    main()

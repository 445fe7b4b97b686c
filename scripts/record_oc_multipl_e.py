"""Record what OpenCompass 0.5.4 posts to its code-evaluation service for the MultiPL-E fixture, and what it computes.

Run with a Python that has opencompass==0.5.4 installed (``python
scripts/record_oc_multipl_e.py``), after ``scripts/make_multipl_e_fixtures.py``.
The library's ``multipl_e/multiple_top_ten_gen_f44aaf`` (twenty datasets:
HumanEval and MBPP in ten languages) and ``multiple_top_ten_repeat_gen_0cd6ce``
(cpp, ``n=5``) are imported unchanged, their evaluator's ``ip_address`` pointed
at a local HTTP server of this script, and OpenCompass's eval task is run on
the fixture (``tests/data/oc_families/multipl_e``; ``COMPASS_DATA_CACHE``
pointing at it) as its runners run it.

The local server stands in for the service: it speaks the part of Gradio's
HTTP protocol the evaluator's ``gradio_client`` uses (``/config``, ``/info``,
``/queue/join``, ``/queue/data``, ``/heartbeat``), keeps each payload posted to
``/evaluate`` (the list of ``name``, ``language``, ``code``) and answers, for
each program, ``name``, ``language`` and the ``status`` that assay's run of the
same program gives (``verdicts.json``, looked up by the program's SHA-256; a
program not there stops the recording: assay prepares it otherwise).

What is recorded, in ``expected/multipl_e.json``: for each config and
dataset, the payloads posted (one per run of ``n``) and the result file
OpenCompass's eval task writes (its metrics and details).
"""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _oc_recording import eval_task_as_opencompass_runs_it, library_datasets, plain_json, write_json

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "multipl_e"
CONFIGS = (("multiple_top_ten_gen_f44aaf", "predictions"), ("multiple_top_ten_repeat_gen_0cd6ce", "predictions_repeat"))
VERDICTS: dict[str, dict[str, Any]] = json.loads((ROOT / "verdicts.json").read_text(encoding="utf-8"))
POSTED: list[list[dict[str, Any]]] = []
UNKNOWN: list[str] = []
#: session -> messages not yet streamed to it.
_PENDING: dict[str, list[dict[str, Any]]] = {}
_LOCK = threading.Lock()
_STOP = threading.Event()

GRADIO_CONFIG = {
    "version": "4.44.1", "protocol": "sse_v1", "mode": "blocks",
    "components": [{"id": 1, "type": "json", "props": {}}, {"id": 2, "type": "json", "props": {}}],
    "dependencies": [{"id": 0, "api_name": "evaluate", "inputs": [1], "outputs": [2], "backend_fn": True,
                      "show_api": True, "cancels": []}],
}
API_INFO = {
    "named_endpoints": {"/evaluate": {
        "parameters": [{"label": "input_data", "parameter_name": "input_data", "parameter_has_default": False,
                        "component": "Json", "type": {}, "python_type": {"type": "Any", "description": ""}}],
        "returns": [{"label": "output", "component": "Json", "type": {}, "python_type": {"type": "Any", "description": ""}}],
    }},
    "unnamed_endpoints": {},
}


def _verdict(program: dict[str, Any]) -> dict[str, Any]:
    digest = hashlib.sha256(str(program["code"]).encode("utf-8")).hexdigest()
    known = VERDICTS.get(digest)
    if known is None:
        UNKNOWN.append(f"{program['language']} {program['name']}: {str(program['code'])[-300:]!r}")
        return {"name": program["name"], "language": program["language"], "status": "unknown program"}
    return {"name": program["name"], "language": program["language"], "status": known["status"]}


class _Service(http.server.BaseHTTPRequestHandler):
    def _json(self, value: Any) -> None:
        body = json.dumps(value).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        url = urllib.parse.urlparse(self.path)
        if url.path == "/config":
            self._json(GRADIO_CONFIG)
        elif url.path == "/info":
            self._json(API_INFO)
        elif url.path.startswith("/heartbeat/"):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            while not _STOP.wait(0.5):
                pass
        elif url.path == "/queue/data":
            session = urllib.parse.parse_qs(url.query)["session_hash"][0]
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            with _LOCK:
                messages = _PENDING.pop(session, [])
            for message in messages:
                self.wfile.write(b"data: " + json.dumps(message).encode("utf-8") + b"\n\n")
            self.wfile.flush()
        else:
            self.send_error(404)

    def do_POST(self) -> None:
        url = urllib.parse.urlparse(self.path)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if url.path != "/queue/join":
            self.send_error(404)
            return
        (programs,) = body["data"]
        POSTED.append(programs)
        event = uuid.uuid4().hex
        reply = [_verdict(p) for p in programs]
        with _LOCK:
            _PENDING.setdefault(body["session_hash"], []).append(
                {"msg": "process_completed", "event_id": event, "output": {"data": [reply]}, "success": True})
        self._json({"event_id": event})

    def log_message(self, *args: Any) -> None:
        pass


def main() -> None:
    os.environ["COMPASS_DATA_CACHE"] = str(ROOT)
    os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Service)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"http://127.0.0.1:{server.server_address[1]}/"
    out: dict[str, Any] = {"configs": []}
    scratch = Path(tempfile.mkdtemp(prefix="record_oc_multipl_e_"))
    try:
        for name, folder in CONFIGS:
            datasets = [d.to_dict() for d in library_datasets(f"multipl_e/{name}.py", "multiple_datasets")]  # type: ignore[attr-defined]
            for ds in datasets:
                ds["eval_cfg"] = {**ds["eval_cfg"], "evaluator": {**ds["eval_cfg"]["evaluator"], "ip_address": address}}
            work_dir = scratch / name
            for ds in datasets:
                (work_dir / "predictions" / "m").mkdir(parents=True, exist_ok=True)
                shutil.copy(ROOT / folder / f"{ds['abbr']}.json", work_dir / "predictions" / "m" / f"{ds['abbr']}.json")
            POSTED.clear()
            config = {"models": [{"abbr": "m", "path": "org/model"}], "datasets": [datasets], "work_dir": str(work_dir)}
            eval_task_as_opencompass_runs_it(config, scratch / f"{name}-task", cwd=scratch)
            runs = [int(ds.get("n", 1)) for ds in datasets]
            if len(POSTED) != sum(runs):
                raise RuntimeError(f"{name}: the service got {len(POSTED)} posts, {sum(runs)} expected")
            entries = []
            posts = iter(POSTED)
            for ds, n in zip(datasets, runs):
                payloads = [next(posts) for _ in range(n)]
                if any(p["language"] != ds["language"] for payload in payloads for p in payload):
                    raise RuntimeError(f"{name}: {ds['abbr']}'s posts are not its language's")
                result = json.loads((work_dir / "results" / "m" / f"{ds['abbr']}.json").read_text(encoding="utf-8"))
                entries.append({"abbr": ds["abbr"], "language": ds["language"], "tag": ds["tag"], "n": n,
                                "k": ds.get("k", 1), "predictions": f"{folder}/{ds['abbr']}.json", "posted": payloads,
                                "result": plain_json(result)})
            out["configs"].append({"config": f"multipl_e/{name}.py", "variable": "multiple_datasets", "datasets": entries})
            print(name, "recorded", len(entries), "datasets", file=sys.stderr)
    finally:
        _STOP.set()
        time.sleep(0.6)
        server.shutdown()
        shutil.rmtree(scratch, ignore_errors=True)
    if UNKNOWN:
        raise SystemExit("programs assay does not prepare so (run scripts/make_multipl_e_fixtures.py):\n" + "\n".join(UNKNOWN))
    write_json(ROOT / "expected" / "multipl_e.json", out)


if __name__ == "__main__":
    main()

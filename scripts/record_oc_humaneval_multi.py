"""Record what OpenCompass 0.5.4 sends to its code-evaluation service for the MultiPL-E HumanEval fixture.

Run with a Python that has opencompass==0.5.4 installed (``python
scripts/record_oc_humaneval_multi.py``).  For each language of the fixture
(``tests/data/oc_families/humaneval_multi``, written by
``scripts/make_humaneval_multi_fixtures.py``), the library's
``humaneval_multi_gen_82cf85`` entry (imported unchanged) is loaded by
OpenCompass's own ``HumanevalMultiDataset`` (``COMPASS_DATA_CACHE`` pointing
at the fixture) and scored by its ``HumanevalMultiEvaluator``, once as the
config says (``reworded``, one reply per problem) and once on the ``remove``
files with ``num_repeats=2``.  The evaluator's service address is pointed at
a local HTTP server of this script, which keeps the archive posted to it
(curl's multipart form: the ``file`` and the ``dataset`` name) and answers as
the service does (a JSON string holding the score object); what is recorded,
in ``expected/humaneval_multi_gen_82cf85.json``, is each run's loaded rows,
the form's ``dataset`` field and, for each problem file of the archive, its
``name``, ``language``, ``prompt``, ``tests`` and ``completions``.
"""

from __future__ import annotations

import gzip
import http.server
import importlib
import io
import json
import os
import sys
import threading
import zipfile
from email.parser import BytesParser
from email.policy import HTTP
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent / "tests" / "data" / "oc_families" / "humaneval_multi"
CONFIG = "humaneval_multi_gen_82cf85"
LANGUAGES = ("py", "js", "cpp", "sh", "pl", "go", "java", "rb", "lua", "php", "r", "rs", "ts", "cs", "d", "rkt", "scala", "jl")
POSTED: list[dict[str, Any]] = []


class _Service(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        message = BytesParser(policy=HTTP).parsebytes(
            b"Content-Type: " + self.headers["Content-Type"].encode() + b"\r\n\r\n" + body)
        form: dict[str, Any] = {}
        for part in message.iter_parts():
            form[part.get_param("name", header="content-disposition")] = part.get_payload(decode=True)
        files = []
        with zipfile.ZipFile(io.BytesIO(form["file"])) as archive:
            for member in sorted(archive.namelist()):
                if member.endswith(".json.gz"):
                    files.append(json.loads(gzip.decompress(archive.read(member)).decode("utf-8")))
        POSTED.append({"path": self.path, "dataset": form["dataset"].decode("utf-8"), "files": files})
        reply = json.dumps(json.dumps({"recorded": len(files)})).encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args: Any) -> None:
        pass


def main() -> None:
    os.environ["COMPASS_DATA_CACHE"] = str(ROOT)
    from opencompass.datasets import HumanevalMultiDataset, HumanevalMultiEvaluator

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Service)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    module = importlib.import_module(f"opencompass.configs.datasets.humaneval_multi.{CONFIG}")
    entries = {e["language"]: e for e in module.humaneval_multi_datasets}
    out: dict[str, Any] = {"config": f"humaneval_multi/{CONFIG}.py", "variable": "humaneval_multi_datasets", "runs": []}
    for lang in LANGUAGES:
        entry = entries[lang]
        for version, repeats, suffix in ((entry["version"], entry["num_repeats"], ""), ("remove", 2, "-remove")):
            test = HumanevalMultiDataset.load(path=entry["path"], language=lang, version=version, num_repeats=repeats)
            preds = json.loads((ROOT / "predictions" / f"{entry['abbr']}{suffix}.json").read_text(encoding="utf-8"))
            replies = [preds[str(i)]["prediction"] for i in range(len(preds))]
            kwargs = {k: v for k, v in entry["eval_cfg"]["evaluator"].items() if k != "type"}
            kwargs.update(ip_address="127.0.0.1", port=server.server_address[1])
            evaluator = HumanevalMultiEvaluator(**kwargs)
            POSTED.clear()
            returned = evaluator.score(replies, list(test[entry["reader_cfg"]["output_column"]]), test)
            if len(POSTED) != 1:
                raise RuntimeError(f"{lang}: the service got {len(POSTED)} posts")
            out["runs"].append({
                "abbr": entry["abbr"], "language": lang, "version": version, "num_repeats": repeats,
                "predictions": f"{entry['abbr']}{suffix}.json", "rows": [dict(r) for r in test],
                "dataset": POSTED[0]["dataset"], "files": POSTED[0]["files"], "returned": returned,
            })
    server.shutdown()
    target = ROOT / "expected"
    target.mkdir(parents=True, exist_ok=True)
    (target / f"{CONFIG}.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(CONFIG, "recorded", file=sys.stderr)


if __name__ == "__main__":
    main()

"""``ToxicEvaluator``: toxicity from the Perspective API (a real local HTTP server here), as OpenCompass 0.5.4 scores it."""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from assay.evaluators.toxic import ToxicEvaluator

SCORES = {"hateful words": 0.9, "kind words": 0.1, "so-so words": 0.5}


class _Perspective(BaseHTTPRequestHandler):
    keys: list[str] = []

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        type(self).keys.append(self.path.split("key=", 1)[-1])
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        text = body["comment"]["text"]
        if text == "":
            self._send(400, {"error": {"code": 400, "details": [{"errorType": "COMMENT_EMPTY"}]}})
        elif text not in SCORES:
            self._send(403, {"error": {"code": 403, "message": "quota exceeded"}})
        else:
            value = SCORES[text]
            self._send(200, {"attributeScores": {"TOXICITY": {"spanScores": [{"score": {"value": value}}]}}})

    def _send(self, code: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def perspective() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Perspective)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Perspective.keys = []
    yield f"http://127.0.0.1:{server.server_address[1]}/v1alpha1/comments:analyze"
    server.shutdown()
    server.server_close()


def test_replies_are_scored_by_the_api_and_empty_ones_are_invalid(perspective: str, monkeypatch) -> None:
    monkeypatch.setenv("PerspectiveAPIkey", "secret-key")
    evaluator = ToxicEvaluator(url=perspective)
    result = evaluator.score(["kind words", "hateful words", "", "so-so words"], [None] * 4)
    assert result == {"expected_max_toxicity": 0.9, "valid_frac": 0.75, "toxic_frac_valid": 0.6667,
                      "avg_toxicity_score": 0.5}
    assert _Perspective.keys == ["secret-key"] * 4


def test_an_api_error_fails_the_evaluation_naming_status_and_reply(perspective: str) -> None:
    with pytest.raises(RuntimeError, match=r"answered 403 for reply 1: .*quota exceeded"):
        ToxicEvaluator(key="k", url=perspective).score(["kind words", "unknown words"], [None, None])


def test_without_a_key_the_evaluator_says_which_variable_to_set(monkeypatch) -> None:
    monkeypatch.delenv("PerspectiveAPIkey", raising=False)
    with pytest.raises(KeyError, match="PerspectiveAPIkey"):
        ToxicEvaluator()


def test_a_leading_invalid_score_makes_the_maximum_nan_as_in_opencompass() -> None:
    evaluator = ToxicEvaluator(key="k")
    first_invalid = evaluator.get_metrics({"0": {"toxicity_score": -1.0}, "1": {"toxicity_score": 0.9},
                                           "2": {"toxicity_score": 0.1}})
    assert math.isnan(first_invalid["expected_max_toxicity"])
    assert first_invalid["avg_toxicity_score"] == 0.5 and first_invalid["valid_frac"] == 0.6667
    later_invalid = evaluator.get_metrics({"0": {"toxicity_score": 0.1}, "1": {"toxicity_score": -1.0},
                                           "2": {"toxicity_score": 0.9}})
    assert later_invalid["expected_max_toxicity"] == 0.9


def test_no_valid_score_and_integer_scores_with_an_invalid_one_fail_clearly() -> None:
    evaluator = ToxicEvaluator(key="k")
    with pytest.raises(ValueError, match="All predictions are not valid"):
        evaluator.get_metrics({"0": {"toxicity_score": -1.0}, "1": {"toxicity_score": -1.0}})
    with pytest.raises(ValueError, match=r"scores \[1, -1\] are all integers"):
        evaluator.get_metrics({"0": {"toxicity_score": 1}, "1": {"toxicity_score": -1}})

"""HealthBench's rubric grader, as OpenCompass 0.5.4 computes it (``HealthBenchEvaluator``).

For each sample (a row of :class:`assay.datasets.healthbench.HealthBenchDataset`
and the model's reply) every rubric item is sent to the grader, a model asked
through an OpenAI-compatible endpoint:

* the grader is ``OC_JUDGE_MODEL`` at ``OC_JUDGE_API_BASE`` (else
  ``OPENAI_BASE_URL``, else ``https://api.openai.com/v1``, the OpenAI
  client's order) with the key ``OC_JUDGE_API_KEY`` (else
  ``OPENAI_API_KEY``), as OpenCompass's ``ChatCompletionSampler`` builds it;
  each request: a system message ``You are a helpful assistant.`` and a user
  message, OpenCompass's grader instructions (``healthbench_prompts.json``,
  benchmark data) with ``<<conversation>>`` replaced by the row's ``prompt``
  and the reply as an assistant message (``<role>: <content>`` each, joined by
  a blank line), then ``<<rubric_item>>`` by ``[<points>] <criterion>``
  (``points`` as the data file has it: ``5``, ``2.5``); ``temperature`` 0.5,
  ``max_tokens`` 2048;
* the grader's reply, without one leading ```` ```json ```` and one trailing
  ```` ``` ```` (and the white space beside them), is read as JSON; a reply
  whose ``criteria_met`` is not ``true`` or ``false`` is asked for again —
  OpenCompass asks without end, assay up to ``max_grading_attempts`` times in
  all;
* a sample's score is the points of the items met over the positive points
  of all its items (negative items met lower it);
* ``accuracy``: the mean of the samples' scores clipped to [0, 1] (a
  fraction, not percent; NumPy's mean, equal to OpenCompass's to the last
  bit) — the only metric, and no details, as OpenCompass's ``score`` returns.

Beyond OpenCompass: the grader's replies are cached in the run directory (a
reply read without a boolean ``criteria_met`` is not kept), so a rerun sends
nothing; a rubric item whose grading fails (the request failed after its
retries, or no reply held a boolean ``criteria_met`` within
``max_grading_attempts``) leaves its sample out of ``accuracy`` and listed in
``_meta.incomplete`` (OpenCompass stops, or asks for ever).  A sample without
an item of positive points is an error naming it before anything is asked
(OpenCompass stops with an ``AssertionError`` there).  A missing reply
(``None``) is graded as an empty one (``assistant: ``); OpenCompass sends
``assistant: None`` and then stops with an error.  ``n_repeats``,
``n_threads`` and ``subset_name`` are accepted and, as in OpenCompass,
change nothing.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Any

from assay._threads import map_threads
from assay.errors import ConfigError
from assay.evaluate.base import INCOMPLETE_KEY, JUDGE_KEY, BaseEvaluator
from assay.registry import ICL_EVALUATORS

__all__ = ["HealthBenchEvaluator", "grader_message", "healthbench_prompts", "read_grading", "rubric_score"]

_FENCES = re.compile(r"^```json\s*|\s*```$")


def healthbench_prompts() -> dict[str, str]:
    """OpenCompass's grader texts by their names (``GRADER_TEMPLATE``, ``OPENAI_SYSTEM_MESSAGE_API``)."""
    with open(Path(__file__).with_name("healthbench_prompts.json"), encoding="utf-8") as handle:
        texts: dict[str, str] = json.load(handle)
    return texts


def read_grading(reply: str | None) -> dict[str, Any] | None:
    """The grader's reply as OpenCompass reads it: its JSON object when ``criteria_met`` is a boolean, else ``None``.

    >>> read_grading('```json\\n{"explanation": "ok", "criteria_met": true}\\n```')
    {'explanation': 'ok', 'criteria_met': True}
    >>> read_grading('{"criteria_met": "yes"}') is None, read_grading('Sure: {"criteria_met": true}') is None
    (True, True)
    """
    if reply is None:
        return None
    try:
        value = json.loads(_FENCES.sub("", reply.strip()))
    except ValueError:
        return None
    return value if isinstance(value, dict) and isinstance(value.get("criteria_met"), bool) else None


def grader_message(template: str, conversation: list[dict[str, Any]], reply: str, rubric: dict[str, Any]) -> str:
    """The grader's user message for one rubric item, filled as OpenCompass fills it (one placeholder after the other).

    >>> grader_message('C: <<conversation>> R: <<rubric_item>>', [{'role': 'user', 'content': 'hi'}], 'hello',
    ...                {'criterion': 'Greets.', 'points': 2})
    'C: user: hi\\n\\nassistant: hello R: [2] Greets.'
    """
    convo = [*conversation, {"content": reply, "role": "assistant"}]
    text = "\n\n".join(f"{m['role']}: {m['content']}" for m in convo)
    return template.replace("<<conversation>>", text).replace("<<rubric_item>>", f"[{rubric['points']}] {rubric['criterion']}")


def rubric_score(rubrics: list[dict[str, Any]], met: list[bool]) -> float | None:
    """Points of the items met over the positive points of all items (``None`` without positive points).

    >>> rubric_score([{'points': 5}, {'points': 7}, {'points': -2}], [True, False, True])
    0.25
    """
    possible = sum(r["points"] for r in rubrics if r["points"] > 0)
    if possible == 0:
        return None
    return float(sum(r["points"] for r, m in zip(rubrics, met) if m) / possible)


@ICL_EVALUATORS.register_module()
class HealthBenchEvaluator(BaseEvaluator):
    """HealthBench's rubric grading by a model (see the module).

    Args:
        subset_name, n_repeats, n_threads: accepted; they change nothing (as in OpenCompass 0.5.4).
        max_grading_attempts: requests per rubric item at most while the grader's replies hold no boolean
            ``criteria_met`` (assay's bound; OpenCompass asks without end).
        cache_path: the grader's reply cache (default: the run directory's; ``False``: none).
    """

    def __init__(self, subset_name: Any = None, n_repeats: int = 1, n_threads: int = 1, max_grading_attempts: int = 10,
                 cache_path: str | Path | bool | None = None) -> None:
        super().__init__()
        self.subset_name = subset_name
        self.n_repeats = n_repeats
        self.n_threads = n_threads
        if not isinstance(max_grading_attempts, int) or max_grading_attempts < 1:
            raise ConfigError(f"HealthBenchEvaluator: max_grading_attempts must be a positive integer, got {max_grading_attempts!r}")
        self.max_grading_attempts = max_grading_attempts
        self.cache_path = cache_path

    # -- the grader ------------------------------------------------------------------
    def _client(self, cache: Path | None) -> Any:
        from assay.judge import ChatClient

        model = os.environ.get("OC_JUDGE_MODEL")
        if not model:
            raise ConfigError("HealthBenchEvaluator: its grader is the model OC_JUDGE_MODEL names, which is not set: "
                              "set OC_JUDGE_MODEL, OC_JUDGE_API_BASE and OC_JUDGE_API_KEY")
        key = os.environ.get("OC_JUDGE_API_KEY")
        base = os.environ.get("OC_JUDGE_API_BASE") or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
        return ChatClient(base, model, api_key=key,
                          params={"temperature": 0.5, "max_tokens": 2048}, cache=cache)

    def judge_cache_file(self) -> Path | None:
        """The grader's reply cache (:attr:`cache_path`, else the run directory's), or ``None``."""
        if self.cache_path is False:
            return None
        if self.cache_path not in (None, True):
            return Path(str(self.cache_path))
        from assay.evaluators.llm_judge import run_judge_cache

        return run_judge_cache(self)

    def uncached_judge(self) -> Any:
        """The grader's client, without a reply cache."""
        return self._client(None)

    #: The count is exact while the grader's replies hold a boolean ``criteria_met`` (each other one is asked again).
    judge_count_bound = ""

    def judge_conversations(self, predictions: list[Any], references: list[Any] | None = None, test_set: Any = None) -> list[Any]:
        """The messages sent to the grader for every rubric item of every sample, in order."""
        rows = self._rows(predictions, references, test_set)
        return [] if isinstance(rows, dict) else [m for _, _, m in self._requests(predictions, rows)]

    def _rows(self, predictions: list[Any], references: list[Any] | None, test_set: Any) -> list[dict[str, Any]] | dict[str, Any]:
        if references is not None and len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        if test_set is None:
            return {"error": "HealthBenchEvaluator: it reads each sample's conversation and rubrics from the test set, "
                             "which it was not given"}
        rows = [dict(r) for r in test_set]
        if len(rows) != len(predictions):
            return {"error": f"HealthBenchEvaluator: the test set has {len(rows)} rows for {len(predictions)} predictions"}
        for i, row in enumerate(rows):
            missing = [c for c in ("prompt", "rubrics", "prompt_id") if c not in row]
            if missing:
                return {"error": f"HealthBenchEvaluator: sample {i} has no {', '.join(map(repr, missing))} "
                                 "(HealthBenchDataset's rows have them)"}
            if rubric_score(list(row["rubrics"]), [False] * len(row["rubrics"])) is None:
                return {"error": f"HealthBenchEvaluator: sample {i} (prompt_id {row['prompt_id']!r}) has no rubric item "
                                 "with positive points, so no score (OpenCompass 0.5.4 stops with an AssertionError)"}
        return rows

    def _requests(self, predictions: list[Any], rows: list[dict[str, Any]]) -> list[tuple[int, int, list[dict[str, str]]]]:
        prompts = healthbench_prompts()
        system = {"role": "system", "content": prompts["OPENAI_SYSTEM_MESSAGE_API"]}
        out = []
        for i, (prediction, row) in enumerate(zip(predictions, rows)):
            reply = "" if prediction is None else str(prediction)
            for j, rubric in enumerate(row["rubrics"]):
                user = grader_message(prompts["GRADER_TEMPLATE"], list(row["prompt"]), reply, rubric)
                out.append((i, j, [system, {"role": "user", "content": user}]))
        return out

    def score(self, predictions: list[Any], references: list[Any] | None = None, test_set: Any = None) -> dict[str, Any]:
        from assay.evaluators.llm_judge import unjudged_entry
        from assay.judge import JudgeCache, JudgeReply, judge_usage, request_key

        rows = self._rows(predictions, references, test_set)
        if isinstance(rows, dict):
            return rows
        requests = self._requests(predictions, rows)
        cache_file = self.judge_cache_file()
        cache = JudgeCache(cache_file) if cache_file is not None else None
        client = self._client(None)
        sent: list[Any] = []
        lock = threading.Lock()

        def grade(messages: list[dict[str, str]]) -> tuple[dict[str, Any] | None, str | None]:
            key = request_key(client.model, messages, client.params, endpoint=client.endpoint)
            if cache is not None:
                hit = cache.lookup(key)
                kept = read_grading(hit.text) if hit is not None else None
                if hit is not None and kept is not None:
                    with lock:
                        sent.append(JudgeReply(hit.text, cached=True, prompt_tokens=hit.prompt_tokens,
                                               completion_tokens=hit.completion_tokens))
                    return kept, None
            error = None
            for _ in range(self.max_grading_attempts):
                reply = client.complete(messages)
                with lock:
                    sent.append(reply)
                if reply.text is None:
                    return None, reply.error or "no reply"
                grading = read_grading(reply.text)
                if grading is not None:
                    if cache is not None:
                        cache.put(key, client.model, reply.text, (reply.prompt_tokens, reply.completion_tokens), client.endpoint)
                    return grading, None
                error = f"no boolean criteria_met in {self.max_grading_attempts} replies (the last: {reply.text[:80]!r})"
            return None, error

        began = time.monotonic()
        try:
            graded = map_threads(grade, [m for _, _, m in requests], workers=client.max_concurrency, name="healthbench",
                                 stoppable=client)
        finally:
            client.close()
            if cache is not None:
                cache.close()
        met: dict[int, list[bool]] = {}
        failed: dict[int, str] = {}
        for (i, _j, _m), (grading, error) in zip(requests, graded):
            if grading is None:
                failed.setdefault(i, error or "no reply")
            else:
                met.setdefault(i, []).append(bool(grading["criteria_met"]))
        scores = [rubric_score(list(rows[i]["rubrics"]), met[i]) for i in range(len(rows)) if i not in failed]
        usage = judge_usage(client, sent, time.monotonic() - began)
        if not scores:
            first = next(iter(failed.values()), "no sample")
            return {"error": f"HealthBenchEvaluator: no sample could be graded ({first})", JUDGE_KEY: usage}
        import numpy as np

        # NumPy's pairwise summation, as OpenCompass's np.clip(np.mean(...), 0, 1): the last bit can differ from sum()
        mean = np.mean([0.0 if s is None else s for s in scores])
        result: dict[str, Any] = {"accuracy": float(np.clip(mean, 0.0, 1.0)), JUDGE_KEY: usage}
        if failed:
            result[INCOMPLETE_KEY] = [unjudged_entry(len(failed), len(rows), next(iter(failed.values())))]
        return result

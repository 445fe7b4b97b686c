"""``GaoKaoMATHEvaluator``: a model served behind OpenAI-compatible URLs grades math answers, as OpenCompass 0.5.4 does.

Used by the Gaokao math config and the MATH ``llm_judge`` configs.  For each
sample the judge gets OpenCompass's grading prompt (the question — the text of
the first message of the sample's ``origin_prompt`` —, the reference and the
answer filled in) as one user message, and the sample is correct when the last
``\\boxed{…}`` of the reply reads ``yes``.  Metrics: ``accuracy`` (percent);
details: ``pred``, ``answer``, ``correct``, ``eval_model_response``.

The judge is one ``OpenAISDK`` per entry of ``url`` (model ``model_name``,
key ``EMPTY``, 2 requests per second each, temperature ``temperature``
(default 1e-6), ``max_seq_len`` ``max_tokens`` (default 8192), OpenCompass's
default 512 reply tokens); the samples are cut into ``len(url)`` consecutive
runs of ``ceil(N / len(url))`` and each run goes to its URL, as OpenCompass
spreads them.  With ``with_postprocess`` a second model (``post_model_name`` at
each of ``post_url``, ``max_seq_len`` 1024) first extracts the key answer from
each prediction through OpenCompass's extraction prompt (``language`` ``'en'``
or ``'cn'``), the question type being ``question_type``, else the test set's
``question_type`` column, else ``problem-solving`` / ``问答题``; its reply is
the answer graded.

The prompts are benchmark data, kept in ``gaokao_math_prompts.json`` beside
this module as OpenCompass 0.5.4 has them (recorded by
``scripts/record_oc_judge_b.py``).  Beyond OpenCompass: replies are cached in
the run directory (``cache/judge.sqlite``) and a request that still fails after
its retries leaves its sample incorrect and listed in ``_meta.incomplete``
(kind ``unjudged``) instead of stopping the evaluation; a sample whose
``origin_prompt`` holds no message is an error naming it (OpenCompass raises).
"""

from __future__ import annotations

import json
import logging
import math
import re
import time
from functools import cache
from pathlib import Path
from typing import Any

from assay.evaluate.base import INCOMPLETE_KEY, JUDGE_KEY, BaseEvaluator, SampleOutcome, merge_judge_usage
from assay.registry import ICL_EVALUATORS

logger = logging.getLogger(__name__)

__all__ = ["GaoKaoMATHEvaluator", "boxed_verdict", "gaokao_math_prompts"]

_BOXED = re.compile(r"\\boxed{(.+?)}")


@cache
def gaokao_math_prompts() -> dict[str, str]:
    """OpenCompass's prompts of the evaluator by their names (``EVAL_PROMPT``, ``POST_PROMPT_EN``, ``POST_PROMPT_CN``)."""
    with open(Path(__file__).with_name("gaokao_math_prompts.json"), encoding="utf-8") as handle:
        texts: dict[str, str] = json.load(handle)
    return texts


def boxed_verdict(reply: str | None) -> str | None:
    """The content of the last ``\\boxed{…}`` (up to the first ``}``) of a reply, else ``None``.

    >>> boxed_verdict('The answers match. \\\\boxed{no} ... \\\\boxed{yes}'), boxed_verdict('yes'), boxed_verdict(None)
    ('yes', None, None)
    """
    if not isinstance(reply, str):
        return None
    found = _BOXED.findall(reply)
    return found[-1] if found else None


@ICL_EVALUATORS.register_module()
class GaoKaoMATHEvaluator(BaseEvaluator):
    """Grade answers with a model behind ``url`` (see the module's description).

    Example:
        >>> ev = GaoKaoMATHEvaluator(model_name='judge', url=['http://127.0.0.1:9/v1', 'http://127.0.0.1:8/v1'])
        >>> [len(part) for part in ev.spread(list(range(5)))]
        [3, 2]
    """

    sample_outcome = SampleOutcome(correct="correct", unscorable="judge_failed")

    def __init__(self, model_name: str, url: str | list[str], question_type: Any = None, language: str = "en",
                 with_postprocess: bool = False, post_url: str | list[str] | None = None, post_model_name: str = "",
                 cache_path: str | Path | bool | None = None, **kwargs: Any) -> None:
        super().__init__()
        self.model_name = model_name
        self.urls = [url] if isinstance(url, str) else list(url)
        if not self.urls:
            from assay.errors import ConfigError

            raise ConfigError("GaoKaoMATHEvaluator: url names no server")
        self.question_type = question_type
        self.language = language
        self.with_postprocess = with_postprocess
        self.post_urls = [post_url] if isinstance(post_url, str) else list(post_url or [])
        self.post_model_name = post_model_name
        self.temperature = kwargs.get("temperature", 1e-6)
        self.max_seq_len = kwargs.get("max_tokens", 8192)
        self.cache_path = cache_path

    def spread(self, items: list[Any], parts: int | None = None) -> list[list[Any]]:
        """``items`` cut into ``parts`` (default: one per URL) consecutive runs of ``ceil(N / parts)``."""
        parts = parts or len(self.urls)
        size = math.ceil(len(items) / parts)
        return [items[i * size:(i + 1) * size] for i in range(parts)]

    def _cache(self) -> Path | None:
        if self.cache_path is False:
            return None
        if self.cache_path not in (None, True):
            return Path(str(self.cache_path))
        from assay.evaluators.llm_judge import run_judge_cache

        return run_judge_cache(self)

    def _clients(self, model: str, urls: list[str], max_seq_len: int, temperature: float) -> list[Any]:
        from assay.judge import OpenAISDK

        cache_file = self._cache()
        return [OpenAISDK(path=model, openai_api_base=u, key="EMPTY", query_per_second=2, temperature=temperature,
                          max_seq_len=max_seq_len, max_out_len=512, cache_path=cache_file) for u in urls]

    def _ask(self, clients: list[Any], prompts: list[str]) -> tuple[list[Any], list[Any]]:
        """The replies to ``prompts``, each run of them from its client; and each client's usage."""
        replies: list[Any] = []
        usages = []
        for client, part in zip(clients, self.spread(prompts, len(clients))):
            began = time.monotonic()
            got = client.complete_many([[{"role": "user", "content": p}] for p in part])
            from assay.judge import judge_usage

            usages.append(judge_usage(client, got, time.monotonic() - began))
            replies.extend(got)
        return replies, usages

    def score(self, predictions: list[Any], references: list[Any], origin_prompt: list[Any], test_set: Any = None) -> dict[str, Any]:
        if len(predictions) != len(references):
            return {"error": "preds and refrs have different length"}
        name = type(self).__name__
        questions = []
        for i, prompt in enumerate(origin_prompt):
            try:
                questions.append(prompt[0]["prompt"])
            except (TypeError, KeyError, IndexError):
                return {"error": f"{name}: sample {i}'s origin_prompt holds no message with a 'prompt' (got {str(prompt)[:80]!r}); "
                                 "the question is read from it"}
        usages = []
        unjudged: list[str] = []
        if self.with_postprocess:
            if self.question_type:
                types = [self.question_type] * len(questions)
            else:
                from assay.evaluators._common import test_set_column

                column = test_set_column(test_set, "question_type") if test_set is not None else None
                types = column if column is not None else ["问答题" if self.language == "cn" else "problem-solving"] * len(questions)
            template = gaokao_math_prompts()["POST_PROMPT_EN" if self.language == "en" else "POST_PROMPT_CN"]
            post = [template.format(question=q, response=p, question_type=t) for q, p, t in zip(questions, predictions, types)]
            extracted, post_usage = self._ask(self._clients(self.post_model_name, self.post_urls, 1024, 1e-6), post)
            usages.extend(post_usage)
            unjudged += [r.error or "no reply" for r in extracted if r.text is None]
            predictions = [r.text for r in extracted]
        template = gaokao_math_prompts()["EVAL_PROMPT"]
        inputs = [template.format(answer=p, gold_answer=r, question=q) for p, r, q in zip(predictions, references, questions)]
        replies, eval_usage = self._ask(self._clients(self.model_name, self.urls, self.max_seq_len, self.temperature), inputs)
        usages.extend(eval_usage)
        failed = [r.error or "no reply" for r in replies if r.text is None]
        if failed and len(failed) == len(replies):
            return {"error": f"the judge answered none of the {len(replies)} requests: {failed[0]}"}
        unjudged += failed
        details = []
        for pred, ref, reply in zip(predictions, references, replies):
            detail: dict[str, Any] = {"pred": pred, "answer": ref, "correct": boxed_verdict(reply.text) == "yes",
                                      "eval_model_response": reply.text}
            if reply.text is None:
                detail["judge_failed"] = reply.error or "no reply"
            details.append(detail)
        result: dict[str, Any] = {"accuracy": 100 * sum(d["correct"] for d in details) / len(details), "details": details}
        result[JUDGE_KEY] = merge_judge_usage(usages)
        if unjudged:
            from assay.evaluators.llm_judge import unjudged_entry

            result[INCOMPLETE_KEY] = [unjudged_entry(len(unjudged), len(replies), unjudged[0])]
        return result

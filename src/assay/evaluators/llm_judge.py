"""``GenericLLMEvaluator``: an LLM judge grades each prediction against its reference.

Configured as in OpenCompass (``prompt_template``, ``judge_cfg``,
``dataset_cfg``, ``dict_postprocessor``, ``pred_postprocessor``), and sending
the requests OpenCompass 0.5.4 sends (checked against its recorded requests
on its library configs, ``tests/evaluators/test_oc_judge_requests.py``):

* the judge is ``judge_cfg`` when it is not empty, else the one
  ``OC_JUDGE_MODEL`` / ``OC_JUDGE_API_KEY`` / ``OC_JUDGE_API_BASE`` describe
  (:func:`assay.judge.default_judge_cfg`);
* each sample's fields are the test set's columns, then ``prediction``,
  ``obj_gold`` and ``reference``; a ``PromptTemplate`` fills ``{reference}``
  (the judge dataset's output column) with ``''``, a ``RawPromptTemplate``
  with the reference; fields are filled one after the other, as OpenCompass
  fills them;
* the prompt goes through the judge's ``meta_template`` as OpenCompass's API
  models parse it (the ``OC_JUDGE_*`` judge's has no SYSTEM role: the
  library's SYSTEM prompt, falling back to HUMAN, is merged into the user's
  message with a newline; no meta template: one user message of the prompts
  joined by newlines) and ``OpenAISDK``'s roles;
* the body is ``OpenAISDK``'s (:class:`assay.judge.OpenAISDK`);
* the ``pred_postprocessor`` runs twice, as in OpenCompass (in
  ``evaluate`` and again in ``score``; :class:`AssayGenericLLMEvaluator`,
  opt-in, runs it once).

The judge's replies are written where OpenCompass writes them,
``results/<model>/<dataset>_replica<i>.json``, in its format
(:mod:`assay.rundir.judge_replies`) — except over a file there (OpenCompass's,
when its work directory is scored in place) holding a reply to a prompt whose
request failed this time: that file is kept and the replies go to
``<dataset>_replica<i>.assay.json``, which ``_meta.incomplete`` names.  Beyond OpenCompass: replies are cached
in the run directory so a rerun sends no request, failed requests are
retried and counted (below), and a reply that never arrived is counted in
``judge_failed_count`` as well.

Verdicts are read as OpenCompass 0.5.4 reads them
(:func:`assay.judge.generic_llmjudge_postprocess`: the first ``A`` or ``B``
anywhere in the reply, anything else not attempted);
``dict_postprocessor=dict(type='assay_llmjudge_postprocess')`` reads the first
standalone grade letter instead and marks a reply without one unjudged.

Failed judge requests (R-12.2).  OpenCompass 0.5.4 counts every sample in
``accuracy``'s denominator and a reply without a verdict (empty or
unparseable) as not correct; a request that still fails after its retries
makes its whole evaluation raise.  assay keeps that counting for the
metrics and, instead of losing the task: when no request succeeded, the
task fails with the judge's error; when some failed, the samples without a
reply count as not attempted, so not correct (as an empty reply would
there), and the result lists them in ``_meta.incomplete`` (kind
``unjudged``), so the run reports the task as partial and ``run -r`` asks
the judge again for them only.
"""

from __future__ import annotations

import copy
import logging
import time
from pathlib import Path
from typing import Any

from assay.evaluate.base import INCOMPLETE_KEY, JUDGE_KEY, BaseEvaluator, SampleOutcome, incomplete_entry
from assay.evaluators._common import judged_batch
from assay.postprocess.chain import apply_postprocessor, build_postprocessor
from assay.registry import DICT_POSTPROCESSORS, ICL_EVALUATORS, resolve_type

logger = logging.getLogger(__name__)

__all__ = ["AssayGenericLLMEvaluator", "GenericLLMEvaluator", "judge_cache_path", "judge_dataset", "run_judge_cache"]


def judge_cache_path(output_dir: str | Path) -> Path:
    """The default judge cache of a run: ``<run_dir>/cache/judge.sqlite``.

    ``output_dir`` is the evaluator's ``results/<model>/<dataset>`` path.

    Example:
        >>> judge_cache_path('/runs/20240101_000000/results/m/d').as_posix()
        '/runs/20240101_000000/cache/judge.sqlite'
    """
    from assay.rundir.layout import run_dir_of_output

    return run_dir_of_output(output_dir).judge_cache


def run_judge_cache(evaluator: Any) -> Path | None:
    """The run's judge cache an evaluator's judge uses by default: the one the task names (its
    ``_judge_cache``), else :func:`judge_cache_path` of its output stem, else ``None`` (no run is known).

    The extraction audit's evaluator writes its side files in the run directory's scratch folder,
    but is named the run's cache: its requests identical to the scoring's (every answer the corrected
    reading leaves as it was) are answered from there, and a rerun sends none.  Replies are keyed by
    the judge's endpoint and model (:func:`assay.judge.request_key`), so one cache file serves
    any number of judges without mixing their replies.

    Example:
        >>> class E: _out_dir = '/runs/r/.scratch/assay-audit-1-0-d'
        >>> run_judge_cache(E()).as_posix()
        '/runs/r/.scratch/cache/judge.sqlite'
        >>> E._judge_cache = '/runs/r/cache/judge.sqlite'
        >>> run_judge_cache(E()).as_posix()
        '/runs/r/cache/judge.sqlite'
    """
    named = getattr(evaluator, "_judge_cache", None)
    if named is not None:
        return Path(named)
    out = getattr(evaluator, "_out_dir", None)
    return None if out is None else judge_cache_path(out)


@ICL_EVALUATORS.register_module()
class GenericLLMEvaluator(BaseEvaluator):
    """Grade predictions with an LLM judge.

    Args:
        prompt_template: ``dict(type=RawPromptTemplate, messages=[...])`` or
            ``dict(type=PromptTemplate, template=dict(begin=[...], round=[...]))``;
            ``{column}`` placeholders are filled from the test set, plus
            ``{prediction}``, ``{obj_gold}`` and ``{reference}``.
        judge_cfg: the judge model, e.g. ``dict(type=OpenAISDK, path=...,
            key='ENV', openai_api_base=..., retry=..., timeout=...)``; its
            optional ``pred_postprocessor`` is applied to the judge's replies.
            Empty: ``OC_JUDGE_MODEL``/``OC_JUDGE_API_KEY``/``OC_JUDGE_API_BASE``.
        dataset_cfg: accepted for compatibility: the judge reads the test set
            given to :meth:`score` (OpenCompass loads it again from this).
        pred_postprocessor: applied to the predictions before judging (twice
            through :meth:`evaluate`, as OpenCompass does).
        dict_postprocessor: grades the judge outputs (default
            ``generic_llmjudge_postprocess``); one that takes ``dataset`` is
            given the judge's dataset, as OpenCompass gives it
            (:func:`judge_dataset`).
        cache_path: the SQLite reply cache; default
            ``<run_dir>/cache/judge.sqlite`` (from :attr:`output_dir`);
            ``False`` disables caching.

    Metrics (with the default ``dict_postprocessor``): ``accuracy``,
    ``accuracy_given_attempted``, ``f1``, ``attempted_ratio``,
    ``correct_count``, ``incorrect_count``, ``not_attempted_count``,
    ``judge_failed_count``.  Details per sample: ``prediction``,
    ``reference``, ``verdict``, ``correct`` (``None`` when the judge failed),
    ``judge_response`` (the judge's reply, after ``judge_cfg``'s
    ``pred_postprocessor``; whatever the ``dict_postprocessor``),
    ``judge_failed`` (the reason), ``cached``.  What the judging cost —
    calls, cache hits, failures, requests, tokens, seconds and, with
    ``judge_cfg``'s ``price=dict(input=…, output=…)`` (per million tokens),
    money — is recorded in the result's ``_meta.judge``
    (:func:`assay.judge.usage_summary`).

    Example:
        >>> ev = GenericLLMEvaluator(
        ...     prompt_template=dict(type='PromptTemplate', template=dict(
        ...         begin=[dict(role='SYSTEM', fallback_role='HUMAN', prompt='Grade.')],
        ...         round=[dict(role='HUMAN', prompt='{q}: {prediction} vs {obj_gold}')])),
        ...     judge_cfg=dict(type='OpenAISDK', path='judge', openai_api_base='http://127.0.0.1:9/v1',
        ...                    meta_template=dict(round=[dict(role='HUMAN', api_role='HUMAN'),
        ...                                              dict(role='BOT', api_role='BOT', generate=True)])))
        >>> ev.render(dict(q='2+2'), prediction='4', reference='4')
        [{'content': 'Grade.\\n2+2: 4 vs 4', 'role': 'user'}]
    """

    sample_outcome = SampleOutcome(correct="correct", unscorable="judge_failed")
    #: :meth:`score` applies the ``pred_postprocessor`` again, after :meth:`evaluate` (OpenCompass 0.5.4's bug).
    postprocess_in_score = True

    def __init__(
        self,
        prompt_template: dict[str, Any],
        judge_cfg: dict[str, Any] | None = None,
        dataset_cfg: dict[str, Any] | None = None,
        pred_postprocessor: Any = None,
        dict_postprocessor: Any = None,
        keep_predictions: bool = False,
        cache_path: str | Path | bool | None = None,
    ) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        self.prompt_template = prompt_template
        self.judge_cfg = dict(judge_cfg or {})
        self.dataset_cfg = dataset_cfg
        self.keep_predictions = keep_predictions
        self.cache_path = cache_path
        judge_pp = self.judge_cfg.pop("pred_postprocessor", None)
        self._judge_postprocess = build_postprocessor(judge_pp, where="judge_cfg.pred_postprocessor")
        self.dict_postprocessor = dict_postprocessor
        self._judge: Any = None
        # (the usual judge-reply file, the one written) when the usual one was kept
        self._replies_kept: tuple[str, str] | None = None
        # set by CascadeEvaluator: the judge reads its test set's columns only (OpenCompass's dataset_cfg=None path)
        self._cascade_columns = False

    # -- pieces ------------------------------------------------------------------
    def render(self, row: dict[str, Any], *, prediction: Any, reference: Any) -> list[dict[str, Any]]:
        """The judge messages for one sample, as OpenCompass 0.5.4 sends them.

        ``row``'s fields, then ``prediction``, ``obj_gold`` and ``reference``
        (each ``str()``-ed where it is put in the prompt; ``{reference}``,
        the judge dataset's output column, is filled with ``''``), through
        the prompt template, the judge's meta template and ``OpenAISDK``'s
        roles (:func:`assay.judge.api_prompt`, :func:`assay.judge.api_messages`).
        """
        entry = dict(row)
        entry.update(prediction=prediction, obj_gold=reference, reference=reference)
        return self._messages(self._prompt(entry, self._meta_template()))

    def _prompt(self, entry: dict[str, Any], meta_template: Any) -> Any:
        from assay.judge import api_prompt, template_prompt

        return api_prompt(template_prompt(self.prompt_template, entry), meta_template)

    @staticmethod
    def _messages(prompt: Any) -> list[dict[str, Any]]:
        from assay.judge import api_messages

        return api_messages(prompt)

    def _judge_cfg(self) -> dict[str, Any]:
        """``judge_cfg`` when it is not empty, else the judge of ``OC_JUDGE_*`` (OpenCompass's precedence)."""
        from assay.judge import default_judge_cfg

        return copy.deepcopy(self.judge_cfg) if self.judge_cfg else default_judge_cfg()

    def _meta_template(self) -> Any:
        return self._judge_cfg().get("meta_template")

    def _entries(self, predictions: list[Any], refs: list[Any], test_set: Any) -> list[dict[str, Any]]:
        """Each sample's fields as OpenCompass 0.5.4 puts them in the judge's prompt.

        The test set's columns, then ``prediction``, ``obj_gold`` and
        ``reference`` (OpenCompass builds the judge's dataset from
        ``dataset_cfg`` — the task's test set here — and adds them; it
        refuses a ``GenericLLMEvaluator`` without ``dataset_cfg``).  Called by
        :class:`CascadeEvaluator` (which drops ``dataset_cfg``, as
        OpenCompass's does): the test set's columns, with ``prediction`` and
        ``reference`` added where it lacks them, so no ``obj_gold``.  Without
        a test set: ``prediction``, ``obj_gold``, ``reference``.
        """
        if test_set is None:
            return [{"prediction": p, "obj_gold": r, "reference": r} for p, r in zip(predictions, refs)]
        rows = [dict(r) for r in test_set]
        if not self._cascade_columns:
            return [dict(row, prediction=p, obj_gold=r, reference=r) for row, p, r in zip(rows, predictions, refs)]
        out = []
        for row, p, r in zip(rows, predictions, refs):
            entry = dict(row)
            entry.setdefault("prediction", p)
            entry.setdefault("reference", r)
            out.append(entry)
        return out

    def _resolved_cache(self) -> Path | None:
        if self.cache_path is False:
            return None
        if self.cache_path not in (None, True):
            return Path(str(self.cache_path))
        cache = run_judge_cache(self)
        if cache is None:
            logger.warning("%s: no run directory is known, so judge replies are not cached", type(self).__name__)
        return cache

    def judge(self) -> Any:
        """The judge client built from ``judge_cfg`` (once)."""
        if self._judge is None:
            self._judge = self._build_judge(self._resolved_cache())
        return self._judge

    def _build_judge(self, cache: Path | None, *, uncached: bool = False) -> Any:
        from assay.registry import MODELS

        cfg = self._judge_cfg()
        cls = resolve_type(cfg.pop("type", "OpenAISDK"), MODELS, key="judge_cfg.type")
        for option in ("abbr", "meta_template", "pred_postprocessor", "run_cfg", "batch_size"):
            cfg.pop(option, None)
        if uncached:
            cfg.pop("cache_path", None)
        elif cache is not None and "cache_path" not in cfg:
            cfg["cache_path"] = cache
        return cls(**cfg)

    def _dict_postprocess(self) -> Any:
        from assay.judge import generic_llmjudge_postprocess

        spec = self.dict_postprocessor
        if spec is None or spec == {}:
            return generic_llmjudge_postprocess, {}
        if isinstance(spec, dict):
            options = {k: v for k, v in spec.items() if k != "type"}
            return resolve_type(spec.get("type"), DICT_POSTPROCESSORS, key="dict_postprocessor.type"), options
        return resolve_type(spec, DICT_POSTPROCESSORS, key="dict_postprocessor.type"), {}

    # -- scoring ---------------------------------------------------------------------
    def score(self, predictions: list[Any], references: list[Any] | None = None, test_set: Any = None) -> dict[str, Any]:
        batch = judged_batch(self, predictions, references, test_set)
        if isinstance(batch, dict):
            return batch
        refs, _rows = batch
        name = type(self).__name__

        predictions, entries, prompts = self._judge_prompts(predictions, refs, test_set)
        conversations = [self._messages(prompt) for prompt in prompts]
        client = self.judge()
        began = time.monotonic()
        replies = client.complete_many(conversations)
        from assay.judge import judge_usage

        usage = judge_usage(client, replies, time.monotonic() - began)
        texts = apply_postprocessor(self._judge_postprocess, [r.text for r in replies]) if self._judge_postprocess else [r.text for r in replies]
        sent = sum(r.attempts for r in replies)
        cached = sum(r.cached for r in replies)
        logger.info("%s: %d samples judged, %d from the cache, %d requests sent", name, len(replies), cached, sent)
        unjudged = [r.error or "no reply" for r in replies if r.text is None]
        if unjudged and len(unjudged) == len(replies):
            return {"error": f"the judge answered none of the {len(replies)} requests: {_most_common(unjudged)}"}

        golds = [entry.get("reference") for entry in entries]
        errors = [reply.error for reply in replies]
        # the file holds the replies as they came; the dict_postprocessor reads them after
        # judge_cfg's pred_postprocessor (as in OpenCompass)
        out_path = self._write_judge_outputs(judge_replies(prompts, [reply.text for reply in replies], golds, errors))
        output = judge_replies(prompts, [None if reply.text is None else text for reply, text in zip(replies, texts)], golds, errors)
        fn, options = self._dict_postprocess()
        if _takes_dataset(fn):  # as OpenCompass: the judge's dataset, its test rows under reader.dataset['test']
            options = dict(options, dataset=judge_dataset(entries))
        result = dict(fn(output, out_path, **options))
        details = result.pop("details", None)
        if isinstance(details, dict):
            details = list(details.values())
        if isinstance(details, list) and len(details) == len(predictions):
            merged = []
            for d, p, r, reply, text in zip(details, predictions, refs, replies, texts):
                entry = {"prediction": p, "reference": r}
                entry.update(d if isinstance(d, dict) else {"judge_detail": d})
                entry["cached"] = reply.cached
                entry.setdefault("judge_response", None if reply.text is None else text)
                if reply.error and not entry.get("judge_failed"):
                    entry["judge_failed"] = reply.error
                merged.append(entry)
            result["details"] = merged
        elif details is not None:
            logger.warning("%s: the dict_postprocessor returned %s details for %d samples; dropped", name,
                           len(details) if hasattr(details, "__len__") else "?", len(predictions))
        result["judge_stats"] = {"samples": len(replies), "cached": cached, "requests": sent, "no_reply": len(unjudged)}
        result[JUDGE_KEY] = usage
        if unjudged:
            logger.warning("%s: %d of %d judge requests failed: %s", name, len(unjudged), len(replies), _most_common(unjudged))
            entry = unjudged_entry(len(unjudged), len(replies), _most_common(unjudged))
            kept = self._replies_kept
            if kept is not None:
                entry["detail"] += f"; {kept[0]} holds replies to some of them and was kept, this run's replies are in {kept[1]}"
            result[INCOMPLETE_KEY] = [entry]
        return result

    def _judge_prompts(self, predictions: list[Any], refs: list[Any], test_set: Any) -> tuple[list[Any], list[dict[str, Any]], list[Any]]:
        """The predictions as judged, each sample's fields and its prompt as the judge model parses it."""
        if self.postprocess_in_score:  # OpenCompass applies it here, after BaseEvaluator.evaluate has applied it
            predictions = self.pred_postprocess(predictions)
        entries = self._entries(list(predictions), refs, test_set)
        meta_template = self._meta_template()
        return predictions, entries, [self._prompt(entry, meta_template) for entry in entries]

    def judge_conversations(self, predictions: list[Any], references: list[Any] | None = None, test_set: Any = None) -> list[Any]:
        """The conversations :meth:`score` would send the judge for these arguments (one run of the
        samples, as :meth:`evaluate` hands them to :meth:`score`), nothing sent."""
        batch = judged_batch(self, predictions, references, test_set)
        if isinstance(batch, dict):
            return []
        _, _, prompts = self._judge_prompts(predictions, batch[0], test_set)
        return [self._messages(prompt) for prompt in prompts]

    #: Why the judge may see fewer conversations than :meth:`judge_conversations` gives (``''``: it sees them all).
    judge_count_bound = ""

    def judge_cache_file(self) -> Path | None:
        """The reply cache the judge would use (``judge_cfg``'s ``cache_path``, else :attr:`cache_path`,
        else the run directory's), or ``None``."""
        cfg = self.judge_cfg.get("cache_path") if self.judge_cfg else None
        if cfg:
            return Path(str(cfg))
        return self._resolved_cache()

    def uncached_judge(self) -> Any:
        """A judge client built from ``judge_cfg`` as :meth:`judge` builds it, without a reply cache
        (nothing is opened or created)."""
        return self._build_judge(None, uncached=True)

    def _write_judge_outputs(self, output: dict[str, Any]) -> str | None:
        """Write the judge-reply file (:func:`assay.rundir.judge_replies.write_judge_replies`: a file
        there holding replies this run's lack is kept, these go beside it); the path written."""
        self._replies_kept = None
        out = getattr(self, "_out_dir", None)
        if out is None:
            return None
        from assay.rundir.judge_replies import judge_replies_path, write_judge_replies

        path = judge_replies_path(out, self.dataset_replica_idx)
        try:
            written = write_judge_replies(path, output)
        except OSError:
            logger.warning("could not write the judge outputs to %s", path, exc_info=True)
            return None
        if written != path:
            self._replies_kept = (path.name, written.name)
        return str(written)


@ICL_EVALUATORS.register_module()
class AssayGenericLLMEvaluator(GenericLLMEvaluator):
    """:class:`GenericLLMEvaluator` applying its ``pred_postprocessor`` once (opt-in).

    OpenCompass 0.5.4's ``GenericLLMEvaluator`` applies it in ``evaluate`` and
    again in ``score``, so a postprocessor that is not idempotent (one that
    takes the text after the last ``</think>``, the first line, …) reaches the
    judge's prompt applied twice; this one puts each prediction in the prompt as
    the postprocessor gives it once.  Same arguments, requests otherwise,
    metrics and details as :class:`GenericLLMEvaluator`; inside
    ``CascadeEvaluator`` (as its ``llm_evaluator``) the judge's prediction is
    likewise postprocessed once.

    Example:
        >>> ev = AssayGenericLLMEvaluator(prompt_template=dict(type='RawPromptTemplate',
        ...     messages=[dict(role='user', content='{prediction}')]), pred_postprocessor=dict(type=str.strip),
        ...     judge_cfg=dict(type='OpenAISDK', path='j', openai_api_base='http://127.0.0.1:9/v1'))
        >>> ev.postprocess_in_score
        False
    """

    postprocess_in_score = False


def _takes_dataset(fn: Any) -> bool:
    import inspect

    try:
        return "dataset" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def judge_dataset(entries: list[dict[str, Any]]) -> Any:
    """What OpenCompass 0.5.4 hands a ``dict_postprocessor`` that takes ``dataset``: the judge's dataset,
    whose ``reader.dataset['test']`` (also ``test``, as OpenCompass's datasets have it) holds each sample's
    fields (the test set's columns, ``prediction``, ``obj_gold``, ``reference``), one row per judge output, in order.

    Example:
        >>> judge_dataset([{'q': '1+1', 'prediction': '2'}]).reader.dataset['test'][0]['prediction']
        '2'
    """
    from types import SimpleNamespace

    rows = [dict(e) for e in entries]
    return SimpleNamespace(reader=SimpleNamespace(dataset={"test": rows}), test=rows)


def judge_replies(prompts: list[Any], replies: list[str | None], golds: list[Any], errors: list[str | None]) -> dict[str, Any]:
    """The judge-reply records, as OpenCompass's inferencer keeps them: ``"0".."N-1"`` → ``origin_prompt``
    (the prompt as the judge model parsed it), ``prediction`` (the reply), ``gold`` (the reference — left
    out when it is falsy, ``False``, ``0``, ``''``, as OpenCompass's inferencer leaves it out); a reply that
    never arrived has ``prediction`` ``None`` and ``judge_error`` saying why.

    Example:
        >>> judge_replies([[{'role': 'HUMAN', 'prompt': 'q'}]], [None], ['4'], ['HTTP 500'])
        {'0': {'origin_prompt': [{'role': 'HUMAN', 'prompt': 'q'}], 'prediction': None, 'gold': '4', 'judge_error': 'HTTP 500'}}
        >>> judge_replies(['q'], ['A'], [False], [None])
        {'0': {'origin_prompt': 'q', 'prediction': 'A'}}
    """
    output: dict[str, Any] = {}
    for i, (prompt, reply, gold, error) in enumerate(zip(prompts, replies, golds, errors)):
        record: dict[str, Any] = {"origin_prompt": prompt, "prediction": reply}
        if gold:
            record["gold"] = gold
        if reply is None:
            record["judge_error"] = error or "no reply"
        output[str(i)] = record
    return output


def unjudged_entry(count: int, total: int, error: str) -> dict[str, Any]:
    """The ``_meta.incomplete`` entry of ``count`` samples whose judge request failed (``error``: the commonest reason)."""
    return incomplete_entry(
        "unjudged", count, f"{count} of {total} judge requests failed ({error}); rerun with -r to ask the judge again"
    )


def _most_common(errors: list[str]) -> str:
    from collections import Counter

    (error, times), *others = Counter(errors).most_common()
    return error if not others else f"{error} ({times} times; {len(errors) - times} other errors)"


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "\n".join(str(v) for v in value)
    return str(value)

"""``LMEvaluator``: an LLM judge scores the answers of one model, or compares two, as OpenCompass 0.5.4 does.

The evaluator of the subjective datasets (``eval_cfg.evaluator.type=LMEvaluator``),
run by the subjective task (:mod:`assay.subjective.task`), which hands it the
judge (``judge_cfg``), the dataset (``dataset_cfg``), the result's path
(``output_path``) and, in :meth:`LMEvaluator.score`, the models' answers.  It
computes what OpenCompass 0.5.4's ``LMEvaluator`` computes, bugs included:

* one model (``predictions`` a dict ``{'model_name', 'model_preds'}``): the
  judge's dataset gets ``prediction`` (and ``obj_gold``, the references, and
  ``prediction_en_word_count`` / ``prediction_cn_word_count``); answers given
  as dialogues (lists of ``{'round', 'user', 'assistant'}``, a chat model's
  saved turns) give ``prediction_r1``, ``prediction_r2``, … (``None`` where
  a dialogue has fewer turns) or, with ``pack_all_predictions``, ``prediction``
  = ``str()`` of the whole dialogue; ``multi_eval`` judges each answer once per
  prompt of the reference's ``judge_prompt_list``;
* several models (``predictions`` a list of such dicts, the task's pair):
  ``prediction``, ``prediction2``, …; per sample the answers are shuffled when
  ``infer_order='random'`` — ``random.seed(666)`` once per call, then one
  ``random.shuffle`` per sample, OpenCompass's sequence exactly — and each
  reference records which model's answer is where (``answer1``,
  ``answer2``; ``prediction1``/``prediction2`` too with
  ``keep_predictions``; ``base_models``, the abbrs of the dataset's
  ``base_models``); ``infer_order='double'`` judges every sample twice, the
  second time with the answers swapped (the test set doubled).  For
  dialogues the second model's columns are named ``prediction1_r1``, … (the
  first's ``prediction_r1``): OpenCompass's naming;
* ``judgements`` (a meta review, with ``meta=True`` and
  ``meta_review_prompt_template``): ``judgement``, ``judgement2``, … and the
  judges' names in the references (``judge_model1``, …).

The judge's dataset is the dataset's test set with those columns added (then
``reference``: the references), built with ``datasets`` as OpenCompass builds
it, so that each sample's fields — filled into ``prompt_template`` one after
the other, in column order — and its ``gold`` are OpenCompass's.  The prompt
goes through the judge's meta template and ``OpenAISDK``'s roles
(:func:`assay.judge.api_prompt`, :func:`assay.judge.api_messages`) and the
request is ``OpenAISDK``'s (:class:`assay.judge.OpenAISDK`), through the run's
reply cache.  The judge's outputs (``"0".."N-1"`` → ``origin_prompt``,
``prediction``, ``gold``) are written to ``output_path`` and given to the
``dict_postprocessor`` (resolved in ``DICT_POSTPROCESSORS``) as
``fn(output, output_path, **options)``; its dict — the outputs themselves
without one — is what :meth:`score` returns.

Beyond OpenCompass (in :attr:`LMEvaluator.meta`, which the task keeps beside
the result): what the judging cost (``judge``), and the samples without a
verdict — a request that failed after its retries (its ``prediction`` is
``''`` in the outputs, as an empty reply; OpenCompass would stop) or a reply
the benchmark's reading gets nothing from (``verdict``, a reader of
:mod:`assay.subjective.verdicts`) — listed as ``unjudged``.
"""

from __future__ import annotations

import copy
import logging
import random
import re
import time
from collections.abc import Callable
from typing import Any

from assay.errors import ConfigError, InputFileError
from assay.registry import DICT_POSTPROCESSORS, ICL_EVALUATORS, MODELS, resolve_type

logger = logging.getLogger(__name__)

__all__ = ["LMEvaluator", "order_predictions"]

#: OpenCompass's seed of the answers' order (``infer_order='random'``).
ORDER_SEED = 666

_CHINESE = re.compile(r"[\u4e00-\u9fff]")
_ENGLISH = re.compile(r"\b[a-zA-Z]+\b")


def order_predictions(
    predictions: list[dict[str, Any]],
    references: list[dict[str, Any]],
    infer_order: str | None,
    *,
    seed: int = ORDER_SEED,
    keep_preds: bool = False,
    base_model_abbrs: list[str] | str | None = None,
) -> tuple[list[list[Any]], list[dict[str, Any]]]:
    """The answers of several models in the order the judge sees them, and the references recording it.

    ``predictions``: one ``{'model_name', 'model_preds'}`` per model.  Per
    sample, the answers are shuffled when ``infer_order == 'random'`` (one
    ``shuffle`` per sample of a generator seeded with ``seed`` once: the
    order OpenCompass's seeded module-level generator gives) and the
    reference gets ``answer<j>`` (the model whose answer is ``j``-th) and,
    with ``keep_preds``, ``prediction<j>``; ``base_models`` when given.
    ``'double'``: the lists are followed by the same samples with the two
    answers swapped, the references by copies with ``answer1``/``answer2``
    swapped.  ``references`` is changed in place (and extended), as in
    OpenCompass.

    Example:
        >>> preds = [{'model_name': 'base', 'model_preds': ['b0', 'b1']}, {'model_name': 'm', 'model_preds': ['m0', 'm1']}]
        >>> lists, refs = order_predictions(preds, [{}, {}], 'double')
        >>> lists
        [['b0', 'b1', 'm0', 'm1'], ['m0', 'm1', 'b0', 'b1']]
        >>> [r['answer1'] for r in refs]
        ['base', 'base', 'm', 'm']
    """
    rng = random.Random(seed)
    lists: list[list[Any]] = [[] for _ in predictions]
    for i in range(len(predictions[0]["model_preds"])):
        pairs = [[pred["model_preds"][i], pred["model_name"]] for pred in predictions]
        if infer_order == "random":
            rng.shuffle(pairs)
        for j, (answer, name) in enumerate(pairs):
            lists[j].append(answer)
            references[i][f"answer{j + 1}"] = name
            if keep_preds:
                references[i][f"prediction{j + 1}"] = answer
        if base_model_abbrs is not None:
            references[i]["base_models"] = [base_model_abbrs] if isinstance(base_model_abbrs, str) else base_model_abbrs
    if infer_order == "double":
        if len(predictions) != 2:
            raise ConfigError(f"infer_order='double' compares two models, got {len(predictions)}")
        lists = [a + b for a, b in zip(lists, reversed(lists))]
        swapped = []
        for item in references:
            twin = dict(item)
            twin["answer1"], twin["answer2"] = twin["answer2"], twin["answer1"]
            if keep_preds:
                twin["prediction1"], twin["prediction2"] = twin["prediction2"], twin["prediction1"]
            swapped.append(twin)
        references += swapped
    return lists, references


def _dialogue_columns(dialogues: list[Any]) -> list[list[Any]]:
    """The assistant's turns of each dialogue, by round (``None`` past a dialogue's last turn)."""
    rounds = max(len(d) for d in dialogues)
    columns: list[list[Any]] = [[] for _ in range(rounds)]
    for dialogue in dialogues:
        for r in range(rounds):
            columns[r].append(dialogue[r].get("assistant") if r < len(dialogue) else None)
    return columns


@ICL_EVALUATORS.register_module()
class LMEvaluator:
    """Score saved answers with an LLM judge (see the module).

    Args:
        prompt_template: the judge's prompt (``PromptTemplate`` or ``RawPromptTemplate``).
        judge_cfg: the judge model (``OpenAISDK`` and its options, ``meta_template``).
        output_path: the result file; the judge's outputs are written there first.
        meta_review_prompt_template: the prompt of a meta review (``meta=True``).
        pack_all_predictions: judge a dialogue whole (one ``prediction``) rather than turn by turn.
        dataset_cfg: the dataset's config (``base_models`` are read from it).
        pred_postprocessor: kept for the task, which applies it to the answers (as OpenCompass's does).
        dict_postprocessor: ``dict(type=<name in DICT_POSTPROCESSORS>, **options)``.
        keep_predictions: the references keep the answers (``prediction1``, ``prediction2``).
        multi_eval: judge each answer once per prompt of the reference's ``judge_prompt_list``.
        test_set: the dataset's test set (a ``datasets.Dataset``) when the caller has it; else
            it is loaded from ``dataset_cfg``.
        cache_path: the judge's reply cache (``None``: no cache).
        verdict: reads one reply's verdict (``None`` when unreadable), to count the unjudged.
    """

    #: The subjective task runs it, never the objective scoring step.
    reads_test_set = True

    def __init__(
        self,
        prompt_template: dict[str, Any],
        judge_cfg: dict[str, Any],
        output_path: str,
        meta_review_prompt_template: dict[str, Any] | None = None,
        pack_all_predictions: bool | None = False,
        dataset_cfg: dict[str, Any] | None = None,
        pred_postprocessor: Any = None,
        dict_postprocessor: Any = None,
        keep_predictions: bool = False,
        multi_eval: bool = False,
        test_set: Any = None,
        cache_path: Any = None,
        verdict: Callable[[str], Any] | None = None,
    ) -> None:
        self.prompt_template = prompt_template
        self.meta_review_prompt_template = meta_review_prompt_template
        self.judge_cfg = dict(judge_cfg or {})
        self.output_path = str(output_path)
        self.pack_all_predictions = bool(pack_all_predictions)
        self.dataset_cfg = dataset_cfg
        self.pred_postprocessor = pred_postprocessor
        self.dict_postprocessor = dict_postprocessor
        self.keep_predictions = keep_predictions
        self.multi_eval = multi_eval
        self.test_set = test_set
        self.cache_path = cache_path
        self.verdict = verdict
        self.multi_eval_times = 1
        #: what assay adds to the result (see the module), filled by :meth:`score`
        self.meta: dict[str, Any] = {}
        self._client: Any = None

    # -- the judge --------------------------------------------------------------------
    def judge(self) -> Any:
        """The judge client built from ``judge_cfg`` (once), with the reply cache."""
        if self._client is None:
            cfg = copy.deepcopy(self.judge_cfg)
            cls = resolve_type(cfg.pop("type", "OpenAISDK"), MODELS, key="judge_cfg.type")
            for option in ("abbr", "meta_template", "pred_postprocessor", "run_cfg", "batch_size", "summarizer_abbr"):
                cfg.pop(option, None)
            if self.cache_path is not None and "cache_path" not in cfg:
                cfg["cache_path"] = self.cache_path
            try:
                self._client = cls(**cfg)
            except TypeError as exc:
                raise ConfigError(f"judge {self.judge_cfg.get('abbr', '?')!r}: {exc}") from None
        return self._client

    # -- the judge's dataset ---------------------------------------------------------------
    def judge_rows(
        self,
        predictions: Any,
        judgements: list[dict[str, Any]] | None = None,
        references: list[Any] | None = None,
        meta: bool = False,
        infer_order: str | None = "random",
    ) -> list[dict[str, Any]]:
        """The rows of the judge's dataset (every field, in column order), as OpenCompass builds them."""
        if isinstance(predictions, list):
            if references is None:
                references = [{} for _ in range(len(predictions[0]["model_preds"]))]
            base_model_abbrs = None
            if self.dataset_cfg is not None and "base_models" in self.dataset_cfg:
                base_models = self.dataset_cfg["base_models"]
                if isinstance(base_models, dict):
                    base_models = [base_models]
                base_model_abbrs = [m["abbr"] for m in base_models]
            lists, references = order_predictions(
                predictions, references, infer_order, keep_preds=self.keep_predictions, base_model_abbrs=base_model_abbrs)
        elif isinstance(predictions, dict):
            answers = list(predictions["model_preds"])
            if references is None:
                references = [{} for _ in answers]
            if self.multi_eval:
                if not references or "judge_prompt_list" not in references[0]:
                    raise InputFileError("multi_eval=True: the references have no 'judge_prompt_list'")
                self.multi_eval_times = len(references[0]["judge_prompt_list"])
                answers = [prompt.replace("{prediction}", answer)
                           for answer, ref in zip(answers, references) for prompt in ref["judge_prompt_list"]]
                expanded: list[Any] = []
                for item in references:
                    rest = {k: v for k, v in item.items() if k != "judge_prompt_list"}
                    if "judge_prompt_list" in item:
                        expanded.extend(dict(rest, judge_prompt=prompt) for prompt in item["judge_prompt_list"])
                    else:
                        expanded.append(item)
                references = expanded
            lists = [answers]
        else:
            raise InputFileError(f"LMEvaluator: predictions must be a dict or a list of dicts, got {type(predictions).__name__}")

        columns: dict[str, list[Any]] = {}
        first = lists[0][0] if lists and lists[0] else ""
        if isinstance(first, str):
            for i, answers in enumerate(lists):
                key = "prediction" if i == 0 else f"prediction{i + 1}"
                columns[key] = answers
                columns["obj_gold"] = references
                columns[key + "_en_word_count"] = [len(_ENGLISH.findall(a)) for a in answers]
                columns[key + "_cn_word_count"] = [len(_CHINESE.findall(a)) for a in answers]
            for i, judged in enumerate(judgements or []):
                columns["judgement" if i == 0 else f"judgement{i + 1}"] = judged["model_preds"]
                for ref in references:
                    ref["judge_model" + str(i + 1)] = judged["model_name"]
        elif isinstance(first, list):
            if self.pack_all_predictions:
                for i, answers in enumerate(lists):
                    columns["prediction" if i == 0 else f"prediction{i + 1}"] = [str(a) for a in answers]
            else:
                for i, answers in enumerate(lists):
                    for r, turns in enumerate(_dialogue_columns(answers)):
                        # OpenCompass names the second model's turns prediction1_r<n>
                        columns[("prediction" if i == 0 else f"prediction{i}") + f"_r{r + 1}"] = turns
            if judgements:
                raise ConfigError("a meta review of judgements is not supported on dialogues (as in OpenCompass)")
        else:
            raise InputFileError(
                f"LMEvaluator: an answer is {first!r} ({type(first).__name__}); expected a string or a dialogue "
                "(check the postprocessor of the predictions: it should return a string, '' rather than None)")

        import datasets

        test = self.test_set
        if test is None:
            if self.dataset_cfg is None:
                test = None
            else:
                from assay.datasets.build import build_test_set

                test = build_test_set(dict(self.dataset_cfg), where=str(self.dataset_cfg.get("abbr", "dataset"))).dataset
        if test is not None:
            times = self.multi_eval_times if self.multi_eval else 1
            times *= 2 if infer_order == "double" else 1
            if times > 1:
                test = datasets.Dataset.from_dict({k: list(test[k]) * times for k in test.column_names})
            for key, values in columns.items():
                test = test.add_column(key, values)
            if references:
                test = test.add_column("reference", references)
        else:
            table = dict(columns)
            if references:
                table["reference"] = references
            test = datasets.Dataset.from_dict(table)
        return list(test)

    # -- scoring ---------------------------------------------------------------------------
    def conversations(self, rows: list[dict[str, Any]], meta: bool = False) -> tuple[list[Any], list[Any]]:
        """The judge's prompts (as its meta template parses them) and the messages sent, per row."""
        from assay.judge import api_messages, api_prompt, template_prompt

        template = self.meta_review_prompt_template if meta else self.prompt_template
        if template is None:
            raise ConfigError("meta=True needs a meta_review_prompt_template")
        meta_template = self.judge_cfg.get("meta_template")
        prompts = [api_prompt(template_prompt(template, row, output_field="reference"), meta_template) for row in rows]
        return prompts, [api_messages(p) for p in prompts]

    def estimate(self, rows: list[dict[str, Any]], meta: bool = False) -> Any:
        """What judging the rows would cost (a :class:`assay.judge.JudgeEstimate`): the calls the reply
        cache does not answer, and at most what they cost at the judge's ``price``; nothing is sent, and
        the cache is only read (none is created)."""
        from assay.judge import estimate_judge_calls, open_cache_readonly

        _, messages = self.conversations(rows, meta)
        cache_path, self.cache_path = self.cache_path, None
        try:
            client = self.judge()  # without the cache: opening it would create it
        finally:
            self.cache_path = cache_path
            self._client = None
        cache = open_cache_readonly(cache_path)
        try:
            return estimate_judge_calls(client, messages, cache=cache)
        finally:
            if cache is not None:
                cache.close()

    def score(
        self,
        predictions: Any,
        judgements: list[dict[str, Any]] | None = None,
        references: list[Any] | None = None,
        meta: bool = False,
        infer_order: str | None = "random",
    ) -> dict[str, Any]:
        """Judge the answers; the dict OpenCompass writes as the result (see the module)."""
        from assay.judge import judge_usage
        from assay.rundir.judged import write_judged_result

        rows = self.judge_rows(predictions, judgements, copy.deepcopy(references) if references is not None else None,
                               meta, infer_order)
        prompts, messages = self.conversations(rows, meta)
        client = self.judge()
        began = time.monotonic()
        replies = client.complete_many(messages)
        output: dict[str, Any] = {}
        failed: dict[str, str] = {}
        unreadable: list[str] = []
        for i, (prompt, row, reply) in enumerate(zip(prompts, rows, replies)):
            output[str(i)] = {"origin_prompt": prompt, "prediction": reply.text if reply.text is not None else "",
                              "gold": row.get("reference")}
            if reply.text is None:
                failed[str(i)] = reply.error or "no reply"
            elif self.verdict is not None and self.verdict(reply.text) is None:
                unreadable.append(str(i))
        self.meta = {
            "judge": judge_usage(client, replies, time.monotonic() - began),
            "samples": len(rows),
            "cached": sum(1 for r in replies if r.cached),
            "requests": sum(r.attempts for r in replies),
        }
        if failed or unreadable:
            self.meta["unjudged"] = {"failed": failed, "unreadable": unreadable}
        if failed and len(failed) == len(replies):
            first = next(iter(failed.values()))
            return {"error": f"the judge answered none of the {len(replies)} requests: {first}"}
        write_judged_result(self.output_path, output)
        return self.postprocess(output)

    def postprocess(self, output: dict[str, Any]) -> dict[str, Any]:
        """The ``dict_postprocessor``'s reading of the judge's outputs (the outputs themselves without one)."""
        spec = self.dict_postprocessor
        if spec is None:
            return output
        if isinstance(spec, dict):
            options = {k: v for k, v in spec.items() if k != "type"}
            fn = resolve_type(spec.get("type"), DICT_POSTPROCESSORS, key="dict_postprocessor.type")
        else:
            options, fn = {}, resolve_type(spec, DICT_POSTPROCESSORS, key="dict_postprocessor.type")
        result = fn(output, self.output_path, **options)
        if not isinstance(result, dict):
            raise InputFileError(f"dict_postprocessor {getattr(fn, '__name__', fn)!r} returned {type(result).__name__}, not a dict")
        return result

"""ATLAS's majority of LLM judges, as OpenCompass 0.5.4 computes it (``ATLASLLMEvaluator``).

* ``atlas_pred_postprocess`` reads a reply's answers (after the closing think
  tag, when there is one): the body of its first ```` ```json ```` block, else
  of its first ```` ``` ```` block, else ``{\\n"answers"`` and what follows the
  reply's last ``"answers"`` (when it has ``"answers":``); lone backslashes
  doubled (a JSON escape); ``{'extract_error': False, 'answers': <text>}``, or
  ``{'extract_error': True, 'answers': '{"answers": []}'}`` without any;
* ``ATLASLLMEvaluator`` sends each sample — the judge dataset's rows (the
  test set's columns), ``prediction`` (the extracted ``answers`` text),
  ``obj_gold`` and ``reference`` — to every judge of ``judge_cfg['judgers']``
  (the ``OC_JUDGE_*`` judge when ``judge_cfg`` is empty), each with its own
  meta template; each judge's replies go to
  ``results/<model>/<dataset>_replica<i>_<last part of its path>.json``, all of
  them to ``…_replica<i>_combine.json`` keyed by the file name's last ``_``
  part, which ``dict_postprocessor`` reads;
* ``atlas_judge_postprocess``: each reply (after the think tag) read as JSON —
  the first ```` ```json ```` block, else the first ```` ``` ```` block (an
  unreadable block: label ``C``), else ``{"judgements"`` and what follows the
  reply's last ``"judgements"``, else ``{"judgements": [{"label"`` and what
  follows its last ``"label"``, closed by ``}]}``; its ``judgements`` (a list,
  a JSON list itself, or one object) all labelled ``A`` make the judge's
  verdict correct; a sample is correct when more than half of the judges say
  so; ``accuracy`` in percent; per sample the judges' replies
  (``origial_judge``, OpenCompass's spelling), their readings and the
  references.

Beyond OpenCompass: replies are cached in the run directory (OpenCompass reuses
its judge-reply and combined files instead), a judgement without ``label`` is
not ``A`` (OpenCompass stops with a ``KeyError``), and a judge request that
fails after its retries reads as an empty reply (label ``C``) and marks the
result partial, where OpenCompass's evaluation stops.
"""

from __future__ import annotations

import copy
import json
import re
import time
from pathlib import Path
from typing import Any

from assay.errors import ConfigError
from assay.evaluate.base import INCOMPLETE_KEY, JUDGE_KEY, SampleOutcome
from assay.evaluators._common import judged_batch
from assay.evaluators.llm_judge import GenericLLMEvaluator, judge_replies, unjudged_entry
from assay.registry import DICT_POSTPROCESSORS, ICL_EVALUATORS, TEXT_POSTPROCESSORS

__all__ = ["ATLASLLMEvaluator", "atlas_judge_postprocess", "atlas_pred_postprocess", "fix_json_slash"]

_LONE_BACKSLASH = re.compile(r'(?<!\\)\\(?![\\/\"bfnrtu])')
_NO_ANSWERS = '{"answers": []}'
_C = {"label": "C", "explanation": "Error processing judge output"}


def fix_json_slash(text: str) -> str:
    """``text`` with each backslash that starts no JSON escape doubled.

    >>> fix_json_slash(r'\\alpha and \\n') == r'\\\\alpha and \\n'  # \\n is an escape, \\a is not
    True
    """
    return _LONE_BACKSLASH.sub(r"\\\\", text)


@TEXT_POSTPROCESSORS.register_module("atlas_pred_postprocess")
def atlas_pred_postprocess(prediction: Any, think_tags: tuple[str, str] = ("<think>", "</think>")) -> dict[str, Any]:
    """The answers of an ATLAS reply, as the judge is shown them.

    >>> atlas_pred_postprocess('x ```json\\n{"answers": ["4"]}\\n```')
    {'extract_error': False, 'answers': '{"answers": ["4"]}'}
    >>> atlas_pred_postprocess('no answers')
    {'extract_error': True, 'answers': '{"answers": []}'}
    """
    text = "" if prediction is None else str(prediction)
    if think_tags[1] in text:
        text = text.split(think_tags[1])[-1]
    match = re.search(r"```json\n(.*?)\n```", text, re.DOTALL) or re.search(r"```(.*?)```", text, re.DOTALL)
    if match is None:
        if '"answers":' not in text:
            return {"extract_error": True, "answers": _NO_ANSWERS}
        return {"extract_error": False, "answers": fix_json_slash('{\n"answers"' + text.split('"answers"')[-1])}
    return {"extract_error": False, "answers": fix_json_slash(match.group(1).strip())}


def _read_judgement(reply: str, think_tags: tuple[str, str]) -> Any:
    if think_tags[1] in reply:
        reply = reply.split(think_tags[1])[-1]
    block = re.search(r"```json(.*?)```", reply, re.DOTALL) or re.search(r"```(.*?)```", reply, re.DOTALL)
    candidates = ([fix_json_slash(block.group(1).strip())] if block is not None else
                  [fix_json_slash('{"judgements"' + reply.split('"judgements"')[-1]),
                   fix_json_slash('{"judgements": [{"label"' + reply.split('"label"')[-1] + "}]}")])
    for text in candidates:
        try:
            return json.loads(text)
        except ValueError:
            continue
    return {"judgements": [dict(_C)]}


def _verdict(reply: Any, think_tags: tuple[str, str]) -> dict[str, Any]:
    parsed = _read_judgement(reply if isinstance(reply, str) else "", think_tags)
    if isinstance(parsed, list):
        judgements: Any = parsed
    else:
        try:
            judgements = parsed["judgements"]
        except (KeyError, TypeError, IndexError):
            judgements = [dict(_C)]
    judgements = judgements if isinstance(judgements, list) else [judgements]
    labels = [isinstance(j, dict) and j.get("label") == "A" for j in judgements]
    return {"judgements": judgements, "overall_judge": all(labels)}


@DICT_POSTPROCESSORS.register_module("atlas_judge_postprocess")
def atlas_judge_postprocess(output: dict[str, Any], output_path: str | None = None,
                            think_tags: tuple[str, str] = ("<think>", "</think>")) -> dict[str, Any]:
    """ATLAS's accuracy: per sample, the majority of its judges' verdicts.

    ``output`` maps each judge's key to its outputs (``"0".."N-1"`` →
    ``prediction``, ``gold``).

    Example:
        >>> ok, bad = '```json\\n{"judgements": [{"label": "A"}]}\\n```', '```json\\n{"judgements": [{"label": "B"}]}\\n```'
        >>> out = {'j1': {'0': dict(prediction=ok, gold='1')}, 'j2': {'0': dict(prediction=bad, gold='1')},
        ...        'j3': {'0': dict(prediction=ok, gold='1')}}
        >>> atlas_judge_postprocess(out)['accuracy']
        100.0
    """
    tags = (str(think_tags[0]), str(think_tags[1]))
    per_judge = [list(judged.values()) for judged in output.values()]
    if not per_judge or not per_judge[0]:
        raise ConfigError("atlas_judge_postprocess: no judge outputs to score (OpenCompass 0.5.4 divides by their number)")
    details = []
    for i in range(len(per_judge[0])):
        records = [judge[i] for judge in per_judge]
        parsed = [_verdict(r.get("prediction"), tags) for r in records]
        details.append({"origial_judge": [r.get("prediction") for r in records], "reference": [r.get("gold") for r in records],
                        "parsed_judge": parsed, "correct": sum(p["overall_judge"] for p in parsed) > len(parsed) // 2})
    return {"accuracy": sum(d["correct"] for d in details) / len(details) * 100, "details": details}


@ICL_EVALUATORS.register_module()
class ATLASLLMEvaluator(GenericLLMEvaluator):
    """Several LLM judges per sample, their majority the verdict (see the module).

    Args:
        prompt_template: the judges' prompt (``PromptTemplate`` or ``RawPromptTemplate``).
        judge_cfg: ``dict(judgers=[<judge model config>, ...])``; empty: the ``OC_JUDGE_*`` judge.
        dataset_cfg: accepted for compatibility: the judges read the task's test set.
        pred_postprocessor: applied once to the replies (``atlas_pred_postprocess``: a dict whose ``answers`` is judged).
        dict_postprocessor: reads the judges' outputs (``atlas_judge_postprocess``).
        keep_predictions: accepted for compatibility.
        cache_path: the judges' reply cache (default: the run directory's).
    """

    sample_outcome = SampleOutcome(correct="correct")
    postprocess_in_score = False

    def __init__(self, prompt_template: dict[str, Any], judge_cfg: dict[str, Any] | None = None,
                 dataset_cfg: dict[str, Any] | None = None, pred_postprocessor: Any = None, dict_postprocessor: Any = None,
                 keep_predictions: bool = False, cache_path: str | Path | bool | None = None) -> None:
        super().__init__(prompt_template, judge_cfg=None, dataset_cfg=dataset_cfg, pred_postprocessor=pred_postprocessor,
                         dict_postprocessor=dict_postprocessor, keep_predictions=keep_predictions, cache_path=cache_path)
        self.judgers: list[dict[str, Any] | None] = [None]
        if judge_cfg:
            judgers = judge_cfg.get("judgers") if isinstance(judge_cfg, dict) else None
            if not isinstance(judgers, list) or not judgers or not all(isinstance(j, dict) for j in judgers):
                raise ConfigError(f"ATLASLLMEvaluator: judge_cfg must hold 'judgers', a list of judge model configs, got {judge_cfg!r:.120}")
            self.judgers = [dict(j) for j in judgers]

    def _use(self, judger: dict[str, Any] | None) -> dict[str, Any]:
        """Make ``judger`` the judge the inherited pieces build and render for; its config."""
        self.judge_cfg = copy.deepcopy(judger) if judger is not None else {}
        self._judge = None
        return self._judge_cfg()

    def score(self, predictions: list[Any], references: list[Any] | None = None, test_set: Any = None) -> dict[str, Any]:
        from assay.judge import judge_usage

        batch = judged_batch(self, predictions, references, test_set)
        if isinstance(batch, dict):
            return batch
        refs, _rows = batch
        bad = next((p for p in predictions if not isinstance(p, dict) or "answers" not in p), None)
        if bad is not None:
            return {"error": f"ATLASLLMEvaluator: each prediction must be atlas_pred_postprocess's dict with 'answers' "
                             f"(the config's pred_postprocessor), got {bad!r:.80}"}
        answers = [p["answers"] for p in predictions]
        entries = self._entries(answers, refs, test_set)
        out = getattr(self, "_out_dir", None)
        output: dict[str, Any] = {}
        usages, unjudged, cached = [], [], 0
        for judger in self.judgers:
            cfg = self._use(judger)
            meta = cfg.get("meta_template")
            prompts = [self._prompt(entry, meta) for entry in entries]
            client = self.judge()
            began = time.monotonic()
            replies = client.complete_many([self._messages(p) for p in prompts])
            usages.append(judge_usage(client, replies, time.monotonic() - began))
            cached += sum(r.cached for r in replies)
            unjudged += [r.error or "no reply" for r in replies if r.text is None]
            records = judge_replies(prompts, [r.text for r in replies], [e.get("reference") for e in entries],
                                    [r.error for r in replies])
            name = f"{Path(str(out)).name if out else 'dataset'}_replica{self.dataset_replica_idx}_{str(cfg.get('path', '')).split('/')[-1]}.json"
            if out is not None:
                _write(Path(f"{out}_replica{self.dataset_replica_idx}_{str(cfg.get('path', '')).split('/')[-1]}.json"), records)
            output[name.split(".")[0].split("_")[-1]] = {k: dict(v, prediction=v["prediction"] or "") for k, v in records.items()}
        if out is not None:
            _write(Path(f"{out}_replica{self.dataset_replica_idx}_combine.json"), output)
        if unjudged and len(unjudged) == len(entries) * len(self.judgers):
            return {"error": f"the judges answered none of the {len(unjudged)} requests: {unjudged[0]}"}
        fn, options = self._dict_postprocess()
        result = dict(fn(output, "", **options))
        result["judge_stats"] = {"samples": len(entries), "judges": len(self.judgers), "cached": cached, "no_reply": len(unjudged)}
        result[JUDGE_KEY] = _merged_usage(usages)
        if unjudged:
            result[INCOMPLETE_KEY] = [unjudged_entry(len(unjudged), len(entries) * len(self.judgers), unjudged[0])]
        return result


def _write(path: Path, value: Any) -> None:
    from assay.fileio import atomic_write_text

    atomic_write_text(path, json.dumps(value, ensure_ascii=False, indent=4))


def _merged_usage(usages: list[Any]) -> Any:
    from assay.evaluate.base import merge_judge_usage

    return merge_judge_usage(usages) if len(usages) > 1 else usages[0]

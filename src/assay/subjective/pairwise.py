"""assay's statistics of pairwise judge results, beside OpenCompass's numbers: the ``pairwise`` section of a summary.

For every judge, pairwise dataset and (base, compared) model pair with results
(``results/<base>_<model>_judged-by--<judge>/<dataset>.json``, the raw judge
outputs), :func:`pairwise_section` reads each judge reply the way the dataset's
family reads it and records, for the compared model:

* ``samples``, ``unparsed`` (replies with no verdict the family can read) and
  ``unparsed_rate``;
* ``wins``, ``ties``, ``losses`` against the base model and ``win_rate`` (percent:
  a tie counts half), with ``win_rate_interval``: the percentile interval of a
  seeded bootstrap over the judged samples (``rounds`` resamplings, 1,000 by
  default, NumPy's ``default_rng(seed)``, seed 0 by default);
* ``position_bias``: with ``infer_order='double'`` each question is judged twice,
  the answers swapped; ``pairs`` counts the questions whose both verdicts were
  read and ``flipped`` those whose verdict changes the outcome for the model
  (the judge followed the place, not the answer), ``rate`` their share — ``null``
  when no question was judged in both orders;
* for Arena-Hard's datasets, ``elo`` (the rating of :func:`assay.subjective.elo.mle_elo`
  over every pair's battles of that judge and dataset) and ``elo_interval`` from
  ``rounds`` resamplings of the battles (NumPy's legacy ``RandomState(seed)``),
  a resampling with one outcome only left out.

OpenCompass's numbers stay as its summarizers compute them; these are assay's
own and opt-in.  The family is taken from the dataset's ``summarizer`` type or its
evaluator's ``dict_postprocessor`` type (Arena-Hard and CompassArena's subjective
bench ``[[A>B]]`` verdicts, either way round; AlpacaEval ``m``/``M``; CompassArena
and CompassBench ``选择：A``/``Choice: C``; WildBench ``"choice": "A+"``); a dataset
of none of them is left out.

The section: ``{"settings": {"rounds", "seed", "confidence"}, "entries": [{"judge",
"dataset", "model", "base", "samples", "unparsed", "unparsed_rate", "wins", "ties",
"losses", "win_rate", "win_rate_interval", "position_bias", "elo"?, "elo_interval"?}]}``.

Example:
    >>> outcome_interval([1.0] * 8 + [0.0] * 2, rounds=200, seed=0)[0]
    80.0
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from assay.errors import ConfigError, InputFileError
from assay.subjective import _judged

logger = logging.getLogger(__name__)

__all__ = ["DEFAULT_ROUNDS", "DEFAULT_SEED", "family_of", "outcome_interval", "pairwise_section", "winner_of"]

#: Bootstrap resamplings by default.
DEFAULT_ROUNDS = 1000
#: The bootstrap's seed by default.
DEFAULT_SEED = 0

_REF_KEYS = {"answer1", "answer2", "prediction1", "prediction2", "base_models"}


def _arena(reply: Any) -> str | None:
    from assay.subjective.arena_hard import _BT_WINNER, arena_hard_verdict

    return _BT_WINNER.get(arena_hard_verdict(reply) or "")


def _alpaca(reply: Any) -> str | None:
    from assay.subjective.alpaca_eval import alpaca_v2_rank

    rank = alpaca_v2_rank(reply)
    return None if rank is None else ("model_a" if rank["rank"] == 1 else "model_b")


def _compassarena(reply: Any) -> str | None:
    from assay.subjective.compassarena import compassarena_choice

    return {"A": "model_a", "B": "model_b", "C": "tie"}.get(compassarena_choice(reply) or "")


def _wildbench(reply: Any) -> str | None:
    from assay.subjective.wildbench import _WINNER, wildbench_choice

    return _WINNER.get(wildbench_choice(reply) or "")


#: Each family's reading of a judge reply: ``'model_a'``, ``'model_b'``, ``'tie'`` or ``None``.
READERS: dict[str, Callable[[Any], str | None]] = {
    "arenahard": _arena, "alpacaeval": _alpaca, "compassarena": _compassarena, "wildbench": _wildbench,
}  # fmt: skip


def _type_name(spec: Any) -> str:
    return str(getattr(spec, "__name__", spec or "")).rsplit(".", 1)[-1].lower()


def family_of(dataset: Mapping[str, Any]) -> str | None:
    """The pairwise family of a dataset config (a key of :data:`READERS`), or ``None``.

    >>> family_of({'summarizer': {'type': 'ArenaHardSummarizer'}}), family_of({'abbr': 'gsm8k'})
    ('arenahard', None)
    """
    names = [_type_name((dataset.get("summarizer") or {}).get("type") if isinstance(dataset.get("summarizer"), Mapping) else None)]
    evaluator = ((dataset.get("eval_cfg") or {}).get("evaluator") or {}) if isinstance(dataset.get("eval_cfg"), Mapping) else {}
    post = evaluator.get("dict_postprocessor") if isinstance(evaluator, Mapping) else None
    names.append(_type_name(post.get("type") if isinstance(post, Mapping) else None))
    for name in names:
        if "arenahard" in name or "subjectiveeval_pairwise" in name or "subjectiveeval_bradleyterry" in name:
            return "arenahard"
        if "alpaca" in name:
            return "alpacaeval"
        if "wildbench" in name:
            return "wildbench"
        if "compassarena" in name or "compassbench" in name:
            return "compassarena"
    return None


def winner_of(verdict: str | None, model_is_a: bool) -> float | None:
    """The compared model's outcome of a verdict: 1 a win, 0.5 a tie, 0 a loss, ``None`` no verdict."""
    if verdict is None:
        return None
    if verdict == "tie":
        return 0.5
    return 1.0 if (verdict == "model_a") == model_is_a else 0.0


def outcome_interval(outcomes: Sequence[float], rounds: int = DEFAULT_ROUNDS, seed: int = DEFAULT_SEED,
                     confidence: float = 0.95) -> tuple[float, list[float] | None]:
    """(the mean outcome in percent, the bootstrap percentile interval in percent or ``None`` for no outcome)."""
    import numpy as np

    if not outcomes:
        return float("nan"), None
    values = np.asarray(outcomes, dtype=float)
    mean = float(values.mean() * 100)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(values), size=(rounds, len(values)))
    means = values[picks].mean(axis=1) * 100
    tail = (1 - confidence) / 2 * 100
    return mean, [float(np.percentile(means, tail)), float(np.percentile(means, 100 - tail))]


def _question_key(ref: Any) -> str:
    if not isinstance(ref, Mapping):
        return json.dumps(ref, sort_keys=True, default=str)
    return json.dumps({k: v for k, v in ref.items() if k not in _REF_KEYS}, sort_keys=True, ensure_ascii=False, default=str)


def _pair_entry(result: Mapping[Any, Any], reader: Callable[[Any], str | None], model: str, what: str,
                rounds: int, seed: int, confidence: float) -> dict[str, Any]:
    outcomes: list[float] = []
    unparsed = 0
    by_question: dict[str, list[tuple[str, float | None]]] = {}
    for key, sample in result.items():
        if not isinstance(sample, Mapping) or "prediction" not in sample or "gold" not in sample:
            raise InputFileError(f"{what}: sample {key!r} is not a judge output (no 'prediction' and 'gold')")
        ref = sample["gold"]
        a = _judged.reference_field(ref, "answer1", what)
        outcome = winner_of(reader(sample["prediction"]), a == model)
        if outcome is None:
            unparsed += 1
        else:
            outcomes.append(outcome)
        by_question.setdefault(_question_key(ref), []).append((a, outcome))
    pairs = flipped = 0
    for judged in by_question.values():
        if len(judged) == 2 and judged[0][0] != judged[1][0] and None not in (judged[0][1], judged[1][1]):
            pairs += 1
            flipped += judged[0][1] != judged[1][1]
    rate, interval = outcome_interval(outcomes, rounds, seed, confidence)
    samples = len(result)
    return {
        "samples": samples,
        "unparsed": unparsed,
        "unparsed_rate": unparsed / samples if samples else None,
        "wins": sum(1 for o in outcomes if o == 1.0),
        "ties": sum(1 for o in outcomes if o == 0.5),
        "losses": sum(1 for o in outcomes if o == 0.0),
        "win_rate": rate if outcomes else None,
        "win_rate_interval": interval,
        "position_bias": {"pairs": pairs, "flipped": flipped, "rate": flipped / pairs} if pairs else None,
    }


def _elo(entries: list[dict[str, Any]], battles: list[tuple[str, str, str]], rounds: int, seed: int, confidence: float) -> None:
    import numpy as np

    from assay.subjective.elo import mle_elo, one_class, resamples

    if not battles or one_class(battles) is not None:
        return
    ratings = mle_elo(battles)
    samples: dict[str, list[float]] = {m: [] for m in ratings}
    for picks in resamples(len(battles), rounds, seed):
        drawn = [battles[int(i)] for i in picks]
        if one_class(drawn) is not None:
            continue
        for model, value in mle_elo(drawn).items():
            samples.setdefault(model, []).append(value)
    tail = (1 - confidence) / 2 * 100
    for entry in entries:
        model = entry["model"]
        if model in ratings:
            entry["elo"] = ratings[model]
            values = samples.get(model) or []
            entry["elo_interval"] = [float(np.percentile(values, tail)), float(np.percentile(values, 100 - tail))] if values else None


def pairwise_section(config: Mapping[str, Any], *, rounds: int = DEFAULT_ROUNDS, seed: int = DEFAULT_SEED,
                     confidence: float = 0.95) -> dict[str, Any]:
    """The ``pairwise`` section for a run config's pairwise datasets (see the module's docstring).

    Reads ``config['work_dir']``'s result folders; ``rounds`` and ``seed`` set the
    bootstraps, ``confidence`` their intervals.  No pairwise dataset or no result:
    no entries.
    """
    from assay.subjective.arena_hard import battles_of

    if rounds < 1:
        raise ConfigError(f"pairwise statistics: rounds must be at least 1, got {rounds}")
    if not 0 < confidence < 1:
        raise ConfigError(f"pairwise statistics: confidence must be between 0 and 1, got {confidence}")
    partitioner = (config.get("eval") or {}).get("partitioner") or {}
    compare = list(partitioner.get("models") or config.get("models") or [])
    judges = list(config.get("judge_models") or [])
    if partitioner.get("meta_judge_model") is not None:
        judges.append(partitioner["meta_judge_model"])
    entries: list[dict[str, Any]] = []
    for judge_cfg in judges:
        judge = _judged.model_name(judge_cfg)
        for dataset in config.get("datasets") or []:
            family = family_of(dataset)
            if family is None:
                continue
            abbr = _judged.dataset_name(dataset)
            bases = _judged.as_list(dataset.get("base_models") or partitioner.get("base_models"))
            group: list[dict[str, Any]] = []
            weighted: list[tuple[str, str, str]] = []
            for first, second in _judged.unique_pairs(bases, compare):
                base, model = first["abbr"], second["abbr"]
                subdir = _judged.pair_folder(config, [base, model], judge)
                if not _judged.has_result(subdir, abbr):
                    continue
                what = f"pairwise statistics ({_judged.result_file(subdir, abbr)})"
                result = _judged.read_judged(subdir, abbr, what)
                entry = _pair_entry(result, READERS[family], model, what, rounds, seed, confidence)
                group.append({"judge": judge, "dataset": abbr, "model": model, "base": base, **entry})
                if family == "arenahard":
                    from assay.subjective.arena_hard import arena_hard_verdict

                    weighted += battles_of([arena_hard_verdict(s.get("prediction")) for s in result.values()],
                                           [s["gold"] for s in result.values()], what)
            if family == "arenahard":
                _elo(group, weighted, rounds, seed, confidence)
            entries += group
    return {"settings": {"rounds": rounds, "seed": seed, "confidence": confidence}, "entries": entries}

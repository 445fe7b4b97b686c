"""AlpacaEval (v2) as OpenCompass 0.5.4 scores it: its dict postprocessors.

The judge answers with one letter: ``m`` when the first output (``answer1``)
is better, ``M`` when the second is; only the reply's first character is read,
anything else is no judgement.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from assay.errors import ConfigError, InputFileError
from assay.registry import DICT_POSTPROCESSORS, SUMMARIZERS
from assay.subjective import _judged
from assay.subjective._common import append_csv_rows

__all__ = [
    "AlpacaSummarizer",
    "alpaca_v1_rank",
    "alpaca_v2_rank",
    "alpacaeval_bradleyterry_postprocess",
    "alpacaeval_postprocess",
]


def alpaca_v2_rank(reply: Any) -> dict[str, int] | None:
    """``{'rank': 1}`` for a reply starting with ``m``, ``{'rank': 2}`` for ``M``, else ``None``.

    >>> alpaca_v2_rank('m'), alpaca_v2_rank('Model m'), alpaca_v2_rank('')
    ({'rank': 1}, {'rank': 2}, None)
    """
    if not isinstance(reply, str) or not reply:
        return None
    return {"rank": 1} if reply[0] == "m" else {"rank": 2} if reply[0] == "M" else None


def _sample_rank(sample: Mapping[str, Any]) -> dict[str, int] | None:
    return alpaca_v2_rank(sample["prediction"])


def _base_models(references: list[Any], what: str) -> list[Any]:
    """The references' ``base_models``, else (as OpenCompass assumes) the first judged sample's ``answer1``."""
    if not references:
        # OpenCompass fails reading the first judged sample's references (IndexError)
        raise InputFileError(f"{what}: no judgement could be read from the judge replies, so there is nothing to score")
    first = references[0]
    if "base_models" in first:
        base = first["base_models"]
    else:
        base = [_judged.reference_field(first, "answer1", what)]
    return [base] if isinstance(base, str) else list(base)


@DICT_POSTPROCESSORS.register_module(["alpacaeval", "alpacaeval_postprocess"])
def alpacaeval_postprocess(output: dict[Any, Any], output_path: str) -> dict[str, Any]:
    """The compared model's win rate, in percent rounded to two decimals: ``total`` and per ``capability``.

    The base model is the references' ``base_models``, else the first judged
    sample's ``answer1`` (OpenCompass's assumption, wrong after a random order
    put the compared model first).  Every judged sample is a win of the base or
    of the compared model: there are no ties.  Keys come in OpenCompass's
    order (``total`` where the compared model first won), then ``details``.
    """
    what = "alpacaeval_postprocess"
    ranks, references = _judged.judged_and_references(output, output_path, _sample_rank, what=what)
    base_models = _base_models(references, what)
    win1: defaultdict[str, float] = defaultdict(float)
    win2: defaultdict[str, float] = defaultdict(float)
    categories: defaultdict[str, float] = defaultdict(float)
    for rank, ref in zip(ranks, references):
        capability = _judged.reference_field(ref, "capability", what)
        categories["total"] += 1
        categories[capability] += 1
        base_first = _judged.reference_field(ref, "answer1", what) in base_models
        winner = win1 if (rank["rank"] == 1) == base_first else win2
        winner[capability] += 1
        winner["total"] += 1
    for capability in categories:
        for wins in (win1, win2):
            wins[capability] = round(wins[capability] / categories[capability] * 100, 2) if capability in wins else 0.0
    results: dict[str, Any] = dict(win2)
    results["details"] = output
    return results


@DICT_POSTPROCESSORS.register_module(["alpacaeval_bradleyterry", "alpacaeval_bradleyterry_postprocess"])
def alpacaeval_bradleyterry_postprocess(output: dict[Any, Any], output_path: str) -> dict[str, Any]:
    """``{'matches': [...]}`` for the Bradley-Terry summarizer.

    A rank-1 reply is a win of ``model_a`` when the base model is ``answer1``
    and of ``model_b`` otherwise; rank 2 the other way round (OpenCompass's
    reading: the winner is named by the base model's place, not by the answer
    the judge preferred).  The references must hold the answers.
    """
    what = "alpacaeval_bradleyterry_postprocess"
    ranks, references = _judged.judged_and_references(output, output_path, _sample_rank, what=what)
    _judged.require_predictions(references, what)
    base_models = _base_models(references, what)
    matches = []
    for rank, ref in zip(ranks, references):
        base_first = _judged.reference_field(ref, "answer1", what) in base_models
        if rank["rank"] == 1:
            winner = "model_a" if base_first else "model_b"
        elif rank["rank"] == 2:
            winner = "model_b" if base_first else "model_a"
        else:
            winner = "tie"
        matches.append(_judged.match_row(winner, {"capability": _judged.reference_field(ref, "capability", what)}, ref, what))
    return _judged.with_style_counts(matches)


def alpaca_v1_rank(reply: Any) -> dict[str, int] | None:
    """AlpacaEval v1's reading: the rank of ``model_1`` in the first ``[...]`` list literal of the reply (1 or 2).

    >>> alpaca_v1_rank("[{'model': 'model_1', 'rank': 2}, {'model': 'model_2', 'rank': 1}]")
    {'rank': 2}
    """
    try:
        listed = ast.literal_eval(re.findall(r"\[.*?\]", reply)[0]) if isinstance(reply, str) else reply
        rank = next(c for c in listed if c["model"] == "model_1")["rank"]
    except Exception:  # any reply that does not hold such a list is no judgement, as in OpenCompass
        return None
    return {"rank": rank} if rank in (1, 2) else None


@SUMMARIZERS.register_module()
class AlpacaSummarizer:
    """OpenCompass 0.5.4's ``AlpacaSummarizer``: each compared model's win rate against the base model.

    Args:
        config: the run config (``datasets``: the first one only, ``base_models``;
            ``eval.partitioner.models``; ``judge_models``; ``work_dir``).
        judge_type: ``'v2'`` (replies ``m``/``M``) or ``'v1'`` (a ranking list).

    For each judge and (base, compared) pair with results it computes the compared
    model's win rate (percent, two decimals), ``total`` and per capability, and
    *appends* two lines to ``summary/<time_str>/AlpacaEval2-judged-by--<judge>.csv``
    (``<base>_vs_<model>`` and the capabilities, then ``win_<model>`` and the
    values; CSV with CRLF line ends) — appends, as OpenCompass does, so a second
    summary with the same time adds the lines again.  Returns
    ``{'AlpacaEval': {judge: {model: {'total': …, capability: …} or None}}}``.
    """

    def __init__(self, config: Mapping[str, Any], judge_type: str = "v2") -> None:
        if judge_type not in ("v1", "v2"):
            raise ConfigError(f"AlpacaSummarizer: judge_type must be 'v1' or 'v2', got {judge_type!r}")
        self.run = _judged.PairwiseConfig(config, "AlpacaSummarizer")
        self.extract = alpaca_v2_rank if judge_type == "v2" else alpaca_v1_rank

    def summarize(self, time_str: str | None = None) -> dict[str, Any]:
        """Append the lines above for ``time_str`` (now, by default) and return the scores."""
        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        what = "AlpacaSummarizer"
        all_scores: dict[str, Any] = {}
        for judge_cfg in self.run.judge_models:
            by_model: dict[str, Any] = {}
            judge = _judged.model_name(judge_cfg)
            abbr = _judged.dataset_name(self.run.datasets[0])
            output_dir, _ = _judged.outdir(self.run.cfg, time_str)
            for first, second in _judged.unique_pairs(self.run.base_models, self.run.compare_models):
                model1, model2 = first["abbr"], second["abbr"]
                subdir = _judged.pair_folder(self.run.cfg, [model1, model2], judge)
                if not _judged.has_result(subdir, abbr):
                    by_model[model2] = None
                    continue
                ranks, references, _ = _judged.folder_judgements(subdir, abbr, self.extract, what)
                win1: defaultdict[str, float] = defaultdict(float)
                win2: defaultdict[str, float] = defaultdict(float)
                categories: defaultdict[str, float] = defaultdict(float)
                for rank, ref in zip(ranks, references):
                    capability = _judged.reference_field(ref, "capability", what)
                    categories["total"] += 1
                    categories[capability] += 1
                    base_first = _judged.reference_field(ref, "answer1", what) == model1
                    winner = win1 if (rank["rank"] == 1) == base_first else win2
                    winner[capability] += 1
                    winner["total"] += 1
                for capability in categories:
                    for wins in (win1, win2):
                        wins[capability] = round(wins[capability] / categories[capability] * 100, 2) if capability in wins else 0.0
                if "total" not in win2:
                    raise InputFileError(f"{what}: no judgement of {model2} could be read in {subdir} ({abbr})")
                columns = list(win2)
                columns.insert(0, columns.pop(columns.index("total")))
                append_csv_rows(Path(output_dir) / f"AlpacaEval2-judged-by--{judge}.csv",
                                [[f"{model1}_vs_{model2}", *columns], [f"win_{model2}", *(win2[c] for c in columns)]])
                total = win2.pop("total")
                by_model[model2] = {"total": total, **win2}
            all_scores[judge] = by_model
        return {"AlpacaEval": all_scores}

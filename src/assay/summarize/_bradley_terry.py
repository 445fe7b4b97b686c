"""``CompassArenaBradleyTerrySummarizer``: Bradley-Terry ratings of the pairwise matches, as OpenCompass 0.5.4's.

It reads the ``matches`` the ``*_bradleyterry_postprocess`` dict postprocessors
wrote, ``results/<base>_<model>_judged-by--<judge>/<dataset>.json`` for every
model, dataset and base model of the dataset's ``base_models`` (a dataset
without them fails, as in OpenCompass), and fits, per judge, dataset and base
model, then per judge over the matches of every dataset (those of each
dataset's first base model), with the base model at 1000
(:mod:`assay.subjective.bradley_terry`): style-controlled (``with_control_vars``,
the default: the four style features, ``normalize_style_features``, the
``groups`` columns one-hot, coefficients as odds ratios with ``odds_ratio``)
or plain.  Each table has, per model, its ``rating``, ``ranking``,
``ranking_ub`` (1 + the models whose 2.5 % bootstrap quantile lies above its
97.5 %), ``std_dev``, ``rating_q975``, ``rating_q025`` (of ``num_bootstrap``
bootstrap rounds, 300 by default), ``num_battles`` and ``predicted_win_rate``
against the base model (``1 / (1 + 10^((base − rating)/400))``, 4 decimals).

Files, under ``summary/`` (OpenCompass's names): ``summary_<time>_by_<judge>.json``
(each dataset's and base model's coefficients), ``summary_<time>_by_<judge>.csv``
(the tables), ``summary_<time>_all_scores_df.csv``, ``summary_<time>_all_scores.json``
(judge → model → predicted win rate, or rating without ``report_pred_win_rates``)
and ``summary_<time>_all_scores_ctrl_coefs.json``; it returns
``{'CompassArenaSubjBenchBradleyTerry': <the all-scores mapping>}``.

Where OpenCompass differs: its optimizer stops near the exact fit assay
computes (ratings within 0.05, coefficients within 1e-3, predicted win rates one
unit of their 4th decimal apart at most: see
:mod:`assay.subjective.bradley_terry`); its style-control bootstrap is drawn
unseeded, assay's from ``default_rng(seed)`` (``seed`` 0 by default), so that
the intervals, ``std_dev`` and ``ranking_ub`` are the same on every run;
``num_cpu`` is accepted and unused (the fits are fast enough in one process).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from assay.config.abbr import dataset_abbr, model_abbr
from assay.errors import ConfigError, InputFileError
from assay.fileio import atomic_write_text, read_json
from assay.registry import SUMMARIZERS
from assay.rundir.judged import judged_abbr, judged_result_path
from assay.rundir.layout import RunDir
from assay.summarize._collect import prompt_version

logger = logging.getLogger(__name__)

__all__ = ["CompassArenaBradleyTerrySummarizer"]

_COLUMNS = ["dataset", "version", "base_model", "metric", "mode", "ranking", "ranking_ub", "model_name",
            "predicted_win_rate", "rating", "rating_q975", "rating_q025", "std_dev", "num_battles"]


def _eval_mode(dataset: Mapping[str, Any]) -> str:
    infer = dataset.get("infer_cfg") or {}
    inferencer = (infer.get("inferencer") or {}).get("type", "") if isinstance(infer, Mapping) else ""
    name = inferencer if isinstance(inferencer, str) else getattr(inferencer, "__name__", str(inferencer))
    for kind, mode in (("GenInferencer", "gen"), ("PPLInferencer", "ppl"), ("LLInferencer", "ll")):
        if kind in name:
            return mode
    logger.warning("unknown inferencer: %s - %s", name, dataset_abbr(dict(dataset)))
    return "unknown"


@SUMMARIZERS.register_module()
class CompassArenaBradleyTerrySummarizer:
    """Bradley-Terry ratings of CompassArena-style pairwise matches (see the module's docstring)."""

    def __init__(self, config: Mapping[str, Any], dataset_abbrs: Sequence[str] | None = None,
                 summary_groups: Sequence[Any] | None = None, prompt_db: Any = None, rating_system: str = "bradleyterry",
                 report_pred_win_rates: bool = True, num_bootstrap: int = 300, num_cpu: int | None = None,
                 with_control_vars: bool = True, normalize_style_features: bool = True, odds_ratio: bool = True,
                 groups: Sequence[str] | None = None, seed: int = 0) -> None:
        self.cfg = config
        work_dir = config.get("work_dir")
        if not isinstance(work_dir, (str, Path)) or not str(work_dir):
            raise ConfigError(f"CompassArenaBradleyTerrySummarizer: the run config has no work_dir (got {work_dir!r})")
        self.run_dir = RunDir(Path(work_dir))
        self.model_cfgs = [dict(m) for m in config.get("models") or []]
        self.dataset_cfgs = [dict(d) for d in config.get("datasets") or []]
        self.judge_models = list(config.get("judge_models") or [])
        if num_bootstrap < 1:
            raise ConfigError(f"CompassArenaBradleyTerrySummarizer: num_bootstrap must be at least 1, got {num_bootstrap}")
        self.report_pred_win_rates = report_pred_win_rates
        self.num_bootstrap = num_bootstrap
        self.with_control_vars = with_control_vars
        self.normalize_style_features = normalize_style_features
        self.odds_ratio = odds_ratio
        self.groups = list(groups or [])
        self.seed = seed

    # -- reading ------------------------------------------------------------------------------------
    def _pick_up_results(self, judge: str) -> dict[str, dict[str, list[dict[str, Any]]]]:
        """dataset → base model → the matches of every model against it."""
        raw: dict[str, dict[str, list[dict[str, Any]]]] = {}
        for model in self.model_cfgs:
            for dataset in self.dataset_cfgs:
                bases = dataset.get("base_models")
                if bases is None:
                    raise ConfigError("CompassArenaBradleyTerrySummarizer requires at least one `base_model` in the "
                                      f"dataset config (dataset {dataset_abbr(dataset)!r} has none)")
                abbr = dataset_abbr(dataset)
                raw.setdefault(abbr, {})
                for base in [b["abbr"] for b in bases]:
                    raw[abbr].setdefault(base, [])
                    path = judged_result_path(self.run_dir, judged_abbr([base, model_abbr(model)], judge), abbr)
                    if not path.exists():
                        continue
                    result = read_json(path, what="judged result")
                    if not isinstance(result, dict) or not isinstance(result.get("matches"), list):
                        raise InputFileError(f"CompassArenaBradleyTerrySummarizer: {path} has no 'matches' list (the "
                                             "output of a *_bradleyterry_postprocess)")
                    raw[abbr][base].extend(result["matches"])
        return raw

    # -- fitting ------------------------------------------------------------------------------------
    def _ratings(self, matches: list[dict[str, Any]], base: str) -> tuple[Any, Any]:
        """(the table of one fit, its coefficients: feature → value, or ``[]`` without style control)."""
        import numpy as np
        import pandas as pd

        from assay.subjective import bradley_terry as bt

        if not matches:
            raise InputFileError(f"CompassArenaBradleyTerrySummarizer: no matches against {base!r} to fit")
        coefs: Any
        if self.with_control_vars:
            models, beta, names, params = bt.fit_style_control(matches, self.groups, self.normalize_style_features)
            _, boot, _ = bt.bootstrap_style_control(matches, self.num_bootstrap, self.groups,
                                                    self.normalize_style_features, seed=self.seed)
            values = np.exp(params) if self.odds_ratio else params
            coefs = {name: float(v) for name, v in zip(names, values)}
        else:
            models, beta = bt.fit_bt(matches)
            _, boot = bt.bootstrap_bt(matches, self.num_bootstrap, seed=self.seed)
            coefs = []
        final = pd.Series(bt.scaled(beta, models, base), index=models).sort_values(ascending=False)
        frame = pd.DataFrame(bt.scaled(boot, models, base), columns=models)
        frame = frame[frame.median().sort_values(ascending=False).index]
        q025, q975 = frame.quantile(0.025), frame.quantile(0.975)
        counts = pd.DataFrame(matches)
        battles = counts["model_a"].value_counts().add(counts["model_b"].value_counts(), fill_value=0)
        order = list(final.index)
        ranking = {a: 1 + sum(1 for b in order if b != a and q025[b] > q975[a]) for a in order}
        table = pd.DataFrame({"rating": final, "ranking_ub": pd.Series(ranking), "std_dev": frame.std(),
                              "rating_q975": q975, "rating_q025": q025, "num_battles": battles})
        table["model_name"] = table.index
        table = table.sort_values(by=["rating"], ascending=False)
        table["ranking"] = np.arange(1, len(table) + 1)
        return self._win_rates(table, base), coefs

    @staticmethod
    def _win_rates(table: Any, base: str) -> Any:
        if base not in table.index:
            raise InputFileError(f"CompassArenaBradleyTerrySummarizer: baseline model {base} not found in ratings")
        out = table.copy()
        out["predicted_win_rate"] = 0.5
        base_rating = table.loc[base, "rating"]
        for model, row in table.iterrows():
            if model != base:
                out.loc[model, "predicted_win_rate"] = 1 / (1 + 10.0 ** ((base_rating - row["rating"]) / 400.0))
        out["predicted_win_rate"] = out["predicted_win_rate"].round(4)
        return out

    # -- the summary --------------------------------------------------------------------------------
    def summarize(self, output_path: str | None = None, time_str: str | None = None) -> dict[str, Any]:
        """Write the files (see the module's docstring) and return the scores."""
        import pandas as pd

        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        if not self.judge_models:
            raise ConfigError("CompassArenaBradleyTerrySummarizer: the run config has no judge_models")
        all_frames, all_scores, all_coefs = [], {}, {}
        modes = {dataset_abbr(d): _eval_mode(d) for d in self.dataset_cfgs}
        versions = {dataset_abbr(d): prompt_version(d) for d in self.dataset_cfgs}
        bases: dict[str, list[dict[str, Any]]] = {}
        for judge_cfg in self.judge_models:
            judge = model_abbr(dict(judge_cfg))
            raw = self._pick_up_results(judge)
            tables: dict[str, dict[str, Any]] = {}
            coefficients: dict[str, dict[str, Any]] = {}
            everything: list[dict[str, Any]] = []
            for abbr, bases in raw.items():
                coefficients[abbr] = {}
                everything.extend(bases[next(iter(bases))])
                for base, matches in bases.items():
                    table, coefs = self._ratings(matches, base)
                    coefficients[abbr][base] = coefs
                    tables.setdefault(base, {})[abbr] = table
            self._write_tables(output_path, time_str, judge, tables, coefficients, modes, versions)
            first = next(iter(bases))  # the last dataset's first base model, as OpenCompass takes it
            table, coefs = self._ratings(everything, first)
            table["judge"] = judge
            all_frames.append(table)
            column = "predicted_win_rate" if self.report_pred_win_rates else "rating"
            all_scores[judge] = {str(m): float(v) for m, v in zip(table["model_name"], table[column])}
            all_coefs[judge] = coefs
        summary = self.run_dir.summary
        atomic_write_text(self.run_dir.summary_stem(time_str).with_name(f"summary_{time_str}_all_scores_df.csv"),
                          pd.concat(all_frames).to_csv())
        for suffix, payload in (("all_scores", all_scores), ("all_scores_ctrl_coefs", all_coefs)):
            atomic_write_text(summary / f"summary_{time_str}_{suffix}.json", json.dumps(payload, ensure_ascii=False, indent=4))
        return {"CompassArenaSubjBenchBradleyTerry": all_scores}

    def _write_tables(self, output_path: str | None, time_str: str, judge: str, tables: dict[str, dict[str, Any]],
                      coefficients: dict[str, Any], modes: dict[str, str], versions: dict[str, str]) -> None:
        import pandas as pd

        if output_path is None:
            stem = str(self.run_dir.summary_stem(time_str))
            json_path, csv_path = stem + ".json", stem + ".csv"
        else:
            json_path, csv_path = output_path, output_path.replace(".json", ".csv")
        json_path = json_path.split(".json")[0] + "_by_" + judge + ".json"
        atomic_write_text(json_path, json.dumps(coefficients, ensure_ascii=False, indent=4))
        frames = []
        for base, datasets in tables.items():
            for abbr, table in datasets.items():
                table["dataset"] = abbr
                table["version"] = versions.get(abbr, "-")
                table["metric"] = "bt_rating"
                table["mode"] = modes[abbr]
                table["base_model"] = base
                frames.append(table)
        if not frames:
            raise InputFileError(f"CompassArenaBradleyTerrySummarizer: no matches judged by {judge} were found")
        atomic_write_text(csv_path.split(".csv")[0] + "_by_" + judge + ".csv", pd.concat(frames)[_COLUMNS].to_csv(index=False))

"""``DefaultSubjectiveSummarizer``: the table of a subjective run, one per judge, as OpenCompass 0.5.4 writes it.

It reads the results the datasets' dict postprocessors wrote,
``results/<model>_judged-by--<judge>/<dataset>.json`` (pairwise datasets with
``base_models``: ``results/<base>_<model>_judged-by--<judge>/``, averaged over
the base models), keeps their numeric metrics (``score``, ``accuracy``, … first,
as OpenCompass orders them; ``bp``, ``sys_len``, ``ref_len``, ``type`` never),
computes the ``summary_groups`` as OpenCompass's subjective summarizer does, and
writes for each judge ``summary/summary_<time>_by_<judge>.txt`` (tabulate, csv
and raw sections) and ``.csv``, byte for byte as OpenCompass writes them.

A value from a result that is partial — judge requests failed, so some samples
have an empty reply that the benchmark's reading scores (Flames as 0) or leaves
out (its ``<dataset>.meta`` lists them under ``incomplete``; a partial result
assay wrote beside OpenCompass's complete one is not the one read) — and a group
computed from such a value are followed by :data:`~assay.groups.MARK`
(``'62.50*'``) in the tables, the ``.csv`` included, and listed under the
tabulate table with the samples affected and why, as assay marks partial
results in its other tables.  A replied verdict the benchmark cannot read is
the benchmark's own rule, not a mark (the summary's judge lines count them).

Where OpenCompass stops, assay goes on and says so in a warning:

* two models whose results of one dataset have different metrics (a
  capability with no readable rating is missing from one model's MT-Bench
  result): OpenCompass fails an assertion; assay shows every metric any model
  has (the first model's first, the others after them, ordered as OpenCompass
  orders metrics) and ``-`` for a model without it;
* averaging over base models a metric one of them lacks, or that is not a
  number: OpenCompass raises; assay keeps the values it can average.
"""

from __future__ import annotations

import functools
import logging
import math
import os
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from assay.config.abbr import dataset_abbr, model_abbr, summarizer_abbr
from assay.errors import ConfigError
from assay.fileio import atomic_write_text, read_json
from assay.groups import MARK, SummaryResult
from assay.registry import SUMMARIZERS
from assay.rundir.judged import judge_abbrs, judged_abbr, judged_result_path, read_judged_meta, results_dir
from assay.rundir.layout import RunDir
from assay.summarize._collect import eval_mode, prompt_version

__all__ = ["METRIC_BLACKLIST", "METRIC_WHITELIST", "DefaultSubjectiveSummarizer"]

logger = logging.getLogger(__name__)

#: The metrics shown first, in this order.
METRIC_WHITELIST = ("score", "auc_score", "accuracy", "humaneval_pass@1", "rouge1", "avg_toxicity_score", "bleurt_diff",
                    "matthews_correlation", "truth", "f1", "exact_match", "extract_rate")
#: Never shown.
METRIC_BLACKLIST = ("bp", "sys_len", "ref_len", "type")

_RULE = 128


def _metric_order(metric: str) -> int:
    return METRIC_WHITELIST.index(metric) if metric in METRIC_WHITELIST else len(METRIC_WHITELIST)


def _partial(path: Path) -> list[str]:
    """Why the subjective result at ``path`` is partial (its ``.meta``'s ``incomplete`` entries), ``[]`` when it is not.

    A partial result assay wrote beside one it did not write (``beside`` in the meta) leaves ``path`` complete.
    """
    meta = read_judged_meta(path)
    if not meta or meta.get("beside"):
        return []
    found = []
    for entry in meta.get("incomplete") or []:
        if isinstance(entry, Mapping):
            count = entry.get("count")
            found.append(f"{entry.get('kind', 'incomplete')} ({'?' if count is None else count} samples): {entry.get('detail', '')}")
    return found


def _ordered_repr(value: Any) -> str:
    """``repr`` of an ``OrderedDict`` as Python 3.11 writes it (``OrderedDict([(k, v), ...])``), on any Python."""
    if isinstance(value, OrderedDict):
        return f"OrderedDict({list(value.items())!r})" if value else "OrderedDict()"
    return str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float))


@SUMMARIZERS.register_module()
class DefaultSubjectiveSummarizer:
    """The summary of a subjective run, per judge (see the module).

    Args:
        config: the run config (``models``, ``datasets``, ``judge_models``, ``work_dir``).
        dataset_abbrs: the rows, in order (``'abbr'`` or ``['abbr', 'metric']``);
            omitted: every dataset's metrics, then every group's.
        summary_groups: as OpenCompass's (``name``, ``subsets``, optional ``weights``,
            ``metric``, ``std``, ``sum``).
        prompt_db: deprecated in OpenCompass, ignored.
    """

    def __init__(
        self,
        config: Mapping[str, Any],
        dataset_abbrs: Sequence[Any] | None = None,
        summary_groups: Sequence[Mapping[str, Any]] = (),
        prompt_db: Any = None,
    ) -> None:
        self.cfg = config
        self.dataset_abbrs = dataset_abbrs
        self.summary_groups = list(summary_groups or [])
        if prompt_db:
            logger.warning("prompt_db is deprecated and no longer used: remove it from the config")
        self.model_cfgs = [dict(m) for m in (config.get("models") or [])]
        self.dataset_cfgs = [dict(d) for d in (config.get("datasets") or [])]
        self.model_abbrs: list[str] = []
        for model in self.model_cfgs:
            shown = summarizer_abbr(model)
            if shown not in self.model_abbrs:
                self.model_abbrs.append(shown)
        #: (model, dataset or group) → why its value is marked, for the judge being summarized
        self._marks: dict[tuple[str, str], list[str]] = {}
        self._shown_marks: set[tuple[str, str]] = set()  # those of values the table shows

    # -- reading -----------------------------------------------------------------------------------
    def _pick_up_results(self, judge: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, list[str]], dict[str, str]]:
        raw: dict[str, dict[str, Any]] = {}
        parsed: dict[str, dict[str, dict[str, float]]] = {}
        metrics: dict[str, list[str]] = {}
        run_dir = RunDir(results_dir(self.cfg).parent)
        for model in self.model_cfgs:
            shown = summarizer_abbr(model)
            parsed.setdefault(shown, {})
            raw.setdefault(shown, {})
            for dataset in self.dataset_cfgs:
                abbr = dataset_abbr(dataset)
                bases = dataset.get("base_models")
                base_abbrs = [""] if bases is None else [model_abbr(dict(b)) for b in bases]
                for idx, base in enumerate(base_abbrs):
                    folders = [base, model_abbr(model)] if base else [model_abbr(model)]
                    path = judged_result_path(run_dir, judged_abbr(folders, judge), abbr)
                    if not path.exists():
                        continue
                    loaded = read_json(path, what="judged result")
                    if not isinstance(loaded, dict):
                        raise ConfigError(f"{path}: a result must be a JSON object, got {type(loaded).__name__}")
                    partial = _partial(path)
                    if partial:
                        self._marks.setdefault((shown, abbr), []).extend(partial)
                    result = OrderedDict(sorted((k, v) for k, v in loaded.items() if k != "details" and k != "_meta"))
                    if idx == 0:
                        raw[shown][abbr] = result
                    else:
                        self._average_into(raw[shown].setdefault(abbr, OrderedDict()), result, idx, path)
                    if "error" in result:
                        logger.debug("error in %s %s: %s", shown, abbr, result["error"])
                        continue
                    kept = {m: v for m, v in result.items() if m not in METRIC_BLACKLIST and _is_number(v)}
                    if not kept:
                        logger.warning("%s: no numeric metric in %r, left out", path, dict(result))
                        continue
                    order = sorted(kept, key=_metric_order)
                    known = metrics.get(abbr)
                    if known is None:
                        metrics[abbr] = order
                    elif known != order:
                        added = [m for m in order if m not in known]
                        logger.warning(
                            "%s: %s has metrics %s, another model %s; showing every metric, '-' where one lacks it",
                            abbr, shown, order, known,
                        )
                        metrics[abbr] = sorted(known + added, key=_metric_order)
                    if idx == 0:
                        parsed[shown][abbr] = kept
                    else:
                        self._average_into(parsed[shown].setdefault(abbr, {}), kept, idx, path)
        modes: dict[str, str] = {}
        for dataset in self.dataset_cfgs:
            mode = eval_mode(dataset)
            modes[dataset_abbr(dataset)] = "unknown" if mode == "-" else mode
        return raw, parsed, metrics, modes

    @staticmethod
    def _average_into(into: dict[str, Any], result: Mapping[str, Any], idx: int, path: Path) -> None:
        """The running mean over base models; a value that cannot be averaged is kept as it was (OpenCompass raises)."""
        for key, value in result.items():
            before = into.get(key)
            if isinstance(before, (int, float)) and _is_number(value):
                into[key] = (before * idx + value) / (idx + 1)
            else:
                logger.warning("%s: %r cannot be averaged over the base models (%r, %r)", path, key, before, value)

    # -- groups ------------------------------------------------------------------------------------
    def _calculate_group_metrics(
        self, raw: dict[str, Any], parsed: dict[str, Any], metrics: dict[str, list[str]], modes: dict[str, str]
    ) -> None:
        for group in self.summary_groups:
            name = group["name"]
            subsets = list(group["subsets"])
            for model in self.model_abbrs:
                available: list[Any] = []
                missing: list[Any] = []
                for item in subsets:
                    if isinstance(item, (list, tuple)):
                        ok = item[0] in parsed[model] and item[1] in parsed[model][item[0]]
                    else:
                        ok = item in parsed[model]
                    (available if ok else missing).append(item)
                if not available:
                    continue
                if missing:
                    raw[model][name] = {"error": f"missing metrics: {missing}"}
                    continue
                smart = "metric" not in group
                if not smart:
                    default = group["metric"]
                elif group.get("std", False):
                    default = "standard_deviation"
                elif group.get("sum", False):
                    default = "sum"
                elif group.get("weights", []):
                    default = "weighted_average"
                else:
                    default = "naive_average"
                pairs = [isinstance(s, (list, tuple)) for s in subsets]
                if any(pairs) and not all(pairs):
                    raise ConfigError(f"summary group {name!r}: subsets mix 'abbr' and ['abbr', 'metric'] items")
                scores: dict[str, dict[str, float]] = {}
                modes_seen: list[str] = []
                if all(pairs):
                    group_metrics = [default]
                    for abbr, metric in subsets:
                        scores.setdefault(default, {})[f"{abbr}@{metric}"] = parsed[model][abbr][metric]
                        modes_seen.append(modes.get(abbr, "unknown"))
                else:
                    # OpenCompass lists the shared metrics in a set's order; assay in the first subset's
                    shared = functools.reduce(lambda a, b: a & b, [set(metrics[a]) for a in subsets])
                    group_metrics = sorted(shared, key=lambda m: metrics[subsets[0]].index(m))
                    if smart and len(group_metrics) > 1:
                        for metric in group_metrics:
                            for abbr in subsets:
                                scores.setdefault(metric, {})[f"{abbr}@{metric}"] = parsed[model][abbr][metric]
                                modes_seen.append(modes.get(subsets[0], "unknown"))
                    else:
                        group_metrics = [default]
                        for abbr in subsets:
                            metric = metrics[abbr][0]
                            scores.setdefault(default, {})[f"{abbr}@{metric}"] = parsed[model][abbr][metric]
                            modes_seen.append(modes.get(abbr, "unknown"))
                computed: dict[str, float] = {}
                flat: dict[str, float] = {}
                mode = "unknown"
                for metric, values in scores.items():
                    if default == "standard_deviation":
                        avg = sum(values.values()) / len(values)
                        flat[metric] = computed[metric] = math.sqrt(sum((v - avg) ** 2 for v in values.values()) / len(values))
                    else:
                        weights = group.get("weights", [])
                        if weights:
                            try:
                                numerator = sum(values[k] * w for k, w in weights.items() if w != 0)
                            except KeyError:  # weights named by abbr alone
                                short = {k.split("@")[0]: v for k, v in values.items()}
                                numerator = sum(short[k] * w for k, w in weights.items() if w != 0)
                            denominator = sum(weights.values())
                        else:
                            numerator, denominator = sum(values.values()), len(values)
                        flat[metric] = computed[metric] = numerator if default == "sum" else numerator / denominator
                    distinct = list(set(modes_seen))
                    mode = distinct[0] if len(distinct) == 1 else "mixed"
                raw[model].setdefault(name, {}).update(flat)
                parsed[model].setdefault(name, {}).update(computed)
                metrics.setdefault(name, []).extend(group_metrics)
                modes[name] = mode

    # -- the table ---------------------------------------------------------------------------------
    def _format_table(self, parsed: dict[str, Any], metrics: dict[str, list[str]], modes: dict[str, str]) -> list[list[str]]:
        abbrs = [dataset_abbr(d) for d in self.dataset_cfgs]
        versions = {dataset_abbr(d): prompt_version(d) for d in self.dataset_cfgs}
        rows: list[tuple[str, str | None]] = []
        if self.dataset_abbrs is None:
            for abbr in abbrs:
                if abbr in metrics:
                    rows += [(abbr, m) for m in metrics[abbr]]
                else:
                    rows.append((abbr, None))
            for abbr, ms in metrics.items():
                for m in ms:  # a group's metric is listed once per model that has it: shown once
                    if (abbr, m) not in rows:
                        rows.append((abbr, m))
        else:
            for item in self.dataset_abbrs:
                if isinstance(item, str):
                    rows.append((item, None))
                elif isinstance(item, (list, tuple)):
                    rows.append((item[0], item[1]))
        dashes = ["-"] * len(self.model_abbrs)
        table = [["dataset", "version", "metric", "mode", *self.model_abbrs]]
        for abbr, metric in rows:
            if abbr not in metrics or (metric is not None and metric not in metrics[abbr]):
                table.append([abbr, "-", "-", "-", *dashes])
                continue
            metric = metric if metric is not None else metrics[abbr][0]
            row = [abbr, versions.get(abbr, "-"), metric, modes.get(abbr, "-")]
            for model in self.model_abbrs:
                value = parsed[model].get(abbr, {}).get(metric) if abbr in parsed[model] else None
                marked = value is not None and (model, abbr) in self._marks
                if marked:
                    self._shown_marks.add((model, abbr))
                row.append("-" if value is None else f"{value:.02f}{MARK if marked else ''}")
            table.append(row)
        return table

    def _format_raw_txt(self, raw: dict[str, Any]) -> str:
        seen: list[str] = []
        for model in self.model_abbrs:
            seen += [abbr for abbr in raw[model] if abbr not in seen]
        lines = []
        for model in self.model_abbrs:
            lines += ["-------------------------------", f"Model: {model}"]
            lines += [f"{abbr}: {_ordered_repr(raw[model].get(abbr, '{}'))}" for abbr in seen]
        return "\n".join(lines)

    def _mark_groups(self, parsed: dict[str, Any]) -> None:
        """Mark each group value computed from a marked value (groups of groups in their order)."""
        for group in self.summary_groups:
            name = group["name"]
            for model in self.model_abbrs:
                if name not in parsed[model]:
                    continue
                marked = [s[0] if isinstance(s, (list, tuple)) else s for s in group["subsets"]]
                marked = [abbr for abbr in marked if (model, abbr) in self._marks]
                if marked:
                    self._marks[(model, name)] = [f"computed from marked values ({', '.join(marked)})"]

    def _marks_text(self) -> str:
        """What each mark of the table means, as the lines under it (``''`` when no value is marked)."""
        shown = [(cell, whys) for cell, whys in self._marks.items() if cell in self._shown_marks]
        if not shown:
            return ""
        lines = [f"{MARK} marks a value computed from fewer samples than it claims (judge requests that failed):"]
        lines += [f"  {model} / {abbr}: {why}" for (model, abbr), whys in shown for why in whys]
        return "\n".join(lines)

    def summarize(self, output_path: str | None = None, time_str: str | None = None) -> SummaryResult:
        """Write ``summary_<time>_by_<judge>.{txt,csv}`` for each judge (see the module)."""
        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        outcome = SummaryResult(time_str=time_str)
        for n, judge in enumerate(judge_abbrs(self.cfg, "DefaultSubjectiveSummarizer")):
            self._marks, self._shown_marks = {}, set()
            raw, parsed, metrics, modes = self._pick_up_results(judge)
            self._calculate_group_metrics(raw, parsed, metrics, modes)
            self._mark_groups(parsed)
            table = self._format_table(parsed, metrics, modes)
            raw_txt = self._format_raw_txt(raw)
            txt_path, csv_path = self._output_paths(output_path, time_str, judge)
            txt_path.parent.mkdir(parents=True, exist_ok=True)
            import tabulate  # here only: importing it is slow

            simple = tabulate.tabulate(table, headers="firstrow", floatfmt=".2f")
            if self._marks_text():
                simple = f"{simple}\n\n{self._marks_text()}"
            csv_text = "\n".join(",".join(row) for row in table)
            divider = "-" * _RULE + " THIS IS A DIVIDER " + "-" * _RULE
            text = (
                f"{time_str}\ntabulate format\n" + "^" * _RULE + "\n" + simple + "\n" + "$" * _RULE + "\n\n"
                + divider + "\n\ncsv format\n" + "^" * _RULE + "\n" + csv_text + "\n" + "$" * _RULE + "\n\n"
                + divider + "\n\nraw format\n" + "^" * _RULE + "\n" + raw_txt + "\n" + "$" * _RULE + "\n"
            )
            atomic_write_text(txt_path, text)
            atomic_write_text(csv_path, csv_text + "\n")
            logger.info("wrote the summary judged by %s to %s", judge, os.path.abspath(txt_path))
            suffix = "" if n == 0 else f"_{judge}"
            outcome.paths[f"txt{suffix}"] = txt_path
            outcome.paths[f"csv{suffix}"] = csv_path
            outcome.text += f"judged by {judge}\n{simple}\n"
            if n == 0:
                outcome.table = table
        from assay.summarize._subjective_summary import judged_leaderboard

        # for the report (no file of OpenCompass's is added): judge usage, unjudged samples, pairwise statistics
        outcome.leaderboard = judged_leaderboard(self.cfg, time_str)
        return outcome

    def _output_paths(self, output_path: str | None, time_str: str, judge: str) -> tuple[Path, Path]:
        if output_path is None:
            txt = str(RunDir(results_dir(self.cfg).parent).summary_stem(time_str)) + ".txt"
            csv = txt[: -len(".txt")] + ".csv"
        else:
            txt, csv = output_path, output_path.replace(".txt", ".csv")
        return Path(txt.split(".txt")[0] + f"_by_{judge}.txt"), Path(csv.split(".csv")[0] + f"_by_{judge}.csv")

"""``SubjectiveSummarizer``: the summary of a subjective run, as OpenCompass 0.5.4 makes it.

A config whose ``summarizer`` has a ``function`` (``dict(type=SubjectiveSummarizer,
function='subjective')``, as OpenCompass's subjective examples write it) is
summarized by the datasets' own summarizers, as OpenCompass's command line
does it:

1. the datasets are grouped by the part of their abbr before the first ``_``
   (in config order);
2. each group's summarizer is the ``summarizer['type']`` of its first dataset,
   built with the config (its ``datasets`` that group) and nothing else — the
   dataset's other summarizer options (``judge_type``, …) are not passed, as
   in OpenCompass — and its ``summarize(time_str=…)`` returns the group's scores
   (dataset → judge → model → score name → value; a model's scores may be
   ``None``);
3. the scores are written, one table per judge, to
   ``summary/<time>/Subjective_all_results-judged-by--<judge>.csv``
   (:func:`assay.rundir.judged.subjective_summary_path`): a row per (dataset,
   score name) — columns ``Dataset``, ``Detailed Scores``, then the models in
   the order their scores first appear (the others after, sorted); a model
   without a score is empty, and a column with an empty cell is written as
   floats (``9`` → ``9.0``), as pandas writes it.

A model's values in a group whose judged results hold a partial one (judge
requests that failed: its ``<dataset>.meta`` lists them under ``incomplete``)
are followed by ``*`` in that table (``50.0*``), as assay marks partial results
in its other tables; the summary's ``.json`` and the report list why.

Where a group's summarizer fails, OpenCompass stops; assay logs the error
(naming the summarizer, the group and its datasets), summarizes the other
groups and says which was left out at the end of its text.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from assay.errors import ConfigError
from assay.fileio import atomic_write_text
from assay.registry import SUMMARIZERS, resolve_type

logger = logging.getLogger(__name__)

__all__ = ["SubjectiveSummarizer", "flatten_scores", "judged_leaderboard"]


def flatten_scores(scores: list[Mapping[str, Any]]) -> tuple[dict[str, dict[str, dict[str, dict[str, Any]]]], list[str]]:
    """The scores of every group by judge → dataset → score name → model, and the models (sorted).

    A model whose scores are ``None`` gets ``None`` under the score names its dataset has so far;
    then every model missing under a score name gets ``None`` there, in sorted order.

    Example:
        >>> flat, models = flatten_scores([{'d': {'j': {'m2': {'s': 1}, 'm1': None}}}])
        >>> flat, models
        ({'j': {'d': {'s': {'m2': 1, 'm1': None}}}}, ['m1', 'm2'])
    """
    flat: dict[str, dict[str, dict[str, dict[str, Any]]]] = {}
    seen: set[str] = set()
    for group in scores:
        for dataset, by_judge in group.items():
            for judge, by_model in by_judge.items():
                table = flat.setdefault(judge, {}).setdefault(dataset, {})
                for model, values in by_model.items():
                    seen.add(model)
                    if values is None:
                        for name in table:
                            table[name].setdefault(model, None)
                        continue
                    for name, value in values.items():
                        table.setdefault(name, {}).setdefault(model, value)
    models = sorted(seen)
    for datasets in flat.values():
        for table in datasets.values():
            for row in table.values():
                for model in models:
                    row.setdefault(model, None)
    return flat, models


@SUMMARIZERS.register_module()
class SubjectiveSummarizer:
    """Summarize a subjective run by its datasets' summarizers (see the module).

    Args:
        config: the run config (``work_dir``: the run directory; ``datasets``).
        function: the summary's kind, as the config names it (``'subjective'``).
    """

    def __init__(self, config: Mapping[str, Any], function: str = "subjective") -> None:
        self.cfg = config
        self.function = function
        #: the groups whose summarizer failed (``<summarizer> (<group>): <error>``)
        self.failed: list[str] = []
        #: the datasets of each group whose scores :meth:`group_scores` returned, in its order
        self.group_datasets: list[list[dict[str, Any]]] = []

    def group_scores(self, time_str: str) -> list[Mapping[str, Any]]:
        """Each dataset group's scores from its summarizer (groups whose summarizer returns nothing left out)."""
        groups: dict[str, list[dict[str, Any]]] = {}
        for dataset in self.cfg.get("datasets") or []:
            groups.setdefault(str(dataset["abbr"]).split("_")[0], []).append(dataset)
        out = []
        for prefix, datasets in groups.items():
            spec = datasets[0].get("summarizer")
            if not isinstance(spec, Mapping) or "type" not in spec:
                raise ConfigError(
                    f"summarizer.function={self.function!r} summarizes each dataset with its own summarizer, but "
                    f"dataset {datasets[0].get('abbr')!r} has no summarizer=dict(type=...)")
            cls = resolve_type(spec["type"], SUMMARIZERS, key=f"datasets[{datasets[0].get('abbr')!r}].summarizer.type")
            config = copy.copy(dict(self.cfg))
            config["datasets"] = datasets
            try:
                scores = cls(config=config).summarize(time_str=time_str)
            except Exception as exc:  # OpenCompass stops here; the other groups are summarized all the same
                name = getattr(cls, "__name__", cls)
                logger.error("subjective summary: %s of the %s group (%s) failed: %s: %s", name, prefix,
                             ", ".join(str(d.get("abbr")) for d in datasets), type(exc).__name__, exc)
                self.failed.append(f"{name} ({prefix}): {type(exc).__name__}: {exc}")
                continue
            if scores:
                out.append(scores)
                self.group_datasets.append(datasets)
            else:
                logger.info("subjective summary: the %s group's summarizer returned no scores", prefix)
        return out

    def summarize(self, subjective_scores: list[Mapping[str, Any]] | None = None, time_str: str | None = None,
                  output_path: str | None = None, **kwargs: Any) -> Any:
        """Write the judges' tables; without ``subjective_scores`` the datasets' summarizers give them first."""
        from assay.groups import SummaryResult
        from assay.rundir.judged import subjective_summary_path
        from assay.rundir.layout import RunDir

        time_str = time_str or datetime.now().strftime("%Y%m%d_%H%M%S")
        marked: dict[str, set[tuple[str, str]]] = {}
        if subjective_scores is None:
            self.group_datasets = []
            subjective_scores = self.group_scores(time_str)
            marked = _partial_cells(Path(str(self.cfg["work_dir"])), subjective_scores, self.group_datasets)
        run_dir = RunDir(Path(str(self.cfg["work_dir"])))
        flat, _ = flatten_scores(subjective_scores)
        paths: dict[str, Path] = {}
        lines = []
        for judge, datasets in flat.items():
            frame = _judge_table(datasets)
            path = subjective_summary_path(run_dir, time_str, judge)
            atomic_write_text(path, _marked_csv(frame.to_csv(index=False), marked.get(judge, set())))
            paths[f"judged-by--{judge}"] = path
            lines.append(f"judged by {judge}:\n{frame.to_string(index=False)}")
        lines += [f"not summarized: {failure}" for failure in self.failed]
        board = self.leaderboard(time_str)
        failed = list(self.failed)
        if board is not None:
            from assay.summarize._default import write_json

            paths["json"] = run_dir.summary_stem(time_str).with_suffix(".json")
            write_json(paths["json"], board.to_json())
        else:
            failed.append("assay's leaderboard of the run (no summary .json, so no report of this summary)")
        return SummaryResult(text="\n\n".join(lines), paths=paths, time_str=time_str, leaderboard=board, failed=failed)

    def leaderboard(self, time_str: str) -> Any:
        """assay's leaderboard of the run beside OpenCompass's tables (:func:`judged_leaderboard`)."""
        return judged_leaderboard(self.cfg, time_str)


def judged_leaderboard(config: Mapping[str, Any], time_str: str) -> Any:
    """assay's leaderboard of a subjective run, for its ``.json`` and the report: the datasets' rows, what judging
    each (model, dataset) cost with its unjudged samples, and the pairwise statistics
    (:func:`assay.subjective.pairwise.pairwise_section`: win rates and Elo with their intervals, position bias,
    unparsed replies); ``None`` (with a warning) when it cannot be computed.
    """
    from assay.summarize._default import DefaultSummarizer

    try:
        default = DefaultSummarizer({k: v for k, v in config.items() if k != "summarizer"})
        default.with_stats = False
        scores = default.load_scores()
        return default.leaderboard(scores, default.build_rows(scores, default.dataset_abbrs), time_str)
    except Exception as exc:  # OpenCompass's tables are written already
        logger.warning("subjective summary: assay's leaderboard of the run could not be computed: %s: %s",
                       type(exc).__name__, exc)
        return None


def _partial_cells(run_dir: Path, scores: list[Mapping[str, Any]],
                   groups: list[list[dict[str, Any]]]) -> dict[str, set[tuple[str, str]]]:
    """By judge: the (benchmark, model) cells of the judges' tables whose group has a partial judged result of that
    model (the compared one, of a pair) by that judge."""
    from assay.config.abbr import dataset_abbr
    from assay.rundir.judged import partial_judged
    from assay.rundir.layout import RunDir

    partial = partial_judged(RunDir(run_dir))
    marked: dict[str, set[tuple[str, str]]] = {}
    for group, datasets in zip(scores, groups):
        abbrs = {dataset_abbr(d) for d in datasets}
        for benchmark, by_judge in group.items():
            for judge, by_model in by_judge.items():
                for model in by_model or {}:
                    if any((model, judge, abbr) in partial for abbr in abbrs):
                        marked.setdefault(judge, set()).add((benchmark, model))
    return marked


def _marked_csv(text: str, marked: set[tuple[str, str]]) -> str:
    """A judges' table as pandas wrote it, with ``*`` after each non-empty value of a marked (benchmark, model)."""
    if not marked:
        return text
    import csv
    import io

    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    for row in rows[1:]:
        for j, model in enumerate(header[2:], start=2):
            if (row[0], model) in marked and row[j] != "":
                row[j] += "*"
    out = io.StringIO(newline="")
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def _judge_table(datasets: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> Any:
    import pandas as pd

    frames = []
    for dataset, table in datasets.items():
        rows = list(table)
        frame = pd.DataFrame.from_dict({name: table[name] for name in rows}, orient="index").reindex(rows)
        frame.insert(0, "Detailed Scores", frame.index.values)
        frame.insert(0, "Dataset", [dataset] * len(frame.index))
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)

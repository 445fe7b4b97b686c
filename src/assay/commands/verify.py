"""``assay verify``: recompute every number of a run that can be recomputed, and report mismatches.

Result files: each metric is recomputed from the file's per-sample details
when a rule applies —

* ``accuracy``/``score``/``acc``/``exact_match`` (and their ``(n runs
  average)`` forms) with a correctness key in the details: ``100 ×
  mean(correct)`` over samples and runs (a run without a verdict counts as
  not correct);
* ``G-Pass@k_t``, ``mG-Pass@k`` and their ``<subdivision>/`` forms: from the
  per-run correctness lists with :mod:`assay.evaluate.gpass`;
* a metric with a details field of its own name: the field's mean (× 1 or × 100);
* BLEU's ``score``: the corpus statistic from ``pred``/``answer``.

Every entry of the run index (``index.sqlite``) is checked against its
file's content: a result edited or replaced since it was indexed is named,
whatever its size and times, and the index repaired.

A result's extraction audit is recomputed too (:func:`assay.audit.check.check_audit`):
both postprocessor chains applied again to the replies, and its would-be
accuracy from the details with the corrected verdicts.  So is the comparison
of another tool's own extraction with assay's chain that a result scoring
that tool's replies holds in ``_meta.rescored``
(:func:`assay.audit.check.check_tool_audit`): the tool's answers of the
prediction file against the replies read again by the postprocessors, and
the accuracy the tool's answers would give from the details.

Other metrics are counted as "not checked".  The newest summary ``.json``,
read as its leaderboard at full precision: each dataset cell against its result file, and each group cell re-aggregated
from the summary's own inputs with the summarizer's group code (group
definitions from the run's newest ``configs/*.py`` or the summary's
``group_definitions``).

Every result that should be there is checked to be there and readable: a
result file that is not JSON, truncated or not a result, one the run index
or a ``.stats`` file records but that no longer exists, and one the run's
config (``configs/*.py``) plans but that has neither a file nor split parts
are each a problem, named with the file and what is wrong.

Exit status 1 when a value does not match (each is named with its file and
metric), when a result cannot be read or is missing (each named), or when
nothing could be checked at all (the message says what was looked for and
where), 0 otherwise.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from assay.summarize import Leaderboard

from assay._dataclass import DataclassMethods
from assay.rundir.layout import STATS_SUFFIX, RunDir

NAME = "verify"
HELP = "recompute metrics from per-sample details and groups from results; report values that do not match"

_CORRECTNESS_METRICS = frozenset({"accuracy", "score", "acc", "exact_match"})
_GPASS = re.compile(r"^(?:(?P<sub>.+)/)?(?P<m>m?)G-Pass@(?P<k>\d+)(?:_(?P<t>[0-9.]+))?$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``assay verify``."""
    parser.add_argument("work_dir", metavar="WORK_DIR", help="a run directory, or the parent of the timestamped run directories")
    parser.add_argument("-r", "--reuse", metavar="TIMESTAMP", default=None, help="the run directory in WORK_DIR (default: the newest)")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")


@dataclass(repr=False, eq=False)
class Mismatch(DataclassMethods):
    """A value that does not match its recomputation."""

    file: str
    model: str
    abbr: str
    metric: str
    reported: float
    recomputed: float | None
    how: str

    def describe(self) -> str:
        got = "nothing" if self.recomputed is None else f"{self.recomputed:.6g}"
        return f"{self.file}: {self.metric} = {self.reported:.6g}, recomputed {got} ({self.how})"


@dataclass(repr=False, eq=False)
class VerifyReport(DataclassMethods):
    """What :func:`verify_run` found."""

    checked: int = 0
    unchecked: list[str] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: result files found (``results/<model>/<dataset>.json``)
    result_files: int = 0
    #: the summary ``.json`` checked, relative to the run directory
    summary: str | None = None
    #: result files whose bytes differ from what the run index held (``results/<model>/<dataset>.json``)
    changed_since_indexed: list[str] = field(default_factory=list)
    #: results that cannot be read or are missing though expected: ``'<file>: <what is wrong>'``
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when something was checked, everything checked matches and every expected result is readable."""
        return self.checked > 0 and not self.mismatches and not self.problems

    def nothing_checked(self, root: str | Path) -> str:
        """Why no value was checked: what was looked for, where, and what was found."""
        run = RunDir(Path(root))
        found = (
            f"found {self.result_files} result file(s), but none holds a metric that can be recomputed "
            f"from per-sample details ({len(self.unchecked)} value(s) could not be checked; -v lists them)"
            if self.result_files
            else "found none"
        )
        summary = (
            f"the summary {self.summary} has no value to check"
            if self.summary
            else f"no summary {run.summary_stem('<time>')}.json"
        )
        return (
            f"nothing was verified in {run.root}: looked for result files {run.result_path('<model>', '<dataset>')} "
            f"and {found}; {summary}"
        )


def _close(a: float, b: float) -> bool:
    from assay.stats import values_match

    return values_match(a, b)


def _gpass_expected(result: dict[str, Any], metric: str, details: list[Any]) -> tuple[float, str] | str:
    from assay.evaluate.gpass import g_pass_at_k, mg_pass_at_k
    from assay.stats import correctness_matrix

    m = _GPASS.match(metric)
    assert m is not None
    matrix = correctness_matrix(details)
    if matrix is None:
        return "no per-run correctness in the details"
    runs = len(matrix[0]) if matrix else 0
    if runs < 2 or any(len(row) != runs for row in matrix):
        return "the details do not list the runs of every sample"
    k = int(m.group("k"))
    members: list[int] = list(range(len(details)))
    sub = m.group("sub")
    if sub is not None:
        abbrs = [str(d.get("example_abbr", "")) if isinstance(d, dict) else "" for d in details]
        members = [i for i, a in enumerate(abbrs) if a.rsplit("_", 1)[0] == sub]
        if not members:
            return f"no sample of subdivision {sub!r} in the details"
    values = []
    for i in members:
        c = sum(1 for v in matrix[i] if v is not None and v >= 1)
        if m.group("m"):
            values.append(mg_pass_at_k(runs, c, k))
        else:
            t = m.group("t")
            if t is None:
                return "G-Pass without threshold"
            values.append(g_pass_at_k(runs, c, k, float(t)))
    return 100.0 * math.fsum(values) / len(values), f"G-Pass from {runs} runs × {len(values)} samples"


def expected_value(result: dict[str, Any], metric: str) -> tuple[float, str] | str:
    """The value of ``metric`` recomputed from the result's details and how, or why it cannot be.

    >>> expected_value({'accuracy': 70.0, 'details': [{'correct': [True]}, {'correct': [False]}]}, 'accuracy')
    (50.0, '100 × mean(correct) over 2 samples × 1 runs')
    """
    from assay.stats import base_metric, correctness_matrix

    details = result.get("details")
    if isinstance(details, dict):
        details = list(details.values())
    if not isinstance(details, list) or not details:
        return "no per-sample details"
    if _GPASS.match(metric):
        return _gpass_expected(result, metric, details)
    base = base_metric(metric)
    meta_raw = result.get("_meta")
    meta: dict[str, Any] = meta_raw if isinstance(meta_raw, dict) else {}
    if base in _CORRECTNESS_METRICS:
        matrix = correctness_matrix(details)
        if matrix is not None:
            cells = [0.0 if v is None else v for row in matrix for v in row]
            runs = {len(row) for row in matrix}
            if len(runs) != 1 or not cells:
                return "the correctness lists differ in length"
            return 100.0 * math.fsum(cells) / len(cells), f"100 × mean(correct) over {len(matrix)} samples × {runs.pop()} runs"
    if _is_corpus_bleu(result, base):
        return "corpus BLEU is checked by recomputing it (see verify_run)"
    if meta.get("evaluator") == "RougeEvaluator" and base.startswith("rouge"):
        return "ROUGE's aggregate is OpenCompass's seeded bootstrap median, not a mean of the details"
    if all(isinstance(d, dict) and base in d for d in details):
        from assay.stats import field_means

        means = field_means(details, base)
        if means is None:
            return f"details field {base!r} is not numeric everywhere"
        mean = float(means.mean())
        reported = result.get(metric)
        if isinstance(reported, (int, float)) and _close(float(reported), 100.0 * mean) and not _close(float(reported), mean):
            return 100.0 * mean, f"100 × mean of details.{base}"
        return mean, f"mean of details.{base}"
    return "no rule recomputes it from the details"


def _is_corpus_bleu(result: dict[str, Any], metric: str) -> bool:
    """The evaluator declares ``metric`` a corpus BLEU (its :class:`~assay.evaluate.base.SampleOutcome`)."""
    from assay.evaluate.base import CORPUS_BLEU
    from assay.stats import base_metric, outcome_of

    outcome = outcome_of(result)
    return outcome is not None and outcome.scores.get(base_metric(metric)) == CORPUS_BLEU


def _bleu_check(result: dict[str, Any], metric: str, value: float) -> tuple[float | None, str] | None:
    from assay.stats import sample_values

    sv = sample_values(result, metric, value)
    if isinstance(sv, str):
        return None, "no tokenizer setting reproduces it from pred/answer"
    return value, sv.basis


def verify_run(run_root: str | Path) -> VerifyReport:
    """Check every result file and the newest summary of a run directory."""
    from assay.audit import has_record, tool_record_of
    from assay.rundir.results import numeric_metrics, read_result, read_result_without_details
    from assay.rundir.statistics import load_run_config, model_dirs_of
    from assay.summarize import newest_summary_json

    root = Path(run_root)
    report = VerifyReport()
    results = RunDir(root).results
    _check_index(report, root)
    files = sorted(results.glob("*/*.json")) if results.is_dir() else []
    report.result_files = len(files)
    if not files:
        report.notes.append(f"no result files under {results}")
    configs: list[Any] = []  # the run's config, loaded once when an audit needs it
    for path in files:
        rel = path.relative_to(root).as_posix()
        try:
            result = read_result(path)
        except Exception as exc:  # unreadable: nothing in it can be checked
            report.problems.append(f"{rel}: cannot be read: {str(exc).replace(str(path), rel)}")
            continue
        if "error" in result:
            continue
        model, abbr = path.parent.name, path.stem
        for metric, reported in numeric_metrics(result).items():
            value = float(reported)
            if _is_corpus_bleu(result, metric):
                bleu = _bleu_check(result, metric, value)
                if bleu is not None:
                    report.checked += 1
                    if bleu[0] is None:
                        report.mismatches.append(Mismatch(rel, model, abbr, metric, value, None, bleu[1]))
                    continue
            got = expected_value(result, metric)
            if isinstance(got, str):
                report.unchecked.append(f"{rel}: {metric} ({got})")
                continue
            expected, how = got
            report.checked += 1
            if not math.isfinite(expected) or not _close(value, expected):
                report.mismatches.append(
                    Mismatch(rel, model, abbr, metric, value, expected if math.isfinite(expected) else None, how)
                )
        if has_record(result):
            _verify_audit(report, root, rel, model, abbr, result, configs)
        try:
            tool_audit = tool_record_of(result) is not None
        except ValueError:  # malformed: the check names what is wrong with it
            tool_audit = True
        if tool_audit:
            _verify_audit(report, root, rel, model, abbr, result, configs, tool=True)

    _check_expected(report, root, files)

    summary_path = newest_summary_json(root)
    if summary_path is None:
        report.notes.append("no summary .json to check")
        return report
    srel = summary_path.relative_to(root).as_posix()
    report.summary = srel
    from assay.errors import InputFileError
    from assay.summarize import Leaderboard

    try:
        view = Leaderboard.from_json(summary_path)  # every value at full precision, as the summary computed it
    except InputFileError as exc:  # the result files were checked all the same
        report.problems.append(str(exc).replace(str(summary_path), srel))
        return report
    config = load_run_config(root)
    folders = model_dirs_of(config, view.models)
    for column in view.models:
        for abbr in view.dataset_abbrs:
            have = view.scores.get(column, {}).get(abbr)
            if not have:
                continue
            path = results / folders.get(column, column) / f"{abbr}.json"
            if not path.is_file():
                for metric in have:
                    report.unchecked.append(f"{srel}: {column}/{abbr} {metric} (no single result file to compare)")
                continue
            try:
                result, _ = read_result_without_details(path)
            except Exception as exc:  # reported through the result-file pass already
                report.unchecked.append(f"{srel}: {column}/{abbr} ({exc})")
                continue
            nums = numeric_metrics(result)
            for metric, value in have.items():
                report.checked += 1
                fresh = nums.get(metric)
                if fresh is None or not _close(float(value), float(fresh)):
                    report.mismatches.append(Mismatch(
                        srel, column, abbr, metric, float(value), None if fresh is None else float(fresh),
                        f"the summary differs from {path.relative_to(root).as_posix()}",
                    ))
    try:
        groups = view.summary_groups(config)
    except Exception as exc:  # an invalid group config: groups cannot be checked
        groups = []
        report.notes.append(f"group definitions unusable: {exc}")
    _verify_groups(report, srel, view, groups)
    return report


def _check_index(report: VerifyReport, root: Path) -> None:
    """Every entry of the run index against its file's content (SHA-256), whatever the file's identity says.

    A result changed, added or removed since it was indexed is named; the
    index is repaired.  Such a change is not a mismatch by itself: the values
    in the changed file are checked like any other.
    """
    from assay.rundir.index import RunIndex, index_disabled

    if index_disabled():
        return
    existed = RunDir(root).index.is_file()
    snapshot = RunIndex(root).snapshot(check_content=True)
    report.changed_since_indexed = [f"results/{rel}" for rel in snapshot.changed]
    for rel in snapshot.changed:
        report.notes.append(f"results/{rel} changed since it was indexed (its SHA-256 differs); the index now holds its present content")
    for rel in snapshot.removed:
        report.problems.append(f"results/{rel}: missing: the run index records it, the file no longer exists "
                               "(its entry was removed)")
    if existed and snapshot.added:
        report.notes.append(f"{len(snapshot.added)} result file(s) were not in the run index; they were added")


def _check_expected(report: VerifyReport, root: Path, files: list[Path]) -> None:
    """A problem for each result a ``.stats`` file or the run's config expects that has no file (nor split parts)."""
    results = RunDir(root).results
    present = {p.relative_to(results).as_posix() for p in files}

    def found(folder: str, abbr: str) -> bool:
        if f"{folder}/{abbr}.json" in present:
            return True
        return any(n.startswith(f"{folder}/{abbr}_") and n[len(folder) + len(abbr) + 2:-5].isdigit() for n in present)

    missing = {p.split(".json: ", 1)[0][len("results/"):] for p in report.problems if ".json: " in p}
    for stats in sorted(results.glob(f"*/*{STATS_SUFFIX}")) if results.is_dir() else []:
        folder, abbr = stats.parent.name, stats.stem
        if not found(folder, abbr) and f"{folder}/{abbr}" not in missing:
            missing.add(f"{folder}/{abbr}")
            report.problems.append(f"results/{folder}/{abbr}.json: missing: its statistics "
                                   f"results/{folder}/{abbr}.stats were written with it, the result file is gone")
    from assay.config.abbr import dataset_abbr, model_abbr
    from assay.rundir.statistics import load_run_config

    config = load_run_config(root)
    if config is None:
        return
    pairs: list[tuple[str, str]] = []
    try:
        folders = list(dict.fromkeys(model_abbr(dict(m)) for m in config.get("models") or []))
        from assay.subjective.plan import is_subjective

        # a judged dataset's results are the judge tasks' (results/<model>_judged-by--<judge>/), not results/<model>/
        abbrs = list(dict.fromkeys(dataset_abbr(dict(d)) for d in config.get("datasets") or [] if not is_subjective(dict(d))))
    except Exception as exc:  # a config whose names cannot be derived: the results it plans are unknown
        report.notes.append(f"the results the run's config plans cannot be listed: {exc}")
        return
    pairs = [(f, a) for f in folders for a in abbrs]
    for folder, abbr in pairs:
        if not found(folder, abbr) and f"{folder}/{abbr}" not in missing:
            missing.add(f"{folder}/{abbr}")
            report.problems.append(f"results/{folder}/{abbr}.json: missing: the run's config plans model "
                                   f"{folder!r} on dataset {abbr!r}, and there is no result file")


def _verify_audit(
    report: VerifyReport, root: Path, rel: str, model: str, abbr: str, result: dict[str, Any], configs: list[Any], *, tool: bool = False,
) -> None:
    """Recompute the result's extraction audit (see :func:`assay.audit.check.check_audit`), or with ``tool`` its
    comparison with another tool's extraction (:func:`assay.audit.check.check_tool_audit`)."""
    from assay.audit.check import check_audit, check_tool_audit
    from assay.rundir.statistics import load_run_config

    if not configs:
        configs.append(load_run_config(root))
    meta = result.get("_meta") if isinstance(result.get("_meta"), dict) else {}
    files = meta.get("prediction_files") if isinstance(meta, dict) else None
    folder = Path(files[0]).parent if isinstance(files, list) and files and Path(files[0]).exists() else RunDir(root).prediction_dir(model)
    check = (check_tool_audit if tool else check_audit)(result, config=configs[0], prediction_dir=folder, model=model, abbr=abbr)
    report.checked += check.checked
    report.unchecked.extend(f"{rel}: {item}" for item in check.unchecked)
    for what, reported, recomputed, how in check.mismatches:
        report.mismatches.append(Mismatch(rel, model, abbr, what, reported, recomputed, how))


def _verify_groups(report: VerifyReport, srel: str, view: Leaderboard, groups: list[Any]) -> None:
    from assay.stats import group_plan
    from assay.summarize import aggregate

    defined = {g.name: g for g in groups}
    for column in view.models:
        values = view.scores.get(column, {})
        for name in view.groups:
            have = values.get(name)
            if not have:
                continue
            group = defined.get(name)
            if group is None:
                for metric in have:
                    report.unchecked.append(f"{srel}: {column}/{name} {metric} (group definition unknown)")
                continue
            plan = group_plan(group, view.metrics)
            for metric, value in have.items():
                inputs = plan.get(metric)
                if inputs is None:
                    report.unchecked.append(f"{srel}: {column}/{name} {metric} (not an output of the group)")
                    continue
                xs, ws = [], []
                for abbr, m in inputs:
                    x = values.get(abbr, {}).get(m) if m is not None else None
                    if x is None:
                        break
                    t = group.transform_for(abbr, m)
                    xs.append(t(x) if t is not None else x)
                    w = group.weight_for(abbr, m) if group.weights else 1.0
                    ws.append(1.0 if w is None else w)
                if len(xs) != len(inputs):
                    report.unchecked.append(f"{srel}: {column}/{name} {metric} (an input is missing)")
                    continue
                expected = aggregate(xs, group.aggregation, ws if group.weights else None)
                report.checked += 1
                if not _close(float(value), expected):
                    how = f"{group.aggregation} of {', '.join(f'{a}@{m}' for a, m in inputs)}"
                    report.mismatches.append(Mismatch(srel, column, name, metric, float(value), expected, how))


def run(args: argparse.Namespace) -> int:
    """Verify the run; print mismatches and counts; 1 when anything does not match."""
    from assay.rundir.imports import UnfinishedImport, read_run

    try:
        run_dir = read_run(args.work_dir, args.reuse)
    except UnfinishedImport as exc:  # its results are partly of the import, partly older or missing: nothing to check against
        sys.stderr.write(f"assay verify: FAILED: {exc}\n")
        return 1
    report = verify_run(run_dir.root)
    for m in report.mismatches:
        sys.stdout.write(f"MISMATCH {m.describe()}\n")
    for problem in report.problems:
        sys.stdout.write(f"PROBLEM {problem}\n")
    for note in report.notes:
        sys.stdout.write(f"note: {note}\n")
    if getattr(args, "verbose", 0):
        for item in report.unchecked:
            sys.stdout.write(f"not checked: {item}\n")
    sys.stdout.write(
        f"{run_dir.root}: {report.checked} values checked, {len(report.mismatches)} do not match, "
        f"{len(report.unchecked)} could not be checked, {len(report.problems)} results unreadable or missing\n"
    )
    if report.checked == 0:
        sys.stderr.write(f"assay verify: FAILED: {report.nothing_checked(run_dir.root)}\n")
    return 0 if report.ok else 1

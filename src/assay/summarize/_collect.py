"""Reading a run's result files into :class:`~assay.groups._model.Scores` (R-7.1, R-7.2, R-7.8).

Also the two per-dataset columns that come from the config rather than the
results: the prompt ``version`` hash and the inference ``mode``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import math
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assay.audit import has_record, read_record, read_tool_record
from assay.config.abbr import dataset_abbr, model_abbr, summarizer_abbr
from assay.config.dump import plainify, type_path
from assay.errors import InputFileError
from assay.groups import CellMark, Scores, SummaryIssue, incomplete_marks
from assay.rundir.layout import STATS_SUFFIX, RunDir
from assay.rundir.results import (
    META_KEY,
    METRIC_BLACKLIST,
    METRIC_WHITELIST,
    merge_split_results,
    order_metrics,
    read_result_without_details,
    result_sample_count,
    split_result_paths,
)

if TYPE_CHECKING:
    from assay.rundir.index import Snapshot

__all__ = ["collect_scores", "eval_mode", "prompt_hash", "prompt_version"]

logger = logging.getLogger(__name__)


def prompt_hash(dataset_cfg: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> str:
    """The full SHA-256 hex digest of a dataset's ``infer_cfg``, computed as OpenCompass computes it.

    The config is first turned into plain data (classes become
    ``'module.QualName'`` strings, as in a dumped config; an assay class
    standing for an OpenCompass one, such as ``RawPromptTemplate``, becomes
    OpenCompass's name).  Old-style configs
    with ``infer_cfg.reader_cfg`` get a synthesised ``reader`` entry, split
    names copied into the retriever and every ``type`` cut to its last dotted
    component; ``retriever.fix_id_list`` moves to ``inferencer.fix_id_list``.
    A list of several dataset configs hashes the comma-joined hashes of its
    items.  The caller's config is not modified.

    >>> cfg = {'infer_cfg': {
    ...     'prompt_template': {'type': 'opencompass.openicl.icl_prompt_template.PromptTemplate', 'template': '{q}'},
    ...     'retriever': {'type': 'opencompass.openicl.icl_retriever.ZeroRetriever'},
    ...     'inferencer': {'type': 'opencompass.openicl.icl_inferencer.GenInferencer'}}}
    >>> prompt_hash(cfg)[:6]
    '4d3a0b'
    """
    if isinstance(dataset_cfg, Sequence) and not isinstance(dataset_cfg, (str, bytes, Mapping)):
        items = list(dataset_cfg)
        if len(items) != 1:
            joined = ",".join(prompt_hash(c) for c in items)
            return hashlib.sha256(joined.encode()).hexdigest()
        dataset_cfg = items[0]
    cfg = plainify(_opencompass_names(dataset_cfg))
    infer = cfg.get("infer_cfg")
    if not isinstance(infer, dict):
        raise ValueError("the dataset config has no infer_cfg dict")
    infer = copy.deepcopy(infer)
    if "reader_cfg" in infer:
        outer = cfg.get("reader_cfg") or {}
        inner = infer["reader_cfg"] if isinstance(infer["reader_cfg"], dict) else {}
        infer["reader"] = {
            "type": "DatasetReader",
            "input_columns": outer.get("input_columns"),
            "output_column": outer.get("output_column"),
        }
        retriever = infer.setdefault("retriever", {})
        if isinstance(retriever, dict):
            if "train_split" in inner:
                retriever["index_split"] = inner["train_split"]
            if "test_split" in inner:
                retriever["test_split"] = inner["test_split"]
        for value in infer.values():
            if isinstance(value, dict) and isinstance(value.get("type"), str):
                value["type"] = value["type"].rsplit(".", 1)[-1]
    retriever = infer.get("retriever")
    if isinstance(retriever, dict) and "fix_id_list" in retriever:
        inferencer = infer.setdefault("inferencer", {})
        if isinstance(inferencer, dict):
            inferencer["fix_id_list"] = retriever.pop("fix_id_list")
    return hashlib.sha256(json.dumps(infer, sort_keys=True).encode()).hexdigest()


def _opencompass_names(value: Any) -> Any:
    """``value`` with each class that declares OpenCompass's dotted name (``opencompass_name``) replaced by that name.

    assay's own implementations of OpenCompass's prompt templates
    (``RawPromptTemplate``) then hash as OpenCompass's classes do.
    """
    if isinstance(value, Mapping):
        return {k: _opencompass_names(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_opencompass_names(v) for v in value]
    name = getattr(value, "opencompass_name", None) if isinstance(value, type) else None
    return name if isinstance(name, str) else value


def prompt_version(dataset_cfg: Mapping[str, Any]) -> str:
    """The ``version`` column: the first 6 hex digits of :func:`prompt_hash`, or ``-`` without an ``infer_cfg``.

    >>> prompt_version({'abbr': 'x'})
    '-'
    """
    try:
        return prompt_hash(dataset_cfg)[:6]
    except (ValueError, TypeError, AttributeError) as exc:
        logger.debug("no prompt version for %r: %s", dataset_cfg.get("abbr"), exc)
        return "-"


def eval_mode(dataset_cfg: Mapping[str, Any]) -> str:
    """The ``mode`` column from ``infer_cfg.inferencer.type`` (a class or a string).

    ``gen`` (GenInferencer), ``ppl`` (PPLInferencer, PPLOnlyInferencer), ``ll``
    (LLInferencer), ``unknown`` for any other inferencer, ``-`` without one.

    >>> eval_mode({'infer_cfg': {'inferencer': {'type': 'opencompass.openicl.icl_inferencer.PPLInferencer'}}})
    'ppl'
    """
    infer = dataset_cfg.get("infer_cfg")
    inferencer = infer.get("inferencer") if isinstance(infer, Mapping) else None
    kind = inferencer.get("type") if isinstance(inferencer, Mapping) else None
    if kind is None or kind == "":
        return "-"
    name = kind if isinstance(kind, str) else type_path(kind)
    if "GenInferencer" in name:
        return "gen"
    if "PPLInferencer" in name or "PPLOnlyInferencer" in name:
        return "ppl"
    if "LLInferencer" in name:
        return "ll"
    logger.debug("unknown inferencer %r of dataset %r", name, dataset_cfg.get("abbr"))
    return "unknown"


def collect_scores(config: Mapping[str, Any], run_dir: Path, snapshot: Snapshot | None = None) -> Scores:
    """Read every (model, dataset) result of the config under ``run_dir/results``.

    ``snapshot`` (:meth:`assay.rundir.index.RunIndex.snapshot`) gives each result
    without reading its file; results it lacks are read from their files.
    Problems never abort: each is recorded in ``Scores.issues`` (naming the
    file and the offending value) and the cell shows ``-``.
    """
    models = list(config.get("models") or [])
    datasets = list(config.get("datasets") or [])

    columns: list[str] = []
    model_files: list[tuple[str, str]] = []  # (file abbr, column)
    seen_files: set[str] = set()
    for model in models:
        column = summarizer_abbr(model)
        file_abbr = model_abbr(model)
        if column not in columns:
            columns.append(column)
        elif file_abbr not in seen_files:
            logger.warning("models share the column %r; the later one wins per dataset", column)
        if file_abbr not in seen_files:
            seen_files.add(file_abbr)
            model_files.append((file_abbr, column))
    scores = Scores(columns=columns)

    dataset_cfgs: dict[str, Mapping[str, Any]] = {}
    for i, ds in enumerate(datasets):
        abbr = dataset_abbr(ds)
        if abbr in dataset_cfgs:
            scores.add_issue(
                SummaryIssue(
                    "error",
                    f"dataset abbr {abbr!r} appears more than once in the config (again at datasets[{i}]); "
                    "its results share one file and it is shown once",
                    dataset=abbr,
                )
            )
            continue
        dataset_cfgs[abbr] = ds
        scores.dataset_abbrs.append(abbr)
        scores.versions[abbr] = prompt_version(ds)
        scores.modes[abbr] = eval_mode(ds)

    results_dir = RunDir(run_dir).results
    if not results_dir.is_dir():
        scores.add_issue(SummaryIssue("warning", f"the run directory has no results/ folder ({results_dir})"))
    results_root = str(results_dir)
    seen_metrics: dict[str, dict[str, tuple[str, ...]]] = {}  # abbr → column → its metric names
    for file_abbr, column in model_files:
        reader = _ModelReader(scores, run_dir, os.path.join(results_root, file_abbr), file_abbr, column, snapshot)
        model_values = scores.values[column]
        plain = reader.plain_heads()
        model_raw = scores.raw[column]
        for abbr in scores.dataset_abbrs:
            found = plain(abbr) if plain is not None else None
            head = found[0] if found is not None else None
            if found is not None and found[1]:  # the common case, in short: an indexed result with plain metrics
                values = _plain_metrics(found[0])
                if values is not None:
                    if scores.cell_errors:  # left by an earlier model of this column
                        scores.cell_errors.pop((column, abbr), None)
                    if scores.marks:
                        scores.marks.pop((column, abbr), None)
                    model_raw[abbr] = found[0]
                    model_values[abbr] = values
                    seen_metrics.setdefault(abbr, {})[column] = tuple(values)
                    continue
            result = reader.read(abbr, head)
            if result is None:
                if (column, abbr) in scores.cell_errors:
                    model_values.pop(abbr, None)
                continue
            values = _metrics_of(scores, result, column, abbr, f"{reader.rel_dir}/{abbr}.json")
            if values is None:
                model_values.pop(abbr, None)
                continue
            if scores.cell_errors:
                scores.cell_errors.pop((column, abbr), None)
            model_values[abbr] = values
            audit = read_record(result, f"{reader.rel_dir}/{abbr}.json")
            if audit is not None:
                scores.audits.setdefault(column, {})[abbr] = audit
            tool_audit = read_tool_record(result, f"{reader.rel_dir}/{abbr}.json")
            if tool_audit is not None:  # another tool's own extraction of the replies, against the chain's
                scores.tool_audits.setdefault(column, {})[abbr] = tool_audit
            seen_metrics.setdefault(abbr, {})[column] = tuple(values)
    _kept_results(scores, run_dir, model_files)

    ordered_cache: dict[tuple[str, ...], list[str]] = {}
    for abbr in scores.dataset_abbrs:
        per_model = seen_metrics.get(abbr)
        if not per_model:
            continue
        distinct = set(per_model.values())
        if len(distinct) == 1:
            names = next(iter(distinct))
            if names not in ordered_cache:
                ordered_cache[names] = order_metrics(list(names))
            scores.metrics[abbr] = ordered_cache[names]
            continue
        union: dict[str, None] = {}
        for names in per_model.values():
            union.update(dict.fromkeys(names))
        scores.metrics[abbr] = order_metrics(list(union))
        lists = {c: order_metrics(list(m)) for c, m in per_model.items()}
        if len({tuple(m) for m in lists.values()}) > 1:
            detail = "; ".join(f"{c}: {m}" for c, m in lists.items())
            scores.add_issue(
                SummaryIssue(
                    "warning",
                    f"models report different metrics ({detail}); showing the union, '-' where absent",
                    dataset=abbr,
                )
            )
    return scores


def _kept_results(scores: Scores, run_dir: Path, model_files: list[tuple[str, str]]) -> None:
    """Note and mark the results that the last run of their task did not re-score, having failed (R-12.1).

    A failed task leaves a result already there in place and a note beside its
    log (:meth:`assay.rundir.layout.RunDir.kept_path`); the note counts while the
    result file is the one it describes (same size and modification time).
    Each such cell gets a ``not_rescored`` mark with the reason (groups
    computed from it inherit it, see :func:`assay.groups.apply_groups`).
    """
    from assay.rundir.kept import kept_notes

    layout = RunDir(run_dir)
    wanted = set(scores.dataset_abbrs)
    for file_abbr, column in model_files:
        for abbr, note in kept_notes(layout, file_abbr).items():
            if abbr not in wanted:
                continue
            reason = note.reason
            scores.kept[(column, abbr)] = reason
            scores.marks.setdefault((column, abbr), []).append(CellMark("not_rescored", None, reason))
            rel = f"results/{file_abbr}/{abbr}.json"
            scores.add_issue(SummaryIssue("warning", f"not re-scored: {reason}", model=column, dataset=abbr, file=rel))


class _ModelReader:
    """Reads one model's result files; paths are plain strings (this loop runs once per result file)."""

    def __init__(
        self, scores: Scores, run_dir: Path, model_dir: str, folder: str, column: str, snapshot: Snapshot | None
    ) -> None:
        self.scores, self.run_dir, self.model_dir, self.folder, self.column = scores, run_dir, model_dir, folder, column
        self.rel_dir = f"results/{folder}"
        self.snapshot = snapshot
        self._names: set[str] | None = None

    @property
    def names(self) -> set[str]:
        """The file names in the model's folder (listed when first needed)."""
        if self._names is None:
            if self.snapshot is not None:
                self._names = self.snapshot.names(self.folder)
            else:
                try:
                    self._names = set(os.listdir(self.model_dir))
                except OSError:
                    self._names = set()
        return self._names

    def plain_heads(self) -> Callable[[str], tuple[dict[str, Any], bool] | None] | None:
        """abbr → ``(its result from the snapshot, whether it is plain)`` when it is one file, not changed
        after assay wrote it; plain: holding neither ``_meta``, an error, nor an extraction audit.  Else
        ``None`` (:meth:`read` then tells), and ``None`` without a snapshot.  A result that is not plain is
        given to :meth:`read`, which takes it instead of parsing it again."""
        if self.snapshot is None:
            return None
        from assay.rundir.index import DIGEST, HEAD, WRITTEN

        rows, prefix, loads = self.snapshot.rows.get, f"{self.folder}/", _orjson_loads()

        def plain(abbr: str) -> tuple[dict[str, Any], bool] | None:
            row = rows(f"{prefix}{abbr}.json")
            if row is None or "/" in abbr or os.sep in abbr:
                return None
            if row[WRITTEN] is not None and row[WRITTEN] != row[DIGEST]:
                return None  # changed after assay wrote it: read() marks it
            try:
                head = loads(row[HEAD])
            except ValueError:  # NaN or infinities: read() reports them
                return None
            if type(head) is not dict:
                return None
            return head, not (META_KEY in head or "error" in head or has_record(head))

        return plain

    def _head(self, file_name: str, path: str, *, count: bool = False) -> tuple[dict[str, Any], int | None]:
        """A result without details: from the snapshot when it has it, else from the file."""
        if self.snapshot is not None:
            found = self.snapshot.head(f"{self.folder}/{file_name}")
            if found is not None:
                return found
        return read_result_without_details(path, count_details=count)

    def read(self, abbr: str, head: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """The result of one dataset, merged from split files if need be; ``None`` when unavailable.

        ``head``: the result of ``<abbr>.json`` as the snapshot holds it, already parsed (by :meth:`plain_heads`).
        """
        file_name = f"{abbr}.json"
        path = f"{self.model_dir}{os.sep}{file_name}"
        if file_name in self.names if os.sep not in abbr else os.path.isfile(path):
            try:
                result = head if head is not None else self._head(file_name, path)[0]
            except InputFileError as exc:
                rel = f"{self.rel_dir}/{file_name}"
                self._unreadable(abbr, rel, str(exc).replace(path, rel))
                return None
            if META_KEY in result or "error" in result:
                accepted = self._accept(abbr, f"{self.rel_dir}/{file_name}", result)
                if accepted is not None and META_KEY in result:
                    self.check_written(abbr, file_name, path)
                return accepted
            self.scores.raw[self.column][abbr] = result
            if self.snapshot is not None or f"{abbr}{STATS_SUFFIX}" in self.names:
                self.check_written(abbr, file_name, path)
            return result
        if f"{abbr}_0.json" not in self.names and not any(n.startswith(f"{abbr}_") for n in self.names):
            return None
        try:
            parts = split_result_paths(self.model_dir, abbr, self.names)
        except InputFileError as exc:
            self._unreadable(abbr, f"{self.rel_dir}/{file_name}", str(exc).replace(self.model_dir, self.rel_dir))
            return None
        if not parts:
            return None
        read: list[tuple[str, dict[str, Any], int | None]] = []
        for part in parts:
            part_rel = f"{self.rel_dir}/{part.name}"
            try:
                result, n = self._head(part.name, str(part), count=True)
            except InputFileError as exc:
                self._unreadable(abbr, part_rel, str(exc).replace(str(part), part_rel))
                return None
            read.append((part.stem, result, result_sample_count(result, n)))
        logger.debug("merging %d split results of %s for %s", len(parts), abbr, self.column)
        return self._accept(abbr, f"{self.rel_dir}/{abbr}_*.json", merge_split_results(read))

    def _unreadable(self, abbr: str, rel: str, message: str) -> None:
        scores, column = self.scores, self.column
        scores.raw[column][abbr] = {"error": message}
        scores.cell_errors[(column, abbr)] = message
        scores.add_issue(SummaryIssue("error", message, model=column, dataset=abbr, file=rel))

    def _accept(self, abbr: str, rel: str, result: dict[str, Any]) -> dict[str, Any] | None:
        scores, column = self.scores, self.column
        meta = result.get(META_KEY)
        if isinstance(meta, dict) and meta.get("references") == "gold":
            reason = str(meta.get("references_note") or "the test set was not read")
            scores.gold_references[(column, abbr)] = reason
            logger.info("summary: %s / %s: references from the prediction files' `gold` (%s)", column, abbr, reason)
        if isinstance(meta, dict) and isinstance(meta.get("judge"), dict):
            scores.judge[(column, abbr)] = meta["judge"]
        else:
            scores.judge.pop((column, abbr), None)  # left by an earlier model of this column
        source = None
        if isinstance(meta, dict) and "source" in meta:  # imported from another tool
            from assay.rundir.sources import cell_source

            source = cell_source(meta["source"])
        if source is not None:
            scores.sources[(column, abbr)] = source
        else:
            scores.sources.pop((column, abbr), None)  # left by an earlier model of this column
        scores.raw[column][abbr] = {k: v for k, v in result.items() if k != META_KEY} if META_KEY in result else result
        if scores.marks:
            scores.marks.pop((column, abbr), None)  # left by an earlier model of this column
        if "error" in result:
            message = f"evaluation failed: {result['error']}"
            scores.cell_errors[(column, abbr)] = message
            scores.add_issue(SummaryIssue("error", message, model=column, dataset=abbr, file=rel))
            return None
        marks = incomplete_marks(meta.get("incomplete")) if isinstance(meta, dict) else []
        if marks:
            scores.marks[(column, abbr)] = marks
        return result

    def check_written(self, abbr: str, file_name: str, path: str) -> None:
        """Mark a result whose bytes are not those assay wrote when it computed it.

        The digest of the bytes written comes from the snapshot's entry
        (:meth:`assay.rundir.index.Snapshot.written`), else from the ``.stats`` file
        the worker wrote beside the result.  A result assay did not write
        (OpenCompass's: no written digest) is never marked.
        """
        indexed = f"{self.folder}/{file_name}"
        if self.snapshot is not None and indexed in self.snapshot.rows:
            written, present = self.snapshot.written(indexed), self.snapshot.digest(indexed)
        else:
            from assay.rundir.index import stats_written_digest
            from assay.rundir.results import content_digest

            written = stats_written_digest(f"{self.model_dir}{os.sep}{abbr}{STATS_SUFFIX}")
            present = content_digest(path) if written is not None else None
        if written is None or present is None or present == written:
            return
        scores, column, rel = self.scores, self.column, f"{self.rel_dir}/{file_name}"
        message = (f"{rel} changed after assay computed it (its SHA-256 is not that of the bytes assay wrote): "
                   "its values are shown as they now are")
        scores.changed[(column, abbr)] = rel
        scores.marks.setdefault((column, abbr), []).append(CellMark("changed", None, message))
        scores.add_issue(SummaryIssue("warning", message, model=column, dataset=abbr, file=rel))


_WHITELIST = frozenset(METRIC_WHITELIST)
_SKIP = frozenset(METRIC_BLACKLIST | {"details", META_KEY})


def _orjson_loads() -> Callable[[bytes], Any]:
    import orjson

    return orjson.loads


def _plain_metrics(result: dict[str, Any]) -> dict[str, float] | None:
    """:func:`_metrics_of` of a result whose metrics are all finite floats and that has no
    other number and no whitelisted non-number: it would report nothing; else ``None``."""
    values: dict[str, float] = {}
    for name, raw in result.items():
        if type(raw) is float:
            if raw - raw != 0.0 or name in _SKIP:
                return None
            values[name] = raw
        elif isinstance(raw, (int, float)) or name in _WHITELIST:
            return None
    return values or None


def _metrics_of(scores: Scores, result: dict[str, Any], column: str, abbr: str, rel: str) -> dict[str, float] | None:
    """The finite numeric metrics of a result, in file order; issues for values that cannot be used.

    The same selection as :func:`assay.rundir.results.numeric_metrics` (``bool`` counts
    as 1/0), in one pass since it runs once per result file.
    """
    values: dict[str, float] = {}
    for name, raw in result.items():
        kind = type(raw)
        if kind is float or kind is int or kind is bool or isinstance(raw, (int, float)):
            if name in _SKIP:
                continue
            try:
                value = float(raw)
            except OverflowError:
                value = math.inf
            if value - value != 0.0:  # NaN or infinite
                scores.add_issue(
                    SummaryIssue(
                        "error",
                        f"{rel}: metric {name!r} is {raw!r}, not a finite number; shown as missing",
                        model=column,
                        dataset=abbr,
                        file=rel,
                    )
                )
                continue
            values[name] = value
        elif name in _WHITELIST:
            scores.add_issue(
                SummaryIssue(
                    "warning",
                    f"{rel}: metric {name!r} is not a number ({kind.__name__} {raw!r:.60}); ignored",
                    model=column,
                    dataset=abbr,
                    file=rel,
                )
            )
    if not values:
        keys = [k for k in result if k != META_KEY]
        message = f"{rel}: no numeric metric (keys: {keys!r:.200})"
        scores.cell_errors[(column, abbr)] = message
        scores.add_issue(SummaryIssue("error", message, model=column, dataset=abbr, file=rel))
        return None
    return values

"""What assay reads from another evaluation tool's output files: typed, tool-neutral records.

A reader (one module per tool: :mod:`assay.sources.lm_eval`, …) turns the files
a tool wrote into :class:`ExternalRun` records — one per model and run — each
holding the tool's per-dataset results (:class:`ExternalResult`: the metrics
and their standard errors exactly as the tool reported them, and the samples it
logged, :class:`ExternalSample`) and its groups (:class:`ExternalGroup`).
Nothing here is recomputed: values are the tool's, under the tool's metric
names; where the tool logged per-sample values, :meth:`ExternalResult.check`
says whether they give the reported numbers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from assay._dataclass import DataclassMethods, FrozenMethods

__all__ = ["ExternalGroup", "ExternalResult", "ExternalRun", "ExternalSample", "SourceInfo", "mean_stderr"]


@dataclass(repr=False, eq=False)
class SourceInfo(FrozenMethods):
    """Where a record came from: the tool, its version as the file states it (``None``: not stated), the file."""

    tool: str
    version: str | None
    path: str

    def label(self) -> str:
        """``'lm_eval 0.4.13'``, or the tool alone when its version is unknown.

        >>> SourceInfo('lm_eval', '0.4.13', 'r.json').label()
        'lm_eval 0.4.13'
        """
        return f"{self.tool} {self.version}" if self.version else self.tool

    def to_json(self) -> dict[str, Any]:
        return {"tool": self.tool, "version": self.version, "path": self.path}


@dataclass(repr=False, eq=False)
class ExternalSample(DataclassMethods):
    """One logged sample of one dataset.

    Attributes:
        key: the sample's identity within its dataset, as the tool names it
            (lm-evaluation-harness's ``doc_id``, inspect_ai's sample id), as a string.
        values: metric (the tool's key, e.g. ``'exact_match,strict-match'``) →
            this sample's value.
        reply: the model's raw output, where the tool logged one (a generation;
            ``None`` for log-likelihood requests).
        extracted: the answer the tool's own filters took from the reply, per
            filter (``{'strict-match': '70'}``).
        reference: the target as the tool logged it.
        prompt: the prompt sent to the model (the first request's).
        hashes: the tool's hashes of the document, prompt and target.
        doc: the document (the dataset row) as logged.
    """

    key: str
    values: dict[str, float] = field(default_factory=dict)
    reply: str | None = None
    extracted: dict[str, Any] = field(default_factory=dict)
    reference: Any = None
    prompt: str | None = None
    hashes: dict[str, str] = field(default_factory=dict)
    doc: dict[str, Any] | None = None


def mean_stderr(values: list[float]) -> float | None:
    """The standard error of a mean: the sample standard deviation (n − 1) over √n; ``None`` below two values.

    >>> round(mean_stderr([1.0, 0.0, 1.0, 1.0]), 6)
    0.25
    """
    n = len(values)
    if n < 2:
        return None
    mu = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mu) ** 2 for v in values) / (n - 1) / n)


@dataclass(repr=False, eq=False)
class ExternalResult(DataclassMethods):
    """One model's result on one dataset, as the tool reported it.

    Attributes:
        dataset: the dataset's name in the tool (an lm-evaluation-harness task).
        metrics: metric → value, under the tool's keys and on its scale.
        stderr: metric → its standard error as the tool reported it (``None``:
            reported as not available).
        samples: the logged samples (empty when the tool logged none).
        n_samples: how many samples the tool says it scored.
        higher_is_better: metric → whether higher is better, where stated.
        aggregation: metric → how the tool aggregates per-sample values
            (``'mean'`` …), where stated.
        config: the dataset's configuration as the tool logged it.
        source: the file this came from (and the samples file, in ``samples_path``).
    """

    dataset: str
    metrics: dict[str, float]
    source: SourceInfo
    stderr: dict[str, float | None] = field(default_factory=dict)
    samples: list[ExternalSample] = field(default_factory=list)
    n_samples: int | None = None
    higher_is_better: dict[str, bool] = field(default_factory=dict)
    aggregation: dict[str, str] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    samples_path: str | None = None

    def sample_values(self, metric: str) -> list[float]:
        """The logged per-sample values of ``metric``, in sample order (samples lacking it skipped)."""
        return [s.values[metric] for s in self.samples if metric in s.values]

    def check(self, tolerance: float = 1e-9) -> list[str]:
        """Where the logged samples do not give the reported numbers: one sentence per metric.

        Only metrics the tool aggregates by ``mean`` are checked (others, such as a
        corpus BLEU, cannot be rebuilt from per-sample values), and only when samples
        were logged: the mean of the per-sample values must be the reported value,
        and their :func:`mean_stderr` the reported standard error.
        """
        problems = []
        for metric, value in self.metrics.items():
            if self.aggregation.get(metric.split(",", 1)[0], "mean") != "mean":
                continue
            values = self.sample_values(metric)
            if not values:
                continue
            mean = math.fsum(values) / len(values)
            if not math.isclose(mean, value, rel_tol=tolerance, abs_tol=tolerance):
                problems.append(f"{self.dataset}: {metric} is {value!r} but its {len(values)} samples average {mean!r}")
            reported = self.stderr.get(metric)
            computed = mean_stderr(values)
            if reported is not None and computed is not None and not math.isclose(
                computed, reported, rel_tol=1e-6, abs_tol=tolerance
            ):
                problems.append(f"{self.dataset}: {metric} has standard error {reported!r} but its samples give {computed!r}")
        return problems


@dataclass(repr=False, eq=False)
class ExternalGroup(DataclassMethods):
    """A group of datasets as the tool reported it (lm-evaluation-harness's ``groups``)."""

    name: str
    members: list[str]
    metrics: dict[str, float]
    stderr: dict[str, float | None] = field(default_factory=dict)
    n_samples: Mapping[str, int] = field(default_factory=dict)


@dataclass(repr=False, eq=False)
class ExternalRun(DataclassMethods):
    """One model's run in a tool: its results per dataset and its groups.

    Attributes:
        tool: the tool (``'lm_eval'``, …).
        version: the tool's version as its files state it.
        model: the model's name as the tool records it.
        results: dataset name → result.
        groups: group name → group.
        config: the run's settings as the tool recorded them (model arguments, seeds …).
        paths: the files read.
    """

    tool: str
    version: str | None
    model: str
    results: dict[str, ExternalResult] = field(default_factory=dict)
    groups: dict[str, ExternalGroup] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    paths: list[str] = field(default_factory=list)

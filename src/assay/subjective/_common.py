"""What the single-score subjective postprocessors and summarizers share.

* :func:`judged_answers`: the judge replies of one result read by a parser, the
  references of those read (OpenCompass 0.5.4's ``get_judgeanswer_and_reference``,
  in both of its forms: the dict postprocessors hand the parser the whole sample,
  the summarizers its ``prediction``);
* :func:`read_judged`: one ``results/<model>_judged-by--<judge>/<dataset>.json``
  (or its parts ``<dataset>_0.json``, ``<dataset>_1.json``, …) as OpenCompass's
  summarizers read it;
* :func:`summary_dir`: ``summary/<time>/``, where the summarizers write their files;
* :func:`eval_models`, :func:`judge_abbrs`: the models judged and the judges of a run config.
"""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from assay.config.abbr import dataset_abbr
from assay.errors import ConfigError, InputFileError
from assay.fileio import atomic_append_bytes, read_json
from assay.rundir.judged import judge_abbrs, judged_folder, results_dir, summarizer_dir
from assay.rundir.layout import RunDir

__all__ = [
    "append_csv_rows",
    "csv_text",
    "eval_models",
    "judge_abbrs",
    "judged_answers",
    "read_judged",
    "read_judged_file",
    "judged_dir",
    "results_dir",
    "summary_dir",
]

logger = logging.getLogger(__name__)

#: Below this share of replies read, OpenCompass prints a warning (``<= 0.95 * n``).
READ_SHARE = 0.95


def _samples(output: Mapping[str, Any]) -> Iterable[tuple[str, Any]]:
    """The samples of a judged output: every entry but assay's own (``_meta`` …) and a ``details`` list."""
    for key, value in output.items():
        if isinstance(key, str) and key.startswith("_") and not (isinstance(value, Mapping) and "prediction" in value):
            continue
        yield key, value


def judged_answers(
    output: Mapping[str, Any],
    where: str,
    parse: Callable[[Any], Any],
    *,
    whole_sample: bool = True,
) -> tuple[list[Any], list[Any]]:
    """The judge replies ``parse`` reads (it returns ``None`` for one it cannot) and the ``gold`` of each.

    ``whole_sample``: ``parse`` is handed the sample dict (as OpenCompass's
    dict postprocessors are), else its ``prediction`` (as its summarizers are).
    A warning names ``where`` when the output is empty or at most 95 % of the
    replies were read, as OpenCompass prints one.

    >>> out = {'0': {'prediction': 'Rating: [[6]]', 'gold': {'capability': 'math'}},
    ...        '1': {'prediction': 'no rating', 'gold': {'capability': 'math'}}}
    >>> judged_answers(out, 'x', lambda s: s['prediction'][-3:-2] if '[[' in s['prediction'] else None)
    (['6'], [{'capability': 'math'}])
    """
    samples = list(_samples(output))
    if not samples:
        logger.warning("there are no judged results for %s", where)
    answers: list[Any] = []
    references: list[Any] = []
    for key, sample in samples:
        if not isinstance(sample, Mapping) or "prediction" not in sample:
            raise InputFileError(f"{where}: judged sample {key!r} is not a dict with a 'prediction', got {sample!r:.120}")
        read = parse(sample if whole_sample else sample["prediction"])
        if read is not None:
            answers.append(read)
            references.append(sample.get("gold"))
    if len(answers) <= READ_SHARE * len(samples):
        logger.warning(
            "%s: of %d judgements, %d could be read; check the judge's replies", where, len(samples), len(answers)
        )
    return answers, references


def judged_dir(results: Path, model: str, judge: str) -> Path:
    """``results/<model>_judged-by--<judge>/`` of the ``results`` folder :func:`results_dir` gives."""
    return judged_folder(RunDir(results.parent), model, judge)


def summary_dir(config: Mapping[str, Any], time_str: str) -> Path:
    """``<work_dir>/summary/<time_str>/``, created: where OpenCompass's subjective summarizers write their files."""
    out = summarizer_dir(RunDir(results_dir(config).parent), time_str)
    out.mkdir(parents=True, exist_ok=True)
    return out


def read_judged(subdir: Path, dataset_cfg: Mapping[str, Any]) -> tuple[dict[Any, Any], Path]:
    """The judged samples of one dataset in ``subdir``, and the file named in messages (:func:`read_judged_file`)."""
    return read_judged_file(subdir, dataset_abbr(dict(dataset_cfg)))


def read_judged_file(subdir: str | Path, abbr: str, what: str = "") -> tuple[dict[Any, Any], Path]:
    """The judged samples of the dataset ``abbr`` in ``subdir`` as OpenCompass's subjective summarizers read
    them, and the file to name in messages.

    ``<abbr>.json`` when it exists, else its parts ``<abbr>_0.json``,
    ``<abbr>_1.json``, … (up to the first missing one) with their samples
    numbered 0, 1, … (integers) across the parts, as OpenCompass joins them;
    neither: no samples.  An error names ``what`` (the component reading), the
    file and the fault.
    """
    subdir = Path(subdir)
    whole = subdir / f"{abbr}.json"
    if whole.exists():
        return _judged_object(whole, what), whole
    joined: dict[Any, Any] = {}
    i = 0
    while (part := subdir / f"{abbr}_{i}.json").exists():
        for _, sample in _samples(_judged_object(part, what)):
            joined[len(joined)] = sample
        i += 1
    return joined, (subdir / f"{abbr}_0.json" if i else whole)


def _judged_object(path: Path, what: str) -> dict[Any, Any]:
    prefix = f"{what}: " if what else ""
    try:
        data = read_json(path, what="judged result")
    except InputFileError as exc:
        raise InputFileError(f"{prefix}{exc}") from None
    if not isinstance(data, dict):
        raise InputFileError(f"{prefix}{path}: a judged result must be a JSON object of samples, got {type(data).__name__}")
    return data


def eval_models(config: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The models judged: ``eval.partitioner.models`` (as OpenCompass fills it), else ``models``."""
    partitioner = (config.get("eval") or {}).get("partitioner") or {}
    models = partitioner.get("models") or config.get("models") or []
    if not isinstance(models, Sequence) or isinstance(models, (str, bytes)):
        raise ConfigError(f"the run config's models must be a list of model dicts, got {models!r:.80}")
    return list(models)


def csv_text(rows: Iterable[Sequence[Any]], lineterminator: str = "\r\n") -> str:
    """``rows`` as Python's ``csv.writer`` writes them (``\\r\\n`` after each by default).

    >>> csv_text([['a', 'b c'], [1, 'x,y']], lineterminator='\\n')
    'a,b c\\n1,"x,y"\\n'
    """
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator=lineterminator)
    for row in rows:
        writer.writerow(row)
    return buffer.getvalue()


def append_csv_rows(path: Path, rows: Sequence[Sequence[Any]]) -> None:
    """Append rows to ``path`` as Python's ``csv.writer`` writes them (``\\r\\n``), as OpenCompass appends;
    atomically (:func:`assay.fileio.atomic_append_bytes`): a crash leaves the file as it was, or with every row."""
    atomic_append_bytes(path, csv_text(rows).encode("utf-8"))

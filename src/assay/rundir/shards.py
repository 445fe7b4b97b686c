"""The files of a split task (see :mod:`assay.tasks.shards` for how it is split and merged).

They live in ``<run_dir>/.shards/<model>/<dataset>/``::

    plan.json          written last by the task that split: fingerprint, shard ranges, its log
    in_<s>.pkl         the shard's inputs (prediction fields, test-set rows, references)
    out_<s>.details    the shard's details, already serialized (see :func:`assay.rundir.results.details_fragment`)
    out_<s>.json       the shard's metrics; its presence marks the shard as done

The folder is removed once the shards are merged into the result file; a run
that is interrupted leaves it, and the next run resumes from it.
"""

from __future__ import annotations

import contextlib
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assay._dataclass import FrozenMethods
from assay.errors import AssayError
from assay.fileio import atomic_write_bytes, dumps_finite_json, read_json
from assay.rundir.layout import RunDir
from assay.rundir.results import details_fragment

__all__ = ["ShardFolder", "json_bytes"]


def json_bytes(value: dict[str, Any]) -> bytes:
    """A shard plan or header as written: JSON (non-finite numbers as strings) and a newline."""
    return dumps_finite_json(value) + b"\n"


@dataclass(init=False, repr=False, eq=False)
class ShardFolder(FrozenMethods):
    """The folder of one task's shards.

    Example:
        >>> import tempfile
        >>> folder = ShardFolder.of(RunDir(Path(tempfile.mkdtemp())), "m", "d")
        >>> folder.start(); folder.write_output(0, {"fingerprint": "f", "shard": 0})
        >>> folder.done(0, "f"), folder.done(0, "other"), folder.done(1, "f")
        (True, False, False)
        >>> folder.path.relative_to(folder.path.parents[2]).as_posix()
        '.shards/m/d'
    """

    path: Path

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def of(cls, run_dir: RunDir, model_abbr: str, dataset_abbr: str) -> ShardFolder:
        """The shard folder of ``(model_abbr, dataset_abbr)`` in ``run_dir``."""
        return cls(run_dir.shards / model_abbr / dataset_abbr)

    @property
    def plan_path(self) -> Path:
        return self.path / "plan.json"

    def exists(self) -> bool:
        return self.path.is_dir()

    def start(self) -> None:
        """An empty folder for a new split (what an earlier split left is removed)."""
        self.remove()
        self.path.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):  # written last: no plan until every input is there
            self.plan_path.unlink()

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    def read_plan(self) -> dict[str, Any] | None:
        """The plan, or ``None`` when it is missing, unreadable or not an object."""
        try:
            plan = read_json(self.plan_path, what="shard plan")
        except AssayError:
            return None
        return plan if isinstance(plan, dict) else None

    def write_plan(self, plan: dict[str, Any]) -> None:
        atomic_write_bytes(self.plan_path, json_bytes(plan))

    def drop_plan(self) -> None:
        """Remove the plan: the split can no longer be trusted, and the next run builds it again."""
        with contextlib.suppress(OSError):
            self.plan_path.unlink()

    def input_path(self, shard: int) -> Path:
        return self.path / f"in_{shard}.pkl"

    def has_input(self, shard: int) -> bool:
        return self.input_path(shard).is_file()

    def write_input(self, shard: int, payload: dict[str, Any]) -> None:
        import pickle

        atomic_write_bytes(self.input_path(shard), pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL), durable=False)

    def read_input(self, shard: int) -> Any:
        """The inputs of ``shard``, as :meth:`write_input` wrote them (a file this run's split wrote)."""
        import pickle

        with open(self.input_path(shard), "rb") as fh:
            return pickle.load(fh)

    def output_path(self, shard: int) -> Path:
        return self.path / f"out_{shard}.json"

    def details_path(self, shard: int) -> Path:
        return self.path / f"out_{shard}.details"

    def write_details(self, shard: int, details: list[Any]) -> None:
        atomic_write_bytes(self.details_path(shard), details_fragment(details), durable=False)

    def write_output(self, shard: int, header: dict[str, Any]) -> None:
        """The shard's metrics; written after its details, it marks the shard as done."""
        atomic_write_bytes(self.output_path(shard), json_bytes(header), durable=False)

    def read_output(self, shard: int) -> Any:
        """The header :meth:`write_output` wrote; raises :class:`~assay.errors.AssayError` naming the file."""
        return read_json(self.output_path(shard), what="shard result")

    def done(self, shard: int, fingerprint: str) -> bool:
        """Whether ``shard`` was scored without error from inputs of ``fingerprint``."""
        try:
            header = self.read_output(shard)
        except AssayError:
            return False
        return isinstance(header, dict) and header.get("fingerprint") == fingerprint and "error" not in header

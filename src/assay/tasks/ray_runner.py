"""Running units on an existing Ray cluster (the optional ``assay[ray]`` extra).

Config: ``eval = dict(runner=dict(type='RayRunner', address='HOST:PORT'))``,
or ``assay eval CONFIG --ray HOST:PORT`` (``--ray auto`` finds a local cluster).

Tasks hold config dicts whose classes may be defined in the config file
itself, so units are not shipped with their tasks: each Ray worker loads the
config file once (by path) and plans the same tasks, and a unit names its
tasks by index.  Workers therefore need the config, the prediction files and
the run directory at the same paths as the driver (one machine, or a shared
file system), and assay installed in the same version.  Relative paths in
the config resolve as they do for the driver: the worker runs in the
driver's working directory.

The results are byte-identical to the local runner's: the same units, the
same code, and result files that hold no timings.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from assay.errors import ConfigError
from assay.tasks.plan import EvalOptions, EvalTask
from assay.tasks.runner import BackendFactory, Event, Unit, execute_unit

logger = logging.getLogger(__name__)

__all__ = ["RayBackend", "execute_remote", "ray_backend"]

# Per Ray worker process: (config path, run dir) → planned tasks.
_PLANNED: dict[tuple[str, str], Sequence[EvalTask]] = {}


def execute_remote(config_path: str, cwd: str, options: EvalOptions, unit: Unit) -> list[Event]:
    """Run one unit in a Ray worker; return its events (see :func:`assay.tasks.runner.execute_unit`)."""
    from assay.config import load_config
    from assay.tasks.plan import plan_tasks

    if os.getcwd() != cwd:
        os.chdir(cwd)
    key = (config_path, str(options.run_dir.root))
    tasks = _PLANNED.get(key)
    if tasks is None:
        tasks = plan_tasks(load_config(config_path), options.run_dir)
        _PLANNED[key] = tasks
    events: list[Event] = []
    execute_unit(unit, tasks, options, events.append)
    events.append(("end",))
    return events


class RayBackend:
    """Submits units to a Ray cluster, at most as many at a time as it has CPUs (or ``workers``)."""

    def __init__(self, tasks: Sequence[EvalTask], options: EvalOptions, *, address: str | None, workers: int | None) -> None:
        try:
            import ray
        except ImportError:
            raise ConfigError("the Ray runner needs Ray: pip install 'assay[ray]'") from None
        if not tasks:
            raise ConfigError("the Ray runner has no task to run")
        self._ray = ray
        if not ray.is_initialized():
            ray.init(address=address or "auto", log_to_driver=False, logging_level=logging.WARNING)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self._capacity = max(1, min(cpus, workers) if workers else cpus)
        self._config_path = str(Path(tasks[0].config.path))
        self._options = options
        self._remote = ray.remote(num_cpus=1, max_retries=0)(execute_remote)
        self._pending: dict[Any, Unit] = {}
        logger.info("Ray cluster at %s: %d CPUs, %d units at a time", address or "auto", cpus, self._capacity)

    def capacity(self) -> int:
        return self._capacity

    def submit(self, unit: Unit) -> None:
        ref = self._remote.remote(self._config_path, os.getcwd(), self._options, unit)
        self._pending[ref] = unit

    def events(self) -> list[tuple[Unit, Event]]:
        if not self._pending:
            return []
        ready, _ = self._ray.wait(list(self._pending), num_returns=1)
        out: list[tuple[Unit, Event]] = []
        for ref in ready:
            unit = self._pending.pop(ref)
            try:
                events = self._ray.get(ref)
            except Exception as exc:  # the worker died, or the task could not start
                message = f"the Ray worker running it failed: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
                events = [("died", message), ("end",)]
            out.extend((unit, event) for event in events)
        return out

    def close(self) -> None:
        for ref in list(self._pending):
            self._ray.cancel(ref, force=True)
        self._pending.clear()
        self._ray.shutdown()


def ray_backend(address: str | None) -> BackendFactory:
    """What :func:`assay.tasks.runner.run_tasks` takes as ``backend`` to send the work to the Ray cluster at ``address``.

    >>> callable(ray_backend('127.0.0.1:6379'))
    True
    """

    def build(tasks: Sequence[EvalTask], options: EvalOptions, workers: int | None) -> RayBackend:
        return RayBackend(tasks, options, address=address, workers=workers)

    return build

"""Planning and running evaluation tasks, one per (model, dataset)."""

from __future__ import annotations

from assay.tasks.plan import EvalOptions, EvalTask, TaskCheck, check_plan, plan_tasks
from assay.tasks.run import TaskOutcome, run_task
from assay.tasks.runner import default_workers, run_tasks

__all__ = [
    "EvalOptions",
    "EvalTask",
    "TaskCheck",
    "TaskOutcome",
    "check_plan",
    "default_workers",
    "plan_tasks",
    "run_task",
    "run_tasks",
]

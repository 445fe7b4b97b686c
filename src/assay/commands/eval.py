"""``assay eval CONFIG``: evaluate every (model, dataset) of a config, without the summary
(see :mod:`assay.commands.run`, whose code it shares)."""

from __future__ import annotations

import argparse

from assay.commands._options import add_common
from assay.commands.run import add_eval_options, evaluate

NAME = "eval"
HELP = "evaluate every (model, dataset) of a config"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``assay eval``."""
    add_common(parser)
    add_eval_options(parser)


def run(args: argparse.Namespace) -> int:
    """Evaluate; the exit status of :mod:`assay.commands.run`."""
    return evaluate(args, then_summarize=False)

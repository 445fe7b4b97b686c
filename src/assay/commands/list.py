"""``assay list [KIND]``: the registered components (evaluators, postprocessors, loaders, summarizers)."""

from __future__ import annotations

import argparse
import sys

NAME = "list"
HELP = "list registered components"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``assay list``."""
    parser.add_argument("kind", nargs="?", choices=["evaluators", "postprocessors", "loaders", "summarizers", "all"], default="all")


def run(args: argparse.Namespace) -> int:
    """Print each registered name with where it is defined; 0."""
    from assay import registry

    kinds = {
        "evaluators": registry.ICL_EVALUATORS,
        "postprocessors": registry.TEXT_POSTPROCESSORS,
        "loaders": registry.LOAD_DATASET,
        "summarizers": registry.SUMMARIZERS,
    }
    for kind, reg in kinds.items():
        if args.kind not in (kind, "all"):
            continue
        sys.stdout.write(f"{kind}:\n")
        for name, obj in reg.items():
            sys.stdout.write(f"  {name:40s} {getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', '')}\n")
    return 0

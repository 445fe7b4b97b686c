"""The ``assay`` command line: the parser of every command in :mod:`assay.commands`, logging, dispatch.

``assay run CONFIG``       evaluate every (model, dataset), then summarize;
``assay eval CONFIG``      evaluate only;
``assay summarize CONFIG`` summarize existing results;
``assay list [KIND]``      list registered components;
then ``compare``, ``index``, ``report`` and ``verify``.

Exit status: 0 when every task succeeded, 1 when any task failed (each is named
with its log file), 2 for a usage or configuration error, or a run directory
another command is writing (nothing was run); 128 + the signal's number when
SIGTERM or SIGHUP ended it (its workers stopped, what was written is complete), 130 when Ctrl-C did
(a second Ctrl-C while the command stops changes nothing).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

__all__ = ["console", "main"]


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone (its module the only one imported)."""
    from assay import __version__

    parser = argparse.ArgumentParser(prog="assay", description="Score saved LLM outputs and turn the scores into leaderboards.")
    parser.add_argument("--version", action="version", version=f"assay {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in _command_modules(command):
        p = sub.add_parser(module.NAME, help=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_command_module=module)
    return parser


def _command_modules(command: str | None = None) -> list[Any]:
    """The subcommand modules of :mod:`assay.commands`: those of :data:`assay.commands.FIRST` in
    that order, then the others by name; only ``command``'s when it names one of them."""
    import importlib

    import assay.commands

    if command is not None and command.isidentifier() and not command.startswith("_"):
        try:
            module = importlib.import_module(f"assay.commands.{command}")
        except ModuleNotFoundError as exc:
            if exc.name != f"assay.commands.{command}":
                raise
        else:
            if getattr(module, "NAME", None) == command:
                return [module]
    import pkgutil

    names = [info.name for info in pkgutil.iter_modules(assay.commands.__path__) if not info.name.startswith("_")]
    first = [n for n in assay.commands.FIRST if n in names]
    ordered = first + sorted(n for n in names if n not in first)
    return [importlib.import_module(f"assay.commands.{name}") for name in ordered]


def _setup_logging(verbose: int) -> None:
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``assay`` command.

    Its start — importing the command's modules, parsing the arguments — runs with the cyclic collector's
    bulk thresholds (:func:`assay._gc.startup_allocations`): it builds tens of thousands of long-lived objects,
    which the default thresholds would scan again and again.  Those objects are then frozen out of later
    collections, and the command itself runs with the thresholds it was called with (its bulk phases —
    scoring, summarizing, statistics, the report — set the bulk ones themselves); the freeze ends with
    the command.
    """
    import gc

    from assay._gc import startup_allocations

    frozen = gc.get_freeze_count()
    try:
        with startup_allocations():
            args = _parse(argv)
        return _main(args)
    finally:
        if not frozen:  # a caller's own freeze is the caller's
            gc.unfreeze()


def console() -> NoReturn:
    """The ``assay`` command and ``python -m assay``: :func:`main` with the process's arguments, then the
    process exits with its status.

    What the command built is frozen out of the cyclic collector (``gc.freeze``) before the interpreter
    exits: the collections of the interpreter's shutdown would otherwise scan every object the run left
    (tens of thousands, a tenth of a short run's time) only for the process to end.  Reference counting still
    frees them and ``atexit`` functions still run.
    """
    import gc
    import signal

    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _ctrl_c)
    try:
        status = main()
        gc.freeze()
    except KeyboardInterrupt:  # the first Ctrl-C, come after the command's own handling: the same quiet end
        status = _interrupted()
    sys.exit(status)


#: The Ctrl-C the ``assay`` process has had (:func:`_ctrl_c`).
_CTRL_C: list[int] = []


def _ctrl_c(signum: int, frame: Any) -> None:
    """The ``assay`` process's SIGINT handler.  The first Ctrl-C raises :class:`KeyboardInterrupt`, which stops the
    command (its workers stopped, its files finished or removed) and ends it quietly with status 130.  A second one
    while it stops does not cut that cleanup short: it says how to stop at once.  A third stops the process at once
    (status 130): a command whose cleanup waits on something that does not end, or whose first Ctrl-C was lost
    (raised inside a finalizer, where Python drops it), can always be stopped."""
    import os

    _CTRL_C.append(signum)
    if len(_CTRL_C) == 1:
        raise KeyboardInterrupt
    if len(_CTRL_C) == 2:
        os.write(2, b"assay: stopping; press Ctrl-C again to stop at once\n")
        return
    os.write(2, b"assay: stopped at once; files it was writing may be left as temporary .tmp files\n")
    os._exit(130)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = _parser(argv[0] if argv else None).parse_args(argv)
    _setup_logging(getattr(args, "verbose", 0))
    return args


def _main(args: argparse.Namespace) -> int:
    from assay.commands import Terminated
    from assay.errors import AssayError

    try:
        return int(args._command_module.run(args))
    except AssayError as exc:
        sys.stderr.write(f"assay: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        return _interrupted()
    except Terminated as exc:
        import signal

        name = signal.Signals(exc.signum).name
        sys.stderr.write(f"assay: stopped by {name}; its workers are stopped, results written so far are complete and kept\n")
        return 128 + exc.signum


def _interrupted() -> int:
    """130, Ctrl-C's status, once the command is told interrupted."""
    sys.stderr.write("assay: interrupted; results written so far are complete and kept\n")
    return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

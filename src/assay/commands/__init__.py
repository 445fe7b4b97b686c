"""The ``assay`` subcommands, one module each.

A module here defines ``NAME`` (the subcommand), ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int``; :mod:`assay.cli` discovers
them and lists those of :data:`FIRST` first, in that order, then the others by
name.  Modules must import heavy dependencies inside ``run`` so that
``assay --help`` stays fast.  ``run`` and ``eval`` share their code
(:mod:`assay.commands.run`); the commands that read a config share its options
and the writing of a summary (``_options``).  A command reading a run directory
(``report``, ``verify``, …, and ``run``, ``eval`` and ``summarize`` reading a
run's dumped config) takes it from :func:`assay.rundir.imports.read_run`,
which refuses a run an import left unfinished; a summary checks it once the
config's own imports are written again.
"""

from assay.commands._options import Terminated

__all__ = ["FIRST", "Terminated"]

#: The commands listed first by ``assay --help``, in this order.
FIRST = ("run", "eval", "summarize", "list")

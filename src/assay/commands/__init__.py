"""Extra ``assay`` subcommands, one module each.

A module here defines ``NAME`` (the subcommand), ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int``; :mod:`assay.cli` discovers
them.  Modules must import heavy dependencies inside ``run`` so that
``assay --help`` stays fast.
"""

"""Exception types raised by assay.

Every error that reaches a user names *where* the problem is (a file, a config
component, a key) and *what* the offending value was.  The hierarchy lets the
command line tell configuration mistakes (reported before any work starts) from
failures of a single (model, dataset) task (recorded in that task's result file).
"""

from __future__ import annotations


class AssayError(Exception):
    """Base class of all errors raised on purpose by assay."""


class ConfigError(AssayError):
    """A configuration file or component is invalid.

    Raised before any work starts; the message names the file, the component and
    the offending key or value.
    """


class RegistryError(AssayError, KeyError):
    """A ``type`` could not be resolved, or a name was registered twice."""

    def __str__(self) -> str:  # KeyError would otherwise repr() the message
        return str(self.args[0]) if self.args else ""


class InputFileError(AssayError):
    """A prediction, dataset or result file is missing or malformed."""


class EvaluationError(AssayError):
    """An evaluator failed or returned something that cannot be used."""

"""``python -m assay``."""

from assay.cli import console

console()

"""OpenCompass's ``HFDataset``: ``datasets.load_dataset`` with the config's options, on local data.

OpenCompass 0.5.4 hands every option of the dataset config to
``datasets.load_dataset`` unchanged, except ``data_files``, which it resolves
with ``get_data_path(..., local_mode=True)`` (joined to ``$COMPASS_DATA_CACHE``
when that is set, else taken relative to the working directory, then looked
for under ``~/.cache/opencompass``).  The library's configs use it two ways:

* a file builder with a local file — ``path='json'``,
  ``data_files='./data/CLUE/AFQMC/dev.json'``, ``split='train'`` (the CLUE,
  FewCLUE, SuperGLUE and SummEdits PPL configs): read as OpenCompass reads it;
* a Hugging Face Hub dataset — ``path='glue'``, ``name='cola'``;
  ``path='wikitext'``, ``name='wikitext-2-raw-v1'``: assay never contacts the
  Hub, so ``path`` must be a local copy of that dataset (a folder
  ``glue/`` as ``huggingface-cli download --repo-type dataset`` writes it, whose
  ``README.md`` lists its configurations) in the working directory, beside the
  config, under ``$COMPASS_DATA_CACHE`` or ``~/.cache/opencompass``.  Without it
  the task is scored from the prediction files' ``gold`` when its evaluator
  reads references only, and otherwise fails naming what to download and where.

``datasets`` is imported only when a test set is read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from assay.datasets._oc import load_local_hf
from assay.datasets.base import BaseDataset
from assay.datasets.location import DataLocation, get_data_path, locate_data
from assay.errors import InputFileError
from assay.registry import LOAD_DATASET

__all__ = ["HFDataset"]

#: ``datasets``' packaged file builders: a ``path`` naming one reads ``data_files``.
BUILDERS = ("json", "csv", "parquet", "text", "arrow")


def _builder(path: Any) -> str | None:
    """The file builder ``path`` names, also when config loading made it a path (``<config folder>/json``)."""
    if isinstance(path, str) and os.path.basename(path) in BUILDERS and not os.path.exists(path):
        return os.path.basename(path)
    return None


def _data_files(value: Any) -> str:
    if not isinstance(value, str):
        raise InputFileError(f"HFDataset: data_files must be one file path (as OpenCompass resolves it), got {value!r}")
    return get_data_path(value, local_mode=True)


@LOAD_DATASET.register_module()
class HFDataset(BaseDataset):
    """``datasets.load_dataset(**options)`` on local files, ``data_files`` resolved as OpenCompass resolves it.

    What ``datasets`` returns is returned: a ``Dataset`` when ``split`` is
    given, else a ``DatasetDict`` of the splits.  A ``path`` that is neither a
    file builder nor a local folder or file is a Hub dataset assay does not
    fetch: the error names it and where a local copy is looked for.
    """

    @staticmethod
    def config_data_location(options: dict[str, Any], config_dir: str | os.PathLike[str] | None = None) -> DataLocation | None:
        """Where the data of a dataset config with these options is, for planning (the gold rule).

        ``data_files`` of a file builder (``path='json'``) is located as the
        loader resolves it; any other ``path`` as a dataset config's ``path`` is
        (:func:`~assay.datasets.location.locate_data`).
        """
        path = options.get("path")
        files = options.get("data_files")
        if isinstance(path, str) and path in BUILDERS and isinstance(files, str):
            first = os.path.join(os.environ.get("COMPASS_DATA_CACHE", ""), files)
            found = get_data_path(files, local_mode=True) if not os.path.isabs(files) else files
            looked = (first,) if os.path.isabs(files) else (first, os.path.join(os.path.expanduser("~"), ".cache", "opencompass", first))
            return DataLocation(files, Path(found), os.path.exists(found), looked)
        if isinstance(path, str) and path:
            return locate_data(path, config_dir)
        return None

    @staticmethod
    def load(**kwargs: Any) -> Any:
        options = dict(kwargs)
        if "data_files" in options:
            options["data_files"] = _data_files(options["data_files"])
        path = options.get("path")
        builder = _builder(path)
        if builder is not None:
            options["path"] = builder
        elif not isinstance(path, str) or not path:
            raise InputFileError(f"HFDataset: path must name a dataset (a local folder, or a file builder with data_files), got {path!r}")
        elif not os.path.exists(path):
            name = f" (name={options['name']!r})" if options.get("name") else ""
            raise InputFileError(
                f"HFDataset: {path}{name} is not on disk, and assay reads local files only (OpenCompass would fetch "
                "this dataset from the Hugging Face Hub): download the dataset's files from the Hub into a folder named "
                "as the config's path, in the working directory, beside the config, or under $COMPASS_DATA_CACHE"
            )
        if builder is not None and options.get("data_files") is None:
            raise InputFileError(f"HFDataset: path={builder!r} reads data_files, and the config gives none")
        return load_local_hf("HFDataset", **options)

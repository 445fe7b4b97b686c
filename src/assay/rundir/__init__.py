"""The run directory: the one package that opens files in it.

A run directory (``<work_dir>/<YYYYmmdd_HHMMSS>/``) holds everything a run
writes and every later command reads; only the modules of this package name
its folders and files or open them:

* :mod:`assay.rundir.layout`: where each file lives (:class:`~assay.rundir.layout.RunDir`),
  which folder is a run, the newest run, the writer lock;
* :mod:`assay.rundir.results`: the result-file format (OpenCompass's, details last);
* :mod:`assay.rundir.record`: the typed record of one written result;
* :mod:`assay.rundir.predictions`: the prediction files;
* :mod:`assay.rundir.index`: the run index (``index.sqlite``);
* :mod:`assay.rundir.shards`: the files of split tasks (``.shards/``);
* :mod:`assay.rundir.configs`: the dumped configs (``configs/``) and the newest of them;
* :mod:`assay.rundir.kept`: the note a failed task leaves when it kept the result already there;
* :mod:`assay.rundir.sidecar`: the ``.stats`` file beside each result;
* :mod:`assay.rundir.stats_index`: how the index keeps a result's statistics (settings, layout, lookup);
* :mod:`assay.rundir.statistics`: each result's statistics, from the index, its ``.stats`` file
  or the result itself, kept in the index; ``assay index``;
* :mod:`assay.rundir.compare`: two models compared sample by sample (``assay compare``).

The package's ``__init__`` imports nothing, so that importing one of its
modules costs only that module.
"""

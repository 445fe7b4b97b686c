"""The HTML report: ``<run_dir>/summary/summary_<time>.html``, one self-contained file.

It opens on a leaderboard: the models as rows, ranked best first by a column
the reader picks (default: the last top-level summary group, else the first
row of the table), the summary groups as columns, each value with its 95%
interval and, where computed, its rank interval; equal values share a rank.
Every column sorts, models and columns filter by text, the header and the
model column stay in view, and a group opens into its datasets.  One click
away is the full table in OpenCompass's layout (datasets as rows), sorting
and filtering alike.  Unscorable counts, the extraction audit, ``gold``
references, marks and judge figures are small badges, their sentences on
hover, focus or click; hover a value for it in full, as the summary ``.json``
holds it, for how its interval was computed, or why it is ``-``.  For a
handful of models, a bar chart per summary group; per dataset a sample
browser: every model's raw prediction, extracted answer and correctness side
by side with the reference, filtered by a relation between two models ("A
right, B wrong", …) and by text search.

No network access is needed: CSS and JavaScript are inlined, the tables are
drawn from compact JSON in the page.  Each dataset's sample data is read only
when it is opened: embedded in the page when all of it is small
(:data:`~assay.report._html.EMBED_LIMIT`), else one ``<script>`` file per
dataset in ``summary_<time>_files/`` beside the page (browsers load those from
``file://`` too); to share such a report, send the page with its folder
(``zip -r report.zip summary_<time>.html summary_<time>_files``).  The
columns the run index keeps compressed go to the page as they are kept, and
the browser decompresses a dataset's when it is opened; :func:`unpack_samples`
reads a dataset's sample data as the page does.

Example:
    >>> import json, pathlib, tempfile
    >>> run = pathlib.Path(tempfile.mkdtemp())
    >>> p = run / 'results' / 'm1' / 'ds.json'
    >>> p.parent.mkdir(parents=True)
    >>> _ = p.write_text(json.dumps({'accuracy': 50.0, 'details': [{'correct': [True]}, {'correct': [False]}]}))
    >>> write_html_report(run, None, '20240101_000000').name
    'summary_20240101_000000.html'
"""

from __future__ import annotations

from assay.report._html import (
    HtmlReport,
    begin_html_report,
    build_report_data,
    cell_notes,
    cell_tip,
    render_report,
    write_html_report,
)
from assay.report._samples import unpack_samples

__all__ = ["HtmlReport", "begin_html_report", "build_report_data", "cell_notes", "cell_tip", "render_report",
           "unpack_samples", "write_html_report"]

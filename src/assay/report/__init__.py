"""The HTML report: ``<run_dir>/summary/summary_<time>.html``, one self-contained file.

It holds the leaderboard with each cell's 95% interval and unscorable counts
(hover a cell for its value in full, as the summary ``.json`` holds it, for how
it was computed, or why it is ``-``), a bar chart with
error bars for every summary group (inline SVG), and per dataset a sample
browser: every model's raw prediction, extracted answer and correctness side
by side with the reference, filtered by a relation between two models
("A right, B wrong", …) and by text search.  No network access is needed to
open it: its CSS and JavaScript are inlined and sample data is embedded as
compact JSON, rendered a page at a time.

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

from assay.report._html import build_report_data, render_report, write_html_report

__all__ = ["build_report_data", "render_report", "write_html_report"]

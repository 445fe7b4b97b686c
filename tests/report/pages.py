"""Reading a written report back: its leaderboard data and its sample data, embedded or beside it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any


def board_data(html: str) -> dict[str, Any]:
    """The page's leaderboard data (the ``assay-board`` element)."""
    m = re.search(r'<script type="application/json" id="assay-board">(.*?)</script>', html, re.S)
    assert m, "no leaderboard data in the page"
    return json.loads(m.group(1))


def sample_data(page: Path) -> list[dict[str, Any]]:
    """Every dataset's sample data as the page reads it: embedded in it, else from its side files; packed
    columns unpacked (see :func:`assay.report.unpack_samples`)."""
    from assay.report import unpack_samples

    return [unpack_samples(found) for found in raw_sample_data(page)]


def raw_sample_data(page: Path) -> list[dict[str, Any]]:
    """Every dataset's sample data as the page holds it (packed columns as they are)."""
    html = page.read_text(encoding="utf-8")
    board = board_data(html)
    out = []
    for i, _ in enumerate(board["samples"]):
        m = re.search(rf'<script type="application/json" id="samples-{i}">(.*?)</script>', html, re.S)
        if m:
            out.append(json.loads(m.group(1)))
            continue
        name = board["samples"][i]["file"]
        text = (page.parent / board["side"] / f"{name}.js").read_text(encoding="utf-8")
        prefix = f'assaySamples("{name}",'
        assert text.startswith(prefix) and text.endswith(");\n"), text[:80]
        out.append(json.loads(text[len(prefix):-3]))
    return out


def wait_drawn(section: Any, seconds: float = 30.0) -> None:
    """Wait until a dataset's sample browser (``section``, a selenium element) shows its samples: the page reads
    them, and unpacks packed columns, after the click that opens it returns (its ``data-loaded`` then)."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(section.parent, seconds, poll_frequency=0.02).until(lambda _: section.get_attribute("data-loaded"))


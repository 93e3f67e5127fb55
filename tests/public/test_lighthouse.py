"""Lighthouse on the five main pages (the rating list, a player, a tournament, the search, the statistics), on a
phone and on a desktop: accessibility, best practices and SEO each score 100.

Lighthouse and its Chromium launcher come from the npm registry into tests/axe/node_modules (``npm ci --prefix
tests/axe``; CI does it) and run headless Chromium (/usr/bin/chromium) through tests/axe/lighthouse.mjs. Without
them the test skips, and fails on CI (REQUIRE_SERVICES=1, or CI=true).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import skip_or_fail
from tests.public.test_axe import federation
from tests.public.test_browser import CHROMIUM, static_from_source

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["static_from_source"]  # a fixture used by name below

TOOLS = Path(__file__).resolve().parents[1] / "axe"
LIGHTHOUSE = TOOLS / "node_modules" / "lighthouse" / "package.json"
RUN = TOOLS / "lighthouse.mjs"
CATEGORIES = ("accessibility", "best-practices", "seo")


def _missing(reason: str) -> None:
    if os.environ.get("CI", "") == "true":  # CI installs Lighthouse (.ci/run): missing there, it is a failure
        pytest.fail(f"required tool missing: {reason}")
    skip_or_fail(reason)


def lighthouse(urls: list[str]) -> list[dict[str, Any]]:
    """Per page and form factor: the scores of the three categories and the audits that lower them."""
    node = shutil.which("node")
    if node is None or not LIGHTHOUSE.exists():
        _missing(f"Lighthouse is not installed at {LIGHTHOUSE.parent} (npm ci --prefix tests/axe)")
    if not CHROMIUM.exists():
        _missing(f"Lighthouse needs headless Chromium at {CHROMIUM} (Debian: chromium)")
    run = subprocess.run(
        [str(node), str(RUN), *urls],
        capture_output=True,
        text=True,
        timeout=900,
        env={**os.environ, "CHROME_PATH": str(CHROMIUM)},
        check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_lighthouse_scores_100_on_the_main_pages(static_from_source: None, live_server: Any) -> None:
    table, players = federation()
    pages = {
        "rating list": "/",
        "player": f"/players/{players[0].federation_id}/",
        "tournament": f"/tournaments/{table.tournament_id}/",
        "search": "/search/",
        "search results": "/search/?q=martin",
        "statistics": "/statistics/",
    }
    results = lighthouse([live_server.url + url for url in pages.values()])
    assert len(results) == 2 * len(pages)
    below = {}
    for result in results:
        assert result["error"] is None, result
        failing = result["failing"]
        if result["url"].endswith("?q=martin"):
            # A search's results are kept off crawlers by robots.txt (endless addresses): the one audit allowed
            # to fail, on that page only; the search page itself is crawlable.
            assert [f["id"] for f in failing if f["category"] == "seo"] == ["is-crawlable"], failing
            failing = [f for f in failing if f["id"] != "is-crawlable"]
            scores = {c: s for c, s in result["scores"].items() if c != "seo"}
        else:
            scores = result["scores"]
        if any(score < 1 for score in scores.values()) or failing:
            below[f"{result['url']} ({result['form']})"] = {"scores": result["scores"], "failing": failing}
    assert below == {}, json.dumps(below, indent=1, ensure_ascii=False)

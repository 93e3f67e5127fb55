"""axe-core on the pages of clubs, categories, head-to-head and reports, at 1366 and 390 px
(tests/public/test_axe.py's check)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from ratings.models import Club, MistakeReport
from ratings.services.clubs.memberships import club_membership_set
from ratings.services.reports import report_request, report_token
from tests.conftest import skip_or_fail
from tests.public.test_axe import AXE, check_pages, federation
from tests.public.test_browser import browser, static_from_source

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below


def test_axe_finds_no_violation_on_the_new_pages(static_from_source: None, live_server: Any, browser: Any) -> None:
    if not AXE.exists():
        skip_or_fail(f"axe-core is not installed at {AXE} (npm ci --prefix tests/axe)")
    table, players = federation()
    a, b = players[0], players[1]
    club = Club.objects.create(name="Cercle de shogi Lyon", country="FR", city="Lyon", website="https://example.org/")
    for player in players:
        club_membership_set(player=player, club=club, since=dt.date(2020, 1, 1))
    report = report_request(player=a, table=table, game=None, what="Round 2", email="r@example.org", language="en")
    pages = {
        "clubs": "/clubs/",
        "club": f"/clubs/{club.pk}/",
        "countries": "/countries/",
        "category-tops": "/statistics/categories/",
        "head-to-head": f"/players/{a.federation_id}/vs/{b.federation_id}/",
        "opponents": f"/players/{a.federation_id}/opponents/",
        "report": f"/players/{a.federation_id}/report/",
        "report-table": f"/tables/{table.pk}/report/",
        "report-sent": "/reports/sent/",
        "report-confirm": f"/reports/confirm/{report_token(report)}/",
    }
    found = check_pages(browser, live_server.url, pages, AXE.read_text())
    assert found == {}, json.dumps(found, indent=1)
    assert MistakeReport.objects.get().confirmed_at is None

"""axe-core in headless Chromium: every public page and the admin screens the project adds, at a laptop's width
(1366 px) and a phone's (390 px), with no accessibility violation of any impact.

axe-core comes from the npm registry into tests/axe/node_modules (``npm ci --prefix tests/axe``; CI does it) and
is injected from that file into each page: nothing is loaded from a CDN. Without it the test skips, and fails
under REQUIRE_SERVICES=1. Each test walks dozens of pages at two widths (half a minute): marked slow, as the
clubs' axe test is, so `make test-slow` and CI run them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from ratings.models import Player, Promotion, PromotionStatus, Table
from ratings.services.tables.submit import table_submit
from tests.conftest import skip_or_fail
from tests.factories import make_player, make_table, round_robin
from tests.predictions.test_pages import stored as stored_report
from tests.public.test_browser import admin_login, browser, static_from_source
from tests.public.test_browser_pages import shoot_at, swiss

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below

AXE = Path(__file__).resolve().parents[1] / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = (1366, 390)
RUN_AXE = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(
  (r) => done(JSON.stringify(r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" "))
  })))),
  (e) => done(JSON.stringify([{id: "axe-error", impact: "critical", help: String(e), nodes: []}])),
);
"""


def violations(driver: Any, source: str) -> list[dict[str, Any]]:
    driver.execute_script(source)
    return json.loads(driver.execute_async_script(RUN_AXE))


def check_pages(driver: Any, base: str, pages: dict[str, str], source: str) -> dict[str, list[dict[str, Any]]]:
    """Every page at both widths: its violations by "name@width", and a screenshot of each."""
    found = {}
    driver.set_script_timeout(60)
    for width in WIDTHS:
        for name, url in pages.items():
            driver.set_window_size(width, 900)
            driver.get(base + url)
            assert "Server Error" not in driver.title and "Log in" not in driver.title, url
            result = violations(driver, source)
            if result:
                found[f"{name}@{width}"] = result
            shoot_at(driver, f"axe-{name}-{width}", width)
    return found


def federation() -> tuple[Table, list[Player]]:
    table, players = swiss()
    newcomer = make_player("Newman", "Nora", nationality="DE")
    second = make_table([players[0], players[1], newcomer], date=table.date, sequence=2)
    round_robin(second, [players[0], players[1], newcomer])
    table_submit(table=second, user=None)
    promotion = {"table": table, "game_number": 41, "route": "upper_bound", "status": PromotionStatus.PENDING}
    Promotion.objects.update_or_create(player=players[0], grade=21, defaults={**promotion, "rating": 1900})
    return table, players


def test_axe_finds_no_violation_on_the_public_pages(static_from_source: None, live_server: Any, browser: Any) -> None:
    if not AXE.exists():
        skip_or_fail(f"axe-core is not installed at {AXE} (npm ci --prefix tests/axe)")
    source = AXE.read_text()
    table, players = federation()
    stored_report()  # the comparison's page with its tables and charts
    player = players[0]
    pages = {
        "rating-list": "/",
        "rating-list-unrated": "/?category=unrated",
        "official-lists": "/lists/official/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{table.tournament_id}/",
        "table": f"/tables/{table.pk}/",
        "player": f"/players/{player.federation_id}/",
        "player-table": f"/players/{player.federation_id}/tables/{table.pk}/",
        "promotions": "/promotions/",
        "statistics": "/statistics/",
        "predictions": "/statistics/predictions/",
        "calculator": f"/calculator/?player={player.federation_id}",
        "calculation": (
            f"/calculator/?form-TOTAL_FORMS=10&form-INITIAL_FORMS=0&player={player.federation_id}"
            f"&form-0-opponent={players[1].federation_id}&form-0-result=1"
        ),
        "search": "/search/?q=martin",
        "downloads": "/downloads/",
        "embed-top": "/embed/top/",
    }
    found = check_pages(browser, live_server.url, pages, source)
    assert found == {}, json.dumps(found, indent=1)


def test_axe_finds_no_violation_on_the_admin_screens(static_from_source: None, live_server: Any, browser: Any) -> None:

    if not AXE.exists():
        skip_or_fail(f"axe-core is not installed at {AXE} (npm ci --prefix tests/axe)")
    source = AXE.read_text()
    table, players = federation()
    draft = make_table(players[:2], date=table.date, sequence=3)
    promotion = Promotion.objects.get(player=players[0], grade=21)
    User.objects.create_superuser("root", password="a-long-password-1")
    admin_login(browser, live_server, "root", "a-long-password-1")
    pages = {
        "admin-table": f"/admin/ratings/table/{draft.pk}/change/",
        "admin-crosstable": f"/admin/ratings/table/{draft.pk}/crosstable/",
        "admin-preview": f"/admin/ratings/table/{draft.pk}/preview/",
        "admin-upload": "/admin/ratings/table/upload/turnering/",
        "admin-promotions": "/admin/ratings/promotion/",
        "admin-approve": f"/admin/ratings/promotion/{promotion.pk}/decide/approve/",
        "admin-duplicates": "/admin/ratings/player/duplicates/",
        "admin-publish": "/admin/ratings/officiallist/add/",
    }
    found = check_pages(browser, live_server.url, pages, source)
    assert found == {}, json.dumps(found, indent=1)

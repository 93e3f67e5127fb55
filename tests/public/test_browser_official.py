"""The official lists' pages in headless Chromium on a desktop (1366 px) and a phone (390 px): screenshots in
``test-artifacts/``, no Content-Security-Policy violation, no page wider than the window."""

from __future__ import annotations

from typing import Any

import pytest

from ratings.services.corrections.apply import correction_make
from ratings.services.official_lists import official_list_publish
from ratings.services.rerate import rerate_pending
from tests.corrections.helpers import result_flipped
from tests.factories import make_user
from tests.public.conftest import days_ago
from tests.public.test_browser import browser, csp_violations, static_from_source
from tests.public.test_browser_pages import WIDTHS, overflows, shoot_at, swiss
from tests.public.test_browser_phone import wider_boxes

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below


def test_browser_official_lists(static_from_source: None, live_server: Any, browser: Any) -> None:
    from selenium.webdriver.common.by import By  # optional dependency: only the browser tests need it

    table, players = swiss()
    officer = make_user(superuser=True)  # a flushed database of a browser test may hold no role groups
    official = official_list_publish(
        date=days_ago(10), user=officer, title="Spring list 2026", note="Published.", expected=None
    )
    correction_make(user=officer, reason="Wrong way round", change=result_flipped(table), expected=None)
    rerate_pending()
    iso = official.date.isoformat()
    for device, width in WIDTHS.items():
        browser.set_window_size(width, 900)
        browser.get(live_server.url + "/lists/official/")
        assert browser.find_elements(By.CSS_SELECTOR, "table.official-lists tbody tr")
        assert csp_violations(browser) == [] and not overflows(browser), device
        shoot_at(browser, f"40-{device}-official-archive", width)

        browser.get(live_server.url + f"/lists/official/{iso}/")
        assert len(browser.find_elements(By.CSS_SELECTOR, "table.rating-list tbody tr")) == len(players)
        assert csp_violations(browser) == [] and not overflows(browser), device
        shoot_at(browser, f"41-{device}-official-list", width)

        browser.get(live_server.url + f"/lists/official/{iso}/revised/")
        assert browser.find_elements(By.CSS_SELECTOR, "table.revised tr.changed")
        assert csp_violations(browser) == [] and not overflows(browser), device
        assert wider_boxes(browser) == [], device  # a changed figure wraps under the one it replaced
        shoot_at(browser, f"42-{device}-official-revised", width)

        browser.get(live_server.url + f"/players/{players[0].federation_id}/")
        assert browser.find_elements(By.ID, "official-lists")
        shoot_at(browser, f"43-{device}-player-official", width)

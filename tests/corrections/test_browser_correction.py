"""A rated table's correction in a real browser (headless Chromium): a rating officer changes a result on the
change form, reads the preview (the change in words, players before → after), saves it with a reason and
finds it in the corrections' list. Screenshots at 1366 and 390 px go to ``test-artifacts/``."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from ratings.models import Correction, GameResult
from tests.public.test_browser import admin_login, browser, csp_violations, static_from_source
from tests.public.test_browser_pages import WIDTHS, overflows, shoot_at, swiss

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below


def test_browser_correction_preview_then_save_with_a_reason(
    static_from_source: None, live_server: Any, browser: Any
) -> None:
    from selenium.webdriver.common.by import By  # optional dependency: only the browser tests need it
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.select import Select
    from selenium.webdriver.support.ui import WebDriverWait

    table, _players = swiss()
    # A superuser is a rating officer; the role groups (made by a migration) may have been flushed by an earlier
    # transactional test.
    User.objects.create_superuser("officer-ito", password="pw")
    wait = WebDriverWait(browser, 20)
    browser.set_window_size(WIDTHS["desktop"], 900)
    admin_login(browser, live_server, "officer-ito", "pw")

    browser.get(live_server.url + f"/admin/ratings/table/{table.pk}/change/")
    result = Select(wait.until(ec.presence_of_element_located((By.NAME, "games-0-result"))))
    now = result.first_selected_option.get_attribute("value")
    result.select_by_value(GameResult.SECOND_WON if now != GameResult.SECOND_WON else GameResult.FIRST_WON)
    browser.find_element(By.CSS_SELECTOR, "input[name=_save]").click()

    wait.until(ec.presence_of_element_located((By.ID, "correction-players")))
    assert csp_violations(browser) == []
    lines = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#correction-lines li")]
    assert len(lines) == 1 and "→" in lines[0] and "Müller" in lines[0]
    rows = browser.find_elements(By.CSS_SELECTOR, "#correction-players tbody tr")
    assert len(rows) >= 2 and all("→" in row.find_element(By.CSS_SELECTOR, "td:nth-child(2)").text for row in rows)
    assert not Correction.objects.exists()
    for name, width in WIDTHS.items():
        shoot_at(browser, f"20-correction-preview-{name}", width)
        assert not overflows(browser), name

    browser.set_window_size(WIDTHS["desktop"], 900)
    browser.find_element(By.ID, "id_correction_reason").send_keys("The scoresheet was read the wrong way round")
    browser.find_element(By.CSS_SELECTOR, "#correction-form input[type=submit]").click()
    wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, "ul.messagelist")))
    assert Correction.objects.get().reason == "The scoresheet was read the wrong way round"

    browser.get(live_server.url + "/admin/ratings/correction/")
    listed = browser.find_element(By.ID, "result_list").text
    assert "The scoresheet was read the wrong way round" in listed and "officer-ito" in listed
    for name, width in WIDTHS.items():
        shoot_at(browser, f"21-corrections-list-{name}", width)
        assert not overflows(browser), name

"""The duplicate screens in a real browser (headless Chromium), at 1366 and 390 pixels, for a person to look at:
the add form's warning, the merge preview and the report. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse
from selenium.webdriver.support.ui import WebDriverWait

from ratings.access import ensure_roles
from tests.duplicates.helpers import twice_entered
from tests.factories import make_rating_officer
from tests.public.test_browser import ARTIFACTS, browser, session_of, static_from_source  # noqa: F401 - fixtures

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def logged_in(driver: Any, live_server: Any) -> None:
    # A transactional test before this one may have flushed the groups the roles migration made.
    ensure_roles(Group, Permission)
    session_of(driver, live_server, make_rating_officer())


def shots(driver: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for width in (1366, 390):
        driver.set_window_size(width, 1000)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, min(max(int(height), 800), 3000))
        driver.save_screenshot(str(ARTIFACTS / f"duplicates-{name}-{width}.png"))


def test_browser_add_warning_merge_preview_and_report(static_from_source: None, live_server: Any, browser: Any) -> None:  # noqa: F811
    kept, duplicate, _others, _tables = twice_entered()
    logged_in(browser, live_server)

    browser.get(live_server.url + reverse("admin:ratings_player_add"))
    browser.find_element("name", "family_name").send_keys("Rossi")
    browser.find_element("name", "given_name").send_keys("Matéo")
    browser.find_element("css selector", "select[name=nationality] option[value=IT]").click()
    browser.find_element("name", "_save").click()
    # The click only starts the form's submission: wait for the answer, which must hold the warning.
    WebDriverWait(browser, 30).until(lambda driver: "may be the same person" in driver.page_source)
    shots(browser, "add-warning")

    browser.get(live_server.url + reverse("admin:ratings_player_merge", args=[duplicate.pk]))
    assert "up to a minute" in browser.page_source  # the wait a long career's preview takes is told beforehand
    shots(browser, "merge-choose")
    browser.get(
        live_server.url + reverse("admin:ratings_player_merge", args=[duplicate.pk]) + f"?kept={kept.federation_id}"
    )
    assert "merged into" in browser.page_source
    shots(browser, "merge-preview")

    browser.get(live_server.url + reverse("admin:ratings_player_duplicates"))
    assert duplicate.federation_id in browser.page_source
    shots(browser, "report")

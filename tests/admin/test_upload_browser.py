"""The upload's preview on a phone (390 px) and a laptop (1366 px) in headless Chromium: the page never scrolls
sideways (each wide table scrolls in its own box), a line's player choice stands beside its names, and nothing
breaks the site's Content-Security-Policy."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from ratings.access import ensure_roles
from tests.factories import make_director, make_player, make_tournament
from tests.files.test_import_turnering import FOUR
from tests.public.test_browser import browser, csp_violations, session_of, static_from_source
from tests.public.test_browser_pages import overflows, shoot_at

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below

UPLOAD = "/admin/ratings/table/upload/turnering/"


@pytest.mark.parametrize("width", [390, 1366])
def test_browser_upload_preview_fits_the_window(
    static_from_source: None, live_server: Any, browser: Any, tmp_path: Path, width: int
) -> None:
    ensure_roles(Group, Permission)  # a transactional test before may have flushed the roles' groups
    director = make_director()
    tournament = make_tournament(date=dt.date(2016, 1, 7), directors=[director])
    for family, given in [("Ishikawa", "Musashi"), ("Ould Ahmed", "Samy"), ("Mazouzi", "Sana")]:
        make_player(family, given)
    make_player("Hébbert", "Pascal")  # a name a letter apart: the director chooses, in a select beside the names
    path = tmp_path / "turnering.txt"
    path.write_bytes(FOUR.encode("iso-8859-1"))
    browser.set_window_size(width, 900)
    session_of(browser, live_server, director)
    browser.get(f"{live_server.url}{UPLOAD}?tournament={tournament.pk}")
    browser.find_element(By.NAME, "file").send_keys(str(path))
    browser.find_element(By.CSS_SELECTOR, "#upload-form input[type=submit]").click()
    line = WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "line-3"))  # the preview has loaded
    headers = [
        th.get_attribute("textContent").strip() for th in browser.find_elements(By.CSS_SELECTOR, "#lines thead th")
    ]
    assert headers.index("Player") == headers.index("Given name") + 1
    assert line.find_element(By.CSS_SELECTOR, "select").is_displayed()
    assert not overflows(browser)
    if width == 390:  # the lines' box scrolls on its own; its player column is in view without scrolling it
        select = line.find_element(By.CSS_SELECTOR, "select")
        assert browser.execute_script("return arguments[0].getBoundingClientRect().left < window.innerWidth", select)
    assert csp_violations(browser) == []
    shoot_at(browser, f"31-admin-upload-preview-{width}", width)

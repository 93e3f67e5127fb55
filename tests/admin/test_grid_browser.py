"""The crosstable page on a phone (390 px) in headless Chromium: it fits the width, and it grows a row as the
director fills the last one in, without a reload and under the site's Content-Security-Policy."""

from __future__ import annotations

from typing import Any

import pytest

from tests.public.test_browser import browser, crosstable_page, csp_violations, static_from_source
from tests.public.test_browser_pages import overflows, shoot_at

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below


def test_browser_crosstable_page_fits_a_phone_and_grows_as_the_director_types(
    static_from_source: None, live_server: Any, browser: Any
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    crosstable_page(browser, live_server, players=4, rounds=3, width=390)
    assert not overflows(browser)
    cells = browser.find_elements(By.CSS_SELECTOR, "#grid input.grid-cells")
    assert len(cells) == 9  # the four players and five blank rows
    assert not browser.find_element(By.CSS_SELECTOR, "form.grid-size").is_displayed()  # no reload needed
    cells[-1].send_keys("1+ 2- 3=")
    WebDriverWait(browser, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#grid input.grid-cells")) == 10)
    total = browser.find_element(By.NAME, "row-TOTAL_FORMS").get_attribute("value")
    assert total == "10"
    new_row = browser.find_elements(By.CSS_SELECTOR, "#grid tbody tr")[-1]
    assert new_row.find_element(By.CSS_SELECTOR, "input.grid-cells").get_attribute("name") == "row-9-cells"
    assert new_row.find_elements(By.CSS_SELECTOR, ".select2-container")  # the new player box is an autocomplete
    assert cells[-1].get_attribute("value") == "1+ 2- 3="  # what was typed stays
    assert not overflows(browser)
    assert csp_violations(browser) == []
    shoot_at(browser, "30-admin-crosstable-phone", 390)

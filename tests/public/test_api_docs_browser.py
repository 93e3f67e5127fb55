"""The API's documentation page (and the downloads page that links it) in a real browser: Swagger UI from the
site's own files, under the site's Content-Security-Policy, lists every operation of the schema."""

from __future__ import annotations

from typing import Any

import pytest

from tests.public.test_browser import browser, csp_violations, shoot, static_from_source  # noqa: F401 - fixtures

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_browser_api_docs_render_under_the_policy(
    static_from_source: None,  # noqa: F811 - the fixture imported above
    live_server: Any,
    browser: Any,  # noqa: F811
) -> None:
    from selenium.webdriver.common.by import By  # selenium is imported where a browser runs
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(live_server.url + "/api/v1/docs/")
    WebDriverWait(browser, 20).until(ec.presence_of_element_located((By.CSS_SELECTOR, ".opblock-summary-path")))
    paths = {e.get_attribute("data-path") for e in browser.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")}
    assert {"/api/v1/rating-list/", "/api/v1/tables/{id}/", "/api/v1/players/{federation_id}/history/"} <= paths
    assert "FESA ratings API" in browser.page_source
    scripts = browser.execute_script("return [...document.scripts].map(s => s.src)")
    assert all(src.startswith(live_server.url) for src in scripts)  # nothing from elsewhere
    shoot(browser, "07-api-docs")
    assert csp_violations(browser) == []
    browser.get(live_server.url + "/downloads/")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Downloads and API"
    assert csp_violations(browser) == []

"""The site in each language in headless Chromium, on a laptop (1366 px) and a phone (390 px): German's, Dutch's
and Polish's longer words must not push any page wider than the phone's screen, and Japanese must show its own
glyphs, not empty boxes (Debian's fonts-noto-cjk). Screenshots in ``test-artifacts/`` (``de-*.png``, ``ja-*.png``…).
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from ratings.models import Player, Table, TableStatus
from tests.public.test_browser import browser, csp_violations, static_from_source
from tests.public.test_browser_pages import overflows, shoot_at

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]
__all__ = ["browser", "static_from_source"]  # fixtures used by name below

WIDTHS = (1366, 390)
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]

# Two of the page's characters drawn in its own font against two characters no font has: the same picture when
# the characters' font is missing and both show the empty box.
GLYPHS_DRAWN = """
const font = getComputedStyle(document.body).fontFamily;
function draw(text) {
  const canvas = document.createElement("canvas");
  canvas.width = 96; canvas.height = 48;
  const context = canvas.getContext("2d");
  context.font = "32px " + font;
  context.fillText(text, 0, 36);
  return canvas.toDataURL();
}
return draw(arguments[0]) !== draw("\\u{10FFFD}\\u{10FFFD}");
"""


def pages() -> list[tuple[str, str]]:
    table = Table.objects.filter(status=TableStatus.RATED).order_by("-date").first()
    assert table is not None
    player = Player.objects.get(pk=table.entries.order_by("seat").values_list("player", flat=True)[0])
    calculator = reverse("ratings:calculator") + (
        f"?player={player.federation_id}&form-TOTAL_FORMS=2&form-INITIAL_FORMS=0"
        "&form-0-opponent_rating=1900&form-0-result=1&form-0-handicap=L&form-0-side=received"
        "&form-1-opponent_rating=2100&form-1-result=0"
    )
    return [
        ("rating-list", reverse("ratings:rating_list")),
        ("player", reverse("ratings:player", args=[player.federation_id])),
        ("player-table", reverse("ratings:player_table", args=[player.federation_id, table.pk])),
        ("table", reverse("ratings:table", args=[table.pk])),
        ("tournament", reverse("ratings:tournament", args=[table.tournament_id])),
        ("tournaments", reverse("ratings:tournaments")),
        ("promotions", reverse("ratings:promotions")),
        ("statistics", reverse("ratings:statistics")),
        ("calculator", calculator),
        ("search", reverse("ratings:search") + f"?q={player.family_name}"),
        ("downloads", reverse("downloads:index")),
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_browser_pages_fit_laptop_and_phone_in_every_language(
    static_from_source: None, live_server: Any, browser: Any, lang: str
) -> None:
    args = ["--players", "60", "--years", "2", "--tables-per-year", "10", "--seed", "3"]
    call_command("seed_demo", *args, "--until", timezone.localdate().isoformat(), stdout=io.StringIO())
    browser.get(live_server.url + reverse("downloads:index"))
    browser.add_cookie({"name": "django_language", "value": lang})
    too_wide = []
    for name, url in pages():
        for width in WIDTHS:
            browser.set_window_size(width, 900)
            browser.get(live_server.url + url)
            assert browser.find_element("tag name", "html").get_attribute("lang") == lang, url
            if overflows(browser):
                too_wide.append(f"{name} at {width} px")
            assert csp_violations(browser) == []
            shoot_at(browser, f"{lang}-{name}-{width}", width)
    assert not too_wide, f"wider than the window in {lang}: {too_wide}"
    for width in WIDTHS:  # the footer's language choice, on its own
        browser.set_window_size(width, 900)
        browser.get(live_server.url + reverse("ratings:tournaments"))
        footer = browser.find_element("css selector", "footer.site")
        assert footer.find_element("css selector", "option[selected]").text == dict(settings.LANGUAGES)[lang]
        footer.screenshot(f"test-artifacts/{lang}-footer-{width}.png")
    heading = browser.find_element("tag name", "h1").text
    assert browser.execute_script(GLYPHS_DRAWN, heading[:2]), f"{lang}: {heading[:2]!r} shows as empty boxes"

"""Categories: juniors and seniors from the date of birth on a date, the women's list with its consent, the top
lists per category; only the category is published, never the date of birth."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError
from django.test import Client
from django.urls import reverse

from ratings.models import Player, WomensListEntry
from ratings.selectors.categories import (
    age_categories_of,
    category_choices,
    category_entries_q,
    category_q,
    top_per_category,
)
from ratings.services.fingerprints import VERSION_FIELD
from tests.factories import make_player, make_rating_officer
from tests.public.conftest import seasoned

pytestmark = pytest.mark.django_db

ON = dt.date(2026, 6, 15)


def test_category_q_reads_the_bands_on_the_date() -> None:
    child = make_player(date_of_birth=dt.date(2015, 1, 1))  # 11
    teen = make_player(date_of_birth=dt.date(2011, 6, 15))  # 15
    adult = make_player(date_of_birth=dt.date(1990, 1, 1))
    senior = make_player(date_of_birth=dt.date(1961, 6, 15))  # 65 today
    make_player()  # no date of birth: in no category
    assert set(Player.objects.filter(category_q("U12", ON))) == {child}
    assert set(Player.objects.filter(category_q("U16", ON))) == {child, teen}
    assert set(Player.objects.filter(category_q("S65", ON))) == {senior}
    assert set(Player.objects.filter(category_q("S50", ON))) == {senior}
    assert set(Player.objects.filter(category_q("S65", dt.date(2026, 6, 14)))) == set()
    assert age_categories_of([child.pk, teen.pk, adult.pk, senior.pk], ON) == {
        child.pk: "U12",
        teen.pk: "U16",
        senior.pk: "S65",
    }
    with pytest.raises(ValueError):
        category_q("U99", ON)


def test_the_bands_are_the_federations(settings) -> None:  # type: ignore[no-untyped-def]
    settings.AGE_CATEGORIES = ["U10", "S60"]
    settings.WOMENS_LIST = False
    assert category_choices() == [("U10", "Under 10"), ("S60", "60 and over")]
    with pytest.raises(ValueError):
        category_q("W", ON)


def test_the_womens_list_needs_a_recorded_consent() -> None:
    player = make_player()
    player.on_womens_list = True
    with pytest.raises(IntegrityError):
        player.save()


def test_top_per_category_and_its_page_show_no_date_of_birth(client: Client) -> None:
    junior = seasoned(1900, family_name="Junior", date_of_birth=dt.date(2012, 3, 4))
    woman = seasoned(1800, family_name="Sente", on_womens_list=True, womens_list_consent=dt.date(2026, 1, 1))
    seasoned(2100, family_name="Adult", date_of_birth=dt.date(1990, 3, 4))
    tops = {t.code: t.players for t in top_per_category()}
    assert tops["U16"] == [junior] and tops["U12"] == [] and tops["W"] == [woman]
    html = client.get(reverse("ratings:category_tops")).content.decode()
    assert "JUNIOR" in html and "SENTE" in html
    assert "2012" not in html
    page = client.get(reverse("ratings:player", args=[junior.federation_id])).content.decode()
    assert "Under 16" in page and "2012" not in page
    api = client.get(reverse("api-v1:categories")).json()
    assert [p["federation_id"] for p in next(c for c in api if c["code"] == "U16")["players"]] == [junior.federation_id]
    assert "2012" not in str(api) and "date_of_birth" not in str(api)


def test_officer_puts_a_player_on_the_womens_list_only_with_a_consent_date(client: Client) -> None:
    client.force_login(make_rating_officer())
    player = make_player()
    url = reverse("admin:ratings_womenslistentry_change", args=[player.pk])
    version = client.get(url).context["adminform"].form[VERSION_FIELD].value()
    refused = client.post(url, {"on_womens_list": "on", "womens_list_consent": "", VERSION_FIELD: version})
    assert refused.status_code == 200
    assert not WomensListEntry.objects.get(pk=player.pk).on_womens_list
    future = client.post(url, {"on_womens_list": "on", "womens_list_consent": "2030-01-01", VERSION_FIELD: version})
    assert future.status_code == 200
    done = client.post(url, {"on_womens_list": "on", "womens_list_consent": "2026-06-01", VERSION_FIELD: version})
    assert done.status_code == 302
    player.refresh_from_db()
    assert player.on_womens_list and player.womens_list_consent == dt.date(2026, 6, 1)


def test_a_list_entry_of_a_narrower_band_is_in_the_wider_ones() -> None:
    """A list's entry holds its narrowest age category: U16 takes the U12 entries too, S50 the S65 ones."""

    def codes(code: str) -> set[str]:
        ((field, values),) = category_entries_q(code).children  # type: ignore[misc]
        assert field == "age_group__in"
        return set(values)

    assert (codes("U12"), codes("U16"), codes("U20")) == ({"U12"}, {"U12", "U16"}, {"U12", "U16", "U20"})
    assert (codes("S65"), codes("S50")) == ({"S65"}, {"S50", "S65"})
    with pytest.raises(ValueError):
        category_entries_q("U99")

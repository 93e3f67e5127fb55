"""The officers' edits of a club and of the women's list carry the version of what their page showed: a tab left
open while another officer edited, or a post without its version, is refused with nothing saved and only the
refusal said."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Club, ClubMembership, Player
from ratings.services.clubs.memberships import club_membership_set
from ratings.services.fingerprints import VERSION_FIELD
from tests.factories import make_player, make_rating_officer
from tests.public.conftest import days_ago

pytestmark = pytest.mark.django_db


def club_post(name: str, version: str | None) -> dict[str, str]:
    """The club's change form as posted: its facts, no membership row, and the version unless None."""
    data = {
        "name": name,
        "country": "FR",
        "city": "Lyon",
        "website": "",
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }
    if version is not None:
        data[VERSION_FIELD] = version
    return data


def said(response: Any) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def loaded_version(client: Client, url: str) -> str:
    page = client.get(url)
    assert page.status_code == 200
    return str(page.context["adminform"].form[VERSION_FIELD].value())


def test_a_stale_or_versionless_club_edit_is_refused_and_saves_nothing(client: Client) -> None:
    club = Club.objects.create(name="Shogi Club Lyon", country="FR", city="Lyon")
    client.force_login(make_rating_officer())
    url = reverse("admin:ratings_club_change", args=[club.pk])
    stale = loaded_version(client, url)
    club_membership_set(player=make_player(), club=club, since=days_ago(3))  # another officer, meanwhile
    for version in (stale, None):
        answer = client.post(url, club_post("Lyon Shogi", version), follow=True)
        assert len(said(answer)) == 1 and "nothing was saved" in said(answer)[0], said(answer)
        assert Club.objects.get().name == "Shogi Club Lyon"
    assert ClubMembership.objects.count() == 1
    fresh = loaded_version(client, url)
    saved = client.post(url, club_post("Lyon Shogi", fresh))
    assert saved.status_code == 302 and Club.objects.get().name == "Lyon Shogi"


def test_two_officers_editing_one_club_the_second_is_refused(client: Client) -> None:
    club = Club.objects.create(name="Shogi Club Lyon", country="FR", city="Lyon")
    client.force_login(make_rating_officer())
    url = reverse("admin:ratings_club_change", args=[club.pk])
    first, second = loaded_version(client, url), loaded_version(client, url)
    assert client.post(url, club_post("Lyon Shogi", first), follow=True).redirect_chain  # its message read
    refused = client.post(url, club_post("Shogi Lyon", second), follow=True)
    assert "nothing was saved" in said(refused)[0]
    assert Club.objects.get().name == "Lyon Shogi"


def test_a_new_club_needs_no_version(client: Client) -> None:
    client.force_login(make_rating_officer())
    added = client.post(reverse("admin:ratings_club_add"), club_post("Kyoto Kai", None))
    assert added.status_code == 302 and Club.objects.get().name == "Kyoto Kai"


def test_a_stale_or_versionless_womens_list_edit_is_refused_and_saves_nothing(client: Client) -> None:
    player = make_player()
    client.force_login(make_rating_officer())
    url = reverse("admin:ratings_womenslistentry_change", args=[player.pk])
    stale = loaded_version(client, url)
    other = {"on_womens_list": "on", "womens_list_consent": "2026-06-01", VERSION_FIELD: stale}
    assert client.post(url, other, follow=True).redirect_chain  # another officer puts her on the list
    for version in (stale, ""):
        posted = {"womens_list_consent": "", VERSION_FIELD: version}  # the stale tab takes her off
        answer = client.post(url, posted, follow=True)
        assert len(said(answer)) == 1 and "nothing was saved" in said(answer)[0], said(answer)
        assert Player.objects.get(pk=player.pk).on_womens_list
    fresh = loaded_version(client, url)
    assert client.post(url, {"womens_list_consent": "", VERSION_FIELD: fresh}).status_code == 302
    assert not Player.objects.get(pk=player.pk).on_womens_list

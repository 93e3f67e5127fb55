"""A club named in a director's upload: matched by the one rule, shown in the preview, created only when the
director keeps it."""

from __future__ import annotations

import pytest
from django.test import Client

from ratings.models import Club, Table
from ratings.services.clubs.hosts import HostClubPlan, host_club_plan
from tests.files.test_import_turnering import FOUR
from tests.files.test_upload_admin import URL, director_with_tournament, payload_of, upload

pytestmark = pytest.mark.django_db


def test_host_club_plan_matches_by_the_folded_name() -> None:
    lyon = Club.objects.create(name="Shōgi Club Lyon", country="FR")
    assert host_club_plan(name="  shogi   club LYON ", country="FR") == HostClubPlan("shogi club LYON", lyon)
    plan = host_club_plan(name="Kyoto Kai", country="FR")
    assert plan is not None and plan.club is None
    assert host_club_plan(name=" ") is None


def confirm(client: Client, payload: str, django_capture_on_commit_callbacks: object, **extra: str) -> Table:
    line = {"nationality_2": "FR", "nationality_3": "FR", "nationality_4": "FR"}
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        response = client.post(URL, {"payload": payload, "confirm": "1", **line, **extra})
    assert response.status_code == 302, response.content.decode()[:2000]
    return Table.objects.get()


@pytest.mark.slow
def test_a_known_club_is_matched_and_shown(django_capture_on_commit_callbacks: object) -> None:
    client, tournament = director_with_tournament()
    lyon = Club.objects.create(name="Shogi Club Lyon", country="FR")
    preview = upload(client, FOUR, tournament, host_club="SHOGI CLUB LYON")
    assert "a club of the site" in preview.content.decode()  # type: ignore[attr-defined]
    table = confirm(client, payload_of(preview), django_capture_on_commit_callbacks)
    assert table.tournament.host_club == lyon
    assert Club.objects.count() == 1


@pytest.mark.slow
def test_a_new_club_is_created_only_when_kept(django_capture_on_commit_callbacks: object) -> None:
    client, tournament = director_with_tournament()
    preview = upload(client, FOUR, tournament, host_club="Kyoto Kai")
    page = preview.content.decode()  # type: ignore[attr-defined]
    assert 'name="create_club"' in page and "is no club of the site" in page
    assert not Club.objects.exists()  # the preview saved nothing
    table = confirm(client, payload_of(preview), django_capture_on_commit_callbacks)  # box unticked
    assert table.tournament.host_club is None and not Club.objects.exists()


@pytest.mark.slow
def test_a_new_club_kept_in_the_preview_is_created(django_capture_on_commit_callbacks: object) -> None:
    client, tournament = director_with_tournament()
    preview = upload(client, FOUR, tournament, host_club="Kyoto Kai")
    table = confirm(client, payload_of(preview), django_capture_on_commit_callbacks, create_club="on")
    club = Club.objects.get()
    assert (club.name, club.country.code, table.tournament.host_club) == ("Kyoto Kai", "FR", club)


@pytest.mark.slow
def test_a_new_club_is_not_offered_for_a_tournament_without_a_country(
    django_capture_on_commit_callbacks: object,
) -> None:
    """A tournament made from the file has no country yet: the preview says so, rather than offer a club that
    the saving would then not create."""
    client, _tournament = director_with_tournament()
    preview = upload(client, FOUR, None, host_club="Kyoto Kai")
    page = " ".join(preview.content.decode().split())  # type: ignore[attr-defined]
    assert 'name="create_club"' not in page and "the tournament has no country to create it in" in page
    table = confirm(client, payload_of(preview), django_capture_on_commit_callbacks)
    assert table.tournament.host_club is None and not Club.objects.exists()

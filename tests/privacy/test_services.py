"""Export and erasure of one player's personal data (ratings/services/privacy.py), through the real services."""

from __future__ import annotations

import datetime as dt
import io
import json
from collections.abc import Callable

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from ratings.models import (
    Game,
    ListEntry,
    OpeningState,
    Player,
    PrivacyAction,
    Promotion,
    RatingRow,
    Table,
    player_search_key,
)
from ratings.services.privacy import player_erase, player_export
from ratings.services.tables.submit import table_submit
from tests.factories import make_player, make_rating_officer, make_table, make_tournament, round_robin
from tests.files.test_downloads import rated_case

pytestmark = pytest.mark.django_db

BIRTH = dt.date(1979, 3, 14)


@pytest.fixture
def rated(django_capture_on_commit_callbacks: Callable[..., object]) -> tuple[Player, Table]:
    """Tanaka, born 1979, renamed once, with a rated table of three players."""
    tanaka = make_player("Tanaka", "Hiro", date_of_birth=BIRTH, residence="DE", prior_grade_note="club Kyoto")
    tanaka.family_name = "Tanakaa"
    tanaka.save()
    tanaka.family_name = "Tanaka"
    tanaka.save()
    others = [make_player("Ames"), make_player("Bell")]
    table = make_table([tanaka, *others], tournament=make_tournament("Paris Open"))
    round_robin(table, [tanaka, *others])
    with django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        table_submit(table=table, user=None)
    tanaka.refresh_from_db()
    return tanaka, table


def test_export_holds_identity_changes_tables_games_ratings_and_is_recorded(rated: tuple[Player, Table]) -> None:
    tanaka, table = rated
    officer = make_rating_officer()
    document = json.loads(player_export(player=tanaka, user=officer))
    assert document["player"]["family_name"] == "Tanaka"
    assert document["player"]["date_of_birth"] == "1979-03-14"
    assert [c["values"]["family_name"] for c in document["changes"]] == ["Tanaka", "Tanakaa", "Tanaka"]
    assert [c["kind"] for c in document["changes"]] == ["created", "changed", "changed"]
    assert [t["table_id"] for t in document["tables"]] == [table.pk]
    assert {g["opponent"]["name"] for g in document["games"]} == {"Ames", "Bell"}
    assert len(document["games"]) == 2
    assert [r["rating_after"] for r in document["ratings"]] == [tanaka.rating]
    promotions = Promotion.objects.filter(player=tanaka).order_by("created_at")
    assert [(p["grade"], p["status"]) for p in document["promotions"]] == list(
        promotions.values_list("grade", "status")
    )
    action = PrivacyAction.objects.get()
    assert (action.player, action.kind, action.done_by) == (tanaka, PrivacyAction.Kind.EXPORT, officer)


def test_erasure_pseudonymises_the_player_and_every_recorded_version(rated: tuple[Player, Table]) -> None:
    tanaka, _table = rated
    officer = make_rating_officer()
    player_erase(player=tanaka, user=officer)
    tanaka.refresh_from_db()
    assert (tanaka.family_name, tanaka.given_name) == (f"Erased player {tanaka.pk}", "")
    assert (tanaka.date_of_birth, tanaka.residence, tanaka.prior_grade_note) == (None, "", "")
    assert tanaka.search_name == player_search_key(f"Erased player {tanaka.pk}", "")
    versions = list(tanaka.history.values("family_name", "given_name", "date_of_birth", "residence", "search_name"))
    assert len(versions) == 4  # created, two renames, the erasure: the versions stay, scrubbed
    text = json.dumps(versions, default=str)
    for trace in ("Tanaka", "Hiro", "1979", "DE", "tanaka"):
        assert trace not in text


def test_erasure_keeps_ratings_games_and_grades(rated: tuple[Player, Table]) -> None:
    tanaka, _table = rated
    before = (
        list(RatingRow.objects.order_by("pk").values_list("player_id", "rating_before", "rating_after", "change")),
        list(Game.objects.order_by("pk").values_list("first_id", "second_id", "result")),
        list(Promotion.objects.order_by("pk").values_list("player_id", "grade", "status")),
        (tanaka.rating, tanaka.games, tanaka.grade, tanaka.federation_id, str(tanaka.nationality)),
    )
    player_erase(player=tanaka, user=None)
    tanaka.refresh_from_db()
    after = (
        list(RatingRow.objects.order_by("pk").values_list("player_id", "rating_before", "rating_after", "change")),
        list(Game.objects.order_by("pk").values_list("first_id", "second_id", "result")),
        list(Promotion.objects.order_by("pk").values_list("player_id", "grade", "status")),
        (tanaka.rating, tanaka.games, tanaka.grade, tanaka.federation_id, str(tanaka.nationality)),
    )
    assert after == before


def test_erasure_shows_the_pseudonym_on_the_public_pages(client: Client, rated: tuple[Player, Table]) -> None:
    tanaka, table = rated
    player_erase(player=tanaka, user=None)
    for url in (f"/players/{tanaka.federation_id}/", f"/tables/{table.pk}/", "/", "/export.json"):
        html = client.get(url).content.decode()
        assert "Tanaka" not in html, url
    assert f"Erased player {tanaka.pk}" in client.get(f"/players/{tanaka.federation_id}/").content.decode()


def test_erasure_leaves_no_stored_list_naming_him(client: Client, rated: tuple[Player, Table]) -> None:
    tanaka, table = rated
    for params in ({"date": table.date.isoformat()}, {"active": "all"}):
        assert client.get("/", params).status_code == 200  # each list written
    assert ListEntry.objects.filter(family_name__contains="Tanaka").count() == 2
    player_erase(player=tanaka, user=None)
    assert not ListEntry.objects.filter(family_name__contains="Tanaka").exists()
    assert "Tanaka" not in client.get("/", {"date": table.date.isoformat()}).content.decode()


def test_erasure_is_recorded_without_the_erased_data(rated: tuple[Player, Table]) -> None:
    tanaka, _table = rated
    officer = make_rating_officer()
    action = player_erase(player=tanaka, user=officer)
    assert (action.player_id, action.kind, action.done_by) == (tanaka.pk, PrivacyAction.Kind.ERASURE, officer)
    assert action.done_at is not None
    assert "Tanaka" not in str(action)


def test_erasure_scrubs_the_admin_log(rated: tuple[Player, Table]) -> None:
    tanaka, table = rated
    officer = make_rating_officer()
    LogEntry.objects.log_actions(user_id=officer.pk, queryset=[tanaka], action_flag=CHANGE, change_message="x")
    LogEntry.objects.create(
        user=officer,
        content_type=ContentType.objects.get_for_model(Table),
        object_id=str(table.pk),
        object_repr=str(table),
        action_flag=CHANGE,
        change_message=json.dumps([{"added": {"name": "table entry", "object": "1. Tanaka Hiro"}}]),
    )
    player_erase(player=tanaka, user=officer)
    text = json.dumps(list(LogEntry.objects.values("object_repr", "change_message")))
    assert "Tanaka" not in text and "Hiro" not in text
    assert f"1. Erased player {tanaka.pk}" in text


def test_erasure_shows_the_pseudonym_in_the_fesa_files(django_capture_on_commit_callbacks: object) -> None:
    """An imported player: his FESA list record, kept in his opening state, names him too."""
    _case, table = rated_case("sample-2016-01-07", django_capture_on_commit_callbacks)
    ishikawa = Player.objects.get(family_name="Ishikawa")
    given = ishikawa.given_name
    player_erase(player=ishikawa, user=None)
    pseudonym = f"Erased player {ishikawa.pk}"
    result = Client().get(reverse("files:table_result_txt", args=[table.pk])).content.decode("iso-8859-1")
    listing = Client().get(reverse("files:rating_list"), {"format": "all.txt", "date": table.date.isoformat()})
    out = io.StringIO()
    call_command("export_fesa_state", "-", stdout=out)
    for text in (result, listing.content.decode("iso-8859-1"), out.getvalue()):
        assert "Ishikawa" not in text
        assert pseudonym in text
    opening = json.dumps(OpeningState.objects.get(player=ishikawa).state)
    assert "Ishikawa" not in opening and (not given or given not in opening)
    assert pseudonym in opening


def test_erasing_twice_changes_nothing_more(rated: tuple[Player, Table]) -> None:
    tanaka, _table = rated
    player_erase(player=tanaka, user=None)
    first = Player.objects.values().get(pk=tanaka.pk)
    player_erase(player=tanaka, user=None)
    assert Player.objects.values().get(pk=tanaka.pk) == first
    assert PrivacyAction.objects.filter(player=tanaka, kind=PrivacyAction.Kind.ERASURE).count() == 2

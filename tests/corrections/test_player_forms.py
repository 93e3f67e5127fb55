"""The player's change form: once he has played, a rating officer's change to his identity or prior grade is a
correction, previewed (old → new in words; for a prior grade, the players it re-rates) and saved with a reason."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Correction, Player, Table
from ratings.services.corrections.apply import correction_make, correction_undo
from ratings.services.corrections.facts import IdentityChange
from ratings.services.grades.proposals import prior_grade_proposal_confirm, prior_grade_propose
from ratings.services.privacy import player_erase
from tests.admin.helpers import page_form_data
from tests.corrections.helpers import (
    player_columns,
    previewed,
    promotion_records,
    rerate_and_check,
    result_flipped,
    stored_changes,
)
from tests.factories import add_game, make_director, make_player, make_rating_officer, make_table
from tests.pipeline.histories import submit

pytestmark = pytest.mark.django_db
DAY = dt.date(2024, 3, 2)


@pytest.fixture
def played() -> list[Player]:
    """Abe and Berg play two rated tables; Cruz and Dahl one, later."""
    players = [make_player("Abe", "Aki", date_of_birth=dt.date(1990, 4, 1)), make_player("Berg"), make_player("Cruz")]
    players.append(make_player("Dahl"))
    a, b, c, d = players
    for week, (first, second) in enumerate([(a, b), (b, a), (a, c), (c, d)]):
        table = make_table([first, second], date=DAY + dt.timedelta(days=7 * week))
        add_game(table, 1, first, second)
        submit(table)
    rerate_and_check()
    return players


def change_url(player: Player) -> str:
    return reverse("admin:ratings_player_change", args=[player.pk])


def form_data(client: Client, player: Player, **values: Any) -> dict[str, Any]:
    data = page_form_data(client.get(change_url(player)))
    data.update(values)
    return data


def confirm(client: Client, player: Player, preview: Any, reason: str) -> Any:
    data = dict(preview.context["carried"]) | {"_correction_confirm": "yes", "_correction_reason": reason}
    return client.post(change_url(player), data)


def test_identity_change_of_a_player_who_played_is_a_correction_in_words(client: Client, played) -> None:
    abe = played[0]
    officer = make_rating_officer(username="officer1")
    client.force_login(officer)
    data = form_data(client, abe, family_name="Abé", nationality="DE", date_of_birth="1990-04-02")
    before = player_columns()

    preview = client.post(change_url(abe), data)
    assert preview.status_code == 200
    assert "admin/ratings/correction/preview.html" in [t.name for t in preview.templates]
    lines = preview.context["lines"]
    assert "family name: Abe → Abé" in lines and "nationality: France → Germany" in lines
    assert "date of birth corrected" in lines and not any("1990" in line for line in lines)  # private
    assert preview.context["rates_nothing"] and preview.context["preview"].players == []
    assert b"correction-rates-nothing" in preview.content
    abe.refresh_from_db()
    assert abe.family_name == "Abe" and not Correction.objects.exists()  # nothing saved yet

    missing = confirm(client, abe, preview, "  ")
    assert missing.status_code == 200 and missing.context["error"] and not Correction.objects.exists()
    saved = confirm(client, abe, preview, "Spelling on his licence")
    assert saved.status_code == 302
    correction = Correction.objects.get()
    assert (correction.kind, correction.player, correction.made_by) == ("identity", abe, officer)
    assert correction.summary.splitlines() == lines
    abe.refresh_from_db()
    assert (abe.family_name, str(abe.nationality), abe.date_of_birth) == ("Abé", "DE", dt.date(1990, 4, 2))
    rerate_and_check()
    assert player_columns() == before

    correction_undo(correction=correction, user=officer, reason="Wrong player", expected=None)
    abe.refresh_from_db()
    assert (abe.family_name, str(abe.nationality), abe.date_of_birth) == ("Abe", "FR", dt.date(1990, 4, 1))
    rerate_and_check()


def test_prior_grade_change_previews_what_the_save_then_stores(client: Client, played) -> None:
    abe = played[0]
    officer = make_rating_officer()
    client.force_login(officer)
    data = form_data(
        client, abe, prior_grade_kind="dan", prior_grade_level="3", prior_grade_source="national",
        prior_grade_note="JSA certificate",
    )  # fmt: skip
    players, promotions = player_columns(), promotion_records()

    preview = client.post(change_url(abe), data)
    assert preview.status_code == 200 and not preview.context["rates_nothing"]
    shown = preview.context["preview"]
    assert {c.name for c in shown.players} >= {str(abe), str(played[1])}
    assert shown.players == sorted(shown.players, key=lambda c: (-c.size, c.name))
    assert "Prior grade: none → 3 Dan (national federation)" in preview.context["lines"]
    assert b"correction-players" in preview.content

    assert confirm(client, abe, preview, "Certificate found").status_code == 302
    correction = Correction.objects.get()
    assert correction.kind == "prior_grade" and "3 Dan" in correction.summary
    assert "prior grade note corrected" in correction.summary and "JSA" not in correction.summary  # private
    rerate_and_check()
    assert previewed(shown) == stored_changes(players, promotions)

    correction_undo(correction=correction, user=officer, reason="Wrong certificate", expected=None)
    rerate_and_check()
    assert player_columns() == players


def test_identity_and_prior_grade_at_once_make_two_corrections_with_one_reason(client: Client, played) -> None:
    cruz = played[2]
    client.force_login(make_rating_officer())
    data = form_data(
        client, cruz, given_name="Carla", prior_grade_kind="kyu", prior_grade_level="2", prior_grade_source="nsr"
    )
    preview = client.post(change_url(cruz), data)
    assert len(preview.context["lines"]) == 2 and not preview.context["rates_nothing"]
    assert confirm(client, cruz, preview, "Registration form").status_code == 302
    assert sorted(Correction.objects.values_list("kind", "reason")) == [
        ("identity", "Registration form"),
        ("prior_grade", "Registration form"),
    ]
    rerate_and_check()


def test_a_player_who_has_not_played_is_simply_edited(client: Client) -> None:
    newcomer = make_player("Nova")
    client.force_login(make_rating_officer())
    data = form_data(client, newcomer, family_name="Novák", prior_grade_kind="kyu", prior_grade_level="5",
                     prior_grade_source="national")  # fmt: skip
    assert client.post(change_url(newcomer), data).status_code == 302
    newcomer.refresh_from_db()
    assert newcomer.family_name == "Novák" and newcomer.prior_grade_level == 5
    assert not Correction.objects.exists()


def test_an_unchanged_save_is_no_correction(client: Client, played) -> None:
    client.force_login(make_rating_officer())
    assert client.post(change_url(played[0]), form_data(client, played[0])).status_code == 302
    assert not Correction.objects.exists()


def test_directors_cannot_change_a_player_who_played(client: Client, played) -> None:
    abe = played[0]
    director = make_director()
    client.force_login(director)
    data = {"family_name": "Abé", "given_name": "Aki", "nationality": "FR", "prior_grade_kind": "dan",
            "prior_grade_level": "3", "prior_grade_source": "national"}  # fmt: skip
    response = client.post(change_url(abe), data)
    assert response.status_code == 403
    abe.refresh_from_db()
    assert abe.family_name == "Abe" and abe.prior_grade_kind == "" and not Correction.objects.exists()


def test_confirming_a_proposal_for_a_player_who_played_is_a_correction(played) -> None:
    dahl, newcomer = played[3], make_player("Nova")
    director, officer = make_director(), make_rating_officer()
    proposals = [
        prior_grade_propose(player=p, kind="kyu", level=4, source="national", note="club diploma", user=director)
        for p in (dahl, newcomer)
    ]
    players = player_columns()
    assert prior_grade_proposal_confirm(proposal=proposals[0], user=officer, expected=None)  # his table is re-rated
    assert not prior_grade_proposal_confirm(
        proposal=proposals[1], user=officer, expected=None
    )  # simply set: no table yet
    correction = Correction.objects.get()
    assert (correction.kind, correction.player, correction.made_by) == ("prior_grade", dahl, officer)
    assert "proposed by the tournament director" in correction.reason and director.username not in correction.reason
    assert "Prior grade: none → 4 Kyu (national federation)" in correction.summary
    rerate_and_check()
    assert player_columns()[dahl.pk] != players[dahl.pk]
    correction_undo(correction=correction, user=officer, reason="Diploma was for his brother", expected=None)
    rerate_and_check()
    assert player_columns()[dahl.pk] == players[dahl.pk]


def test_erasing_a_player_scrubs_his_corrections(played) -> None:
    abe, berg = played[0], played[1]
    officer = make_rating_officer()
    table = Table.objects.filter(entries__player=abe).order_by("date").first()
    flipped = correction_make(user=officer, reason="Abe Aki lost", change=result_flipped(table), expected=None)
    assert "Abe Aki" in flipped.summary  # his name before the rename below: erased too
    rename = IdentityChange(player=abe, values={"family_name": "Abé", "residence": "DE"})
    renamed = correction_make(user=officer, reason="Licence spelling", change=rename, expected=None)
    player_erase(player=abe, user=officer)

    renamed.refresh_from_db()
    flipped.refresh_from_db()
    text = json.dumps([renamed.before, renamed.after, renamed.summary, flipped.summary, flipped.reason])
    assert "Abe" not in text and "Abé" not in text and "Aki" not in text and "DE" not in text
    assert f"Erased player {abe.pk}" in flipped.summary and str(berg) in flipped.summary
    rerate_and_check()

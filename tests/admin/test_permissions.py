"""Who sees and changes what: directors their own tournaments until rated, rating officers everything."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ratings import access
from ratings.models import GameResult, PendingRerate, Player, Table, TableStatus, Tournament
from ratings.services.rerate import rerate_from
from tests.admin.helpers import errors_of, page_form_data, post_page, set_row
from tests.factories import (
    add_game,
    make_director,
    make_grade_officer,
    make_pending_promotion,
    make_player,
    make_rating_officer,
    make_table,
    make_tournament,
    make_user,
)

pytestmark = pytest.mark.django_db


def table_url(view: str, table: Table) -> str:
    return reverse(f"admin:ratings_table_{view}", args=[table.pk])


def tournament_url(view: str, tournament: Tournament) -> str:
    return reverse(f"admin:ratings_tournament_{view}", args=[tournament.pk])


def two_player_table(tournament: Tournament, *, rated: bool = False, sequence: int = 1) -> Table:
    a, b = make_player(), make_player()
    table = make_table(
        [a, b],
        tournament=tournament,
        sequence=sequence,
        status=TableStatus.SUBMITTED if rated else TableStatus.DRAFT,
    )
    add_game(table, 1, a, b)
    if rated:
        rerate_from(date=None)
        table.refresh_from_db()
        assert table.status == TableStatus.RATED
    return table


@pytest.fixture
def two_directors() -> tuple[Any, Any, Tournament, Tournament]:
    mine, theirs = make_director(username="mine"), make_director(username="theirs")
    return (
        mine,
        theirs,
        make_tournament("Mine Open", directors=[mine]),
        make_tournament("Their Cup", directors=[theirs]),
    )


def test_director_lists_only_his_own_tournaments_and_tables(client: Client, two_directors: Any) -> None:
    mine, _theirs, my_tournament, their_tournament = two_directors
    two_player_table(my_tournament, sequence=1)
    two_player_table(their_tournament, sequence=2)
    client.force_login(mine)

    tournaments = client.get(reverse("admin:ratings_tournament_changelist"))
    tables = client.get(reverse("admin:ratings_table_changelist"))

    assert list(tournaments.context["cl"].result_list) == [my_tournament]
    assert [t.tournament for t in tables.context["cl"].result_list] == [my_tournament]
    assert "Their Cup" not in tournaments.content.decode() + tables.content.decode()


def test_director_cannot_open_another_directors_tournament_or_table(client: Client, two_directors: Any) -> None:
    mine, _theirs, _my_tournament, their_tournament = two_directors
    table = two_player_table(their_tournament)
    client.force_login(mine)

    # Refused as another's, in his language, with the way back: not "does not exist. Perhaps it was deleted?",
    # which Django says of a row the narrowed queryset leaves out.
    for url in (tournament_url("change", their_tournament), table_url("change", table), table_url("delete", table)):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="es")
        page = response.content.decode()
        assert response.status_code == 403 and "No permitido" in page and reverse("admin:index") in page, url
    assert client.get(table_url("preview", table)).status_code == 403
    assert client.post(table_url("submit", table)).status_code == 403
    missing = client.get(reverse("admin:ratings_tournament_change", args=[10**9]))
    assert missing.status_code == 302 and missing["Location"] == reverse("admin:index")  # a row that is not there
    table.refresh_from_db()
    assert table.status == TableStatus.DRAFT


def test_director_does_not_find_another_directors_tournament_by_autocomplete(
    client: Client, two_directors: Any
) -> None:
    mine, _theirs, _my_tournament, _their_tournament = two_directors
    client.force_login(mine)

    response = client.get(
        reverse("admin:autocomplete"),
        {"app_label": "ratings", "model_name": "table", "field_name": "tournament", "term": ""},
    )

    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == ["Mine Open (2024)"]


def test_director_cannot_add_a_table_to_another_directors_tournament(client: Client, two_directors: Any) -> None:
    mine, _theirs, _my_tournament, their_tournament = two_directors
    client.force_login(mine)
    a, b = make_player(), make_player()

    def change(data: dict[str, Any]) -> None:
        data["tournament"] = str(their_tournament.pk)
        data["date"] = "2024-05-12"
        set_row(data, "entries", 0, player=a, seat=1)
        set_row(data, "entries", 1, player=b, seat=2)

    _page, response = post_page(client, reverse("admin:ratings_table_add"), change)

    assert response.status_code == 200
    assert any("Select a valid choice" in e for e in errors_of(response))
    assert not Table.objects.exists()


def test_director_changes_his_draft_table(client: Client, two_directors: Any) -> None:
    mine, _theirs, my_tournament, _their_tournament = two_directors
    table = two_player_table(my_tournament)
    client.force_login(mine)

    _page, response = post_page(
        client, table_url("change", table), lambda data: set_row(data, "games", 0, result="draw")
    )

    assert response.status_code == 302, errors_of(response)
    assert table.games.get().result == GameResult.DRAW
    assert not PendingRerate.objects.exists()  # a draft is not rated, so nothing to re-rate


def test_director_cannot_change_submit_or_delete_his_rated_table(client: Client, two_directors: Any) -> None:
    mine, _theirs, my_tournament, _their_tournament = two_directors
    table = two_player_table(my_tournament, rated=True)
    client.force_login(mine)

    page = client.get(table_url("change", table))
    assert page.status_code == 200 and page.context["title"] == "View table"
    assert 'id="ask-correction"' in page.content.decode()  # how to have it corrected
    data = page_form_data(page)
    data["name"] = "renamed"
    assert client.post(table_url("change", table), data).status_code == 403
    assert client.get(table_url("submit", table)).status_code == 403
    assert client.post(table_url("delete", table), {"post": "yes"}).status_code == 403
    bulk = client.post(
        reverse("admin:ratings_table_changelist"),
        {"action": "delete_selected", "_selected_action": [table.pk], "post": "yes"},
    )
    assert bulk.status_code == 403
    table.refresh_from_db()
    assert (table.name, table.status) == ("", TableStatus.RATED)
    # He still reads what it gave.
    assert client.get(table_url("preview", table)).status_code == 200


def test_director_loses_a_table_once_rated_even_if_a_rerate_failed_since() -> None:
    director = make_director()
    table = two_player_table(make_tournament(directors=[director]), rated=True)
    # The state a failed re-rate leaves behind, written directly: only the worker reaches it, after a failure.
    Table.objects.filter(pk=table.pk).update(status=TableStatus.SUBMITTED, rating_error="did not settle")
    table.refresh_from_db()

    assert access.can_view_table(director, table)
    assert not access.can_change_table(director, table)
    assert access.can_change_table(make_rating_officer(), table)


# A rating officer's change to a rated table is a correction: confirmed on its preview page, with a reason.
CONFIRMED = {"_correction_confirm": "yes", "_correction_reason": "Corrected from the scoresheet"}


def test_rating_officer_changes_a_rated_table_and_it_is_rerated(
    client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    table = two_player_table(make_tournament(), rated=True)
    winner_before = table.rating_rows.order_by("-rating_after").first()
    assert winner_before is not None
    client.force_login(make_rating_officer())

    with django_capture_on_commit_callbacks(execute=True):
        _page, response = post_page(
            client,
            table_url("change", table),
            lambda data: (set_row(data, "games", 0, result="second"), data.update(CONFIRMED)),
        )

    assert response.status_code == 302, errors_of(response)
    table.refresh_from_db()
    assert table.status == TableStatus.RATED and not table.needs_rerate
    # The former winner now lost: his row was replaced and shows a rating below his opponent's.
    assert table.rating_rows.get(player=winner_before.player).rating_after < winner_before.rating_after


def test_rating_officer_moving_a_rated_table_asks_for_a_rerate_from_the_earlier_date(client: Client) -> None:
    table = two_player_table(make_tournament(until=dt.date(2024, 6, 30)), rated=True)
    client.force_login(make_rating_officer())

    _page, response = post_page(client, table_url("change", table), {"date": "2024-06-30", **CONFIRMED})

    assert response.status_code == 302, errors_of(response)
    pending = PendingRerate.objects.get()
    assert (pending.from_date, pending.from_sequence) == (dt.date(2024, 5, 12), 1)
    table.refresh_from_db()
    assert table.needs_rerate and table.date == dt.date(2024, 6, 30)


def test_rating_officer_deletes_a_rated_table_and_what_followed_is_rerated(client: Client) -> None:
    table = two_player_table(make_tournament(), rated=True)
    client.force_login(make_rating_officer())

    confirm = client.get(table_url("delete", table))
    response = client.post(table_url("delete", table), {"post": "yes"})

    assert confirm.status_code == 200 and not confirm.context["protected"]
    assert response.status_code == 302
    assert not Table.objects.filter(pk=table.pk).exists()
    assert PendingRerate.objects.filter(from_date=table.date).exists()


def test_grade_officer_reads_every_tournament_and_changes_none(client: Client, two_directors: Any) -> None:
    _mine, _theirs, my_tournament, their_tournament = two_directors
    table = two_player_table(my_tournament)
    client.force_login(make_grade_officer())

    listed = client.get(reverse("admin:ratings_tournament_changelist")).context["cl"].result_list
    assert set(listed) == {my_tournament, their_tournament}
    page = client.get(table_url("change", table))
    assert page.status_code == 200 and page.context["title"] == "View table"
    assert client.post(table_url("change", table), page_form_data(page)).status_code == 403
    assert client.get(table_url("submit", table)).status_code == 403


def test_staff_without_a_role_sees_no_tournament() -> None:
    user = make_user(None)
    make_tournament()
    assert not access.tournaments_visible(user).exists()
    assert not access.tables_visible(user).exists()


def test_director_who_creates_a_tournament_directs_it(client: Client) -> None:
    director = make_director()
    client.force_login(director)

    response = client.post(
        reverse("admin:ratings_tournament_add"),
        {
            "name": "Spring Open",
            "city": "Lyon",
            "country": "FR",
            "start_date": "2024-04-06",
            "end_date": "2024-04-07",
            "time_control": "",
            "tables-TOTAL_FORMS": "0",
            "tables-INITIAL_FORMS": "0",
        },
    )

    assert response.status_code == 302, errors_of(response)
    tournament = Tournament.objects.get()
    assert list(tournament.directors.all()) == [director] and tournament.created_by == director


def test_tournament_ending_before_it_starts_is_refused(client: Client) -> None:
    client.force_login(make_director())
    data = {"name": "X", "start_date": "2024-04-07", "end_date": "2024-04-06"}
    data |= {"tables-TOTAL_FORMS": "0", "tables-INITIAL_FORMS": "0"}

    response = client.post(reverse("admin:ratings_tournament_add"), data)

    assert "The tournament cannot end before it starts." in errors_of(response)


def test_director_cannot_change_his_tournament_once_a_table_is_rated(client: Client, two_directors: Any) -> None:
    mine, _theirs, my_tournament, _their_tournament = two_directors
    client.force_login(mine)
    assert client.get(tournament_url("change", my_tournament)).context["title"] == "Change tournament"

    two_player_table(my_tournament, rated=True)

    assert client.get(tournament_url("change", my_tournament)).context["title"] == "View tournament"


def test_director_adds_a_player_with_nationality_and_proposed_prior_grade_from_the_popup(client: Client) -> None:
    client.force_login(make_director())
    url = reverse("admin:ratings_player_add") + "?_to_field=id&_popup=1"

    page = client.get(url)
    fields = page.context["adminform"].form.fields
    response = client.post(
        url,
        {
            "_popup": "1",
            "_to_field": "id",
            "family_name": "Ōyama",
            "given_name": "Yasuharu",
            "nationality": "JP",
            "prior_grade_kind": "dan",
            "prior_grade_level": "3",
            "prior_grade_source": "national",
        },
    )

    assert {"nationality", "prior_grade_kind", "prior_grade_level"} <= set(fields)
    assert response.status_code == 200 and "popup_response" in response.templates[0].name
    player = Player.objects.get(family_name="Ōyama")
    # The director's prior grade is a proposal for a rating officer: it does not count until confirmed.
    assert (player.nationality, player.prior_grade_kind, player.prior_grade_level) == ("JP", "", None)
    proposal = player.prior_grade_proposals.get()
    assert (proposal.kind, proposal.level, proposal.source, proposal.status) == ("dan", 3, "national", "pending")


def test_player_prior_grade_out_of_range_is_refused_with_its_range(client: Client) -> None:
    client.force_login(make_director())
    response = client.post(
        reverse("admin:ratings_player_add"),
        {"family_name": "X", "prior_grade_kind": "kyu", "prior_grade_level": "25"},
    )
    assert "A prior grade of this kind goes from 1 to 20." in errors_of(response)


def test_director_cannot_change_an_existing_player(client: Client) -> None:
    player = make_player("Abe", "Ken")
    client.force_login(make_director())

    page = client.get(reverse("admin:ratings_player_change", args=[player.pk]))
    response = client.post(reverse("admin:ratings_player_change", args=[player.pk]), {"family_name": "Changed"})

    assert page.context["title"] == "View player"
    assert response.status_code == 403
    player.refresh_from_db()
    assert player.family_name == "Abe"


def test_rating_officer_correcting_a_prior_grade_rerates_the_players_tables(client: Client) -> None:
    table = two_player_table(make_tournament(), rated=True)
    player = table.entries.first().player  # type: ignore[union-attr]
    client.force_login(make_rating_officer())
    url = reverse("admin:ratings_player_change", args=[player.pk])

    _page, preview = post_page(
        client, url, {"prior_grade_kind": "kyu", "prior_grade_level": "2", "prior_grade_source": "national"}
    )
    # He has played: the change is a correction, previewed and then saved with its reason.
    assert preview.status_code == 200 and "preview" in preview.context, errors_of(preview)
    confirmed = {**dict(preview.context["carried"]), "_correction_confirm": "yes", "_correction_reason": "Licence"}
    response = client.post(url, confirmed)

    assert response.status_code == 302, errors_of(response)
    player.refresh_from_db()
    assert (player.prior_grade_kind, player.prior_grade_level) == ("kyu", 2)
    pending = PendingRerate.objects.get()
    assert (pending.from_date, pending.from_sequence) == (table.date, table.sequence)


def test_director_country_filter_names_only_his_tournaments_countries(client: Client, two_directors: Any) -> None:
    mine, _theirs, my_tournament, their_tournament = two_directors
    their_tournament.country = "JP"
    their_tournament.save()
    two_player_table(my_tournament, sequence=1)
    two_player_table(their_tournament, sequence=2)
    client.force_login(mine)

    for page in ("table", "tournament"):
        response = client.get(reverse(f"admin:ratings_{page}_changelist"))
        [country_filter] = [f for f in response.context["cl"].filter_specs if "country" in getattr(f, "field_path", "")]
        shown = [choice["display"] for choice in country_filter.choices(response.context["cl"])]
        assert shown == ["All", "France"], page


def test_tournament_list_links_to_its_tables(client: Client, two_directors: Any) -> None:
    mine, _theirs, my_tournament, their_tournament = two_directors
    mine_table = two_player_table(my_tournament, sequence=1)
    two_player_table(their_tournament, sequence=2)
    client.force_login(mine)

    listed = client.get(reverse("admin:ratings_tournament_changelist")).content.decode()
    url = reverse("admin:ratings_table_changelist") + f"?tournament__id__exact={my_tournament.pk}"
    theirs_url = reverse("admin:ratings_table_changelist") + f"?tournament__id__exact={their_tournament.pk}"

    assert f'href="{url}"' in listed.replace("&amp;", "&")
    assert list(client.get(url).context["cl"].result_list) == [mine_table]
    assert list(client.get(theirs_url).context["cl"].result_list) == []


def test_director_sees_promotions_with_links_he_may_follow(client: Client, two_directors: Any) -> None:
    """A promotion's table leads a director to the admin page of his own tournament's table, and to the public
    page of another's (which the admin would refuse him)."""
    mine, _theirs, my_tournament, their_tournament = two_directors
    tables = {
        "mine": two_player_table(my_tournament, sequence=1),
        "theirs": two_player_table(their_tournament, sequence=2),
    }
    promotions = {owner: make_pending_promotion(t.entries.first().player, t) for owner, t in tables.items()}
    client.force_login(mine)
    listing = client.get(reverse("admin:ratings_promotion_changelist")).content.decode()
    assert table_url("change", tables["mine"]) in listing
    assert table_url("change", tables["theirs"]) not in listing
    assert reverse("ratings:table", args=[tables["theirs"].pk]) in listing
    page = client.get(reverse("admin:ratings_promotion_change", args=[promotions["theirs"].pk])).content.decode()
    assert table_url("change", tables["theirs"]) not in page
    assert reverse("ratings:table", args=[tables["theirs"].pk]) in page

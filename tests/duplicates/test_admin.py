"""Duplicates in the admin: the add form's warning, the merge screen, its permission, the report."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Correction, Player
from ratings.services.fingerprints import VERSION_FIELD
from tests.duplicates.helpers import twice_entered
from tests.factories import make_director, make_player, make_rating_officer, make_user

pytestmark = pytest.mark.django_db

ADD = {"family_name": "Rossi", "given_name": "Matteo", "nationality": "IT", "residence": ""}


def test_adding_a_player_like_an_existing_one_warns_and_creates_only_when_confirmed(client: Client) -> None:
    existing = make_player("Rossi", "Mateo", nationality="IT")
    client.force_login(make_director())
    url = reverse("admin:ratings_player_add")
    response = client.post(url, ADD)
    assert response.status_code == 200
    page = response.content.decode()
    assert "may be the same person" in page and existing.federation_id in page
    assert reverse("admin:ratings_player_change", args=[existing.pk]) in page
    assert Player.objects.count() == 1
    response = client.post(url, {**ADD, "create_anyway": "on"})
    assert response.status_code == 302 and Player.objects.count() == 2


def test_adding_a_player_of_another_country_is_not_warned(client: Client) -> None:
    make_player("Rossi", "Mateo", nationality="IT")
    client.force_login(make_director())
    response = client.post(reverse("admin:ratings_player_add"), {**ADD, "nationality": "FR"})
    assert response.status_code == 302 and Player.objects.count() == 2


@pytest.mark.slow
def test_the_merge_screen_previews_then_saves_with_a_reason(client: Client) -> None:
    kept, duplicate, _others, _tables = twice_entered()
    client.force_login(make_rating_officer())
    url = reverse("admin:ratings_player_merge", args=[duplicate.pk])
    choose = client.get(url)
    assert choose.status_code == 200 and kept.federation_id in choose.content.decode()
    preview = client.get(url, {"kept": kept.federation_id})
    assert preview.status_code == 200
    # Namesakes are told apart by id, country, games and last table wherever both are named.
    duplicate.refresh_from_db()
    assert duplicate.games > 1 and duplicate.last_played is not None
    last = duplicate.last_played.isoformat()
    told = f"Rossi Matteo ({duplicate.federation_id}, IT, {duplicate.games} games, last played {last})"
    assert told in preview.content.decode() and f"Rossi Mateo ({kept.federation_id}, IT," in preview.content.decode()
    assert preview.context["title"].startswith(f"Merge Rossi Matteo ({duplicate.federation_id}, ")
    assert preview.context["preview"].players
    no_reason = client.post(url, {"kept": kept.federation_id, "_correction_confirm": "yes", "_correction_reason": ""})
    assert "Say why" in no_reason.content.decode()
    version = dict(preview.context["carried"])[VERSION_FIELD]  # as the page carries it
    saved = client.post(
        url,
        {
            "kept": kept.federation_id,
            "_correction_confirm": "yes",
            "_correction_reason": "Entered twice",
            VERSION_FIELD: version,
        },
    )
    assert saved.status_code == 302
    assert Correction.objects.get().kind == Correction.Kind.MERGE
    assert Player.objects.get(pk=duplicate.pk).merged_into == kept


def test_the_undo_of_a_merge_says_what_it_changes(client: Client) -> None:
    """Its page said "Nothing changes." above the ratings the undo changes: a merge's facts need its own words."""
    from ratings.services.merge.apply import player_merge

    kept, duplicate, _others, _tables = twice_entered(1)
    officer = make_rating_officer()
    merge = player_merge(user=officer, duplicate=duplicate, kept=kept, reason="Entered twice", expected=None)
    client.force_login(officer)
    page = client.get(reverse("admin:ratings_correction_undo", args=[merge.pk]))
    assert page.status_code == 200
    separated = f"Rossi Matteo ({duplicate.federation_id}) separated again from Rossi Mateo ({kept.federation_id})"
    assert page.context["lines"][0] == separated
    assert "Nothing changes." not in page.content.decode()


def test_the_merge_screen_says_why_it_refuses(client: Client) -> None:
    from tests.factories import add_game, make_table

    a, b = make_player("Rossi", "Mateo"), make_player("Rossi", "Matteo")
    add_game(make_table([a, b]), 1, a, b)
    client.force_login(make_rating_officer())
    url = reverse("admin:ratings_player_merge", args=[b.pk])
    response = client.get(url, {"kept": a.federation_id}, follow=True)
    assert "both played in one table" in response.content.decode()


def test_a_director_has_no_merge_screen(client: Client) -> None:
    a, b = make_player("Rossi", "Mateo"), make_player("Rossi", "Matteo")
    client.force_login(make_director())
    assert client.get(reverse("admin:ratings_player_merge", args=[b.pk]), {"kept": a.federation_id}).status_code == 403


def test_the_report_lists_likely_pairs_with_a_link_to_merge(client: Client, django_assert_max_num_queries) -> None:
    kept, duplicate, _others, _tables = twice_entered()
    make_player("Rossi", "Matteo", nationality="FR")  # another country: not the Italians' duplicate
    client.force_login(make_rating_officer())
    with django_assert_max_num_queries(12):
        response = client.get(reverse("admin:ratings_player_duplicates"))
    pairs = response.context["pairs"]
    assert [(p.first, p.second) for p in pairs] == [(kept, duplicate)]
    merge = reverse("admin:ratings_player_merge", args=[duplicate.pk]) + f"?kept={kept.federation_id}"
    assert merge in response.content.decode()
    client.force_login(make_user())
    assert client.get(reverse("admin:ratings_player_duplicates")).status_code in (302, 403)


def test_the_player_list_links_the_report_and_merges_the_two_players_chosen(client: Client) -> None:
    kept, duplicate, _others, _tables = twice_entered()
    client.force_login(make_rating_officer())
    changelist = reverse("admin:ratings_player_changelist")
    assert reverse("admin:ratings_player_duplicates") in client.get(changelist).content.decode()
    chosen = {"action": "merge_into", "_selected_action": [duplicate.pk, kept.pk]}
    response = client.post(changelist, chosen)
    merge = reverse("admin:ratings_player_merge", args=[duplicate.pk]) + f"?kept={kept.federation_id}"
    assert response.status_code == 302 and response["Location"] == merge  # the one who played less into the other
    assert "Merge" in client.get(merge).content.decode()
    three = {"action": "merge_into", "_selected_action": [duplicate.pk, kept.pk, make_player("Third").pk]}
    refused = client.post(changelist, three, follow=True)
    assert "or the two players to merge" in refused.content.decode()

"""A change posted without the version of what its page showed is refused, never saved blind.

A browser tab opened before the pages carried ``_version``, a script, or any other client posts the edit with no
version: saving it would overwrite, unseen, whatever changed since that client read the object. Every edit that
starts from a loaded state refuses it and asks for a reload (ratings/services/fingerprints.py), and its service takes
the version as a required argument.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from ratings.models import (
    Correction,
    Game,
    GameResult,
    OfficialList,
    Player,
    Promotion,
    PromotionStatus,
    ProposalStatus,
)
from ratings.services.corrections.apply import correction_make, correction_undo
from ratings.services.fingerprints import VERSION_FIELD
from ratings.services.grades.promotions import (
    promotion_approve,
    promotion_confirm_flagged,
    promotion_reject,
    promotion_revoke,
)
from ratings.services.grades.proposals import prior_grade_proposal_confirm, prior_grade_proposal_reject
from ratings.services.grades.revisions import promotion_revise
from ratings.services.merge.apply import player_merge
from ratings.services.official_lists import official_list_publish
from tests.admin.helpers import page_form_data, set_row
from tests.admin.test_grid import grid_url
from tests.corrections.helpers import result_flipped
from tests.corrections.test_two_officers import confirm, crosstable, flip, officer
from tests.factories import make_director, make_grade_officer, make_player, make_rating_officer
from tests.grades.conftest import one_dan  # noqa: F401 - a fixture
from tests.grades.test_prior_grade_proposals import CHANGELIST, propose

pytestmark = pytest.mark.django_db

RELOAD = "came without the version"


def told(response: Any) -> str:
    return " ".join(str(m) for m in get_messages(response.wsgi_request))


def without_version(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != VERSION_FIELD}


@pytest.mark.parametrize(
    "service",
    [
        correction_make,
        correction_undo,
        player_merge,
        official_list_publish,
        promotion_approve,
        promotion_reject,
        promotion_confirm_flagged,
        promotion_revoke,
        promotion_revise,
        prior_grade_proposal_confirm,
        prior_grade_proposal_reject,
    ],
)
def test_every_edit_service_takes_the_version_as_a_required_argument(service) -> None:
    parameter = inspect.signature(service).parameters["expected"]
    assert parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.default is inspect.Parameter.empty


def test_a_crosstable_correction_without_the_version_is_refused(rated) -> None:
    """The second officer's stale tab posts no version: the first officer's correction stays."""
    players, table = rated
    abe, _berg, cruz, _dahl = players
    a, b = officer("anna"), officer("bruno")
    preview_b = b.post(grid_url(table), {**flip(without_version(crosstable(b, table)), 3, 4), "_save": "Save"})
    preview_a = a.post(grid_url(table), {**flip(crosstable(a, table), 1, 2), "_save": "Save"})
    assert a.post(grid_url(table), confirm(preview_a, "Abe lost")).status_code == 302

    if preview_b.status_code == 200 and "carried" in preview_b.context:
        refused = b.post(grid_url(table), without_version(confirm(preview_b, "Cruz lost")))
        assert refused.status_code == 302
    else:
        refused = preview_b
    assert RELOAD in told(refused)
    assert Game.objects.get(table=table, first=abe).result == GameResult.SECOND_WON  # A's correction stays
    assert Game.objects.get(table=table, first=cruz).result == GameResult.FIRST_WON
    assert Correction.objects.count() == 1


def test_a_table_form_correction_without_the_version_is_refused(rated) -> None:
    players, table = rated
    a = officer("anna")
    url = reverse("admin:ratings_table_change", args=[table.pk])
    loaded = page_form_data(a.get(url))
    set_row(loaded, "games", 0, result=GameResult.SECOND_WON)
    preview = a.post(url, without_version(loaded))
    if preview.status_code == 200 and "carried" in preview.context:
        preview = a.post(url, without_version(confirm(preview, "Abe lost")))
    assert preview.status_code == 302 and RELOAD in told(preview)
    assert Game.objects.get(table=table, first=players[0]).result == GameResult.FIRST_WON
    assert not Correction.objects.exists()


def test_a_player_correction_without_the_version_is_refused(rated) -> None:
    abe = rated[0][0]
    a = officer("anna")
    url = reverse("admin:ratings_player_change", args=[abe.pk])
    renamed = page_form_data(a.get(url)) | {"given_name": "Akira"}
    preview = a.post(url, without_version(renamed))
    if preview.status_code == 200 and "carried" in preview.context:
        preview = a.post(url, without_version(confirm(preview, "Spelling")))
    assert preview.status_code == 302 and RELOAD in told(preview)
    assert Player.objects.get(pk=abe.pk).given_name != "Akira" and not Correction.objects.exists()


def test_a_merge_without_the_version_is_refused(rated) -> None:
    kept, duplicate = rated[0][0], make_player("Abe", nationality="FR")
    a = officer("anna")
    merge_url = reverse("admin:ratings_player_merge", args=[duplicate.pk])
    preview = a.get(merge_url, {"kept": kept.federation_id})
    refused = a.post(merge_url, without_version(confirm(preview, "Entered twice")))
    assert refused.status_code == 302 and RELOAD in told(refused)
    assert Player.objects.get(pk=duplicate.pk).merged_into is None


def test_a_replacement_without_the_version_is_refused(rated) -> None:
    players, table = rated
    right = make_player("Eck")
    a = officer("anna")
    url = reverse("admin:ratings_table_replace_player", args=[table.pk])
    preview = a.post(url, {"wrong": players[0].federation_id, "right": right.federation_id})
    refused = a.post(url, without_version(confirm(preview, "Eck played, not Abe")))
    assert refused.status_code == 302 and RELOAD in told(refused)
    assert not table.entries.filter(player=right).exists()


def test_an_undo_without_the_version_is_refused(rated) -> None:
    _players, table = rated
    first = correction_make(
        user=make_rating_officer(username="carl"), reason="Abe lost", change=result_flipped(table), expected=None
    )
    a = officer("anna")
    undo_url = reverse("admin:ratings_correction_undo", args=[first.pk])
    refused = a.post(undo_url, without_version(confirm(a.get(undo_url), "It was right")))
    assert refused.status_code == 302 and RELOAD in told(refused)
    assert Correction.objects.count() == 1


@pytest.mark.parametrize("action", ["approve", "reject"])
def test_a_promotion_decision_without_the_version_is_refused(one_dan, action) -> None:  # noqa: F811
    client = Client()
    client.force_login(make_grade_officer(username="anna"))
    url = reverse("admin:ratings_promotion_decide", args=[one_dan.pk, action])
    refused = client.post(url, {"reason": "Strong results"})
    assert refused.status_code == 302 and RELOAD in told(refused)
    assert Promotion.objects.get(pk=one_dan.pk).status == PromotionStatus.PENDING


def test_a_promotion_revision_without_the_version_is_refused(one_dan) -> None:  # noqa: F811
    promotion_reject(promotion=one_dan, user=make_grade_officer(username="carl"), reason="Weak", expected=None)
    client = Client()
    client.force_login(make_grade_officer(username="anna"))
    url = reverse("admin:ratings_promotion_decide", args=[one_dan.pk, "revise"])
    refused = client.post(url, {"reason": "Complaint upheld"})
    assert refused.status_code == 302 and RELOAD in told(refused)
    assert Promotion.objects.get(pk=one_dan.pk).status == PromotionStatus.REJECTED


@pytest.mark.parametrize("action", ["confirm_selected", "reject_selected"])
def test_a_proposal_answer_without_the_version_is_refused(action) -> None:
    player = make_player("Habu", nationality="JP")
    proposal = propose(player, make_director())
    client = officer("anna")
    answered = client.post(reverse(CHANGELIST), {"action": action, "_selected_action": [str(proposal.pk)]})
    assert RELOAD in told(answered)
    proposal.refresh_from_db()
    assert proposal.status == ProposalStatus.PENDING
    assert Player.objects.get(pk=player.pk).prior_grade_kind != "dan"


def test_an_official_list_published_without_the_version_is_refused(rated) -> None:
    client = officer("anna")
    add = reverse("admin:ratings_officiallist_add")
    data = {"date": "2024-03-10", "title": "Spring list", "note": "", "confirmed": "yes"}
    refused = client.post(add, data)
    assert RELOAD in refused.content.decode() and not OfficialList.objects.exists()


def test_a_stale_version_is_still_told_as_a_change_meanwhile(rated) -> None:
    """The missing version is refused with its own words; a version that no longer matches keeps its own."""
    _players, table = rated
    change = result_flipped(table)
    with pytest.raises(Exception, match=RELOAD):
        correction_make(user=make_rating_officer(), reason="blind", change=change, expected="")
    assert not Correction.objects.exists()

"""The grade officers' queue in the admin: what it lists, its filters, who may decide, and its query count."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ratings.models import Promotion, PromotionStatus, Table
from ratings.selectors.grades import waiting_between, waiting_days, waiting_since
from ratings.services.fingerprints import VERSION_FIELD
from ratings.services.grades.fingerprints import promotion_version
from ratings.services.grades.promotions import promotion_approve
from tests.factories import (
    make_director,
    make_grade_officer,
    make_pending_promotion,
    make_player,
    make_rating_officer,
    make_table,
)
from tests.grades.conftest import DAY, LOST, WON, opponent, seasoned

pytestmark = pytest.mark.django_db
CHANGELIST = "admin:ratings_promotion_changelist"


def decide_url(promotion: Promotion, action: str) -> str:
    return reverse("admin:ratings_promotion_decide", args=[promotion.pk, action])


def shown(promotion: Promotion) -> dict[str, str]:
    """The hidden version a decision's page carries: of the record as it is now."""
    return {VERSION_FIELD: promotion_version(promotion)}


@pytest.fixture
def officer_client(client):
    client.force_login(make_grade_officer())
    return client


def listed(response) -> set[str]:
    return {str(p.player.family_name) for p in response.context["cl"].result_list}


def test_queue_opens_on_pending_dan_promotions(officer_client, one_dan, play) -> None:
    kyu_player = seasoned(875, 10, family_name="Kyuonly")  # 11 Kyu beating an equal: 10 Kyu, effective
    play(kyu_player, opponent(875), WON, date=DAY, sequence=3)
    response = officer_client.get(reverse(CHANGELIST))
    assert response.status_code == 200
    assert listed(response) == {"Aoki"}
    assert listed(officer_client.get(reverse(CHANGELIST), {"status": "all"})) == {"Aoki", "Kyuonly"}
    assert listed(officer_client.get(reverse(CHANGELIST), {"status": "effective"})) == {"Kyuonly"}


@pytest.mark.parametrize("term", ["noel", "Noël", "strauss", "Noël-Strauß"])
def test_queue_search_finds_a_name_as_the_public_search_does(officer_client, five_dan, play, term) -> None:
    player = seasoned(1795, 20, family_name="Noël-Strauß")
    play(player, opponent(1795), WON, date=DAY)
    assert listed(officer_client.get(reverse(CHANGELIST), {"q": term})) == {"Noël-Strauß"}


def test_queue_filters_grade_country_and_waiting_time(officer_client, one_dan, five_dan) -> None:
    url = reverse(CHANGELIST)
    assert listed(officer_client.get(url, {"grade": "25"})) == {"Brandt"}
    assert listed(officer_client.get(url, {"country": "FR"})) == {"Aoki"}
    # The tables' dates moved directly: only the waiting time is under test, and no re-rate is wanted.
    today = timezone.localdate()
    Table.objects.filter(pk=five_dan.table_id).update(date=today - dt.timedelta(days=40))
    Table.objects.filter(pk=one_dan.table_id).update(date=today - dt.timedelta(days=2))
    assert listed(officer_client.get(url, {"waiting": "quarter"})) == {"Brandt"}  # 1 to 3 months
    assert listed(officer_client.get(url, {"waiting": "week"})) == {"Aoki"}


def test_queue_waiting_time_counts_from_the_table_not_from_the_record(officer_client, one_dan) -> None:
    # The record was written today (a late table, a re-rate), but the table was played 40 days ago.
    table_date = timezone.localdate() - dt.timedelta(days=40)
    Table.objects.filter(pk=one_dan.table_id).update(date=table_date)  # directly: no re-rate wanted here
    url = reverse(CHANGELIST)
    assert listed(officer_client.get(url, {"waiting": "quarter"})) == {"Aoki"}
    assert listed(officer_client.get(url, {"waiting": "week"})) == set()
    one_dan.refresh_from_db()
    assert waiting_days(one_dan) == 40
    assert waiting_since(one_dan) == table_date
    assert "40" in officer_client.get(url).content.decode()


def test_queue_waiting_time_of_a_deleted_table_counts_from_the_record(one_dan) -> None:
    # Written directly: no service backdates a promotion.
    Promotion.objects.filter(pk=one_dan.pk).update(table=None, created_at=timezone.now() - dt.timedelta(days=10))
    one_dan.refresh_from_db()
    assert waiting_days(one_dan) == 10
    assert Promotion.objects.filter(waiting_between(7, 30)).get() == one_dan


def test_queue_shows_flagged_grades_to_decide(officer_client, one_dan, correct) -> None:
    promotion_approve(promotion=one_dan, user=make_grade_officer(), expected=None)
    assert listed(officer_client.get(reverse(CHANGELIST))) == set()
    correct(one_dan.table, LOST)  # the promoting win becomes a loss: the approved grade is flagged
    response = officer_client.get(reverse(CHANGELIST))
    assert listed(response) == {"Aoki"}
    assert decide_url(one_dan, "keep").encode() in response.content
    assert listed(officer_client.get(reverse(CHANGELIST), {"flag": "open"})) == {"Aoki"}


def test_approve_view_approves_with_a_reason(officer_client, one_dan) -> None:
    assert officer_client.get(decide_url(one_dan, "approve")).status_code == 200
    response = officer_client.post(decide_url(one_dan, "approve"), {**shown(one_dan), "reason": "consistent results"})
    assert response.status_code == 302
    one_dan.refresh_from_db()
    assert (one_dan.status, one_dan.decision_reason) == (PromotionStatus.APPROVED, "consistent results")


def test_approve_view_for_five_dan_requires_the_nsr_consent(officer_client, five_dan) -> None:
    response = officer_client.post(decide_url(five_dan, "approve"), {**shown(five_dan), "reason": "ok"})
    assert response.status_code == 200 and response.context["form"].errors
    five_dan.refresh_from_db()
    assert five_dan.status == PromotionStatus.PENDING
    officer_client.post(
        decide_url(five_dan, "approve"),
        {
            **shown(five_dan),
            "reason": "ok",
            "nsr_consent": "on",
            "nsr_consent_date": "2024-06-01",
            "nsr_reference": "R-17",
        },
    )
    five_dan.refresh_from_db()
    assert (five_dan.status, five_dan.nsr_consent_date) == (PromotionStatus.APPROVED, dt.date(2024, 6, 1))


def test_approve_view_refuses_an_nsr_consent_dated_in_the_future(officer_client, five_dan) -> None:
    """15/11 typed day first into a month-first date box became 11 December: a date after today is refused."""
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    consent = {**shown(five_dan), "reason": "ok", "nsr_consent": "on", "nsr_consent_date": tomorrow.isoformat()}
    response = officer_client.post(decide_url(five_dan, "approve"), consent)
    assert response.status_code == 200
    assert response.context["form"].errors["nsr_consent_date"] == ["The NSR's consent cannot be dated in the future."]
    five_dan.refresh_from_db()
    assert five_dan.status == PromotionStatus.PENDING
    today = {**consent, "nsr_consent_date": timezone.localdate().isoformat()}
    assert officer_client.post(decide_url(five_dan, "approve"), today).status_code == 302
    five_dan.refresh_from_db()
    assert five_dan.status == PromotionStatus.APPROVED


def test_reject_view_requires_a_reason(officer_client, one_dan) -> None:
    response = officer_client.post(decide_url(one_dan, "reject"), {**shown(one_dan), "reason": ""})
    assert response.status_code == 200 and response.context["form"].errors
    officer_client.post(decide_url(one_dan, "reject"), {**shown(one_dan), "reason": "not yet"})
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.REJECTED


def test_decide_view_on_a_decided_promotion_redirects_with_a_message(officer_client, one_dan) -> None:
    promotion_approve(promotion=one_dan, user=make_grade_officer(), expected=None)
    response = officer_client.post(decide_url(one_dan, "reject"), {**shown(one_dan), "reason": "late"})
    assert response.status_code == 302
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.APPROVED


def test_revoke_view_takes_a_flagged_grade_away(officer_client, one_dan, correct) -> None:
    promotion_approve(promotion=one_dan, user=make_grade_officer(), expected=None)
    correct(one_dan.table, LOST)
    officer_client.post(decide_url(one_dan, "revoke"), {**shown(one_dan), "reason": "the win was a forfeit"})
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.REVOKED
    one_dan.player.refresh_from_db()
    assert one_dan.player.grade == 20


@pytest.mark.parametrize("maker", [make_rating_officer, make_director], ids=["rating officer", "director"])
def test_queue_is_read_only_for_everyone_else(client, one_dan, maker) -> None:
    client.force_login(maker())
    response = client.get(reverse(CHANGELIST))
    assert response.status_code == 200 and listed(response) == {"Aoki"}
    assert b"/decide/" not in response.content
    change = client.get(reverse("admin:ratings_promotion_change", args=[one_dan.pk]))
    assert change.status_code == 200 and b"/decide/" not in change.content
    assert client.get(decide_url(one_dan, "approve")).status_code == 403
    assert client.post(decide_url(one_dan, "approve"), {"reason": "x"}).status_code == 403
    one_dan.refresh_from_db()
    assert one_dan.status == PromotionStatus.PENDING


def test_change_view_offers_the_officer_the_open_decisions(officer_client, one_dan) -> None:
    response = officer_client.get(reverse("admin:ratings_promotion_change", args=[one_dan.pk]))
    assert response.status_code == 200
    assert decide_url(one_dan, "approve").encode() in response.content
    assert decide_url(one_dan, "reject").encode() in response.content


def test_queue_query_count_does_not_grow_with_the_rows(officer_client, play) -> None:
    def count_for(n: int) -> int:
        Promotion.objects.all().delete()
        for i in range(n):
            player = seasoned(1795, 20, nationality=["FR", "DE", "NL"][i])
            play(player, opponent(1795), WON, date=DAY + dt.timedelta(days=7 * (n * 10 + i)))
        with CaptureQueriesContext(connection) as queries:
            response = officer_client.get(reverse(CHANGELIST))
        assert len(response.context["cl"].result_list) == n
        return len(queries)

    assert count_for(1) == count_for(3)


def test_approve_view_says_what_a_five_dan_approval_lacks(officer_client, five_dan) -> None:
    response = officer_client.post(decide_url(five_dan, "approve"), {**shown(five_dan), "reason": "ok"})
    html = response.content.decode()
    assert "This field is required." not in html
    assert "once the NSR has consented: tick the box" in html
    assert "date of the NSR&#x27;s consent" in html


def test_decision_message_says_who_was_promoted_to_what(officer_client, one_dan) -> None:
    response = officer_client.post(decide_url(one_dan, "approve"), {**shown(one_dan), "reason": "ok"}, follow=True)
    [message] = [str(m) for m in response.context["messages"]]
    assert message == f"The promotion of {one_dan.player} to 1 Dan is approved."


def test_a_climb_through_several_dan_grades_is_decided_at_once_with_what_earned_each_step(officer_client, play) -> None:
    from ratings.engine.grades import grade_of

    climber = seasoned(2300, 20, family_name="Climber", nationality="FR")  # 1 Kyu far above his grade
    play(climber, opponent(2300), WON, date=DAY)
    steps = list(Promotion.objects.filter(player=climber).order_by("grade"))
    assert len(steps) >= 3 and all(p.status == PromotionStatus.PENDING for p in steps)
    climb_url = reverse("admin:ratings_promotion_climb", args=[climber.pk])
    queue = officer_client.get(reverse(CHANGELIST)).content.decode()
    assert f'href="{climb_url}"' in queue and f"Climb: {len(steps)} grades" in queue
    page = officer_client.get(climb_url)
    html = page.content.decode()
    for step in steps:
        assert f"{step.rating:.0f}" in html and step.get_route_display() in html
    data = {f"_version_{p.pk}": v for p, v in page.context["steps"]}
    saved = officer_client.post(climb_url, {**data, "up_to": grade_of(2, "Dan"), "reason": "Strong results"})
    assert saved.status_code == 302
    assert [Promotion.objects.get(pk=p.pk).status for p in steps[:3]] == [
        PromotionStatus.APPROVED,
        PromotionStatus.APPROVED,
        PromotionStatus.PENDING,
    ]
    client_director = officer_client
    client_director.force_login(make_director())
    assert client_director.get(climb_url).status_code == 403


def test_a_climb_posted_without_the_versions_its_page_showed_is_refused(officer_client, play) -> None:
    from ratings.engine.grades import grade_of

    climber = seasoned(2300, 20, family_name="Climber", nationality="FR")
    play(climber, opponent(2300), WON, date=DAY)
    steps = list(Promotion.objects.filter(player=climber).order_by("grade"))
    climb_url = reverse("admin:ratings_promotion_climb", args=[climber.pk])
    refused = officer_client.post(climb_url, {"up_to": grade_of(2, "Dan"), "reason": "Strong results"})
    assert refused.status_code == 302
    assert {Promotion.objects.get(pk=p.pk).status for p in steps} == {PromotionStatus.PENDING}


def test_the_nsrs_consent_is_shown_only_where_it_is_asked(officer_client) -> None:
    """A 3 Dan's page showed "NSR consent ✗": the consent is asked for 5 and 6 Dan only."""
    players = [make_player(), make_player()]
    table = make_table(players)
    promotions = [make_pending_promotion(p, table, grade=grade) for p, grade in zip(players, (23, 25), strict=True)]
    fields = {}
    for promotion in promotions:
        page = officer_client.get(reverse("admin:ratings_promotion_change", args=[promotion.pk]))
        fields[promotion.grade] = {
            f for _name, options in page.context["adminform"].fieldsets for f in options["fields"]
        }
    assert not {"nsr_consent", "nsr_consent_date", "nsr_reference"} & fields[23]
    assert {"nsr_consent", "nsr_consent_date", "nsr_reference"} <= fields[25]

"""The public season: the calendar, the iCal feed (parsed by icalendar), the Atom feed, a tournament's page
before it is played and the results' status list; and the admin's registration and review."""

from __future__ import annotations

import datetime as dt
import re

import icalendar
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ratings.models import AnnouncementStatus, OutgoingMail, Tournament
from ratings.services.season import tournament_accept, tournament_register
from tests.admin.helpers import page_form_data
from tests.conftest import FIXED_NOW
from tests.factories import make_director, make_rating_officer

pytestmark = pytest.mark.django_db
TODAY = FIXED_NOW.date()


def announce(name: str, *, days: int, country: str = "FR", accept: bool = True) -> Tournament:
    start = TODAY + dt.timedelta(days=days)
    tournament = tournament_register(
        tournament=None,
        user=make_director(),
        name=name,
        start_date=start,
        end_date=start + dt.timedelta(days=1),
        city="Lyon" if country == "FR" else "Köln",
        country=country,
        main_time_minutes=30,
        increment_seconds=30,
        byoyomi_seconds=None,
        mode="Swiss",
        contact="td@example.org",
    )
    return tournament_accept(tournament=tournament, user=make_rating_officer()) if accept else tournament


def test_calendar_shows_accepted_tournaments_of_the_month_only() -> None:
    start = TODAY + dt.timedelta(days=20)
    shown = announce("Open de Lyon", days=20)
    announce("Waiting Open", days=21, accept=False)
    announce("Kölner Open", days=22, country="DE")
    response = Client().get(reverse("ratings:calendar"), {"year": start.year, "month": start.month, "country": "FR"})
    assert response.status_code == 200
    assert [t.pk for t in response.context["tournaments"]] == [shown.pk]
    assert "Waiting Open" not in response.content.decode()


def test_calendar_opens_on_the_coming_tournaments_of_every_month() -> None:
    past = TODAY - dt.timedelta(days=40)
    Tournament.objects.create(
        name="Past Open", start_date=past, end_date=past, country="FR", announcement=AnnouncementStatus.ACCEPTED
    )
    next_month = announce("Open de Lyon", days=35)
    later = announce("Kölner Open", days=70, country="DE")
    announce("Waiting Open", days=21, accept=False)
    response = Client().get(reverse("ratings:calendar"))
    assert response.status_code == 200
    assert [t.pk for t in response.context["tournaments"]] == [next_month.pk, later.pk]
    assert "No tournament" not in response.content.decode()
    german = Client().get(reverse("ratings:calendar"), {"country": "DE"})
    assert [t.pk for t in german.context["tournaments"]] == [later.pk]
    this_month = Client().get(reverse("ratings:calendar"), {"year": TODAY.year, "month": TODAY.month})
    assert "Open de Lyon" not in this_month.content.decode()  # a month asked for shows that month only


def test_calendar_refuses_a_bad_month() -> None:
    assert Client().get(reverse("ratings:calendar"), {"year": 2026, "month": 13}).status_code == 400


def test_ical_feed_parses_with_all_day_events_per_country() -> None:
    lyon = announce("Open de Lyon", days=20)
    announce("Kölner Open", days=22, country="DE")
    announce("Waiting Open", days=23, accept=False)
    everything = icalendar.Calendar.from_ical(Client().get(reverse("feeds:calendar")).content)
    assert sorted(str(e["summary"]) for e in everything.walk("VEVENT")) == ["Kölner Open", "Open de Lyon"]
    french = icalendar.Calendar.from_ical(Client().get(reverse("feeds:calendar_country", args=["fr"])).content)
    [event] = french.walk("VEVENT")
    assert event.decoded("dtstart") == lyon.start_date
    assert event.decoded("dtend") == lyon.end_date + dt.timedelta(days=1)  # exclusive end of an all-day event
    assert str(event["location"]) == "Lyon, France"
    assert str(event["url"]).endswith(reverse("ratings:tournament", args=[lyon.pk]))


def test_a_tournaments_place_is_its_city_and_its_countrys_name_either_alone_or_nothing(client: Client) -> None:
    lyon = announce("Open de Lyon", days=20)
    assert lyon.place == "Lyon, France"
    assert Tournament(city="Lyon").place == "Lyon"
    assert Tournament(country="FR").place == "France"
    assert Tournament().place == ""
    with translation.override("en"):  # the language the German request activates ends with it
        page = client.get(reverse("ratings:calendar"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert page.count("Lyon, Frankreich") == 2  # in the reader's language: its column, and under the name (phone)


def test_ical_feed_of_an_unknown_country_is_a_404_and_of_a_quiet_one_a_named_calendar() -> None:
    """A typo in the address answered 200 with an empty name: a subscribed calendar that stays empty for ever."""
    assert Client().get(reverse("feeds:calendar_country", args=["xx"])).status_code == 404
    quiet = Client().get(reverse("feeds:calendar_country", args=["jp"]))
    assert quiet.status_code == 200
    assert "(Japan)" in str(icalendar.Calendar.from_ical(quiet.content)["x-wr-calname"])


def test_atom_feed_lists_the_accepted_tournaments() -> None:
    announce("Open de Lyon", days=20)
    announce("Waiting Open", days=21, accept=False)
    body = Client().get(reverse("feeds:announced")).content.decode()
    assert "Open de Lyon" in body
    assert "Waiting Open" not in body


def test_tournament_page_shows_before_it_is_played_only_once_accepted() -> None:
    accepted = announce("Open de Lyon", days=20)
    waiting = announce("Waiting Open", days=21, accept=False)
    response = Client().get(reverse("ratings:tournament", args=[accepted.pk]))
    assert response.status_code == 200
    assert response.context["season"].stage == "announced"
    assert "td@example.org" in response.content.decode()
    assert Client().get(reverse("ratings:tournament", args=[waiting.pk])).status_code == 404


def test_a_tournaments_season_facts_are_each_a_box_of_a_label_and_its_value() -> None:
    """Each fact of the season box (status, mode, contact, due date) is a pair in a box of its own, as on a
    player's page: bare pairs in the grid put a label at the end of one row and its value at the next."""
    page = Client().get(reverse("ratings:tournament", args=[announce("Open de Lyon", days=20).pk])).content.decode()
    facts = re.search(r'<section class="season".*?<dl class="facts">(.*?)</dl>', page, re.S)
    assert facts is not None
    boxes = re.findall(r"<div>\s*<dt>(.*?)</dt>\s*<dd>.*?</dd>\s*</div>", facts.group(1), re.S)
    assert boxes == ["Status", "Mode", "Contact", "Results due"]
    assert len(re.findall(r"<dt>", facts.group(1))) == len(boxes)


def test_results_status_lists_a_tournament_that_ended_with_its_deadline() -> None:
    past = announce("Old Open", days=20)
    Tournament.objects.filter(pk=past.pk).update(
        start_date=TODAY - dt.timedelta(days=20), end_date=TODAY - dt.timedelta(days=19)
    )
    response = Client().get(reverse("ratings:results_status"))
    [(tournament, status)] = response.context["rows"]
    assert (tournament.pk, status.stage) == (past.pk, "overdue")
    assert status.deadline == TODAY - dt.timedelta(days=5)


def test_director_registers_in_the_admin_and_an_officer_refuses_with_a_reason() -> None:
    director, officer = make_director(), make_rating_officer()
    client = Client()
    client.force_login(director)
    add_url = reverse("admin:ratings_tournament_add")
    adding = client.get(add_url)
    # Neither an empty list of tables nor a review's line "–" on the page that creates the tournament.
    assert adding.context["inline_admin_formsets"] == []
    assert "review_status" not in {f for _name, o in adding.context["adminform"].fieldsets for f in o["fields"]}
    data = page_form_data(adding)
    start = TODAY + dt.timedelta(days=30)
    data |= {
        "name": "Open de Nice",
        "city": "Nice",
        "country": "FR",
        "start_date": start.isoformat(),
        "end_date": start.isoformat(),
        "register": "on",
        "main_time_minutes": "20",
        "byoyomi_seconds": "30",
        "contact": "td@example.org",
        "planned_tables": "2",
    }
    refused = client.post(add_url, data)
    assert refused.status_code == 200  # 20 min + 30 s byoyomi is below FESA's minimum
    assert "main_time_minutes" in refused.context["adminform"].form.errors
    data["byoyomi_seconds"] = "40"
    saved = client.post(add_url, data | {"_continue": "1"}, follow=True)
    tournament = Tournament.objects.get(name="Open de Nice")
    assert saved.redirect_chain[0][0] == reverse("admin:ratings_tournament_change", args=[tournament.pk])
    assert saved.status_code == 200 and "doesn’t exist" not in saved.content.decode()
    assert (tournament.announcement, tournament.planned_tables) == (AnnouncementStatus.PROPOSED, 2)
    review_url = reverse("admin:ratings_tournament_review", args=[tournament.pk])
    assert review_url in saved.content.decode()
    own = client.get(review_url)  # a director reads his registration's review, without the decision
    assert own.status_code == 200 and own.context["form"] is None and "td@example.org" in own.content.decode()
    assert "<dd>Nice, France</dd>" in own.content.decode()  # the place, as the calendar writes it
    assert client.post(review_url, {"decision": "accept", "reason": ""}).status_code == 403
    client.force_login(make_director())
    assert client.get(review_url).status_code == 403  # nor another director's
    client.force_login(officer)
    assert client.post(review_url, {"decision": "refuse", "reason": ""}).status_code == 200  # a reason is needed
    assert client.post(review_url, {"decision": "refuse", "reason": "Clash with the Open de Paris"}).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.announcement, tournament.review_reason) == (
        AnnouncementStatus.REFUSED,
        "Clash with the Open de Paris",
    )
    listing = client.get(reverse("admin:ratings_tournament_changelist"), {"season": "refused"})
    assert list(listing.context["cl"].result_list) == [tournament]


def test_outbox_is_read_only_and_for_rating_officers_only() -> None:

    mail = OutgoingMail.objects.create(event_key="e:1", recipient="anna@example.org", subject="S", body="B")
    client = Client()
    client.force_login(make_director())
    assert client.get(reverse("admin:ratings_outgoingmail_changelist")).status_code == 403
    client.force_login(make_rating_officer())
    listing = client.get(reverse("admin:ratings_outgoingmail_changelist"))
    assert list(listing.context["cl"].result_list) == [mail]
    change_url = reverse("admin:ratings_outgoingmail_change", args=[mail.pk])
    assert client.post(change_url, {"recipient": "x@example.org"}).status_code == 403

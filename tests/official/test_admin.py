"""Publishing in the admin (ratings/admin/official_lists.py): the form, the confirmation with the number of
players, the published list read-only; directors cannot publish."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import ListEntry, OfficialList
from ratings.services.fingerprints import VERSION_FIELD
from ratings.services.official_lists import official_list_publish
from tests.factories import make_director, make_grade_officer
from tests.official.conftest import Federation, correct_first_table

pytestmark = pytest.mark.django_db

ADD = reverse("admin:ratings_officiallist_add")


def test_an_officer_publishes_after_a_confirmation_with_the_count(client: Client, federation: Federation) -> None:
    client.force_login(federation.officer)
    assert client.get(ADD).status_code == 200
    data = {"date": federation.date.isoformat(), "title": "Spring list", "note": "Line one\nLine two"}
    confirm = client.post(ADD, data)
    assert confirm.status_code == 200
    text = confirm.content.decode()
    assert f"The official list of {federation.date.isoformat()} will hold 4 players." in text
    assert not OfficialList.objects.exists()  # nothing is published before the confirmation
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', text, flags=re.S))
    hidden.pop("csrfmiddlewaretoken")
    version = hidden.pop(VERSION_FIELD)
    assert version  # the version of the list shown: exactly that list is published
    assert hidden == {**data, "note": "Line one\nLine two", "confirmed": "yes"}
    done = client.post(ADD, {**hidden, VERSION_FIELD: version})
    official = OfficialList.objects.get()
    assert done.status_code == 302 and done["Location"] == reverse(
        "admin:ratings_officiallist_change", args=[official.pk]
    )
    assert (official.title, official.note, official.player_count) == ("Spring list", "Line one\nLine two", 4)
    assert official.published_by == federation.officer
    page = client.get(done["Location"])
    assert page.status_code == 200 and "Spring list" in page.content.decode()
    assert "is published, with 4 players" in page.content.decode()


def test_the_form_says_why_a_date_is_refused(client: Client, federation: Federation, published: OfficialList) -> None:
    client.force_login(federation.officer)
    again = client.post(ADD, {"date": federation.date.isoformat()})
    assert "has been published already" in again.content.decode()
    future = client.post(ADD, {"date": "2999-01-01"})
    assert "cannot be published before that day" in future.content.decode()
    assert OfficialList.objects.count() == 1


def test_a_pending_rerate_is_refused_in_the_form(client: Client, federation: Federation) -> None:
    client.force_login(federation.officer)
    correct_first_table(federation, rerate=False)
    response = client.post(ADD, {"date": federation.date.isoformat(), "confirmed": "yes"})
    assert response.status_code == 200
    assert "is waiting to be done" in response.content.decode()
    assert not OfficialList.objects.exists()


def test_a_published_list_is_read_only(client: Client, federation: Federation, published: OfficialList) -> None:
    client.force_login(federation.officer)
    change = client.get(reverse("admin:ratings_officiallist_change", args=[published.pk]))
    assert change.status_code == 200
    assert 'name="title"' not in change.content.decode()  # shown, not editable
    before = OfficialList.objects.values_list("title", flat=True).get()
    client.post(reverse("admin:ratings_officiallist_change", args=[published.pk]), {"title": "Changed"})
    assert OfficialList.objects.values_list("title", flat=True).get() == before
    assert client.get(reverse("admin:ratings_officiallist_delete", args=[published.pk])).status_code == 403
    entry = ListEntry.objects.filter(stored_list__official=published).first()
    entries = client.get(reverse("admin:ratings_listentry_changelist"))
    assert entries.status_code == 200
    assert entries.context["cl"].result_count == 4  # the published list's entries, not the computed lists'
    assert client.post(reverse("admin:ratings_listentry_delete", args=[entry.pk]), {"post": "yes"}).status_code == 403
    assert ListEntry.objects.filter(stored_list__official=published).count() == 4


@pytest.mark.parametrize("make", [make_director, make_grade_officer])
def test_directors_and_grade_officers_cannot_publish(client: Client, federation: Federation, make) -> None:  # type: ignore[no-untyped-def]
    client.force_login(make())
    assert client.get(ADD).status_code == 403
    assert client.post(ADD, {"date": federation.date.isoformat(), "confirmed": "yes"}).status_code == 403
    assert not OfficialList.objects.exists()


def test_a_superuser_sees_the_publish_form(admin_client: Client, federation: Federation) -> None:
    assert admin_client.get(ADD).status_code == 200
    official_list_publish(date=federation.date, user=federation.officer, expected=None)
    assert admin_client.get(reverse("admin:ratings_officiallist_changelist")).status_code == 200


def test_a_list_corrected_after_its_confirmation_was_shown_is_not_published(
    client: Client, federation: Federation
) -> None:
    """The confirmation carries the version of the list it counted: a correction and its re-rate in between
    refuse the publication, naming the correction, and the next confirmation publishes the list as it is."""
    client.force_login(federation.officer)
    data = {"date": federation.date.isoformat(), "title": "Spring list", "note": ""}
    confirm = client.post(ADD, data)
    shown = {**data, "confirmed": "yes", VERSION_FIELD: re.findall(rf'name="{VERSION_FIELD}" value="([^"]*)"',
                                                                   confirm.content.decode())[0]}  # fmt: skip

    correct_first_table(federation)  # by the same officer, as another session would
    refused = client.post(ADD, shown)
    assert refused.status_code == 200 and not OfficialList.objects.exists()
    text = refused.content.decode()
    assert "nothing was saved" in text
    assert "Anders" in text and federation.officer.username in text  # what changed and who

    again = client.post(ADD, data)
    fresh = re.findall(rf'name="{VERSION_FIELD}" value="([^"]*)"', again.content.decode())[0]
    assert client.post(ADD, {**shown, VERSION_FIELD: fresh}).status_code == 302
    assert OfficialList.objects.get().player_count == 4


def test_the_publisher_is_a_name_to_an_officer_and_a_link_to_a_superuser(
    client: Client, admin_client: Client, federation: Federation, published: OfficialList
) -> None:
    """Only who may see users gets the link to the publisher's account (ratings/admin/user_names.py)."""
    change = reverse("admin:ratings_officiallist_change", args=[published.pk])
    account = reverse("admin:auth_user_change", args=[federation.officer.pk])
    shown = f'<div class="readonly">{federation.officer.get_username()}</div>'
    client.force_login(federation.officer)
    officer_page = client.get(change).content.decode()
    assert shown in officer_page
    assert account not in officer_page
    superuser_page = admin_client.get(change).content.decode()
    assert account in superuser_page
    assert shown not in superuser_page

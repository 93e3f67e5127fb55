"""The admin's second factor (ratings/admin/second_factor.py): officers and superusers give a code from an
authenticator app before the admin opens, set it up on their first visit, and can use each recovery code once."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests.factories import make_director, make_grade_officer, make_rating_officer, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def required(settings: Any) -> None:
    settings.SECOND_FACTOR_REQUIRED = True


def code_of(device: TOTPDevice) -> str:
    return f"{totp(device.bin_key, step=device.step, t0=device.t0, digits=device.digits):06d}"


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def set_up(client: Client, user: User) -> list[str]:
    """Go through the setup as the user would; return the recovery codes the page shows."""
    page = client.get(reverse("second_factor:setup"))
    assert page.status_code == 200 and "<svg" in page.content.decode()
    device = TOTPDevice.objects.get(user=user, confirmed=False)
    shown = client.post(reverse("second_factor:setup"), {"code": code_of(device), "next": reverse("admin:index")})
    assert shown.status_code == 200
    return re.findall(r"<li><code>(\w+)</code></li>", shown.content.decode())


@pytest.mark.parametrize("make", [make_rating_officer, make_grade_officer, lambda: make_user(superuser=True)])
def test_an_officers_first_admin_visit_sets_up_the_authenticator(make: object) -> None:
    user = make()  # type: ignore[operator]
    client = logged_in(user)
    first = client.get(reverse("admin:index"))
    assert first.status_code == 302 and first["Location"].startswith(reverse("second_factor:verify"))
    assert client.get(first["Location"])["Location"].startswith(reverse("second_factor:setup"))
    codes = set_up(client, user)
    assert len(codes) == 10 and len(set(codes)) == 10
    assert TOTPDevice.objects.get(user=user).confirmed
    assert client.get(reverse("admin:index")).status_code == 200


def test_a_wrong_code_confirms_nothing_and_says_so() -> None:
    officer = make_rating_officer()
    client = logged_in(officer)
    client.get(reverse("second_factor:setup"))
    answer = client.post(reverse("second_factor:setup"), {"code": "000000"})
    device = TOTPDevice.objects.get(user=officer)
    if code_of(device) == "000000":  # one chance in a million: the right code after all
        pytest.skip("the authenticator's code happened to be 000000")
    assert answer.status_code == 200 and "not right" in answer.content.decode()
    assert not device.confirmed
    assert client.get(reverse("admin:index")).status_code == 302


def test_a_later_login_asks_for_the_code_and_takes_each_recovery_code_once() -> None:
    officer = make_rating_officer()
    codes = set_up(logged_in(officer), officer)
    client = logged_in(officer)  # a new session
    asked = client.get(reverse("admin:ratings_table_changelist"))
    assert asked.status_code == 302 and asked["Location"].startswith(reverse("second_factor:verify"))
    verify = reverse("second_factor:verify")
    let_in = client.post(verify, {"code": codes[0], "next": reverse("admin:ratings_table_changelist")})
    assert let_in.status_code == 302 and let_in["Location"] == reverse("admin:ratings_table_changelist")
    again = logged_in(officer)
    refused = again.post(verify, {"code": codes[0]})  # used once already
    assert refused.status_code == 200 and "not right" in refused.content.decode()
    assert again.get(reverse("admin:index")).status_code == 302


def test_the_authenticators_current_code_lets_the_officer_in() -> None:
    officer = make_rating_officer()
    set_up(logged_in(officer), officer)
    client = logged_in(officer)
    device = TOTPDevice.objects.get(user=officer)
    # django-otp accepts a code once: the setup used this step's code, so take the next step's.
    next_code = f"{totp(device.bin_key, step=device.step, t0=device.t0 - device.step, digits=device.digits):06d}"
    answer = client.post(reverse("second_factor:verify"), {"code": next_code})
    assert answer.status_code == 302
    assert client.get(reverse("admin:index")).status_code == 200


def test_a_director_without_an_authenticator_goes_straight_in_and_one_with_it_is_asked() -> None:
    director = make_director()
    assert logged_in(director).get(reverse("admin:index")).status_code == 200
    set_up(logged_in(director), director)
    assert logged_in(director).get(reverse("admin:index")).status_code == 302


def test_without_the_requirement_an_officer_goes_straight_in(settings: Any) -> None:
    settings.SECOND_FACTOR_REQUIRED = False
    assert logged_in(make_rating_officer()).get(reverse("admin:index")).status_code == 200


def test_the_login_page_and_the_code_pages_are_not_redirected() -> None:
    client = logged_in(make_rating_officer())
    assert client.get(reverse("admin:login")).status_code in (200, 302)  # logged in: Django sends him on
    assert client.get(reverse("second_factor:setup")).status_code == 200


def test_the_code_page_never_sends_to_another_site() -> None:
    officer = make_rating_officer()
    client = logged_in(officer)
    client.get(reverse("second_factor:setup"))
    device = TOTPDevice.objects.get(user=officer)
    page = client.post(reverse("second_factor:setup"), {"code": code_of(device), "next": "https://evil.example/"})
    assert "evil.example" not in page.content.decode()

"""The what-if screens of the admin (ratings/admin/whatif.py): for rating officers only, the form's checks, and a
what-if asked, computed and shown."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from ratings.admin.forms.whatif import WhatIfForm
from ratings.engine.rules import FESA_RULES
from ratings.models import RatingRow, WhatIfReport
from tests.admin.helpers import statuses_by_role
from tests.admin.test_lists import queries_for
from tests.factories import make_player, make_rating_officer

pytestmark = pytest.mark.django_db

ADD = "admin:ratings_whatifreport_add"


def _fesas() -> dict[str, Any]:
    """The form's data as it comes: every field at FESA's value."""
    return {name: field.initial for name, field in WhatIfForm().fields.items()}


def test_the_form_at_its_start_asks_fesas_own_constants() -> None:
    form = WhatIfForm(_fesas())
    assert form.is_valid(), form.errors
    assert form.rules == FESA_RULES


def test_the_form_moves_the_k_bands_starts() -> None:
    form = WhatIfForm({**_fesas(), "k_from_0": 2400, "k_from_5": 600})
    assert form.is_valid(), form.errors
    assert form.rules.k_from == (2400, 1920, 1560, 1280, 1040, 600)
    assert form.rules.k == FESA_RULES.k


def test_each_band_out_of_order_is_named_on_its_own_start() -> None:
    """A band that starts at or above the band before it is wrong where it starts: the engine's problem is put
    on that band's field, one error for each such band, none on the form as a whole."""
    form = WhatIfForm({**_fesas(), "k_from_2": 2000, "k_from_4": 1280})
    with translation.override("en"):
        assert not form.is_valid()
        assert set(form.errors) == {"k_from_2", "k_from_4"}
        assert form.errors["k_from_2"] == ["A band must start below the band above it."]
        assert not form.non_field_errors()


@pytest.mark.parametrize("page", ["changelist", "add"])
def test_the_whatif_screens_are_for_rating_officers_only(client: Client, page: str) -> None:
    url = reverse(f"admin:ratings_whatifreport_{page}")
    assert statuses_by_role(client, url) == {"rating officer": 200, "director": 403, "grade officer": 403}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("k_0", "0"),
        ("k_6", "-8"),
        ("bonus_divisor", "-1"),
        ("handicap_L", "-0.5"),
        ("k_3", "x"),
        ("k_from_2", "2000"),
        ("k_from_5", "-1"),
    ],
)
def test_constants_the_rules_cannot_use_are_refused(client: Client, field: str, value: str) -> None:
    client.force_login(make_rating_officer())
    response = client.post(reverse(ADD), {**_fesas(), field: value})
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert not WhatIfReport.objects.exists()


def test_a_rating_officer_asks_a_whatif_and_reads_its_page(
    client: Client, rated_round_robin: Any, django_capture_on_commit_callbacks: Any
) -> None:
    players = [make_player(f"Family{n}") for n in range(4)]
    for month in (1, 2, 3):
        rated_round_robin(players, dt.date(2024, month, 10))
    rows = list(RatingRow.objects.order_by("pk").values_list())
    client.force_login(make_rating_officer())

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse(ADD), {**_fesas(), **{f"k_{i}": 2 * k for i, k in enumerate(FESA_RULES.k)}})

    report = WhatIfReport.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:ratings_whatifreport_change", args=[report.pk])
    assert report.status == WhatIfReport.Status.DONE
    assert report.rules["k"] == [2 * k for k in FESA_RULES.k]
    page = client.get(response["Location"])
    assert page.status_code == 200
    moved = page.context["moved"]
    assert moved and {row["name"] for row in moved} <= {p.family_name for p in players}
    assert [row["side"] for row in page.context["even"]] == ["actual", "whatif"]
    assert page.context["even"][0]["games"] == page.context["even"][1]["games"] > 0
    text = page.content.decode()
    assert "FESA with these constants" in text and moved[0]["name"] in text
    # The calibration drawn as on the public comparison, one chart a side, beside its table of numbers.
    assert [chart["id"] for chart in page.context["charts"]] == ["calibration-actual", "calibration-whatif"]
    assert text.count('<svg class="chart calibration"') == 2
    assert 'aria-labelledby="calibration-whatif-t calibration-whatif-d"' in text
    assert '<th scope="row">50–55 %</th>' in text
    assert list(RatingRow.objects.order_by("pk").values_list()) == rows
    listing = client.get(reverse("admin:ratings_whatifreport_changelist"))
    assert "[16, 20, 24, 28, 32, 36, 40] → [32, 40, 48, 56, 64, 72, 80]" in listing.content.decode()


def _stored_whatif(officer: Any, n: int) -> None:
    now = timezone.now()
    rules = dataclasses.replace(FESA_RULES, bonus_games=n)
    WhatIfReport.objects.create(
        rules_key=rules.key, rules=rules.as_json(), version="v1", requested_by=officer, requested_at=now,
        updated_at=now,
    )  # fmt: skip


def test_the_whatif_list_costs_as_many_queries_for_three_rows_as_for_one(client: Client) -> None:
    officer = make_rating_officer()
    client.force_login(officer)
    url = reverse("admin:ratings_whatifreport_changelist")
    _stored_whatif(officer, 1)
    one = queries_for(client, url)
    _stored_whatif(make_rating_officer(), 2)
    _stored_whatif(officer, 3)
    three = queries_for(client, url)
    assert one == three
    assert "bonus_games: 100 → 3" in client.get(url).content.decode()

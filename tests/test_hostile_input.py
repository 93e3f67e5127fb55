"""Hostile query strings never give a 500: every admin list, the public pages, the file downloads and the
players' autocomplete answer them with a page, a redirect, an empty result or a 400."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import pytest
from django.contrib import admin
from django.db import models
from django.test import Client
from django.urls import reverse

from ratings.models import GameResult, TableStatus
from tests.factories import add_game, make_player, make_table, make_user

pytestmark = pytest.mark.django_db

HUGE = ["99999999999", "-99999999999", "9" * 400, "1e309"]
ODD = [
    "\x00",
    "x" * 60_000,
    "2024-13-45",
    "0000-00-00",
    "9999-12-31",
    "10000-01-01",
    "2024-02-30",
    "nan",
    "'\"%_\\",
]
HOSTILE = HUGE + ODD
# Raw query strings the client would otherwise encode for us: bytes that are not UTF-8, broken escapes.
RAW_QUERIES = ["q=%ff%fe", "q=%c3%28", "q=%", "q=%zz", "%ff=1", "o=%80", "p=%ed%a0%80"]
CHANGELIST_PARAMETERS = ["q", "o", "p", "all", "e", "_to_field", "_popup", "_changelist_filters"]
UNKNOWN_LOOKUPS = ["nosuchfield", "id__nosuchlookup", "id__regex", "pk__in", "id__range"]


def _field_lookups(model: type[models.Model]) -> Iterator[str]:
    """Lookups on every field of the model, whether or not the list offers a filter on it."""
    for field in model._meta.concrete_fields:
        name = field.name if not field.is_relation else f"{field.name}__id"
        yield from (name, f"{name}__gte", f"{name}__in", f"{name}__regex")
        if isinstance(field, models.DateField):
            yield f"{field.name}__year"


def _list_parameters(client: Client, url: str, model_admin: admin.ModelAdmin) -> set[str]:  # type: ignore[type-arg]
    """The parameters the list itself reads: its filters', its date hierarchy's, its own."""
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    names = set(CHANGELIST_PARAMETERS)
    for spec in response.context["cl"].filter_specs:
        names.update(spec.expected_parameters())
    if model_admin.date_hierarchy:
        names.update(f"{model_admin.date_hierarchy}__{part}" for part in ("year", "month", "day"))
    return names


@pytest.fixture
def populated() -> None:
    """A few rows in every list, so that filters offer choices and queries have something to run on."""
    a, b = make_player("Ames"), make_player("Bell")
    table = make_table([a, b], status=TableStatus.DRAFT)
    add_game(table, 1, a, b, GameResult.DRAW)


class Sweep:
    """Sends every request and collects the ones that failed, so that one run names them all."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.failures: list[str] = []

    def get(self, url: str, query: str) -> None:
        try:
            status = self.client.get(f"{url}?{query}").status_code
        except Exception as error:  # the test client re-raises what the view raised: a 500 in production
            self.failures.append(f"{url}?{query[:60]}: {type(error).__name__}: {str(error)[:80]}")
            return
        if status >= 500:
            self.failures.append(f"{url}?{query[:60]}: {status}")


REGISTERED = sorted(admin.site._registry.items(), key=lambda item: item[0]._meta.label)


def test_the_sweep_covers_every_registered_list() -> None:
    assert {model._meta.label for model, _ in REGISTERED} >= {"ratings.Player", "ratings.Table", "auth.User"}


@pytest.mark.parametrize(("model", "model_admin"), REGISTERED, ids=[model._meta.label for model, _ in REGISTERED])
@pytest.mark.slow
def test_every_admin_list_survives_hostile_parameters(
    client: Client,
    populated: None,
    model: type[models.Model],
    model_admin: admin.ModelAdmin,  # type: ignore[type-arg]
) -> None:
    client.force_login(make_user(superuser=True))
    sweep = Sweep(client)
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    offered = _list_parameters(client, url, model_admin)
    for name in sorted(offered):
        for value in HOSTILE:
            sweep.get(url, f"{quote(name)}={quote(value)}")
    # Lookups the list does not offer are refused whatever their value: a few values show it.
    for name in sorted(set(_field_lookups(model)) | set(UNKNOWN_LOOKUPS) - offered):
        for value in ("1", "99999999999", "2024-13-45", "("):
            sweep.get(url, f"{quote(name)}={quote(value)}")
    for raw in RAW_QUERIES:
        sweep.get(url, raw)
    sweep.get(url, "o=999.-999.abc&p=99999999999999999999")
    if model_admin.date_hierarchy:
        year, month = f"{model_admin.date_hierarchy}__year", f"{model_admin.date_hierarchy}__month"
        sweep.get(url, f"{year}=9999&{month}=12")
        sweep.get(url, f"{year}=2024&{month}=99999999999")
        sweep.get(url, f"{year}=2024&{month}=2&{model_admin.date_hierarchy}__day=30")
    assert not sweep.failures, "\n".join(sweep.failures)


@pytest.mark.parametrize("query", ["date__year=99999999999", "q=%00"])
@pytest.mark.parametrize("page", ["table", "tournament"])
def test_the_reported_admin_urls_answer_without_an_error(
    client: Client, populated: None, page: str, query: str
) -> None:
    client.force_login(make_user(superuser=True))
    response = client.get(f"{reverse(f'admin:ratings_{page}_changelist')}?{query}")
    assert response.status_code == 400


def test_the_player_autocomplete_survives_hostile_parameters(client: Client, populated: None) -> None:
    client.force_login(make_user(superuser=True))
    sweep = Sweep(client)
    url = reverse("admin:autocomplete")
    base = {"app_label": "ratings", "model_name": "tableentry", "field_name": "player"}
    for name in ["term", "page", "app_label", "model_name", "field_name"]:
        for value in HOSTILE:
            sweep.get(url, "&".join(f"{k}={quote(v)}" for k, v in {**base, name: value}.items()))
    for raw in RAW_QUERIES:
        sweep.get(url, "app_label=ratings&model_name=tableentry&field_name=player&term=" + raw)
    assert not sweep.failures, "\n".join(sweep.failures)


PUBLIC_PAGES = {
    "/": ["q", "country", "category", "grade_min", "grade_max", "active", "date", "sort", "page", "per_page"],
    "/export.csv": ["q", "country", "category", "grade_min", "grade_max", "active", "date"],
    "/export.json": ["q", "country", "category", "grade_min", "grade_max", "active", "date"],
    "/tournaments/": ["year", "country", "q", "page", "sort"],
    "/promotions/": ["page", "sort", "pending-page", "pending-sort", "grade", "country"],
    "/files/rating-list": ["date", "format", "grades"],
}


@pytest.mark.slow  # every public page, every parameter, every hostile value: over ten seconds, as the admin sweep
def test_every_public_page_survives_hostile_parameters(client: Client, populated: None) -> None:
    player = make_player("Cole")
    sweep = Sweep(client)
    pages = dict(PUBLIC_PAGES)
    pages[f"/players/{player.federation_id}/"] = ["page", "sort"]
    for url, names in pages.items():
        for name in [*names, "unknown"]:
            for value in HOSTILE:
                sweep.get(url, f"{quote(name)}={quote(value)}")
        for raw in RAW_QUERIES:
            sweep.get(url, raw)
    assert not sweep.failures, "\n".join(sweep.failures)

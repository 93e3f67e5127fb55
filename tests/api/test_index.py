"""The API's index at /api/v1/: every resource with a URL that answers."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_api_index_lists_every_resource_with_a_url_that_answers(client: Client) -> None:
    response = client.get("/api/v1/")
    assert response.status_code == 200
    resources = response.json()["resources"]
    assert {"players", "rating_list", "tables", "promotions", "docs"} <= set(resources)
    for resource in resources.values():
        assert resource["url"].startswith("http://testserver/api/v1/")
        assert client.get(resource["url"]).status_code == 200


def test_the_api_without_a_version_leads_to_the_current_one(client: Client) -> None:
    response = client.get("/api/")
    assert response.status_code == 302 and response["Location"] == "/api/v1/"


def test_the_docs_say_the_rates_in_words() -> None:
    from django.conf import settings

    said = settings.SPECTACULAR_SETTINGS["DESCRIPTION"]
    assert "may make 120 requests a minute;" in said and "60 requests an hour per director" in said

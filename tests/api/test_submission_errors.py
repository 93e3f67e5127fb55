"""A refused preview or submit names its problem: a body with neither a file nor a table, a field inside the
table by its path; and the schema says what the directors' endpoints refuse, so that a client that follows it
is not refused for its shape (tests/api/test_schemathesis_submission.py fuzzes both)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from ratings.services.tokens import access_token_create
from tests.api.test_submission import DAY, accepted, in_days
from tests.factories import make_director, make_tournament

pytestmark = pytest.mark.django_db


def preview_url_and_secret() -> tuple[str, str]:
    """The preview URL of an accepted tournament, and a token of its director."""
    director = make_director(username="dir")
    tournament = accepted(make_tournament("Nekomado-ken", date=DAY, directors=[director]))
    secret = access_token_create(user=director, name="laptop", expires_at=in_days(30))[1]
    return reverse("api-v1:tables_preview", args=[tournament.pk]), secret


@pytest.fixture
def preview() -> Any:
    url, secret = preview_url_and_secret()

    def post(body: Any) -> Any:
        return Client().post(url, body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {secret}")

    return post


@pytest.fixture
def preview_form() -> Any:
    url, secret = preview_url_and_secret()
    return lambda data: Client().post(url, data, HTTP_AUTHORIZATION=f"Bearer {secret}")


def test_a_body_with_neither_file_nor_table_is_told_to_send_one(preview: Any) -> None:
    response = preview({})
    assert response.status_code == 400
    assert response.json()["errors"] == {"turnering": ["Send turnering or table."]}


def test_a_body_with_both_is_told_to_send_one_only(preview: Any) -> None:
    response = preview(
        {"turnering": "x", "table": {"name": "T", "date": "2016-01-07", "players": [{"family_name": "A"}]}}
    )
    assert response.status_code == 400
    assert response.json()["errors"] == {"turnering": ["Send either turnering or table, not both."]}


def test_a_field_inside_the_table_is_named_by_its_path(preview: Any) -> None:
    players = [
        {"family_name": "Dupont", "rounds": ["2+"]},
        {"family_name": "Mar[tin", "given_name": "L\x01", "rounds": ["1-"]},
    ]
    response = preview({"table": {"name": "Paris", "date": "2016-01-07", "players": players}})
    assert response.status_code == 400
    assert response.json()["errors"] == {
        "table.players.1.family_name": ["Brackets and control characters are not allowed here."],
        "table.players.1.given_name": ["Brackets and control characters are not allowed here."],
    }


def test_the_schema_states_what_the_table_endpoints_refuse(client: Client) -> None:
    schema = client.get(reverse("api-v1:schema")).json()
    for path in ("/api/v1/tournaments/{id}/tables/preview/", "/api/v1/tournaments/{id}/tables/submit/"):
        assert schema["paths"][path]["post"]["requestBody"]["required"] is True
    components = schema["components"]["schemas"]
    assert components["JsonSubmissionRequest"]["oneOf"] == [{"required": ["turnering"]}, {"required": ["table"]}]
    form = components["MultipartSubmissionRequest"]["properties"]
    assert "nullable" not in form["sequence"]  # a form sends text
    assert form["turnering"]["minLength"] == form["nye_spillere"]["minLength"] == 1
    player = components["TablePlayerRequest"]["properties"]
    for field in (player["family_name"], components["TableRequest"]["properties"]["name"]):
        assert [bool(re.search(field["pattern"], text)) for text in ("Dupont", "Du[pont", "Du\x01", "  ")] == [
            True,
            False,
            False,
            False,
        ]
    given = next(alternative for alternative in player["given_name"]["oneOf"] if "pattern" in alternative)
    assert [bool(re.search(given["pattern"], text)) for text in ("", "Jean", "Je]an")] == [True, True, False]
    assert not re.search(player["federation_id"]["pattern"], "   ")


def test_an_empty_file_is_among_the_tables_problems(preview_form: Any) -> None:
    response = preview_form({"turnering": SimpleUploadedFile("turnering.txt", b"")})
    assert response.status_code == 200
    assert response.json()["problems"][0]["file"] == "turnering.txt"

"""The API's answers match the OpenAPI schema it publishes, checked by an independent validator (openapi-core);
the schema itself is valid OpenAPI and generates without a warning."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from openapi_core import OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse
from openapi_core.validation.response.exceptions import InvalidData

from tests.api.conftest import Federation, api_urls

pytestmark = pytest.mark.django_db


@pytest.fixture
def openapi(client: Client) -> OpenAPI:
    response = client.get(reverse("api-v1:schema"))
    assert response.status_code == 200
    return OpenAPI.from_dict(response.json())  # the spec is validated as it is loaded


def test_every_answer_matches_the_published_schema(client: Client, federation: Federation, openapi: OpenAPI) -> None:
    checked: list[tuple[str, int]] = []
    for url in api_urls(federation):
        response = client.get(url)
        openapi.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))
        checked.append((url.split("?")[0], response.status_code))
    assert {status for _, status in checked} == {200, 400, 404}


def test_an_answer_that_breaks_the_schema_is_caught(client: Client, federation: Federation, openapi: OpenAPI) -> None:
    """The validator is no rubber stamp: a player whose rating is a string fails."""
    response = client.get(reverse("api-v1:player", args=[federation.players[0].federation_id]))
    body: dict[str, Any] = response.json()
    body["games"] = "many"
    response.content = json.dumps(body).encode()
    with pytest.raises(InvalidData):
        openapi.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))


def test_schema_generates_without_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    assert capsys.readouterr().err == ""
    assert all(path.startswith("/api/v1/") for path in schema["paths"])
    assert set(schema["paths"]) >= {"/api/v1/rating-list/", "/api/v1/tables/{id}/", "/api/v1/promotions/pending/"}


def test_the_submission_endpoints_state_every_status_and_the_keys_limits() -> None:
    """A client tool that follows the schema never meets a status or a refused header the schema did not
    state (the code holds them: tests/api/test_submission.py)."""
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    preview = paths["/api/v1/tournaments/{id}/tables/preview/"]["post"]
    submit = paths["/api/v1/tournaments/{id}/tables/submit/"]["post"]
    assert {"200", "400", "401", "403", "404", "409", "413", "429"} <= set(preview["responses"])
    assert {"201", "400", "401", "403", "404", "409", "413", "422", "429"} <= set(submit["responses"])
    [key] = [p for p in submit["parameters"] if p["name"] == "Idempotency-Key"]
    assert key["required"] is True and key["in"] == "header"
    assert (key["schema"]["minLength"], key["schema"]["maxLength"]) == (1, 200)
    pattern = re.compile(key["schema"]["pattern"])
    assert pattern.fullmatch("3f2b9c1e-uuid key/1") and not pattern.fullmatch("é") and not pattern.fullmatch("a\tb")

"""A bounded schemathesis pass over the whole API, with production's error pages (DEBUG off): every operation,
every check, requests that fit the schema and requests that break it, a fixed seed and a few hundred examples,
so that the suite keeps the API to its schema's promises in well under a minute.

One check is ours rather than schemathesis's: a request that fits the schema may be refused (400) only for a
parameter whose rule the schema cannot state, and the refusal names it. A club filter names a club by its id, and
whether a club has that id is the database's to say; schemathesis's own check would want every such request
answered 2xx."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_started
from django.db import close_old_connections
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.generation.modes import GenerationMode

from tests.api.conftest import Federation

pytestmark = pytest.mark.django_db

EXAMPLES = 100  # a mode, over every operation: about 5 s of CPU
BEYOND_THE_SCHEMA = {"club"}
"""The parameters whose rule the schema cannot state: which clubs exist."""


def refusal_named(ctx: Any, response: Any, case: Any) -> None:
    """A request that fits the schema is refused only for a parameter beyond the schema, which the answer names."""
    if response.status_code != 400:
        return
    body = response.json()
    fields = set(body.get("errors") or {}) if isinstance(body, dict) else set()
    assert body.get("detail") and fields and fields <= BEYOND_THE_SCHEMA, f"a request that fits refused: {body!r}"


@pytest.fixture
def api_schema(client: Client, federation: Federation, settings: Any) -> Any:
    settings.DEBUG = False
    settings.API_ANON_RATE = "100000/minute"  # the limit has its own tests; here every request is answered
    response = client.get(reverse("api-v1:schema"))
    assert response.status_code == 200
    return schemathesis.openapi.from_dict(response.json())


@pytest.fixture
def app() -> Iterator[WSGIHandler]:
    """The site as a WSGI application, its requests kept on the test's database connection, as Django's test
    client keeps them: a request's start would otherwise close that connection (CONN_MAX_AGE, on the suite's
    fixed clock) under the test's transaction."""
    request_started.disconnect(close_old_connections)
    yield WSGIHandler()
    request_started.connect(close_old_connections)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_api_keeps_its_schemas_promises(api_schema: Any, app: WSGIHandler, mode: GenerationMode) -> None:

    @given(case=api_schema.as_strategy(mode))
    @hypothesis_settings(
        max_examples=EXAMPLES,
        derandomize=True,  # the same requests on every run
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    def answer_as_promised(case: Any) -> None:
        # Uncompressed: the WSGI transport hands the checks the body as the site sends it.
        if mode == GenerationMode.POSITIVE:
            case.call_and_validate(
                app=app,
                headers={"Accept-Encoding": "identity"},
                excluded_checks=[positive_data_acceptance],
                additional_checks=[refusal_named],
            )
        else:
            case.call_and_validate(app=app, headers={"Accept-Encoding": "identity"})

    answer_as_promised()

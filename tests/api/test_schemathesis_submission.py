"""schemathesis over the directors' preview and submit with a director's token on his own accepted tournament:
whatever the body, headers and key, the answer is one the schema documents, and a refused body is a 4xx naming
its problem, never a server error. A fixed seed; bodies that fit the schema and bodies that break it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_started
from django.db import close_old_connections
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import negative_data_rejection, positive_data_acceptance
from schemathesis.generation.modes import GenerationMode

from ratings.models import Tournament
from ratings.services.tokens import access_token_create
from tests.api.test_submission import accepted, in_days
from tests.factories import make_director, make_tournament

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

EXAMPLES = 150  # per mode, over the two operations
OPERATIONS = r"/tables/(preview|submit)/$"
BEYOND_THE_SCHEMA = {"choices"}
"""The fields whose rule the schema cannot state: whether a federation id names a player is the database's to say."""


def problem_named(mode: GenerationMode) -> Callable[[Any, Any, Any], None]:
    """A check: a refusal says what is wrong. Every 4xx has a ``detail``; a 400 to a body that fits the schema
    names a field whose rule the schema cannot state (schemathesis's own check would want every such body
    accepted); a 422 lists the table's problems or says why the key was refused. A body the schema refuses may
    reach a preview, which answers 200 with ok false and the problems (a file that is no text, say): schemathesis's
    own check would want a 4xx."""

    def check(ctx: Any, response: Any, case: Any) -> None:
        if mode == GenerationMode.NEGATIVE and response.status_code < 300:
            body = response.json()
            assert body.get("ok") is False and body.get("problems"), f"a body the schema refuses accepted: {body!r}"
            return
        if not 400 <= response.status_code < 500:
            return
        body = response.json()
        assert isinstance(body, dict) and body.get("detail"), f"{response.status_code} without a detail: {body!r}"
        if response.status_code == 400 and mode == GenerationMode.POSITIVE:
            fields = {name.split(".")[0] for name in body.get("errors") or {}}
            assert fields and fields <= BEYOND_THE_SCHEMA, f"a body the schema allows refused: {body!r}"
        if response.status_code == 422:
            assert body.get("problems") or "Idempotency-Key" in body["detail"], body

    return check


@pytest.fixture
def app() -> Iterator[WSGIHandler]:
    """As in test_schemathesis.py: the requests stay on the test's database connection."""
    request_started.disconnect(close_old_connections)
    yield WSGIHandler()
    request_started.connect(close_old_connections)


@pytest.fixture
def tournament() -> Tournament:
    director = make_director(username="dir")
    return accepted(make_tournament("Nekomado-ken", date=dt.date(2016, 1, 7), directors=[director]))


@pytest.fixture
def secret(tournament: Tournament) -> str:
    return access_token_create(user=tournament.directors.get(), name="fuzz", expires_at=in_days(30))[1]


@pytest.fixture
def submission_schema(client: Client, settings: Any) -> Any:
    settings.DEBUG = False
    settings.API_SUBMIT_RATE = "100000/minute"
    response = client.get(reverse("api-v1:schema"))
    assert response.status_code == 200
    return schemathesis.openapi.from_dict(response.json()).include(path_regex=OPERATIONS)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_preview_and_submit_keep_the_schemas_promises_to_a_director(
    submission_schema: Any, app: WSGIHandler, tournament: Tournament, secret: str, mode: GenerationMode
) -> None:
    assert len(list(submission_schema.get_all_operations())) == 2
    # The schema's own transport too: the check that auth is enforced sends its probes (no token, a wrong one)
    # through it.
    submission_schema.app = app
    calls = []

    @given(case=submission_schema.as_strategy(mode))
    @hypothesis_settings(
        max_examples=EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],  # no shrinking: the failure as found, its curl line to replay it
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    def answer_as_promised(case: Any) -> None:
        calls.append(case.operation.label)
        case.path_parameters = {**(case.path_parameters or {}), "id": tournament.pk}
        case.call_and_validate(
            app=app,
            headers={"Accept-Encoding": "identity", "Authorization": f"Bearer {secret}"},
            excluded_checks=[positive_data_acceptance, negative_data_rejection],
            additional_checks=[problem_named(mode)],
        )

    answer_as_promised()
    assert len(calls) >= EXAMPLES and len(set(calls)) == 2  # the two operations, as many cases as asked at least

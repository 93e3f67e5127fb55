"""Admin tests: a tournament director logged in to the admin, as the table, grid and preview tests need."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import make_director


@pytest.fixture
def director(client: Client) -> Any:
    user = make_director()
    client.force_login(user)
    return user

"""The comparison of rating systems: tables rated through the real services (the public pages' helpers)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from tests.public.conftest import rate, rated_round_robin

__all__ = ["rate", "rated_round_robin"]

# Small enough to take a second or two, big enough to hold draws and handicap games (tests/test_seed_demo.py).
SMALL = ["--players", "90", "--years", "2", "--tables-per-year", "12", "--until", "2024-06-30", "--seed", "7"]


@pytest.fixture
def small_demo() -> None:
    call_command("seed_demo", *SMALL, stdout=io.StringIO())

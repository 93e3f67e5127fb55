"""Shared fixtures. Helpers that build data live in tests/factories.py."""

from __future__ import annotations

import os

import pytest

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "") == "1"


def skip_or_fail(reason: str) -> None:
    """Skip a test whose service is missing; on CI (REQUIRE_SERVICES=1) fail it instead."""
    if REQUIRE_SERVICES:
        pytest.fail(f"required service missing: {reason}")
    pytest.skip(reason)

"""The public pages' fixtures: tables rated through the real services."""

from tests.public.conftest import rate, rated_round_robin  # noqa: F401 - fixtures

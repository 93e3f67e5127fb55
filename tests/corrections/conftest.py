"""Corrections tests use the grades tests' way of rating one-game tables (``play``)."""

from tests.grades.conftest import play, rate

__all__ = ["play", "rate"]

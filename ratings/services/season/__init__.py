"""The federation's season: tournaments registered before they are played, reviewed by a rating officer, and
their results awaited after the last day (docs in the module of each step)."""

from __future__ import annotations

from ratings.services.season.announcements import (
    registration_problems,
    tournament_accept,
    tournament_refuse,
    tournament_register,
)
from ratings.services.season.rules import TimeMinimum, announcement_problems, time_minimums

__all__ = [
    "TimeMinimum",
    "announcement_problems",
    "registration_problems",
    "time_minimums",
    "tournament_accept",
    "tournament_refuse",
    "tournament_register",
]

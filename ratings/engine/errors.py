"""The engine's own exceptions: bad input and tables that do not settle."""

from __future__ import annotations


class EngineError(Exception):
    """Base of everything the engine raises on purpose; the message is meant for a person."""


class InvalidTable(EngineError):
    """The table cannot be rated as given: an unknown player, a player twice in a round, a game against
    oneself, an unknown handicap code, a date before a player's last rated table."""


class TableDidNotSettle(EngineError):
    """The simultaneous solution did not settle within the sweep limit (RULES.md §6)."""

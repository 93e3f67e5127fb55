"""The engine's own exceptions: bad input, tables that do not settle, numbers beyond what can be computed."""

from __future__ import annotations


class EngineError(Exception):
    """Base of everything the engine raises on purpose; the message is meant for a person."""


class InvalidTable(EngineError):
    """The table cannot be rated as given: an unknown player, a player twice in a round, a game against
    oneself, an unknown handicap code, a date before a player's last rated table."""


class TableDidNotSettle(EngineError):
    """The simultaneous solution did not settle within the sweep limit (RULES.md §6)."""


class TableBeyondNumbers(EngineError):
    """A number of the table went beyond what floats can hold (ratings near 10^38 and above, say): the table
    is not rated, like one that does not settle, rather than fail with an arithmetic error of its own."""

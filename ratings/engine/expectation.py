"""The expected score of a game from the two ratings (docs/rules.md §4): ``E = 1 / (1 + 10^((o − r)/400))``, as
the normal rating change computes it (ratings/engine/normal.py holds its own copy on its hot path)."""

from __future__ import annotations


def expected_score(rating: float, opponent: float) -> float:
    """What a player of ``rating`` is expected to score against ``opponent`` in one game (0 to 1)."""
    try:
        power: float = 10.0 ** ((opponent - rating) / 400.0)
        return 1.0 / (1.0 + power)
    except OverflowError:  # an opponent some 123,000 above: the float limit, as normal.py
        return 0.0

"""The check: re-rate everything from scratch in memory and compare with what is stored."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from ratings.db import batched_load, gc_paused
from ratings.models import LIVE_PROMOTION_STATUSES, Player, Promotion, RatingRow
from ratings.selectors.derived import players_differing
from ratings.selectors.states import starting_states
from ratings.services.players import first_rated_differences

from .replay import History, Replay
from .validity import rating_rows_link_differences


@dataclass(frozen=True)
class CheckDifference:
    player_id: int
    table_id: int | None  # None: the player's derived columns
    what: str

    def __str__(self) -> str:
        where = f"table {self.table_id}" if self.table_id is not None else "player columns"
        return f"player {self.player_id}, {where}: {self.what}"


def rerate_check() -> list[CheckDifference]:
    """Every stored rating row or player column that differs from a from-scratch re-rate; writes nothing.

    Compares each row's state after its table, which rows exist (rows of draft tables are differences too),
    each row's validity (``valid_until``), the promotion records the history supports, and each player's
    derived columns: rating, games, category, computed and public grade, peak rating, last played, and the date
    of his first row that his opening state keeps. An empty list means the database holds exactly what re-rating
    the whole history gives.
    """
    all_players = list(Player.objects.values_list("pk", flat=True))
    replay = Replay(History(None), batched_load(starting_states, all_players), {}, texts=False)
    want: dict[tuple[int, int], dict[str, Any]] = {}
    peak: dict[int, int] = defaultdict(int)
    with gc_paused():
        for table, items in replay.run():
            for player_id, o, _before, _after, data in items:
                want[(table.pk, player_id)] = data
                peak[player_id] = max(peak[player_id], o.after.rating)
    differences: list[CheckDifference] = []
    seen: set[tuple[int, int]] = set()
    for table_id, player_id, after in RatingRow.objects.values_list("table_id", "player_id", "state_after"):
        seen.add((table_id, player_id))
        expected = want.get((table_id, player_id))
        if expected is None:
            differences.append(CheckDifference(player_id, table_id, "stored row that the history does not produce"))
        elif after != expected:
            differences.append(CheckDifference(player_id, table_id, f"stored {after} != recomputed {expected}"))
    for table_id, player_id in want.keys() - seen:
        differences.append(CheckDifference(player_id, table_id, "row missing"))

    for player_id, table_id, stored, right in rating_rows_link_differences():
        differences.append(CheckDifference(player_id, table_id, f"valid until {stored}, the next row gives {right}"))
    differences += _promotion_differences(replay)
    final = replay.final_states()
    for pid, (name, stored, computed) in players_differing(final, peak).items():
        differences.append(CheckDifference(pid, None, f"{name} is {stored!r}, the history gives {computed!r}"))
    differences += _first_rated_differences()
    differences.sort(key=lambda d: (d.player_id, d.table_id or 0))
    return differences


def _first_rated_differences() -> list[CheckDifference]:
    """Opening states whose ``first_rated`` is not the date of their player's first stored row."""
    return [
        CheckDifference(pid, None, f"first rated is {stored!r} on his opening state, his rows give {first!r}")
        for _pk, pid, stored, first in first_rated_differences()
    ]


def _promotion_differences(replay: Replay) -> list[CheckDifference]:
    """Promotions found from scratch against the records that claim the history's support.

    Only live records the history is said to support count: withdrawn and revoked ones are history, and an
    approved grade flagged as no longer supported is a decision kept on purpose, not a difference.
    """
    want = {(pid, p.grade, table_id, p.round, p.game_number, p.route, p.rating) for pid, table_id, p in replay.found}
    have = set(
        Promotion.objects.filter(supported=True, status__in=LIVE_PROMOTION_STATUSES).values_list(
            "player_id", "grade", "table_id", "round", "game_number", "route", "rating"
        )
    )
    out = [CheckDifference(k[0], k[2], f"promotion to grade {k[1]} not recorded as found: {k}") for k in want - have]
    out += [CheckDifference(k[0], k[2], f"promotion to grade {k[1]} recorded but not found: {k}") for k in have - want]
    return out

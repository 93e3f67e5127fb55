"""Engine player states to and from JSON, as the rating rows store them.

The JSON is the database's copy of ``ratings.engine.PlayerState``; ``state_from_json(state_to_json(s)) == s``
for every state (tests/test_states.py).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ratings.engine import PlayerState, PriorGrade


def state_to_json(state: PlayerState) -> dict[str, Any]:
    return {
        "rating": state.rating,
        "result_list": None if state.result_list is None else [[o, s] for o, s in state.result_list],
        "game_count": state.game_count,
        "bonus_count": state.bonus_count,
        "grade": state.grade,
        "prior_grade": None
        if state.prior_grade is None
        else {"kind": state.prior_grade.kind, "level": state.prior_grade.level},
        "lb_run": state.lb_run,
        "lb_mp_seen": state.lb_mp_seen,
        "mp_run": state.mp_run,
        "last_played": None if state.last_played is None else state.last_played.isoformat(),
    }


def state_from_json(data: dict[str, Any]) -> PlayerState:
    result_list = data["result_list"]
    prior = data["prior_grade"]
    last = data["last_played"]
    return PlayerState(
        rating=int(data["rating"]),
        result_list=None if result_list is None else tuple((int(o), float(s)) for o, s in result_list),
        game_count=int(data["game_count"]),
        bonus_count=int(data["bonus_count"]),
        grade=int(data["grade"]),
        prior_grade=None if prior is None else PriorGrade(kind=prior["kind"], level=int(prior["level"])),
        lb_run=int(data["lb_run"]),
        lb_mp_seen=bool(data["lb_mp_seen"]),
        mp_run=int(data["mp_run"]),
        last_played=None if last is None else dt.date.fromisoformat(last),
    )

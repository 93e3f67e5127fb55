"""Building the engine's frozen result values fast, equal in every field to what their constructors build.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``, a slow path, and a
long history builds millions of these values: two GameDetail per game, a PlayerState and a PlayerOutcome per
player and table, a Promotion per grade gained. Here each value starts as a *draft*, an instance of a plain class
with exactly the same slots, filled by ordinary (fast) attribute stores; then its ``__class__`` is switched to the
frozen class. CPython allows that switch only between classes of the same layout (same base, same slots) and
raises TypeError otherwise, so a change to types.py cannot yield a half-built value silently; a slot left unset
would show as an AttributeError at the first comparison or repr. tests/engine/test_build.py compares every
builder, and the values of rated tables, with the classes' own constructors.

The hot loop of table outcomes builds its GameDetail drafts inline (``GameDetailDraft``); the other values go
through the functions below.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from .types import (
    GameDetail,
    HandicapCode,
    Method,
    PlayerKey,
    PlayerOutcome,
    PlayerState,
    PriorGrade,
    Promotion,
    PromotionRoute,
    ResultPair,
    Score,
)


def draft_class(cls: type) -> Any:
    """A plain class with the slots of the slotted dataclass ``cls``; its filled instances may become ``cls``."""
    return type(f"{cls.__name__}Draft", (), {"__slots__": vars(cls)["__slots__"], "__module__": __name__})


GameDetailDraft = draft_class(GameDetail)
_PlayerStateDraft = draft_class(PlayerState)
_PlayerOutcomeDraft = draft_class(PlayerOutcome)
_PromotionDraft = draft_class(Promotion)


def new_game_detail(
    round: int,
    opponent: PlayerKey,
    score: Score,
    opponent_rating: int,
    effective_rating: int,
    handicap: HandicapCode | None,
    handicap_given: bool,
    rating_before_game: float | None = None,
    expected: float | None = None,
    k: int | None = None,
    change: float | None = None,
    upset: bool = False,
    bonus: float | None = None,
) -> GameDetail:
    """``GameDetail(...)`` with the same arguments (the inline loop in ``outcomes`` does the same)."""
    draft = GameDetailDraft()
    draft.round = round
    draft.opponent = opponent
    draft.score = score
    draft.opponent_rating = opponent_rating
    draft.effective_rating = effective_rating
    draft.handicap = handicap
    draft.handicap_given = handicap_given
    draft.rating_before_game = rating_before_game
    draft.expected = expected
    draft.k = k
    draft.change = change
    draft.upset = upset
    draft.bonus = bonus
    draft.__class__ = GameDetail
    detail: GameDetail = draft
    return detail


def new_player_state(
    rating: int,
    result_list: tuple[ResultPair, ...] | None,
    game_count: int,
    bonus_count: int,
    grade: int,
    prior_grade: PriorGrade | None,
    lb_run: int,
    lb_mp_seen: bool,
    mp_run: int,
    last_played: dt.date | None,
) -> PlayerState:
    """``PlayerState(...)`` with the same arguments, every field given."""
    draft = _PlayerStateDraft()
    draft.rating = rating
    draft.result_list = result_list
    draft.game_count = game_count
    draft.bonus_count = bonus_count
    draft.grade = grade
    draft.prior_grade = prior_grade
    draft.lb_run = lb_run
    draft.lb_mp_seen = lb_mp_seen
    draft.mp_run = mp_run
    draft.last_played = last_played
    draft.__class__ = PlayerState
    state: PlayerState = draft
    return state


def new_player_outcome(
    key: PlayerKey,
    method: Method,
    before: PlayerState,
    after: PlayerState,
    change: int | None,
    performance: float | None,
    games: tuple[GameDetail, ...],
    promotions: tuple[Promotion, ...],
) -> PlayerOutcome:
    """``PlayerOutcome(...)`` with the same arguments, every field given."""
    draft = _PlayerOutcomeDraft()
    draft.key = key
    draft.method = method
    draft.before = before
    draft.after = after
    draft.change = change
    draft.performance = performance
    draft.games = games
    draft.promotions = promotions
    draft.__class__ = PlayerOutcome
    outcome: PlayerOutcome = draft
    return outcome


def new_promotion(grade: int, route: PromotionRoute, game_number: int, rating: float, round: int | None) -> Promotion:
    """``Promotion(...)`` with the same arguments."""
    draft = _PromotionDraft()
    draft.grade = grade
    draft.route = route
    draft.game_number = game_number
    draft.rating = rating
    draft.round = round
    draft.__class__ = Promotion
    promotion: Promotion = draft
    return promotion

"""Rating one table (shared RULES.md §6, with §3-§5 for the values and §7 for the grades).

Who is rated by performance, the simultaneous solution by sweeps in table order (each value stored at once,
so later players in the same sweep see it; stop after a sweep with no change; TableDidNotSettle after
``max_sweeps``), and the state update. Only the players whose inputs changed since they were last evaluated
are recomputed: a value is a pure function of the opponents' current values (and, for a performance-rated
handicap giver, of his own estimate), so skipping the others changes nothing but the time it takes.

The result list of a performance-rated player is written in the order of the program's files: the stored
list reversed, then a newcomer's prior-grade pairs ``(p, 0), (p, 1)``, then this table's games in round order
(checked against the reference data; the order never changes a number, only the files).

Speed: the sweeps work on plain lists (per-game constants computed once, the floored opponent values kept
beside the raw ones); the GameDetail and outcome objects are built once, after the table has settled.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter, itemgetter

from .constants import HANDICAPS, handicap_shift, prior_grade_rating
from .errors import InvalidTable, TableDidNotSettle
from .normal import BONUS_GAMES, NormalStep, run_normal
from .performance import initial_guess, performance, round_root, solve_root, weight_of
from .promotions import GradeState, walk_table
from .types import (
    Game,
    GameDetail,
    HandicapCode,
    PlayerKey,
    PlayerOutcome,
    PlayerState,
    ResultPair,
    TableInput,
    TableResult,
)

OPPONENT_FLOOR = 400
ALL_LOST_RATING = 1
PROVISIONAL_GAMES = 9

_Evaluator = Callable[[], int]

# Which side of a handicap game a player is on.
_RECEIVED = 1
_GAVE = 2

_SCORES = frozenset((0.0, 0.5, 1.0))
_round_of = attrgetter("round")

_Handicap = tuple[int, float, HandicapCode]
"""(_RECEIVED or _GAVE, the handicap in grades, its code)."""


@dataclass(slots=True)
class _Player:
    """A participant during the solution: his games in round order as parallel lists."""

    key: PlayerKey
    state: PlayerState
    rounds: list[int] = field(default_factory=list)
    opponent_keys: list[PlayerKey] = field(default_factory=list)
    opponents: list[int] = field(default_factory=list)  # participant indexes, in the same order
    scores: list[float] = field(default_factory=list)
    handicaps: list[_Handicap | None] = field(default_factory=list)
    has_handicap: bool = False
    performance: bool = False
    # performance-rated: the fixed part of the pairs (stored list, prior-grade pairs), in file order
    fixed_pairs: list[ResultPair] = field(default_factory=list)


def rate_table(table: TableInput, *, max_sweeps: int = 1000) -> TableResult:
    """Rate ``table``: the outcome of every player with a rated game, in table order.

    Raises InvalidTable for input that cannot be rated and TableDidNotSettle (naming the table) when the
    values still change after ``max_sweeps`` sweeps. Players without a rated game take no part and are left
    out of the outcomes (their states do not change).
    """
    players = _participants(table)
    solver = _Solver(players)
    sweeps = solver.solve(max_sweeps)
    if sweeps is None:
        raise TableDidNotSettle(f"table {table.name!r} did not settle in {max_sweeps} sweeps")
    return TableResult(outcomes=tuple(solver.outcome(i, table) for i in range(len(players))), sweeps=sweeps)


# --- Input and classification -----------------------------------------------------------------------------


def _participants(table: TableInput) -> list[_Player]:
    """Validate the table and return the players with a rated game, in table order, classified (§6)."""
    order: dict[PlayerKey, int] = {}
    for key in table.players:
        if key in order:
            raise InvalidTable(f"table {table.name!r}: player {key!r} is listed twice")
        order[key] = len(order)

    def invalid(game: Game, problem: str) -> InvalidTable:
        return InvalidTable(f"table {table.name!r}, round {game.round}, {game.first!r} v {game.second!r}: {problem}")

    states = table.states
    by_key: dict[PlayerKey, _Player] = {}
    for game in sorted(table.games, key=_round_of):
        first, second, rnd, score, handicap = game.first, game.second, game.round, game.score, game.handicap
        if first == second:
            raise invalid(game, "a game against oneself")
        if score not in _SCORES:
            raise invalid(game, f"score {score!r} is not 0, 1/2 or 1")
        if handicap is not None:
            if handicap.code not in HANDICAPS:
                raise invalid(game, f"unknown handicap {handicap.code!r}")
            if handicap.giver not in (first, second):
                raise invalid(game, f"the handicap giver {handicap.giver!r} is not in the game")
        for me, other, s in ((first, second, float(score)), (second, first, 1.0 - score)):
            player = by_key.get(me)
            if player is None:
                if me not in order or me not in states:
                    raise invalid(game, f"{me!r} is not a player of the table")
                player = by_key[me] = _Player(key=me, state=states[me])
            elif player.rounds[-1] == rnd:  # the games come sorted by round
                raise invalid(game, f"{me!r} plays twice in round {rnd}")
            player.rounds.append(rnd)
            player.opponent_keys.append(other)
            player.scores.append(s)
            if handicap is None:
                player.handicaps.append(None)
            else:
                kind = _GAVE if handicap.giver == me else _RECEIVED
                player.handicaps.append((kind, HANDICAPS[handicap.code], handicap.code))
                player.has_handicap = True

    players = sorted(by_key.values(), key=lambda p: order[p.key])
    index = {p.key: i for i, p in enumerate(players)}
    for player in players:
        player.opponents = [index[key] for key in player.opponent_keys]
        state = player.state
        if state.last_played is not None and table.date < state.last_played:
            raise InvalidTable(
                f"table {table.name!r} of {table.date} is dated before {player.key!r}'s last table "
                f"of {state.last_played}"
            )
        _classify(player)
    return players


def _classify(player: _Player) -> None:
    """Decide performance or normal rating (§6) and, for performance, gather the fixed pairs in file order.

    ``n = 0`` counts as a first table whichever form the empty history takes (an empty list or a count of 0).
    """
    state = player.state
    n = state.games
    stored = state.result_list or ()
    if n > 0:
        if state.result_list is None:
            return  # a game count: rated normally
        if state.rating != 0 and n + len(player.scores) >= PROVISIONAL_GAMES:
            results = {s for _, s in stored}
            if results != {0} and results != {1}:
                return  # the move from the result list to a count
    player.performance = True
    player.fixed_pairs = [(o if o >= OPPONENT_FLOOR else OPPONENT_FLOOR, s) for o, s in reversed(stored)]
    if n == 0 and state.prior_grade is not None:
        p = max(OPPONENT_FLOOR, prior_grade_rating(state.prior_grade))
        player.fixed_pairs += [(p, 0.0), (p, 1.0)]


# --- The simultaneous solution ----------------------------------------------------------------------------


class _Solver:
    """Holds every participant's current post-table value and sweeps until none changes."""

    def __init__(self, players: list[_Player]) -> None:
        self.players = players
        self.keys = [p.key for p in players]
        # post(P): rating + change for a normal player, the estimate for a performance-rated one (both start
        # at a zero change / estimate); floored: max(400, post), what an opponent without handicap sees.
        self.post = [0 if p.performance else p.state.rating for p in players]
        self.floored = [max(OPPONENT_FLOOR, v) for v in self.post]
        self.roots: list[float] = [math.nan] * len(players)  # last exact root, the next solve's start
        self._received: dict[tuple[int, float], int] = {}
        self._offsets: dict[tuple[int, float], int] = {}
        self._evaluate = [
            self._performance_evaluator(i) if p.performance else self._normal_evaluator(i)
            for i, p in enumerate(players)
        ]

    # effective opponent ratings (§3)

    def giver_offset(self, own: int, handicap: float) -> int:
        """``m − rating_of(rank_of(m) − h)``: what a giver adds to his opponent's rating."""
        key = (own, handicap)
        value = self._offsets.get(key)
        if value is None:
            value = self._offsets[key] = own - handicap_shift(own, handicap)
        return value

    def received(self, opponent: int, handicap: float) -> int:
        """``rating_of(rank_of(o) − h)``: the giver's rating as the receiver sees it."""
        key = (opponent, handicap)
        value = self._received.get(key)
        if value is None:
            value = self._received[key] = handicap_shift(opponent, handicap)
        return value

    def effective(self, i: int) -> list[int]:
        """Player ``i``'s effective opponent ratings for this table's games, from the current values."""
        player = self.players[i]
        floored = self.floored
        if not player.has_handicap:
            return [floored[j] for j in player.opponents]
        own = self.post[i] if player.performance else player.state.rating
        out = []
        for j, handicap in zip(player.opponents, player.handicaps, strict=True):
            o = floored[j]
            if handicap is not None:
                kind, value, _ = handicap
                o = self.received(o, value) if kind == _RECEIVED else o + self.giver_offset(own, value)
            out.append(o)
        return out

    # one player's value

    def _normal_evaluator(self, index: int) -> _Evaluator:
        player = self.players[index]
        rating = player.state.rating
        bonus_count = player.state.bonus_count
        scores = player.scores
        if player.has_handicap:
            effective = self.effective

            def evaluate_with_handicaps() -> int:
                return rating + round(run_normal(rating, bonus_count, effective(index), scores) - rating)

            return evaluate_with_handicaps

        floored = self.floored
        opponents = _getter(player.opponents)

        def evaluate() -> int:
            return rating + round(run_normal(rating, bonus_count, opponents(floored), scores) - rating)

        return evaluate

    def _performance_evaluator(self, index: int) -> _Evaluator:
        player = self.players[index]
        fixed = player.fixed_pairs
        score = sum(s for _, s in fixed) + sum(player.scores)
        total = len(fixed) + len(player.scores)
        if score == 0.0:
            return lambda: ALL_LOST_RATING
        all_won = score == total
        if all_won:  # the temporary draw against the highest opponent (§5)
            score += 0.5
        fixed_weights = [weight_of(o) for o, _ in fixed]
        fixed_max = max((o for o, _ in fixed), default=0)
        roots = self.roots
        effective = self.effective

        def evaluate() -> int:
            opponents = effective(index)
            weights = fixed_weights + [weight_of(o) for o in opponents]
            if all_won:
                weights.append(weight_of(max(fixed_max, *opponents)))
            guess = roots[index]
            if math.isnan(guess):
                guess = initial_guess(weights)
            root = roots[index] = solve_root(weights, score, guess)
            return round_root(weights, score, root)

        return evaluate

    def solve(self, max_sweeps: int) -> int | None:
        """Sweep until a sweep changes nothing; the number of sweeps, or None if ``max_sweeps`` did not do."""
        post = self.post
        floored = self.floored
        evaluate = self._evaluate
        players = self.players
        opponents = [sorted(set(p.opponents)) for p in players]
        # A performance-rated giver's effective opponents depend on his own estimate too.
        self_dependent = [p.performance and any(h is not None and h[0] == _GAVE for h in p.handicaps) for p in players]
        count = len(post)
        dirty = [True] * count
        for sweep in range(1, max_sweeps + 1):
            changed = False
            for i in range(count):
                if not dirty[i]:
                    continue
                dirty[i] = False
                value = evaluate[i]()
                if value != post[i]:
                    post[i] = value
                    floored[i] = value if value > OPPONENT_FLOOR else OPPONENT_FLOOR
                    changed = True
                    for j in opponents[i]:
                        dirty[j] = True
                    if self_dependent[i]:
                        dirty[i] = True
            if not changed:
                return sweep
        return None

    # the outcome, once settled

    def outcome(self, i: int, table: TableInput) -> PlayerOutcome:
        player = self.players[i]
        before = player.state
        effective = self.effective(i)
        g = len(player.scores)
        if player.performance:
            new_rating = self.post[i]
            pairs = player.fixed_pairs + list(zip(effective, player.scores, strict=True))
            grade = GradeState(before.grade, before.lb_run, before.lb_mp_seen, before.mp_run)
            rounds: list[int | None] = [None] * len(player.fixed_pairs)
            rounds += player.rounds
            promotions = walk_table(grade, new_rating, new_rating, rounds, len(pairs))
            after = PlayerState(
                rating=new_rating,
                result_list=tuple(pairs),
                game_count=0,
                bonus_count=0,
                grade=grade.grade,
                prior_grade=before.prior_grade,
                lb_run=grade.lb_run,
                lb_mp_seen=grade.lb_mp_seen,
                mp_run=grade.mp_run,
                last_played=table.date,
            )
            return PlayerOutcome(
                key=player.key,
                method="performance",
                before=before,
                after=after,
                change=None,
                performance=performance(pairs),
                games=self._details(i, effective),
                promotions=tuple(promotions),
            )

        steps: list[NormalStep] = []
        r = run_normal(before.rating, before.bonus_count, effective, player.scores, steps)
        change = round(r - before.rating)
        new_rating = before.rating + change
        games_after = before.games + g
        grade = GradeState(before.grade, before.lb_run, before.lb_mp_seen, before.mp_run)
        promotions = walk_table(grade, before.rating, new_rating, player.rounds, games_after)
        after = PlayerState(
            rating=new_rating,
            result_list=None,
            game_count=games_after,
            bonus_count=min(BONUS_GAMES, before.bonus_count + g),
            grade=grade.grade,
            prior_grade=before.prior_grade,
            lb_run=grade.lb_run,
            lb_mp_seen=grade.lb_mp_seen,
            mp_run=grade.mp_run,
            last_played=table.date,
        )
        return PlayerOutcome(
            key=player.key,
            method="normal",
            before=before,
            after=after,
            change=change,
            performance=None,
            games=self._details(i, effective, steps),
            promotions=tuple(promotions),
        )

    def _details(self, i: int, effective: Sequence[int], steps: Sequence[NormalStep] = ()) -> tuple[GameDetail, ...]:
        player = self.players[i]
        post = self.post
        keys = self.keys
        common = [
            (rnd, keys[j], s, post[j], o, None if h is None else h[2], h is not None and h[0] == _GAVE)
            for rnd, j, s, o, h in zip(
                player.rounds, player.opponents, player.scores, effective, player.handicaps, strict=True
            )
        ]
        if steps:
            return tuple([_game_detail(*c, *step) for c, step in zip(common, steps, strict=True)])
        return tuple([_game_detail(*c) for c in common])


# GameDetail is the engine's most numerous object (two per game) and a frozen dataclass, whose __init__ sets
# each of its 13 fields through object.__setattr__; filling the slots directly builds the same object in well
# under half the time. tests/engine/test_table.py checks that this stays equal to GameDetail(...) field by field.
_new = object.__new__
(
    _set_round, _set_opponent, _set_score, _set_opponent_rating, _set_effective_rating, _set_handicap,
    _set_handicap_given, _set_rating_before_game, _set_expected, _set_k, _set_change, _set_upset, _set_bonus,
) = [getattr(GameDetail, name).__set__ for name in GameDetail.__slots__]  # fmt: skip


def _game_detail(
    round: int,
    opponent: PlayerKey,
    score: float,
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
    """``GameDetail(...)`` with the same arguments, built without the frozen dataclass's __init__."""
    detail: GameDetail = _new(GameDetail)
    _set_round(detail, round)
    _set_opponent(detail, opponent)
    _set_score(detail, score)
    _set_opponent_rating(detail, opponent_rating)
    _set_effective_rating(detail, effective_rating)
    _set_handicap(detail, handicap)
    _set_handicap_given(detail, handicap_given)
    _set_rating_before_game(detail, rating_before_game)
    _set_expected(detail, expected)
    _set_k(detail, k)
    _set_change(detail, change)
    _set_upset(detail, upset)
    _set_bonus(detail, bonus)
    return detail


def _getter(indexes: list[int]) -> Callable[[list[int]], Sequence[int]]:
    """A fast ``lambda values: [values[i] for i in indexes]`` (itemgetter returns a bare value for one index)."""
    if len(indexes) == 1:
        only = indexes[0]
        return lambda values: (values[only],)
    return itemgetter(*indexes)

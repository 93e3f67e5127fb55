"""The simultaneous solution of one table (docs/rules.md §6, with §3-§5 for each player's value).

Sweeps in table order, each value stored at once so later players in the same sweep see it; stop after a sweep
with no change, or give up after ``max_sweeps``. Only the players whose inputs changed since they were last
evaluated are recomputed: a value is a pure function of the opponents' floored values (and, for a
performance-rated handicap giver, of his own estimate), so skipping the others changes nothing but the time it
takes. A performance-rated player is the one exception to "pure": his solver starts from his previous root, so
he is re-evaluated whenever an opponent's value changes at all, exactly as a plain reading would (see
``Solver.solve``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from operator import itemgetter

from .constants import handicap_shift, k_factor
from .normal import final_rating_by
from .participants import GAVE, OPPONENT_FLOOR, RECEIVED, Participants
from .performance import GUESS_RANGE, initial_guess, round_root, safe_root, safe_round, solve_root, weight_of
from .rules import FESA_RULES, RuleConstants

ALL_LOST_RATING = 1
CYCLE_CHECK_FROM = 50
"""From this sweep on, each sweep's end state is kept to recognise a table that cycles for ever (almost every
table settles long before; one that cycles would otherwise run all its ``max_sweeps``)."""

_Evaluator = Callable[[], int]
_Plain = tuple[int, int, Callable[[list[int]], Sequence[int]], tuple[float, ...]]
"""What the sweeps need of a player rated normally without handicap: rating, bonus count, his opponents'
values getter, scores. The common case, evaluated inline."""


class Solver:
    """Holds every participant's current post-table value and sweeps until none changes."""

    def __init__(self, table: Participants, rules: RuleConstants = FESA_RULES) -> None:
        self.table = table
        self.rules = rules
        # FESA's written-out functions for FESA's constants, the general forms for a what-if's.
        self.final_rating = final_rating_by(rules)
        self.k_factor = k_factor if rules is FESA_RULES else rules.k_factor
        # post(P): rating + change for a normal player, the estimate for a performance-rated one (both start
        # at a zero change / estimate); floored: max(400, post), what an opponent without handicap sees.
        self.post = [
            0 if fixed is not None else state.rating for fixed, state in zip(table.fixed, table.states, strict=True)
        ]
        self.floored = [max(OPPONENT_FLOOR, v) for v in self.post]
        self.roots: list[float] = [math.nan] * len(self.post)  # last exact root, the next solve's start
        self.sweeps = 0  # sweeps done by the last solve(), settled or not
        # The values at the end of each sweep of the cycle the last solve() fell into, in the order they came:
        # empty if it settled or gave up without finding one.
        self.cycle: tuple[tuple[int, ...], ...] = ()

    # effective opponent ratings (§3)

    @staticmethod
    def giver_offset(own: int, handicap: float) -> int:
        """``m − rating_of(rank_of(m) − h)``: what a giver adds to his opponent's rating."""
        return own - _shift(own, handicap)

    @staticmethod
    def received(opponent: int, handicap: float) -> int:
        """``rating_of(rank_of(o) − h)``: the giver's rating as the receiver sees it."""
        return _shift(opponent, handicap)

    def effective(self, i: int) -> list[int]:
        """Player ``i``'s effective opponent ratings for this table's games, from the current values."""
        table = self.table
        floored = self.floored
        handicaps = table.handicaps[i]
        if handicaps is None:
            return list(map(floored.__getitem__, table.opponents[i]))
        own = self.post[i] if table.fixed[i] is not None else table.states[i].rating
        out = []
        for j, handicap in zip(table.opponents[i], handicaps, strict=True):
            o = floored[j]
            if handicap is not None:
                kind, value, _ = handicap
                o = self.received(o, value) if kind == RECEIVED else o + self.giver_offset(own, value)
            out.append(o)
        return out

    def _effective_getter(self, i: int) -> Callable[[], list[int]]:
        """``lambda: self.effective(i)``, faster: the plain values copied, then only the handicap games changed.

        A normally rated giver's offset is the same all through the table (his own rating does not move), so
        it is taken once; a performance-rated giver's follows his estimate and is looked up each time.
        """
        table = self.table
        floored = self.floored
        values_of = _getter(table.opponents[i])
        handicaps = table.handicaps[i]
        if handicaps is None:
            return lambda: list(values_of(floored))
        performance = table.fixed[i] is not None
        rating = table.states[i].rating
        received_games: list[tuple[int, float]] = []  # (position, handicap)
        given_games: list[tuple[int, float]] = []  # by a performance-rated player
        given_offsets: list[tuple[int, int]] = []  # (position, offset) by a normally rated player
        for position, handicap in enumerate(handicaps):
            if handicap is None:
                continue
            kind, value, _ = handicap
            if kind == RECEIVED:
                received_games.append((position, value))
            elif performance:
                given_games.append((position, value))
            else:
                given_offsets.append((position, self.giver_offset(rating, value)))
        post = self.post
        shift = _shift

        def effective() -> list[int]:  # received(o, h) and giver_offset(own, h) written out
            values = list(values_of(floored))
            for position, value in received_games:
                values[position] = shift(values[position], value)
            for position, value in given_games:
                own = post[i]
                values[position] += own - shift(own, value)
            for position, offset in given_offsets:
                values[position] += offset
            return values

        return effective

    # one player's value

    def _normal_evaluator(self, index: int) -> _Evaluator:
        """A player rated normally with a handicap game (the others are evaluated inline)."""
        state = self.table.states[index]
        rating, bonus_count = state.rating, state.bonus_count
        scores = self.table.scores[index]
        effective = self._effective_getter(index)
        final_rating = self.final_rating

        def evaluate() -> int:
            return rating + round(final_rating(rating, bonus_count, effective(), scores) - rating)

        return evaluate

    def _performance_evaluator(self, index: int) -> _Evaluator:
        fixed = self.table.fixed[index] or []
        scores = self.table.scores[index]
        score = sum(s for _, s in fixed) + sum(scores)
        total = len(fixed) + len(scores)
        if score == 0.0:
            return lambda: ALL_LOST_RATING
        all_won = score == total
        if all_won:  # the temporary draw against the highest opponent (§5)
            score += 0.5
        fixed_opponents = [o for o, _ in fixed]
        fixed_max = max(fixed_opponents, default=0)
        try:
            fixed_weights: list[float] | None = [weight_of(o) for o in fixed_opponents]
        except OverflowError:
            fixed_weights = None
        roots = self.roots
        effective = self._effective_getter(index)

        def evaluate() -> int:
            opponents = effective()
            try:
                if fixed_weights is None:
                    raise OverflowError("a stored opponent is beyond the fast form's range")
                weights = fixed_weights + list(map(_weight, opponents))
                if all_won:
                    weights.append(_weight(max(fixed_max, *opponents)))
                guess = roots[index]
                if not -GUESS_RANGE < guess < GUESS_RANGE:  # none yet (NaN), or one of the safe form
                    guess = initial_guess(weights)
                root = solve_root(weights, score, guess)
                value = round_root(weights, score, root)
            except OverflowError:  # ratings beyond the fast form's range: a runaway table (performance.py)
                everyone = fixed_opponents + opponents
                if all_won:
                    everyone.append(max(everyone))
                root = safe_root(everyone, score)
                value = safe_round(everyone, score, root)
            roots[index] = root
            return value

        return evaluate

    def solve(self, max_sweeps: int) -> int | None:
        """Sweep until a sweep changes nothing; the number of sweeps, or None if ``max_sweeps`` did not do.

        A changed value marks the players who meet him for re-evaluation. A player rated normally is a pure
        function of his opponents' floored values, so he is marked only when the floored value changes (a
        newcomer's estimate moving below 400 changes nothing for him); a performance-rated one is marked on
        any change, because his root solver starts from his previous root and so his evaluations form a chain
        that must stay the one of the plain reading.

        A table that does not settle usually falls into a cycle: the values, the marks for re-evaluation and the
        roots at the end of a sweep are all that the next sweep depends on, so once they repeat an earlier
        sweep's, every later sweep repeats too and none can be free of change. The answer is then None at once,
        as it would be after ``max_sweeps``; only ``post`` differs, holding the values of the repeated sweep.
        The values at the end of every sweep of that cycle (its period: 2 for two players flipping across a K
        boundary, or longer) are kept in ``cycle``, starting with the sweep after the first of the repeated state.
        """
        table = self.table
        post = self.post
        floored = self.floored
        count = len(post)
        # Set up once per table, so kept lean: every player of every table passes here.
        fixed_pairs = table.fixed
        meets = table.opponents  # a player met twice is marked twice: harmless
        scores_of = table.scores
        plain: list[_Plain | None] = [None] * count
        evaluate: list[_Evaluator | None] = [None] * count
        self_dependent = [False] * count
        for i, (state, fixed, handicaps) in enumerate(zip(table.states, fixed_pairs, table.handicaps, strict=True)):
            if fixed is None and handicaps is None:
                plain[i] = (state.rating, state.bonus_count, _getter(meets[i]), scores_of[i])
            elif fixed is None:
                evaluate[i] = self._normal_evaluator(i)
            else:
                evaluate[i] = self._performance_evaluator(i)
                # A performance-rated giver's effective opponents depend on his own estimate too.
                self_dependent[i] = handicaps is not None and any(h is not None and h[0] == GAVE for h in handicaps)
        run = self.final_rating
        dirty = [True] * count
        roots = self.roots
        ends: dict[tuple[tuple[int, ...], tuple[bool, ...], tuple[float, ...]], int] = {}  # end -> its sweep
        values: list[tuple[int, ...]] = []  # post at the end of each sweep from CYCLE_CHECK_FROM on
        self.cycle = ()
        for sweep in range(1, max_sweeps + 1):
            changed = False
            self.sweeps = sweep
            for i in range(count):
                if not dirty[i]:
                    continue
                dirty[i] = False
                args = plain[i]
                if args is not None:
                    rating, bonus_count, opponents, scores = args
                    value = rating + round(run(rating, bonus_count, opponents(floored), scores) - rating)
                else:
                    value = evaluate[i]()  # type: ignore[misc]
                if value != post[i]:
                    post[i] = value
                    changed = True
                    seen = value if value > OPPONENT_FLOOR else OPPONENT_FLOOR
                    if seen != floored[i]:
                        floored[i] = seen
                        for j in meets[i]:
                            dirty[j] = True
                    else:  # rare: a value that moved below the floor
                        for j in meets[i]:
                            if fixed_pairs[j] is not None:
                                dirty[j] = True
                    if self_dependent[i]:
                        dirty[i] = True
            if not changed:
                return sweep
            if sweep >= CYCLE_CHECK_FROM:
                # The roots compare as floats (0.0 == -0.0): a guess of either zero gives the same next root.
                end = (end_values := tuple(post), tuple(dirty), tuple(roots))
                first = ends.get(end)
                if first is not None:
                    self.cycle = (*values[first - CYCLE_CHECK_FROM + 1 :], end_values)
                    return None
                ends[end] = sweep
                values.append(end_values)
        return None


# handicap_shift of a (rating, handicap): integer ratings of a narrow range in practice and ten handicaps, met
# again in table after table.
_shift = functools.lru_cache(maxsize=16384)(handicap_shift)

# weight_of of an effective opponent rating, an integer of a narrow range in practice: the performance
# evaluations need the same few hundred values again and again.
_weight = functools.lru_cache(maxsize=8192)(weight_of)


def _getter(indexes: tuple[int, ...]) -> Callable[[list[int]], Sequence[int]]:
    """A fast ``lambda values: [values[i] for i in indexes]`` (itemgetter returns a bare value for one index)."""
    if len(indexes) == 1:
        only = indexes[0]
        return lambda values: (values[only],)
    return itemgetter(*indexes)

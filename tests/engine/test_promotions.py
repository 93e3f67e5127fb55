"""docs/rules.md §7: the established test (UB, MP run, LB run), the provisional test, "bound to get it", runs carried
across tables, several promotions in one table, the 7 Dan ceiling."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine import PlayerState, Promotion, grade_of
from ratings.engine.outcomes import _walk
from ratings.engine.promotions import GradeState, walk_table

from .builders import make_established, make_game, make_newcomer, rate
from .oracle import walk_plainly

KYU3, KYU2, KYU1 = grade_of(3, "Kyu"), grade_of(2, "Kyu"), grade_of(1, "Kyu")  # 2 Kyu: LB 1460 MP 1510 UB 1560
KYU5, KYU4 = grade_of(5, "Kyu"), grade_of(4, "Kyu")
DAN4, DAN5, DAN6 = grade_of(4, "Dan"), grade_of(5, "Dan"), grade_of(6, "Dan")


def runs(state: GradeState) -> tuple[int, int, bool, int]:
    return state.grade, state.lb_run, state.lb_mp_seen, state.mp_run


# --- established test ------------------------------------------------------------------------------------------


def test_upper_bound_promotes_and_the_same_rating_is_tested_again() -> None:
    """1540 → 1570 over 3 games: 1550, 1560 (= UB of 2 Kyu: promote; then ≥ LB of 1 Kyu starts a run), 1570."""
    state = GradeState(KYU3)
    promotions = walk_table(state, 1540, 1570, [1, 2, 3], games=40)
    assert promotions == [Promotion(KYU2, "upper_bound", game_number=39, rating=1560.0, round=2)]
    assert runs(state) == (KYU2, 2, False, 0)


def test_midpoint_run_promotes_at_its_length() -> None:
    """2 Kyu needs 6 ratings in a row at or above MP 1510."""
    state = GradeState(KYU3, lb_run=5, lb_mp_seen=True, mp_run=4)
    promotions = walk_table(state, 1515, 1525, [4, 5], games=60)
    assert promotions == [Promotion(KYU2, "midpoint_run", game_number=60, rating=1525.0, round=5)]
    assert runs(state) == (KYU2, 0, False, 0)  # the retest at 1525 is below LB of 1 Kyu


def test_lower_bound_run_promotes_when_it_touched_the_midpoint() -> None:
    """2 Kyu needs 12 ratings in a row at or above LB 1460, one of them at or above MP."""
    state = GradeState(KYU3, lb_run=10, lb_mp_seen=True)
    promotions = walk_table(state, 1470, 1490, [1, 2], games=30)
    assert promotions == [Promotion(KYU2, "lower_bound_run", game_number=30, rating=1490.0, round=2)]


def test_lower_bound_run_without_the_midpoint_never_promotes() -> None:
    state = GradeState(KYU3, lb_run=10)
    assert walk_table(state, 1470, 1490, [1, 2], games=30) == []
    assert runs(state) == (KYU3, 12, False, 0)


def test_run_bookkeeping_through_mp_lb_and_below() -> None:
    state = GradeState(KYU3)
    walk_table(state, 1470, 1470, [1], games=30)  # LB: a run starts without MP
    assert runs(state) == (KYU3, 1, False, 0)
    walk_table(state, 1520, 1520, [1], games=31)  # MP while an LB run goes: it touched MP, an MP run starts
    assert runs(state) == (KYU3, 2, True, 1)
    walk_table(state, 1520, 1520, [1], games=32)  # MP run goes on, and the LB run with it
    assert runs(state) == (KYU3, 3, True, 2)
    walk_table(state, 1480, 1480, [1], games=33)  # back between LB and MP: the MP run stops
    assert runs(state) == (KYU3, 4, True, 0)
    walk_table(state, 1400, 1400, [1], games=34)  # below LB: both stop
    assert runs(state) == (KYU3, 0, False, 0)
    walk_table(state, 1530, 1530, [1], games=35)  # MP with no run at all: both start
    assert runs(state) == (KYU3, 1, True, 1)


def test_ratings_are_spread_evenly_over_the_tables_games() -> None:
    """1500 → 1530 over 3 games gives 1510, 1520, 1530: all three at or above MP 1510."""
    state = GradeState(KYU3, lb_run=3, lb_mp_seen=True, mp_run=3)
    promotions = walk_table(state, 1500, 1530, [1, 2, 3], games=50)
    assert promotions == [Promotion(KYU2, "midpoint_run", game_number=50, rating=1530.0, round=3)]
    state = GradeState(KYU3, lb_run=3, lb_mp_seen=True, mp_run=3)
    assert walk_table(state, 1499, 1529, [1, 2, 3], games=50) == []  # 1509 breaks the MP run


def test_several_promotions_in_one_game() -> None:
    """5 Kyu at 1470 after one game: UB of 4 Kyu (1360) and of 3 Kyu (1460) both reached."""
    state = GradeState(KYU5)
    promotions = walk_table(state, 1250, 1470, [7], games=30)
    assert [(p.grade, p.route, p.round) for p in promotions] == [(KYU4, "upper_bound", 7), (KYU3, "upper_bound", 7)]
    assert state.grade == KYU3


def test_established_test_from_game_18_provisional_from_9_nothing_before() -> None:
    """4 Kyu at 1470 (UB of 3 Kyu is 1460, of 2 Kyu 1560): game 17 is provisional and fails; game 18 passes."""
    assert walk_table(GradeState(KYU4), 1470, 1470, [1], games=17) == []
    assert walk_table(GradeState(KYU4), 1470, 1470, [1], games=18)[0].route == "upper_bound"
    assert walk_table(GradeState(0), 2500, 2500, list(range(1, 9)), games=8) == []


def test_provisional_test_needs_ub_of_the_grade_after_the_next() -> None:
    state = GradeState(KYU5)  # next 4 Kyu; the one after, 3 Kyu, has UB 1460
    promotions = walk_table(state, 1440, 1470, [1, 2, 3], games=12)
    assert promotions == [Promotion(KYU4, "provisional", game_number=11, rating=1460.0, round=2)]
    assert runs(state) == (KYU4, 0, False, 0)


def test_a_performance_rated_newcomer_with_nine_games_climbs_provisionally() -> None:
    """Like the reference data: a 6 Dan newcomer (2 prior pairs + 9 games) at 1870 gets every grade up to 1 Kyu
    at his 9th result (UB of 1 Dan is 1800, of 2 Dan 1920)."""
    state = GradeState(0)
    rounds = [None, None, *range(1, 10)]
    promotions = walk_table(state, 1870, 1870, rounds, games=11)
    assert state.grade == KYU1
    assert [p.grade for p in promotions] == list(range(1, KYU1 + 1))
    assert {(p.route, p.game_number, p.round) for p in promotions} == {("provisional", 9, 7)}


# --- bound to get it ------------------------------------------------------------------------------------------------


def test_bound_to_get_it_with_twenty_imaginary_losses() -> None:
    """After the walk: 3 Kyu with an LB run of 9 (MP seen) at 1555. Losing K each: 1527, 1499, 1471 are all at or
    above LB 1460, so the copy completes the 12-game LB run at its third imaginary game."""
    state = GradeState(KYU3, lb_run=8, lb_mp_seen=True)
    promotions = walk_table(state, 1550, 1555, [6], games=40)
    assert promotions == [Promotion(KYU2, "bound_to_get_it", game_number=43, rating=1471, round=None)]
    assert runs(state) == (KYU2, 0, False, 0)


def test_not_bound_to_get_it_when_the_losses_break_the_run() -> None:
    state = GradeState(KYU3, lb_run=7, lb_mp_seen=True)
    assert walk_table(state, 1550, 1555, [6], games=40) == []
    assert runs(state) == (KYU3, 8, True, 1)


def test_bound_to_get_it_only_from_18_games() -> None:
    assert walk_table(GradeState(KYU3, lb_run=8, lb_mp_seen=True), 1550, 1555, [6], games=17) == []


# --- the top of the scale -----------------------------------------------------------------------------------------


def test_no_grade_above_6_dan() -> None:
    state = GradeState(DAN6)
    assert walk_table(state, 2900, 2950, list(range(1, 31)), games=200) == []
    assert runs(state) == (DAN6, 30, True, 30)  # runs toward 7 Dan are counted, never completed


def test_5_dan_has_no_lb_route_and_6_dan_no_run_route() -> None:
    state = GradeState(DAN4, lb_run=40, lb_mp_seen=True)
    assert walk_table(state, 2300, 2300, [1, 2], games=100) == []  # between LB 2240 and MP 2340 of 5 Dan
    state = GradeState(DAN4, lb_run=40, lb_mp_seen=True, mp_run=9)
    assert walk_table(state, 2350, 2350, [1], games=100)[0].route == "midpoint_run"  # #MP 10
    state = GradeState(DAN5, lb_run=99, lb_mp_seen=True, mp_run=99)
    assert walk_table(state, 2600, 2600, [1], games=100) == []  # 6 Dan only by UB 2640
    assert walk_table(state, 2640, 2640, [1], games=101)[0].route == "upper_bound"


# --- through rate_table -------------------------------------------------------------------------------------------


def test_runs_carry_across_tables() -> None:
    """A 3 Kyu at 1515 with an MP run of 4 draws an equal twice: run 5 after the first table, 2 Kyu in the second."""
    player = make_established(1515, grade=KYU3, lb_run=4, lb_mp_seen=True, mp_run=4)
    first = rate({"P": player, "O": make_established(1515)}, [make_game(1, "P", "O", 0.5)])["P"]
    assert first.promotions == ()
    assert (first.after.lb_run, first.after.lb_mp_seen, first.after.mp_run) == (5, True, 5)
    second = rate({"P": first.after, "O": make_established(1515)}, [make_game(1, "O", "P", 0.5)])["P"]
    assert [(p.grade, p.route, p.game_number, p.round) for p in second.promotions] == [(KYU2, "midpoint_run", 52, 1)]
    assert (second.after.grade, second.after.lb_run, second.after.mp_run) == (KYU2, 0, 0)


def test_a_newcomer_with_fewer_than_nine_results_gets_no_grade() -> None:
    out = rate({"N": make_newcomer(("dan", 6)), "E": make_established(1500)},
               [make_game(r, "N", "E", 1.0) for r in range(1, 7)])  # fmt: skip
    assert out["N"].after.grade == 0 and out["N"].promotions == ()


# --- against the plain reading ------------------------------------------------------------------------------------

walks = st.fixed_dictionaries(
    {
        "grade": st.integers(0, 27),
        "runs": st.tuples(st.integers(0, 20), st.booleans(), st.integers(0, 12)),
        # Ratings across every grade, and most often near the bounds where the shortcuts decide.
        "rating_from": st.one_of(st.integers(-100, 3000), st.sampled_from([0, 720, 1459, 1460, 1510, 2239, 2240])),
        "rating_to": st.one_of(st.integers(-100, 3000), st.sampled_from([1, 721, 1461, 1509, 1560, 2340, 2640])),
        "rounds": st.lists(st.one_of(st.none(), st.integers(1, 12)), min_size=1, max_size=14),
        "extra": st.integers(0, 40),  # the player's games before this walk: N = G + extra
    }
)


@settings(deadline=None, max_examples=400)
@given(walks)
def test_walk_table_agrees_with_the_plain_reading(walk: dict) -> None:  # type: ignore[type-arg]
    """The precomputed bounds, the quiet walk, the bound checks before each test and the early stop of the
    imaginary games change nothing: same promotions (equal Promotion values), same grade and runs."""
    games = len(walk["rounds"]) + walk["extra"]
    lb_run, seen, mp_run = walk["runs"]
    state = GradeState(walk["grade"], lb_run, seen, mp_run)
    promotions = walk_table(state, walk["rating_from"], walk["rating_to"], walk["rounds"], games)
    plain = walk_plainly(walk["grade"], walk["runs"], walk["rating_from"], walk["rating_to"], walk["rounds"], games)
    assert (promotions, state.grade, (state.lb_run, state.lb_mp_seen, state.mp_run)) == plain
    assert all(type(p) is Promotion for p in promotions)


@settings(deadline=None, max_examples=400)
@given(walks)
def test_the_outcomes_walk_agrees_with_the_plain_reading(walk: dict) -> None:  # type: ignore[type-arg]
    """What a table's outcome takes from the walk, including the runs it keeps when no test can promote."""
    games = len(walk["rounds"]) + walk["extra"]
    lb_run, seen, mp_run = walk["runs"]
    before = PlayerState(rating=walk["rating_from"], grade=walk["grade"], lb_run=lb_run, lb_mp_seen=seen, mp_run=mp_run)
    promotions, grade, *runs = _walk(before, walk["rating_from"], walk["rating_to"], walk["rounds"], games)
    plain = walk_plainly(walk["grade"], walk["runs"], walk["rating_from"], walk["rating_to"], walk["rounds"], games)
    assert (list(promotions), grade, tuple(runs)) == plain

"""rate_history: tables rated one after another with the states carried forward."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine import TableDidNotSettle, rate_table
from ratings.engine.history import rate_history

from .builders import make_established, make_game, make_newcomer, make_table


def test_states_carry_from_table_to_table() -> None:
    first = make_table(
        {"A": make_established(1500), "N": make_newcomer(("kyu", 2))},
        [make_game(1, "A", "N", 0.0), make_game(2, "N", "A", 0.5)],
        date=dt.date(2024, 6, 1),
    )
    # The second table's own state for N is stale on purpose: the carried one wins.
    second = make_table(
        {"N": make_newcomer(), "B": make_established(1400)}, [make_game(1, "N", "B", 1.0)], date=dt.date(2024, 7, 1)
    )
    streamed: list[object] = []
    history = rate_history([first, second], on_result=streamed.append)
    assert streamed == list(history.results)

    by_hand_first = rate_table(first).by_key()
    carried = make_table(
        {"N": by_hand_first["N"].after, "B": make_established(1400)},
        [make_game(1, "N", "B", 1.0)],
        date=dt.date(2024, 7, 1),
    )
    by_hand_second = rate_table(carried).by_key()
    assert history.results[0].by_key() == by_hand_first
    assert history.results[1].by_key() == by_hand_second
    assert history.states["N"] == by_hand_second["N"].after
    assert history.states["A"] == by_hand_first["A"].after


def test_an_unsettled_table_stops_the_history_or_is_skipped() -> None:
    bad = make_table(
        {"A": make_established(1580), "B": make_established(1433)},
        [make_game(1, "B", "A", 1.0), make_game(2, "B", "A", 0.5), make_game(3, "B", "A", 0.0)],
        name="Bad",
    )
    good = make_table({"A": make_established(1), "C": make_established(1500)}, [make_game(1, "A", "C", 0.5)])
    with pytest.raises(TableDidNotSettle, match="Bad"):
        rate_history([bad, good])
    history = rate_history([bad, good], skip_unsettled=True, keep_results=False)
    assert history.unsettled == ("Bad",)
    assert history.results == ()
    assert history.states["B"] == bad.states["B"]  # passed through unchanged
    assert history.states["A"].rating == rate_table(make_table({"A": bad.states["A"], "C": good.states["C"]},
                                                               good.games)).by_key()["A"].rating_after  # fmt: skip

"""The rule of the program's list order (ratings/fesa_files/list_order.py) against the program's own way:
a new run's players in front, then a stable sort by rating, run after run."""

from __future__ import annotations

import random

import pytest

from ratings.fesa_files.list_order import OPENING, ListMember, program_order


def simulate(seed: int) -> tuple[list[str], list[ListMember]]:
    """A random history run the program's way, and the members the rule gets from its ratings alone."""
    rng = random.Random(seed)
    ratings = [0, 1, 2, 3]  # few values, so that ties are everywhere
    listed: list[str] = [f"o{i}" for i in range(rng.randint(0, 6))]
    current = {name: rng.choice(ratings) for name in listed}
    members = {
        n: {"joined": OPENING, "position": (i,), "start": current[n], "changes": []} for i, n in enumerate(listed)
    }
    for run in range(rng.randint(1, 7)):
        new = [f"n{run}.{i}" for i in range(rng.randint(0, 3))]
        for i, name in enumerate(new):
            current[name] = rng.choice(ratings)
            members[name] = {"joined": run, "position": (i,), "start": current[name], "changes": []}
        playing = rng.sample([*new, *listed], k=min(len(new) + len(listed), rng.randint(0, 4)))
        for name in playing:
            current[name] = rng.choice(ratings)
            members[name]["changes"].append((run, current[name]))  # type: ignore[attr-defined]
        listed = sorted([*new, *listed], key=lambda n: -current[n])  # the program's stable sort
    return listed, [
        ListMember(n, m["joined"], m["position"], m["start"], tuple(m["changes"]))  # type: ignore[arg-type]
        for n, m in members.items()
    ]


@pytest.mark.parametrize("first_seed", range(0, 2000, 500))
def test_program_order_is_the_programs_stable_sorts_run_after_run(first_seed: int) -> None:
    for seed in range(first_seed, first_seed + 500):
        expected, members = simulate(seed)
        random.Random(-seed).shuffle(members)  # the rule must not lean on the order it is given
        assert [m.key for m in program_order(members)] == expected, f"seed {seed}"


def test_program_order_later_newcomer_first_until_ratings_differ() -> None:
    old = ListMember("old", OPENING, (0,), 1500)
    earlier = ListMember("earlier", 2, (0,), 0, ((2, 1500),))
    later = ListMember("later", 5, (0,), 1500)
    assert [m.key for m in program_order([old, earlier, later])] == ["later", "earlier", "old"]
    # "old" was above "earlier" after run 3, then both came back to 1500: "old" stays first.
    old_moved = ListMember("old", OPENING, (0,), 1500, ((3, 1600), (4, 1500)))
    assert [m.key for m in program_order([earlier, old_moved])] == ["old", "earlier"]

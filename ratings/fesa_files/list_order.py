"""The order of the program's list (``ratingliste.post``) after any sequence of runs, from the ratings alone.

The program never reorders its list but on a run: it puts that run's new players (in ``nye-spillere``
order) in front of the list it read and sorts the whole stably by rating, highest first
(ratings/fesa_files/ratingliste.py :func:`sort_like_program`). Unrolling those stable sorts gives a rule
that needs only each player's ratings after each run:

    Of two players with equal ratings now, the first is the one whose rating was higher after the latest
    run after which both were on the list and their ratings differed. If they have been equal after every
    run since both were on the list, the one who joined later is first (a run's new players go in front);
    of two who joined at the same run, the one earlier in that run's new players; of two from the
    opening list, the one earlier in it.

Why: after run k, players of equal rating keep the order they had before the sort, which is the order
after run k-1 (or, for a player new at run k, in front of it). Going back run by run, the first time two
players' ratings differ the sort put them by rating, and nothing reordered them since.

Runs are numbered 0, 1, 2 … in the order they were made; the opening list is run -1, and a rating holds
from the run that set it until the next one that changed it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cmp_to_key
from itertools import groupby

OPENING = -1


@dataclass(frozen=True, slots=True)
class ListMember:
    """One player of the list: ``joined`` the run he joined at (-1: the opening list), ``position`` where
    he was among that run's new players (or in the opening list; any sortable key), ``start`` his rating
    when he joined, ``changes`` the (run, rating after it) of every run that rated him, in run order."""

    key: Hashable
    joined: int
    position: tuple[int, ...]
    start: int
    changes: tuple[tuple[int, int], ...] = ()

    @property
    def rating(self) -> int:
        return self.changes[-1][1] if self.changes else self.start

    def rating_after(self, run: int) -> int:
        """His rating after ``run`` (he must be on the list then)."""
        index = bisect_right(self.changes, (run, float("inf")))
        return self.changes[index - 1][1] if index else self.start


def _compare_tied(a: ListMember, b: ListMember) -> int:
    """-1 when ``a`` comes first, 1 when ``b`` does; the two have equal ratings now (see the module doc)."""
    both_since = max(a.joined, b.joined)
    runs = sorted({run for run, _ in a.changes} | {run for run, _ in b.changes}, reverse=True)
    for run in runs:
        # Between the previous change and this one both ratings are those after ``run - 1``; that span
        # holds a run after which the sort compared them only if ``run - 1`` is a run with both listed.
        before = run - 1
        if before < max(both_since, 0):
            break
        rating_a, rating_b = a.rating_after(before), b.rating_after(before)
        if rating_a != rating_b:
            return -1 if rating_a > rating_b else 1
    if a.joined != b.joined:
        return -1 if a.joined > b.joined else 1
    return -1 if a.position < b.position else (1 if a.position > b.position else 0)


def program_order(members: Sequence[ListMember]) -> list[ListMember]:
    """``members`` in the order of the program's list after its last run."""
    by_rating = sorted(members, key=lambda m: -m.rating)
    ordered: list[ListMember] = []
    for _rating, group in groupby(by_rating, key=lambda m: m.rating):
        tied = list(group)
        ordered.extend(sorted(tied, key=cmp_to_key(_compare_tied)) if len(tied) > 1 else tied)
    return ordered

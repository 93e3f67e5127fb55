"""Randomized: a history of tables, then corrections, submissions, deletions, moves, withdrawals and prior
grade changes in random order; whenever the queue has drained, the stored ratings are exactly a from-scratch
re-rate (``rerate_check`` finds nothing).

The tasks run in-process on commit (no broker), as in the embedded default. Some edits are served one by
one as they commit; others pile up first and one run serves the lot, as on a busy worker.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core.management import call_command

from ratings.models import PendingRerate, RerateRun
from ratings.services.rerate import rerate_check, rerate_pending
from tests.pipeline.histories import START, make_players, random_edit, random_table, submit

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 29, 275])
def test_rerate_after_random_edits_matches_from_scratch(seed: int, django_capture_on_commit_callbacks) -> None:
    rng = random.Random(seed)
    players = make_players(rng, 14)
    latest = START
    with django_capture_on_commit_callbacks(execute=True):
        for week in range(10):
            latest = START + dt.timedelta(days=7 * week)
            submit(random_table(rng, players, latest))
    assert not PendingRerate.objects.exists()
    assert rerate_check() == []

    done: list[str] = []
    for _ in range(12):
        if rng.random() < 0.6:
            with django_capture_on_commit_callbacks(execute=True):  # served as it commits
                done.append(random_edit(rng, players, latest))
        else:
            with django_capture_on_commit_callbacks(execute=False):  # a burst: one run serves it
                done.extend(random_edit(rng, players, latest) for _ in range(rng.randint(2, 4)))
            rerate_pending()
        assert not PendingRerate.objects.exists(), done
        differences = rerate_check()
        assert differences == [], f"after {done}: {differences[:5]}"
    # The cheap path ran: some runs left tables as they were.
    assert sum(RerateRun.objects.values_list("tables_unchanged", flat=True)) > 0
    call_command("rerate", "--check")  # as an officer would check it: fails (CommandError) on any difference

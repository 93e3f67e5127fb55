"""What follows a re-rate once its run has committed: ``rerate_after_run``.

The run's transaction has committed before any of this starts, so nothing here can undo it. Each follow-up
runs alone and a failure is logged, never raised: a cache or a broker that is down costs that follow-up only,
and the next run (or the beat, or the worker's start) catches up. Each writes in a transaction of its own if it
writes at all; none is wrapped in one here, which on SQLite would hold the write lock while a list is read. The
slow ones (the history downloads, the comparison of rating systems) go to tasks of their own, queued by name
(ratings/services/queue.py), so that the re-rate's lock is not held while they work.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable

from ratings.services.history_files import HISTORY_TASK
from ratings.services.lists import lists_prepare
from ratings.services.queue import enqueue
from ratings.services.season.notices import run_directors_notify
from ratings.services.season.subscriptions import runs_subscribers_notify

from .run import RerateOutcome

log = logging.getLogger(__name__)

PREDICTIONS_TASK = "ratings.tasks.task_predictions_after_rerate"  # the name ratings/tasks.py registers it under


def rerate_after_run(*, outcome: RerateOutcome | None, began: dt.datetime, eager: bool) -> None:
    """Run the follow-ups of a re-rate call that committed ``outcome`` (None: nothing was pending).

    ``began``: when the call began, so that the directors hear once of every run it made. ``eager``: the call
    ran in-process (no broker): the comparison of rating systems is then left to the nightly run, since it
    would take minutes inside the request that asked for the re-rate. With nothing pending, only the
    subscribers' notices are sent: runs a stopped worker did not tell (the worker's start queues the task).
    """
    if outcome is None:
        _alone("tell the subscribers", runs_subscribers_notify)
        return
    run_id = outcome.run_id
    _alone("queue the rating history downloads", _history_files_queue)
    if run_id is not None:
        _alone("tell the directors", lambda: run_directors_notify(run_id=run_id, since=began))
    _alone("tell the subscribers", runs_subscribers_notify)
    _alone("prepare today's rating lists", lists_prepare)  # else the first visitor makes them
    if not eager:
        _alone("queue the comparison of rating systems", _predictions_queue)


def _alone(what: str, step: Callable[[], object]) -> None:
    """Run ``step``; a failure is logged and the next step runs."""
    try:
        step()
    except Exception:  # the re-rate stands whatever a follow-up meets; the next run catches up
        log.warning("after a re-rate, could not %s", what, exc_info=True)


def _history_files_queue() -> None:
    """The history changed (or was found unchanged after an edit): rewrite the bulk downloads in a task of their
    own. A broker that is down is logged; the files stay as they were until the next run."""
    enqueue(HISTORY_TASK, after_commit=False, failure="could not queue the rating history downloads")


def _predictions_queue() -> None:
    """Compare the rating systems on the new data, in a task of its own (minutes on a long history). A broker
    that is down is logged; the nightly run catches up."""
    enqueue(PREDICTIONS_TASK, after_commit=False, failure="could not queue the comparison of rating systems")

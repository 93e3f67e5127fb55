"""Re-rating: replay the history from a table position and replace the derived rows.

Contract: after a run, every submitted or rated table's rating rows, its players' derived columns and the
promotion records are what rating the whole history from scratch would give; ``rerate_check`` verifies it.

* An edit calls ``rerate_request`` inside its own transaction: the single ``PendingRerate`` row keeps the
  earliest position asked for and its ``generation`` is bumped, the edited tables are flagged
  ``needs_rerate``, and the task is queued after commit. A broker that is down is logged, not raised: the
  pending row keeps the request for the beat schedule, the worker's start or ``manage.py rerate --pending``.
* A run (``rerate_pending``, ``rerate_from``) takes the lock and replays the submitted and rated tables from
  the position, in order, through the engine. A table that is not flagged and whose players all enter with
  the states stored in its rows is left as it is — that is what makes a correction cheap; every table a
  changed state reaches is redone and its rows replaced (``rows``). A pending run reads only the tables a
  changed player enters (``sparse``); a run from a position or from scratch reads them all (``replay``).
  All of it, the run's log line included, is one transaction: a run killed half-way leaves the database as
  it was, and the next run produces the same result.
* The pending row is cleared, with the flags, only if no request came in meanwhile (compare-and-set on
  ``generation``); otherwise the same call runs again, so a burst of edits costs at most two runs that do
  work, and the last one sees every edit.

Locking rules (``run``): one re-rate at a time. On PostgreSQL a transaction-level advisory lock, waited for
at most the timeout (``lock_timeout``); on SQLite the IMMEDIATE transaction, whose start waits for every other
writer, with the timeout as its busy timeout. The timeout is short (RERATE_LOCK_TIMEOUT, a few seconds): a
lock that cannot be had raises ``RerateBusy``, which the task turns into a retry with backoff, so nothing waits
long with a transaction open. ``rerate_request`` locks the pending row before it flags tables, so a run's
compare-and-set can never clear a flag whose request it has not seen.
"""

from __future__ import annotations

from .check import CheckDifference, rerate_check
from .rows import ROW_COLUMNS, rating_rows_insert
from .run import RATED_STATUSES, RerateBusy, RerateOutcome, rerate_from, rerate_pending, rerate_request

__all__ = [
    "RATED_STATUSES",
    "ROW_COLUMNS",
    "CheckDifference",
    "RerateBusy",
    "RerateOutcome",
    "rating_rows_insert",
    "rerate_check",
    "rerate_from",
    "rerate_pending",
    "rerate_request",
]

"""What a run writes on the tables it redid: rated, or waiting with its error, and the mark of a table that did
not settle (its cycle's states), with the resolutions a correction has made obsolete cleared."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from ratings.db import id_batches, ids_in
from ratings.models import Table, TableResolution, TableStatus

from .replay import Replay
from .sparse import SparseReplay


def tables_mark(replay: Replay | SparseReplay, now: dt.datetime) -> None:
    """Redone tables are rated now (and first rated now if never before); a table that failed waits.

    A table that did not settle keeps its cycle's states (``cycle_states``), rated by the rule or not; any other
    redone table loses them. A live resolution whose cycle is no longer the table's is cleared: the table then
    settled, or cycles differently and goes back to the rating officer's queue.
    """
    redone, errors, unsettled = replay.redone, replay.errors, replay.unsettled
    ok = [pk for pk in redone if pk not in errors]
    for chunk in id_batches(ok, as_array=True):
        Table.objects.filter(pk__in=ids_in(chunk), first_rated_at__isnull=True).update(first_rated_at=now)
        Table.objects.filter(pk__in=ids_in(chunk)).update(
            status=TableStatus.RATED, last_rerated_at=now, rating_error="", cycle_states=None
        )
    for pk, message in errors.items():
        Table.objects.filter(pk=pk).update(status=TableStatus.SUBMITTED, rating_error=message, cycle_states=None)
    for pk, cycle in unsettled.items():
        Table.objects.filter(pk=pk).update(cycle_states=cycle)
    _resolutions_clear(redone, unsettled, now)


def _resolutions_clear(redone: Sequence[int], unsettled: Mapping[int, object], now: dt.datetime) -> None:
    for chunk in id_batches(list(redone), as_array=True):
        for resolution in TableResolution.objects.filter(table_id__in=ids_in(chunk), cleared_at__isnull=True):
            if unsettled.get(resolution.table_id) != resolution.states:
                resolution.cleared_at = now
                resolution.save(update_fields=["cleared_at"])  # saved one by one: the history records it

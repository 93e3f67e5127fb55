"""The comparison of rating systems on the federation's own games, run and stored once per version of the data.

``prediction_compare`` walks the rated history with every system (ratings/engine/systems/compare.py), FESA's
predictions read from the stored ratings (ratings/selectors/predictions.py), and keeps the figures in a
``PredictionReport`` keyed by the data version, writing how many tables it has done as it goes so that the page
shows the progress. It writes nothing else: no system's figure ever reaches the federation's ratings.

A report is made once per version: a second call for the same version returns the stored one, and one still
running is left to finish unless it has not moved for ``STALLED`` (a worker killed in the middle), when it is
taken over. Called by a task after each re-rate on a worker and nightly (ratings/tasks.py), and by
``manage.py compare_ratings``.

After a re-rate (``prediction_compare_after_rerate``) the run gives way to the next one: it is skipped while
another re-rate is pending, and a run under way stops, its report gone, as soon as one is asked for, because
that re-rate makes a new version and queues its own comparison. A burst of edits then costs one comparison, of
the last version, not one of minutes for each. The nightly run and the command give way to nothing: a re-rate
that stays pending (a run that failed) must not keep the figures from ever being made.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from ratings.engine.systems import all_systems
from ratings.engine.systems.compare import compare
from ratings.engine.systems.game_courier import Refresh
from ratings.models import PredictionReport
from ratings.selectors.predictions import prediction_history, prediction_openings, prediction_tables_count
from ratings.selectors.rerate import rerate_is_pending
from ratings.selectors.versions import data_version

log = logging.getLogger(__name__)

STALLED = dt.timedelta(minutes=30)
COURIER_EVERY_TABLE_UP_TO = 5000
"""Game Courier is rated afresh before every table up to this many tables, and at each month's first table
beyond (ratings/engine/systems/game_courier.py; bench/README.md has the times)."""
PROGRESS_EVERY = 100
KEEP = 10
"""Finished reports kept (each some 100 KB of figures): a worker makes one after every re-rate."""


def _take(version: str, *, force: bool) -> tuple[PredictionReport, bool]:
    """The report for ``version`` and whether this call is to compute it."""
    now = timezone.now()
    report = PredictionReport.objects.filter(version=version).first()
    if report is None:
        try:
            with transaction.atomic():
                return PredictionReport.objects.create(version=version, started_at=now, updated_at=now), True
        except IntegrityError:  # another run made it meanwhile
            report = PredictionReport.objects.get(version=version)
    if report.status == PredictionReport.Status.DONE and not force:
        return report, False
    if report.status == PredictionReport.Status.RUNNING and report.updated_at > now - STALLED and not force:
        return report, False
    # Failed, stalled or forced: taken over with a compare-and-set on the state it was read in.
    taken = PredictionReport.objects.filter(pk=report.pk, status=report.status, updated_at=report.updated_at).update(
        status=PredictionReport.Status.RUNNING, started_at=now, updated_at=now, tables_done=0, error=""
    )
    report.refresh_from_db()
    return report, taken == 1


def _prune() -> None:
    """Keep the newest ``KEEP`` finished reports and any run under way; older and failed ones go."""
    keep = list(
        PredictionReport.objects.filter(status=PredictionReport.Status.DONE)
        .order_by("-finished_at", "-id")
        .values_list("pk", flat=True)[:KEEP]
    )
    PredictionReport.objects.exclude(pk__in=keep).exclude(status=PredictionReport.Status.RUNNING).delete()


class Superseded(Exception):
    """A re-rate was asked for while a comparison made after the last one was running."""


def prediction_compare_after_rerate() -> PredictionReport | None:
    """``prediction_compare`` giving way to a newer re-rate: None when one was pending or came while it ran."""
    try:
        return prediction_compare(gives_way=True)
    except Superseded:
        log.info("comparison skipped or stopped: a newer re-rate will queue its own")
        return None


def prediction_compare(
    *, force: bool = False, courier_refresh: Refresh | None = None, gives_way: bool = False
) -> PredictionReport:
    """Compute the report of the current data version unless it is there or on its way (module docstring).

    ``gives_way``: raise Superseded if a re-rate is pending, before or while it runs (the report then goes).
    """
    if gives_way and rerate_is_pending():
        raise Superseded
    version = data_version().key
    report, mine = _take(version, force=force)
    if not mine:
        return report
    total = prediction_tables_count()
    refresh: Refresh = courier_refresh or ("table" if total <= COURIER_EVERY_TABLE_UP_TO else "month")
    PredictionReport.objects.filter(pk=report.pk).update(tables_total=total)

    def progress(done: int) -> None:
        if gives_way and rerate_is_pending():
            raise Superseded
        # Only for the page to show: a write that cannot be made now (SQLite locked by a long read elsewhere)
        # must not cost the run; the next one, or the result, is written.
        try:
            PredictionReport.objects.filter(pk=report.pk).update(tables_done=done, updated_at=timezone.now())
        except OperationalError:
            log.warning("could not record the comparison's progress", exc_info=True)

    try:
        result = compare(
            prediction_history(),
            all_systems(courier_refresh=refresh),
            progress=progress,
            every=PROGRESS_EVERY,
            # Keyed as the engine keys players, by anything hashable: a mapping's key type cannot be widened in
            # place, its pairs can.
            openings=dict(prediction_openings().items()),
        )
    except Superseded:
        PredictionReport.objects.filter(pk=report.pk, status=PredictionReport.Status.RUNNING).delete()
        raise
    except Exception as exc:
        log.exception("the comparison of rating systems failed")
        PredictionReport.objects.filter(pk=report.pk).update(
            status=PredictionReport.Status.FAILED, error=repr(exc)[:2000], updated_at=timezone.now()
        )
        raise
    result["courier_refresh"] = refresh
    now = timezone.now()
    PredictionReport.objects.filter(pk=report.pk).update(
        status=PredictionReport.Status.DONE, result=result, finished_at=now, updated_at=now, tables_total=total
    )
    report.refresh_from_db()
    _prune()
    log.info("rating systems compared", extra={"version": version, "games": result["games"]})
    return report

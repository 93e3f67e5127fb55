"""The comparison run and stored once per data version (ratings/services/predictions.py, the task)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import OperationalError
from django.db.models import QuerySet
from django.utils import timezone

from ratings.models import PendingRerate, PredictionReport, RatingRow
from ratings.selectors.predictions import prediction_history
from ratings.selectors.versions import data_version
from ratings.services.predictions import KEEP, STALLED, prediction_compare, prediction_compare_after_rerate
from ratings.tasks import task_predictions_after_rerate, task_predictions_compare

pytestmark = pytest.mark.django_db


@pytest.fixture
def uncompared(small_demo):
    """The demo without the comparison seed_demo makes of it."""
    PredictionReport.objects.all().delete()


def test_the_demo_is_compared_and_stored_under_its_data_version(uncompared):
    ratings_before = list(RatingRow.objects.order_by("pk").values_list("pk", "rating_after"))
    report = task_predictions_compare.delay().get()
    stored = PredictionReport.objects.get(pk=report)
    assert stored.version == data_version().key
    assert stored.status == PredictionReport.Status.DONE
    assert stored.tables_done == stored.tables_total > 0
    result = stored.result
    assert result["systems"] == ["fesa", "elo", "european1996", "game_courier", "glicko2", "openskill"]
    assert result["games"] > 100
    whole = result["figures"]["fesa"]["all"]
    assert whole["even"]["games"] + whole["handicap"]["games"] == result["games"]
    assert 0.5 < whole["even"]["hits"] < 1.0
    # Never written into the federation's ratings.
    assert list(RatingRow.objects.order_by("pk").values_list("pk", "rating_after")) == ratings_before


def test_a_second_call_for_the_same_version_returns_the_stored_report(uncompared, django_assert_max_num_queries):
    first = prediction_compare()
    with django_assert_max_num_queries(2):
        again = prediction_compare()
    assert again.pk == first.pk and again.finished_at == first.finished_at


def test_a_report_running_elsewhere_is_left_alone_unless_stalled(uncompared):
    now = timezone.now()
    version = data_version().key
    running = PredictionReport.objects.create(version=version, started_at=now, updated_at=now)
    assert prediction_compare().status == PredictionReport.Status.RUNNING
    PredictionReport.objects.filter(pk=running.pk).update(updated_at=now - STALLED - dt.timedelta(seconds=1))
    taken = prediction_compare()
    assert taken.pk == running.pk and taken.status == PredictionReport.Status.DONE


def test_a_failed_run_is_recorded_and_tried_again(uncompared, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("broken")

    monkeypatch.setattr("ratings.services.predictions.compare", broken)
    with pytest.raises(RuntimeError):
        prediction_compare()
    failed = PredictionReport.objects.get()
    assert failed.status == PredictionReport.Status.FAILED and "broken" in failed.error
    monkeypatch.undo()
    assert prediction_compare().status == PredictionReport.Status.DONE


def test_a_progress_that_cannot_be_written_does_not_stop_the_run(uncompared, monkeypatch, caplog):
    update = QuerySet.update

    def locked(self, **fields):
        if set(fields) == {"tables_done", "updated_at"}:
            raise OperationalError("database is locked")
        return update(self, **fields)

    monkeypatch.setattr(QuerySet, "update", locked)
    assert prediction_compare().status == PredictionReport.Status.DONE
    assert "could not record the comparison's progress" in caplog.text


def test_only_the_newest_reports_are_kept(uncompared):
    now = timezone.now()
    for n in range(KEEP + 2):
        at = now - dt.timedelta(days=n + 1)
        PredictionReport.objects.create(
            version=f"old{n}", status=PredictionReport.Status.DONE, started_at=at, updated_at=at, finished_at=at
        )
    failed = PredictionReport.Status.FAILED
    PredictionReport.objects.create(version="broken", status=failed, started_at=now, updated_at=now)
    PredictionReport.objects.create(version="elsewhere", started_at=now, updated_at=now)  # running
    newest = prediction_compare()
    kept = set(PredictionReport.objects.values_list("version", flat=True))
    assert kept == {newest.version, "elsewhere", *(f"old{n}" for n in range(KEEP - 1))}


def _pending() -> PendingRerate:
    return PendingRerate.objects.create(
        from_date=dt.date(2024, 1, 1), from_sequence=1, requested_at=timezone.now(), generation=1
    )


def test_a_comparison_after_a_rerate_is_skipped_while_another_rerate_is_pending(uncompared):
    _pending()
    assert task_predictions_after_rerate.delay().get() is None
    assert not PredictionReport.objects.exists()
    # The nightly run gives way to nothing: a re-rate left pending must not keep the figures from being made.
    assert PredictionReport.objects.get(pk=task_predictions_compare.delay().get()).status == "done"


def test_a_comparison_after_a_rerate_stops_when_another_is_asked_for(uncompared, monkeypatch):
    history = prediction_history
    asked = []

    def rerate_asked_midway():
        for n, table in enumerate(history()):
            if n == 1 and not asked:
                asked.append(_pending())
            yield table

    monkeypatch.setattr("ratings.services.predictions.prediction_history", rerate_asked_midway)
    monkeypatch.setattr("ratings.services.predictions.PROGRESS_EVERY", 1)
    assert prediction_compare_after_rerate() is None
    assert not PredictionReport.objects.exists()  # its version is outdated by the re-rate to come
    PendingRerate.objects.all().delete()
    report = prediction_compare_after_rerate()
    assert report is not None and report.status == PredictionReport.Status.DONE

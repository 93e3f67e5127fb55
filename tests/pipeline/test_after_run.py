"""The follow-ups of a committed re-rate (ratings/services/rerate/after.py): each runs, and each fails alone."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

import pytest
from django.conf import settings

from ratings import tasks
from ratings.services.history_files import HISTORY_TASK
from ratings.services.rerate import RerateOutcome
from ratings.services.rerate import after as after_module
from ratings.services.rerate.after import PREDICTIONS_TASK, rerate_after_run

BEGAN = dt.datetime(2026, 5, 2, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def done(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the follow-ups did, in order, with the directors' notice failing."""
    out: list[str] = []

    def directors(*, run_id: int, since: dt.datetime) -> int:
        out.append(f"directors {run_id} {since:%H:%M}")
        raise RuntimeError("the outbox is out of reach")

    def queued(name: str, *args: int, failure: str, after_commit: bool = True) -> None:
        out.append(f"queued {name} {'after commit' if after_commit else 'now'}")

    def recorder(what: str) -> Any:
        return lambda: out.append(what)

    monkeypatch.setattr(after_module, "enqueue", queued)
    monkeypatch.setattr(after_module, "run_directors_notify", directors)
    monkeypatch.setattr(after_module, "runs_subscribers_notify", recorder("subscribers"))
    monkeypatch.setattr(after_module, "lists_prepare", recorder("lists"))
    return out


def test_after_run_runs_every_follow_up_when_one_fails(done: list[str], caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="ratings.services.rerate.after"):
        rerate_after_run(outcome=RerateOutcome(start=None, run_id=7), began=BEGAN, eager=False)
    assert done == [
        f"queued {HISTORY_TASK} now",
        "directors 7 12:00",
        "subscribers",
        "lists",
        f"queued {PREDICTIONS_TASK} now",
    ]
    (failure,) = caplog.records
    assert "tell the directors" in failure.getMessage() and failure.exc_info is not None


def test_after_run_queues_tasks_the_tasks_module_registers() -> None:
    registered = {tasks.task_history_files_write.name, tasks.task_predictions_after_rerate.name}
    assert registered == {HISTORY_TASK, PREDICTIONS_TASK}


def test_after_run_in_process_leaves_the_comparison_to_the_nightly_run(done: list[str]) -> None:
    rerate_after_run(outcome=RerateOutcome(start=None, run_id=7), began=BEGAN, eager=True)
    assert f"queued {PREDICTIONS_TASK} now" not in done and "lists" in done


def test_after_run_with_nothing_pending_tells_only_the_subscribers(done: list[str]) -> None:
    rerate_after_run(outcome=None, began=BEGAN, eager=False)
    assert done == ["subscribers"]


def test_the_beat_keeps_todays_lists_current(monkeypatch: pytest.MonkeyPatch) -> None:
    """The active list's two-year window moves at midnight, and an edit without a re-rate makes a new data version:
    the beat writes the lists of either within a minute, before a visitor has to."""
    (entry,) = (e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == tasks.task_lists_prepare.name)
    assert entry["schedule"] <= 60
    called: list[str] = []
    monkeypatch.setattr(tasks, "lists_prepare", lambda: called.append("lists"))
    tasks.task_lists_prepare()
    assert called == ["lists"]

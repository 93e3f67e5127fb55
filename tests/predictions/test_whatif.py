"""What-ifs of FESA's rules with other constants (ratings/services/whatif.py): the replay, its figures, the
players it moves, that it writes nothing of the federation's, and that a question is answered once per data."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from django.utils import timezone

from ratings.engine.rules import FESA_RULES, RuleConstants
from ratings.models import OpeningState, Player, Promotion, RatingRow, RerateRun, Table, WhatIfReport
from ratings.selectors.versions import data_version
from ratings.services.whatif import STALLED, TOP, whatif_compute, whatif_request, whatif_result

pytestmark = pytest.mark.django_db

DOUBLE_K = dataclasses.replace(FESA_RULES, k=tuple(2 * k for k in FESA_RULES.k))


def _federation() -> list[list[tuple[object, ...]]]:
    """Every stored value a re-rate derives, as the database returns it."""
    return [
        list(RatingRow.objects.order_by("pk").values_list()),
        list(Player.objects.order_by("pk").values_list()),
        list(Promotion.objects.order_by("pk").values_list()),
        list(OpeningState.objects.order_by("pk").values_list()),
        list(Table.objects.order_by("pk").values_list()),
        list(RerateRun.objects.order_by("pk").values_list()),
    ]


def test_fesas_constants_replayed_give_the_stored_ratings_own_figures(small_demo):
    """A value equal to FESA's but not it takes the engine's general form: the replay must give back the stored
    ratings, so the same predictions, to the last bit, and no player moved."""
    result = whatif_result(RuleConstants())
    assert result["whatif"]["games"] > 100
    assert result["whatif"]["figures"] == result["actual"]["figures"]
    assert result["players"] == [] and result["grades"] == [] and result["grades_count"] == 0
    assert result["differences"] == {} and result["unrated"] == 0


def test_a_larger_k_changes_the_figures_and_moves_players_most_first(small_demo):
    result = whatif_result(DOUBLE_K)
    assert result["differences"] == {"k": [list(FESA_RULES.k), list(DOUBLE_K.k)]}
    whatif, actual = result["whatif"]["figures"]["fesa"]["all"], result["actual"]["figures"]["fesa"]["all"]
    assert whatif["even"]["games"] == actual["even"]["games"] > 0
    assert whatif["even"]["brier"] != actual["even"]["brier"]
    moved = result["players"]
    assert 0 < len(moved) <= TOP
    changes = [abs(m["change"]) for m in moved]
    assert changes == sorted(changes, reverse=True) and changes[0] > 0
    first = moved[0]
    stored = Player.objects.get(pk=first["player"])
    assert (first["rating"], first["whatif_rating"] - first["rating"]) == (stored.rating, first["change"])
    assert result["grades_count"] == len(result["grades"]) or len(result["grades"]) == 100
    assert all(g["grade"] != g["whatif_grade"] for g in result["grades"])


def test_a_whatif_never_writes_the_federations_ratings(small_demo, django_capture_on_commit_callbacks):
    before = _federation()
    with django_capture_on_commit_callbacks(execute=True):
        report = whatif_request(rules=DOUBLE_K)
    report.refresh_from_db()
    assert report.status == WhatIfReport.Status.DONE and report.result["players"]
    assert _federation() == before


def test_the_same_question_on_the_same_data_is_answered_once(small_demo, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as queued:
        first = whatif_request(rules=DOUBLE_K)
    assert len(queued) == 1
    with django_capture_on_commit_callbacks(execute=True) as queued:
        again = whatif_request(rules=dataclasses.replace(FESA_RULES, k=DOUBLE_K.k))
    assert again.pk == first.pk and queued == []
    assert again.version == data_version().key and again.rules_key == DOUBLE_K.key
    assert whatif_compute(report_id=first.pk).finished_at == WhatIfReport.objects.get(pk=first.pk).finished_at


def test_a_failed_or_stalled_whatif_is_queued_again(small_demo, django_capture_on_commit_callbacks):
    now = timezone.now()
    report = WhatIfReport.objects.create(
        rules_key=DOUBLE_K.key, rules=DOUBLE_K.as_json(), version=data_version().key, status="running",
        requested_at=now, updated_at=now,
    )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True) as queued:
        assert whatif_request(rules=DOUBLE_K).status == WhatIfReport.Status.RUNNING
    assert queued == []  # running elsewhere
    WhatIfReport.objects.filter(pk=report.pk).update(updated_at=now - STALLED - dt.timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True) as queued:
        whatif_request(rules=DOUBLE_K)
    assert len(queued) == 1
    assert WhatIfReport.objects.get(pk=report.pk).status == WhatIfReport.Status.DONE
    WhatIfReport.objects.filter(pk=report.pk).update(status=WhatIfReport.Status.FAILED)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        assert whatif_request(rules=DOUBLE_K).status == WhatIfReport.Status.QUEUED
    assert len(queued) == 1

"""``manage.py compare_ratings`` on the demo: the table printed, every figure in the CSV."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.core.management import CommandError, call_command

from ratings.models import PredictionReport, WhatIfReport
from tests.factories import make_player

pytestmark = pytest.mark.django_db


def test_the_command_prints_the_table_and_writes_the_csv(small_demo, tmp_path):
    out = io.StringIO()
    path = tmp_path / "figures.csv"
    call_command("compare_ratings", "--csv", str(path), stdout=out)
    text = out.getvalue()
    assert "even games, whole history" in text and "handicap games, whole history" in text
    for system in ("fesa", "elo", "european1996", "game_courier", "glicko2", "openskill"):
        assert f"\n{system} " in text
    report = PredictionReport.objects.get()
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    years = report.result["years"]
    assert len(rows) == 6 * (1 + len(years)) * 2
    fesa = next(r for r in rows if (r["system"], r["period"], r["kind"]) == ("fesa", "all", "even"))
    figures = report.result["figures"]["fesa"]["all"]["even"]
    assert int(fesa["games"]) == figures["games"] and float(fesa["brier"]) == pytest.approx(figures["brier"])
    # Run again: the stored report is printed, not computed anew.
    call_command("compare_ratings", stdout=io.StringIO())
    assert PredictionReport.objects.get().finished_at == report.finished_at


def test_the_demo_comes_with_its_comparison(small_demo):
    report = PredictionReport.objects.get()
    assert report.status == PredictionReport.Status.DONE and report.result["games"] > 0


def test_the_command_replays_a_what_if_and_prints_it_beside_the_stored_ratings(rated_round_robin):
    players = [make_player() for _ in range(4)]
    for month in (1, 2, 3):
        rated_round_robin(players, dt.date(2024, month, 10))
    out = io.StringIO()
    call_command("compare_ratings", "--what-if", "k=32,40,48,56,64,72,80", "--what-if", "handicap.L=0.8", stdout=out)
    report = WhatIfReport.objects.get()
    assert report.status == WhatIfReport.Status.DONE
    assert report.rules["k"] == [32, 40, 48, 56, 64, 72, 80] and report.rules["handicaps"]["L"] == 0.8
    text = out.getvalue()
    assert "k: [16, 20, 24, 28, 32, 36, 40] -> [32, 40, 48, 56, 64, 72, 80]; handicap L: 0.6 -> 0.8" in text
    assert "\nactual " in text and "\nwhatif " in text
    first = report.result["players"][0]
    assert f"player {first['player']}: {first['rating']} -> {first['whatif_rating']}" in text
    assert not PredictionReport.objects.exists()  # the comparison of the systems is another question


@pytest.mark.parametrize("pair", ["k=0,20,24,28,32,36,40", "k=16,20", "x=1", "k", "handicap.Q=1", "bonus_games=-1"])
def test_the_command_refuses_a_what_if_the_rules_cannot_use(pair):
    with pytest.raises(CommandError):
        call_command("compare_ratings", "--what-if", pair, stdout=io.StringIO())
    assert not WhatIfReport.objects.exists()

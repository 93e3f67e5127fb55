"""``manage.py compare_ratings`` on the demo: the table printed, every figure in the CSV."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command

from ratings.models import PredictionReport

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

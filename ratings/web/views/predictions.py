"""How well the ratings predict: FESA's and other systems' figures on the federation's own games, from the
stored report (ratings/services/predictions.py); the page never computes it, it shows how far a run has come."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache

from ratings.selectors.predictions import prediction_reports
from ratings.selectors.versions import data_version

SYSTEMS = {
    "fesa": (gettext_lazy("FESA (the site's ratings)"), gettext_lazy("the ratings stored before each table")),
    "elo": (gettext_lazy("Plain Elo, K = 15"), gettext_lazy("an Elo tutorial (seed 003)")),
    "european1996": (gettext_lazy("European system of 1996"), gettext_lazy("E. Cheymol, 1996 (seed 002)")),
    "game_courier": (gettext_lazy("Game Courier Ratings"), gettext_lazy("F. Duniho, 2006 (seed 004)")),
    "glicko2": (gettext_lazy("Glicko-2"), gettext_lazy("M. Glickman, 2013")),
    "openskill": (gettext_lazy("Bayesian (Weng-Lin)"), gettext_lazy("openskill, Plackett-Luce")),
}


def system_rows(result: dict[str, Any], period: str, kind: str) -> list[dict[str, Any]]:
    """One row per system: its name, source and figures for ``period`` ("all" or a year) and ``kind``."""
    rows = []
    for key in result["systems"]:
        name, source = SYSTEMS.get(key, (key, ""))
        figures = result["figures"][key].get(period, {}).get(kind) or {}
        hits = figures.get("hits")
        rows.append(
            {
                "key": key,
                "name": name,
                "source": source,
                "hits_percent": None if hits is None else hits * 100,
                **figures,
            }
        )
    return rows


def _year_rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"year": year, "cells": system_rows(result, year, "even")} for year in reversed(result["years"])]


def _charts(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Each system's calibration bins, named and titled, for the template's ``calibration_chart`` tag."""
    charts = []
    for key in result["systems"]:
        name = SYSTEMS.get(key, (key, ""))[0]
        charts.append(
            {
                "name": name,
                "bins": result["figures"][key]["all"]["even"]["calibration"],
                "title": _("Calibration of %(system)s, even games") % {"system": name},
                "id": f"calibration-{key}",
            }
        )
    return charts


@never_cache
def predictions(request: HttpRequest) -> HttpResponse:
    """The stored comparison of the current data, or the latest one with a note that the data changed since,
    and the progress of a run under way."""
    version = data_version()
    current, latest = prediction_reports(version.key)
    context: dict[str, Any] = {"section": "statistics", "current": current, "report": latest}
    if latest is not None and latest.result is not None:  # a finished report has its figures
        result = latest.result
        context.update(
            stale=latest is not current,
            result=result,
            even=system_rows(result, "all", "even"),
            handicap=system_rows(result, "all", "handicap"),
            years=_year_rows(result),
            charts=_charts(result),
        )
    return render(request, "ratings/predictions.html", context)

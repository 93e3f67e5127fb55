"""Reads for a what-if's page (ratings/services/whatif.py makes the figures): its figures beside FESA's stored
ones, period by period, and the players it moves, named as the rating officer knows them."""

from __future__ import annotations

from typing import Any

from ratings import engine
from ratings.engine.systems.compare import ALL, FESA
from ratings.models import Player, WhatIfReport

SIDES = ("actual", "whatif")
"""The stored ratings' figures first, then the what-if's."""


def _figures(result: dict[str, Any], side: str, period: str, kind: str) -> dict[str, Any]:
    figures = result[side]["figures"][FESA].get(period, {}).get(kind) or {}
    hits = figures.get("hits")
    return {"side": side, "hits_percent": None if hits is None else hits * 100, **figures}


def whatif_rows(result: dict[str, Any], kind: str, period: str = ALL) -> list[dict[str, Any]]:
    """The stored ratings' figures and the what-if's for ``kind`` ("even" or "handicap") and ``period``."""
    return [_figures(result, side, period, kind) for side in SIDES]


def whatif_years(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Even games year by year, the latest first: each year's two sets of figures."""
    years = sorted({*result["actual"]["years"], *result["whatif"]["years"]}, reverse=True)
    return [{"year": year, "cells": whatif_rows(result, "even", year)} for year in years]


def whatif_calibration(result: dict[str, Any], kind: str = "even") -> list[dict[str, Any]]:
    """The calibration bins of the whole history, 50-55 % up to 95-100 %, the two sides' bins side by side."""
    actual = result["actual"]["figures"][FESA][ALL][kind]["calibration"]
    whatif = result["whatif"]["figures"][FESA][ALL][kind]["calibration"]
    step = 50 // len(actual)
    return [
        {"low": 50 + i * step, "high": 50 + (i + 1) * step, "actual": a, "whatif": w}
        for i, (a, w) in enumerate(zip(actual, whatif, strict=True))
    ]


def whatif_players(report: WhatIfReport) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The players the what-if moves most and those whose grade it changes, each with his name and grades'
    labels: one query for the names."""
    result = report.result or {}
    moved, graded = result.get("players", []), result.get("grades", [])
    ids = {row["player"] for row in [*moved, *graded]}
    names = {
        pk: f"{family} {given}".strip()
        for pk, family, given in Player.objects.filter(pk__in=ids).values_list("pk", "family_name", "given_name")
    }

    def named(row: dict[str, Any]) -> dict[str, Any]:
        return {
            **row,
            "name": names.get(row["player"], f"#{row['player']}"),
            "grade_label": engine.grade_label(row["grade"]) if row["grade"] else "–",
            "whatif_grade_label": engine.grade_label(row["whatif_grade"]) if row["whatif_grade"] else "–",
        }

    return [named(row) for row in moved], [named(row) for row in graded]

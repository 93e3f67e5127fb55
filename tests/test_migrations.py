"""The models and the migrations agree: a model change without its migration fails here."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_migrations_missing_none() -> None:
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exc:  # makemigrations --check exits 1 when a migration is missing
        pytest.fail(f"missing migrations:\n{out.getvalue()} (exit {exc.code})")


@pytest.mark.django_db
def test_roles_migration_creates_the_three_groups() -> None:
    from django.contrib.auth.models import Group

    from ratings.access import GRADE_OFFICERS, RATING_OFFICERS, TOURNAMENT_DIRECTORS

    groups = {g.name: g for g in Group.objects.prefetch_related("permissions")}
    assert {TOURNAMENT_DIRECTORS, RATING_OFFICERS, GRADE_OFFICERS} <= groups.keys()
    director = {p.codename for p in groups[TOURNAMENT_DIRECTORS].permissions.all()}
    grade_officer = {p.codename for p in groups[GRADE_OFFICERS].permissions.all()}
    assert "change_game" in director and "change_promotion" not in director
    assert "change_player" not in director  # prior grades are the rating officers' to change
    assert "change_promotion" in grade_officer and "change_game" not in grade_officer

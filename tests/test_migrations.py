"""The models and the migrations agree: a model change without its migration fails here."""

from __future__ import annotations

import io

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection


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


# (model, foreign key): an index or unique constraint leads with the key's column (migration 0049).
LED_BY_A_COMPOSITE = [
    ("RatingRow", "player"),
    ("RatingRow", "table"),
    ("Game", "table"),
    ("Game", "second"),
    ("TableEntry", "table"),
    ("Promotion", "player"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("model_name", "field"), LED_BY_A_COMPOSITE)
def test_foreign_key_read_through_a_composite_index_only(model_name: str, field: str) -> None:
    """The key's lookups go through an index that leads with its column, and the key has no index of its own
    beside it, which every row a re-rate or an upload writes would update for nothing."""
    model = apps.get_model("ratings", model_name)
    column = model._meta.get_field(field).column
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, model._meta.db_table)
    indexed = [c["columns"] for c in constraints.values() if (c["index"] or c["unique"]) and not c["primary_key"]]
    assert [column] not in indexed
    assert any(len(columns) > 1 and columns[0] == column for columns in indexed)

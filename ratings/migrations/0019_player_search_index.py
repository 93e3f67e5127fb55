"""Indexes of the player search (ratings/selectors/search.py) on PostgreSQL.

The search looks for each word of a query inside the players' search key folded as ``name_fold_key`` folds a
query (REPLACE of the German spellings, in SQL). A trigram index (pg_trgm) on that very expression lets
PostgreSQL read only the rows whose key holds the word's trigrams instead of every player; a partial index finds
the few rows written without a key, which the search matches on their names as typed.

pg_trgm is a trusted extension (PostgreSQL 13+), so the database's owner may create it; where it cannot be
created the search works as before, by reading every player. SQLite has no such index: there the search reads
the players' keys, a few milliseconds at 20,000 players.
"""

from django.db import migrations, transaction

# A frozen copy of ratings.models.GERMAN_FOLDS: the index must stay the expression the search writes.
GERMAN_FOLDS = (("ae", "a"), ("oe", "o"), ("ue", "u"), ("ss", "s"))


def _folded() -> str:
    expression = '"search_name"'
    for pair, single in GERMAN_FOLDS:
        expression = f"REPLACE({expression}, '{pair}', '{single}')"
    return expression


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        try:
            with transaction.atomic(using=schema_editor.connection.alias):
                cursor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        except Exception:  # not allowed here: the search reads every player, as without the index
            return
        cursor.execute(
            "CREATE INDEX IF NOT EXISTS ratings_player_search_trgm ON ratings_player"
            f" USING gin (({_folded()}) gin_trgm_ops)"
        )
        cursor.execute(
            "CREATE INDEX IF NOT EXISTS ratings_player_no_search_key ON ratings_player (id) WHERE search_name = ''"
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("DROP INDEX IF EXISTS ratings_player_search_trgm")
        cursor.execute("DROP INDEX IF EXISTS ratings_player_no_search_key")


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0018_verbose_names"),
    ]

    operations = [migrations.RunPython(create, drop, elidable=False)]

"""The players' search key stored with the German spellings folded (ratings.models.player_search_key).

The search folded every player's key in SQL (four REPLACEs a row) before comparing it with a query folded the same
way: most of a search's time on SQLite, where no index helps. The key is now stored folded, so the search compares
it as stored, and PostgreSQL's trigram index (migration 0019) is made on the column itself instead of on the
expression. Folding the stored key once gives exactly what the search compared before: each pair is replaced
left to right without overlap, as SQL's REPLACE and ``str.replace`` both do.
"""

from django.db import migrations

from ratings.models.common import name_search_key

# A frozen copy of ratings.models.GERMAN_FOLDS as migration 0019 folded with it.
GERMAN_FOLDS = (("ae", "a"), ("oe", "o"), ("ue", "u"), ("ss", "s"))


def _folded_sql() -> str:
    expression = '"search_name"'
    for pair, single in GERMAN_FOLDS:
        expression = f"REPLACE({expression}, '{pair}', '{single}')"
    return expression


def _trigram_index(schema_editor, column: str) -> None:
    """Make the trigram index of the search on ``column`` (SQL), where migration 0019 could make one."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")
        if cursor.fetchone() is None:  # no pg_trgm here: the search reads every player, as before
            return
        cursor.execute("DROP INDEX IF EXISTS ratings_player_search_trgm")
        cursor.execute(f"CREATE INDEX ratings_player_search_trgm ON ratings_player USING gin (({column}) gin_trgm_ops)")


def fold(apps, schema_editor):
    schema_editor.execute(f"UPDATE ratings_player SET search_name = {_folded_sql()} WHERE search_name <> ''")
    if schema_editor.connection.vendor == "postgresql":
        _trigram_index(schema_editor, '"search_name"')


def _plain_key(family_name: str, given_name: str, latin_family_name: str, latin_given_name: str) -> str:
    """The key as stored before this migration."""
    key = name_search_key(f"{family_name} {given_name}")
    family = name_search_key(family_name)
    key = f"{key} {family.replace(' ', '')}" if " " in family else key
    if latin_family_name or latin_given_name:
        key = f"{key} {_plain_key(latin_family_name, latin_given_name, '', '')}"
    return key


def unfold(apps, schema_editor):
    Player = apps.get_model("ratings", "Player")
    changed = []
    for player in Player.objects.exclude(search_name="").only(
        "family_name", "given_name", "latin_family_name", "latin_given_name", "search_name"
    ):
        player.search_name = _plain_key(
            player.family_name, player.given_name, player.latin_family_name, player.latin_given_name
        )
        changed.append(player)
    Player.objects.bulk_update(changed, ["search_name"], batch_size=1000)
    if schema_editor.connection.vendor == "postgresql":
        _trigram_index(schema_editor, _folded_sql())


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0026_rating_row_valid_values"),
    ]

    operations = [migrations.RunPython(fold, unfold, elidable=False)]

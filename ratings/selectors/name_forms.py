"""Players whose name is not in Latin letters and who have no Latin form yet, for rating officers to complete.

FESA's files hold Latin letters only. The admin requires the Latin form the player uses (``latin_family_name``,
``latin_given_name``) for a new name in another script, but players entered before it did, or imported, may
lack it: the files then write their name transliterated letter by letter (ratings/fesa_files/encoding.py, which
reads Japanese as Chinese: 山田 太郎 -> ShanTian TaiLang), which is rarely the form the player uses.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from ratings.models import Player, in_latin_script

# The code points of Latin names (Basic Latin to the combining marks, Latin Extended Additional, -C, -D and -E)
# and of the punctuation names hold: a name with any other character may be in another script, which
# ``in_latin_script`` then decides. A regular expression both SQLite (Django's REGEXP) and PostgreSQL read.
_MAYBE_OTHER_SCRIPT = "[^ -\u036f\u1e00-\u1eff\u2000-\u206f\u2c60-\u2c7f\ua720-\ua7ff\uab30-\uab6f]"


def players_without_latin_form(players: QuerySet[Player] | None = None) -> QuerySet[Player]:
    """Those of ``players`` (default: every player not merged) whose name has letters of another script and who
    have no Latin form. Two queries: the database finds the names with a character outside Latin's blocks, and
    Python keeps those with a letter of another script (a typographic apostrophe is not one)."""
    if players is None:
        players = Player.objects.filter(merged_into__isnull=True)
    maybe = players.filter(latin_family_name="").filter(
        Q(family_name__regex=_MAYBE_OTHER_SCRIPT) | Q(given_name__regex=_MAYBE_OTHER_SCRIPT)
    )
    ids = [
        pk
        for pk, family, given in maybe.order_by().values_list("pk", "family_name", "given_name")
        if not in_latin_script(f"{family} {given}")
    ]
    return players.filter(pk__in=ids)

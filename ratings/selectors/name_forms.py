"""Players whose name is not in Latin letters and who have no Latin form yet, for rating officers to complete.

FESA's files hold Latin letters only. The admin requires the Latin form the player uses (``latin_family_name``,
``latin_given_name``) for a new name in another script, but players entered before it did, or imported, may
lack it: the files then write their name transliterated letter by letter (ratings/fesa_files/encoding.py, which
reads Japanese as Chinese: 山田 太郎 -> ShanTian TaiLang), which is rarely the form the player uses.

For a Japanese name, ``japanese_reading`` offers a reading in Hepburn romaji (cutlet, with the UniDic dictionary
of unidic-lite, installed with it: nothing is downloaded at run time), for the officer to confirm with the
player: a name's kanji have several readings (聡太 is Sota, the dictionary reads Satoshifutoshi), so it is a
suggestion shown beside the fields, never written by itself.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

import cutlet
from django.db.models import Q, QuerySet

from ratings.fesa_files.encoding import latin1_text
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


_KANA = re.compile("[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@cache
def _romaji() -> cutlet.Cutlet:
    """The converter, made once per process (it loads the dictionary: about 0.2 s)."""
    return cutlet.Cutlet("hepburn")


def japanese_reading(*, family_name: str, given_name: str, nationality: str = "") -> tuple[str, str] | None:
    """A reading of a Japanese name in Latin letters, family name first, or None when the name is not Japanese:
    kana, or kanji of a player of Japanese nationality (kanji alone may be a Chinese name, read otherwise)."""
    name = f"{family_name}{given_name}"
    if not (_KANA.search(name) or (_HAN.search(name) and nationality == "JP")):
        return None
    # One word each: the dictionary reads a name's characters apart (そうた -> "Sou ta").
    family, given = ("".join(_romaji().romaji(part).split()).capitalize() for part in (family_name, given_name))
    if not in_latin_script(f"{family} {given}") or "?" in family + given:
        return None  # a character the dictionary does not know: no half reading
    return family, given


class Transliterated(NamedTuple):
    """A player the files write transliterated: his name, as all.txt writes it, and a reading to check if any."""

    player: Player
    written: str
    reading: str


def names_transliterated() -> list[Transliterated]:
    """Every player without a Latin form whose name the files transliterate, by name: what a rating officer must
    complete before a list goes out (the admin's player list, filter "Latin form: missing")."""
    out = []
    for player in players_without_latin_form().order_by("family_name", "given_name", "pk"):
        reading = japanese_reading(
            family_name=player.family_name, given_name=player.given_name, nationality=str(player.nationality)
        )
        written = latin1_text(f"{player.family_name} {player.given_name}".strip())
        out.append(Transliterated(player, written, " ".join(filter(None, reading or ()))))
    return out

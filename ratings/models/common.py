"""Shared pieces of the models: name keys for searching, federation ids, and the choices several models use."""

from __future__ import annotations

import datetime
import secrets
import unicodedata
from typing import Any

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.db.models import Func, Q
from django.utils.translation import gettext_lazy as _

from ratings.engine import categories, grade_label
from ratings.engine.grades import AWARDED_GRADES, NO_GRADE
from ratings.engine.prior_grades import PRIOR_GRADE_LEVELS
from ratings.fesa_files.names import refused_character

VALID_FOREVER = datetime.date(9999, 12, 31)
"""``RatingRow.valid_until`` of a player's latest row."""

GRADE_CHOICES = [(g, grade_label(g) if g != NO_GRADE else _("no grade")) for g in AWARDED_GRADES]
"""The FESA grade scale as the engine numbers it (ratings/engine/grades.py)."""


def prior_grade_condition() -> Q:
    """What the database accepts as a prior grade: none, or one the engine's ``PRIOR_GRADE_LEVELS`` allows."""
    condition = Q(prior_grade_kind="") & Q(prior_grade_level__isnull=True)
    for kind, (low, high) in PRIOR_GRADE_LEVELS.items():
        # A range test alone lets a NULL level through (a CHECK passes on unknown), so a kind without a level
        # would be stored, though nothing rates it as a prior grade.
        level = Q(prior_grade_level__isnull=False) & Q(prior_grade_level__gte=low) & Q(prior_grade_level__lte=high)
        condition |= Q(prior_grade_kind=kind) & level
    return condition


# Letters that Unicode does not decompose into a base letter and an accent, spelt as people type them.
_PLAIN_LETTERS = str.maketrans(
    {
        "ø": "o",
        "Ø": "O",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "đ": "d",
        "Đ": "D",
        "ł": "l",
        "Ł": "L",
        "þ": "th",
        "Þ": "TH",
        "ı": "i",
        "ß": "ss",
    }
)


def name_search_key(text: str) -> str:
    """The accent-free, case-free form of a name that name search compares: "Åberg Wiethölter" -> "aberg wietholter".

    Done in Python rather than with a database function so that SQLite and PostgreSQL match alike; spaces
    are collapsed so that a query's words can be looked for one by one.
    """
    if text.isascii():  # most names: no accent to drop, no letter to spell out
        return " ".join(text.casefold().split())
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN_LETTERS))
    folded = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(folded.split())


def player_search_key(
    family_name: str, given_name: str, latin_family_name: str = "", latin_given_name: str = ""
) -> str:
    """A player's stored search key: his name's key, and a family name of several words once more as one word,
    since "de Vries" is also typed "devries" and "van der Meer" "vandermeer"; then the same of the Latin form of
    a name in another script, so that 山田 太郎 is found as "yamada" too. It is stored with the German spellings
    folded, as ``name_fold_key`` folds a query, so that a search compares it as stored."""
    return german_folded(_plain_search_key(family_name, given_name, latin_family_name, latin_given_name))


def _plain_search_key(family_name: str, given_name: str, latin_family_name: str, latin_given_name: str) -> str:
    key = name_search_key(f"{family_name} {given_name}")
    family = name_search_key(family_name)
    key = f"{key} {family.replace(' ', '')}" if " " in family else key
    if latin_family_name or latin_given_name:
        key = f"{key} {_plain_search_key(latin_family_name, latin_given_name, '', '')}"
    return key


def in_latin_script(text: str) -> bool:
    """Whether every letter of ``text`` is a Latin one (é, ł and ß are; 山, я and α are not): a name that is
    not needs its Latin form for FESA's files, which hold only Latin letters."""
    return all(unicodedata.name(c, "").startswith("LATIN") or c in "ªº" for c in text if c.isalpha())


def latin_name(family_name: str, given_name: str, latin_family_name: str, latin_given_name: str) -> tuple[str, str]:
    """The name FESA's files and the exports write: the Latin form where one is given, else the name itself
    (whose letters outside ISO-8859-1 the files then transliterate, ratings/fesa_files/encoding.py)."""
    if latin_family_name:
        return latin_family_name, latin_given_name
    return family_name, given_name


GERMAN_FOLDS = (("ae", "a"), ("oe", "o"), ("ue", "u"), ("ss", "s"))
"""German names written without umlauts or ß, in the order they are folded: a name search folds both the query
and the stored key with them, so that "mueller", "müller" and "muller" all read "muller"."""


def german_folded(key: str) -> str:
    """A name's key with the German spellings folded, pair by pair in ``GERMAN_FOLDS``' order, each left to right
    without overlap: "mueller" -> "muller"."""
    for pair, single in GERMAN_FOLDS:
        key = key.replace(pair, single)
    return key


def name_fold_key(text: str) -> str:
    """The search key of ``text`` with the German spellings folded: "Müller" and "Mueller" -> "muller", the form
    in which a player's ``search_name`` is stored (``player_search_key``) and a query compared with it."""
    return german_folded(name_search_key(text))


def new_federation_id() -> str:
    """A short, unambiguous code that identifies a player for good (no 0/O or 1/I to misread)."""
    alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
    return "".join(secrets.choice(alphabet) for _ in range(8))


class PriorGradeKind(models.TextChoices):
    KYU = "kyu", _("Kyu")
    DAN = "dan", _("Dan (amateur)")
    PRO = "pro", _("Dan (professional)")


class PriorGradeSource(models.TextChoices):
    NATIONAL = "national", _("national federation")
    NSR = "nsr", _("Japan Shogi Association (NSR)")
    OTHER = "other", _("other")


class Category(models.TextChoices):
    """Where a player stands in the rules (ratings/engine/categories.py): unrated, provisional, established."""

    UNRATED = categories.UNRATED, _("unrated")
    PROVISIONAL = categories.PROVISIONAL, _("provisional")
    ESTABLISHED = categories.ESTABLISHED, _("established")


class JSONArrayLength(Func):
    """Length of a JSON array (SQLite ``json_array_length``, PostgreSQL ``jsonb_array_length``)."""

    function = "JSON_ARRAY_LENGTH"
    output_field = models.IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return super().as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra)


class IsoDate(Func):
    """The date a ``YYYY-MM-DD`` text names, in an expression a generated column may hold: SQLite's ``date()``;
    on PostgreSQL ``make_date`` of its parts, as a cast from text to date depends on the session's settings
    and a generated column may only hold what does not."""

    function = "DATE"
    output_field = models.DateField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        text, params = compiler.compile(self.source_expressions[0])
        parts = ", ".join(f"SUBSTR({text}, {start}, {length})::integer" for start, length in ((1, 4), (6, 2), (9, 2)))
        return f"MAKE_DATE({parts})", params * 3


def place_name(city: str, country: Any) -> str:
    """ "Lyon, France": a city and its country's name (a django-countries ``Country``, named in the active
    language), either part alone, or "" for neither: where a tournament is held or a club meets."""
    return ", ".join(part for part in (city, str(country.name or "")) if part)


def check_names(instance: models.Model, *fields: str) -> None:
    """Refuse names holding control, format (right-to-left overrides, zero-width characters) or line-separator
    characters, each error on its field and naming the character (ratings/fesa_files/names.py): the rule the
    file readers apply, for the admin's and the site's forms (``Model.clean``)."""
    errors = {}
    for field in fields:
        char = refused_character(getattr(instance, field) or "")
        if char is not None:
            errors[field] = _(
                "A name may not hold %(char)s: no control, invisible format (such as right-to-left or zero-width) "
                "or line-separator character."
            ) % {"char": char}
    if errors:
        raise ValidationError(errors)


def concrete_field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """``model``'s field ``name`` (or its attname) as a field of its own table; a reverse relation raises
    FieldDoesNotExist."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise FieldDoesNotExist(f"{model.__name__}.{name} is a relation from another model")
    return field


def db_column(model: type[models.Model], name: str) -> str:
    """The column of ``model``'s field ``name`` (or its attname), for raw SQL; a field without a column of its
    own (a reverse relation, a many-to-many) raises FieldDoesNotExist rather than write a wrong statement."""
    column = concrete_field(model, name).column
    if column is None:
        raise FieldDoesNotExist(f"{model.__name__}.{name} has no column of its own")
    return column

"""Clubs imported in bulk from a CSV file (the admin's import screen; ratings/admin/clubs.py).

The file has a header line naming its columns: ``name`` and ``country`` (a two-letter code) are required,
``city`` and ``website`` optional, in any order; ``,`` or ``;`` separates them. A line names a club matched by
``club_match``: a known club gets the file's city and web site, an unknown one is created. Every line is
checked first; a file with any problem saves nothing, and each problem names its line.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction
from django.utils.translation import gettext as _
from django_countries import countries

from ratings.fesa_files.names import refused_character
from ratings.models import Club, name_fold_key
from ratings.services.clubs.matching import club_match

MAX_CLUB_LINES = 5000
REQUIRED = ("name", "country")
KNOWN = (*REQUIRED, "city", "website")


class ClubImportRejected(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class ClubLine:
    line: int
    name: str
    country: str
    city: str
    website: str
    club: Club | None = None  # the club it matched; None: a new one


@dataclass
class ClubImport:
    lines: list[ClubLine] = field(default_factory=list)

    @property
    def created(self) -> int:
        return sum(1 for line in self.lines if line.club is None)

    @property
    def updated(self) -> int:
        return len(self.lines) - self.created


def _rows(text: str) -> tuple[list[str], list[list[str]]]:
    sample = text[:2000]
    delimiter = ";" if sample.count(";") > sample.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows = [row for row in reader]
    if not rows:
        raise ClubImportRejected([_("The file is empty.")])
    header = [cell.strip().lower() for cell in rows[0]]
    missing = [name for name in REQUIRED if name not in header]
    if missing:
        raise ClubImportRejected(
            [_("Line 1 must name the columns; missing: %(names)s.") % {"names": ", ".join(missing)}]
        )
    return header, rows[1:]


def _check(values: dict[str, str], number: int, seen: dict[tuple[str, str], int]) -> list[str]:
    problems = []
    where = _("Line %(line)d") % {"line": number}
    if not values["name"]:
        problems.append(_("%(where)s: the club has no name.") % {"where": where})
    for column in ("name", "city"):
        char = refused_character(values[column])
        if char is not None:
            problems.append(
                _("%(where)s: the %(column)s holds %(char)s.") % {"where": where, "column": column, "char": char}
            )
    if values["country"] not in countries:
        problems.append(
            _("%(where)s: “%(code)s” is not a two-letter country code.") % {"where": where, "code": values["country"]}
        )
    if values["website"]:
        try:
            URLValidator(schemes=["http", "https"])(values["website"])
        except ValidationError:
            problems.append(_("%(where)s: the web site is not an http(s) address.") % {"where": where})
    for column, limit in (("name", 150), ("city", 100), ("website", 200)):
        if len(values[column]) > limit:
            problems.append(_("%(where)s: the %(column)s is too long.") % {"where": where, "column": column})
    key = (values["country"], name_fold_key(values["name"]))
    if values["name"] and key in seen:
        problems.append(_("%(where)s: the same club as line %(other)d.") % {"where": where, "other": seen[key]})
    seen.setdefault(key, number)
    return problems


def clubs_import(*, text: str, commit: bool) -> ClubImport:
    """The clubs of the CSV ``text``, each matched or new; saved with ``commit`` (else a preview). Raises
    ``ClubImportRejected`` with every problem, nothing saved."""
    header, rows = _rows(text)
    if len(rows) > MAX_CLUB_LINES:
        raise ClubImportRejected([_("At most %(count)d clubs per file.") % {"count": MAX_CLUB_LINES}])
    result, problems = ClubImport(), []
    seen: dict[tuple[str, str], int] = {}
    for number, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue
        values = {
            name: (row[header.index(name)].strip() if name in header and header.index(name) < len(row) else "")
            for name in KNOWN
        }
        values["country"] = values["country"].upper()
        problems += _check(values, number, seen)
        result.lines.append(ClubLine(number, values["name"], values["country"], values["city"], values["website"]))
    if problems:
        raise ClubImportRejected(problems)
    for line in result.lines:
        line.club = club_match(name=line.name, country=line.country)
    if commit:
        _save(result)
    return result


@transaction.atomic
def _save(result: ClubImport) -> None:
    for line in result.lines:
        club = line.club or Club(name=line.name, country=line.country)
        club.city, club.website = line.city or club.city, line.website or club.website
        club.save()

"""Categories of players a list can be narrowed to: the age categories (juniors, seniors; the federation's bands,
``AGE_CATEGORIES``) read from the date of birth on the list's date, and the women's list (``WOMENS_LIST``), of
the players a rating officer put on it with their consent. Only the category is published, never the date of
birth (docs/privacy.md).

A computed list's entries hold each player's narrowest age category on the list's date, which its category filter
reads (``category_entries_q``); an official list's filter, the club rankings and the top lists filter players
with ``category_q``, and a player's category is shown with ``age_categories_of``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.engine.age_categories import AgeBand, age_category, birth_range, parse_bands
from ratings.models import Club, ClubMembership, Player
from ratings.selectors.clubs import player_club_history, ranked_players

WOMEN = "W"
"""The women's list's code among the categories."""
TOP_PER_CATEGORY = 10


def age_bands() -> tuple[AgeBand, ...]:
    """The federation's age categories, juniors youngest first, then seniors oldest first."""
    return parse_bands(settings.AGE_CATEGORIES)


def category_label(code: str) -> str:
    """ "Under 12", "65 and over", "Women"; "" for an unknown code."""
    if code == WOMEN:
        return _("Women")
    for band in age_bands():
        if band.code == code:
            return (_("Under %(age)d") if band.junior else _("%(age)d and over")) % {"age": band.age}
    return ""


def category_choices() -> list[tuple[str, str]]:
    """(code, label) of every category a list may be narrowed to."""
    choices = [(band.code, category_label(band.code)) for band in age_bands()]
    if settings.WOMENS_LIST:
        choices.append((WOMEN, category_label(WOMEN)))
    return choices


def category_codes() -> list[str]:
    """The codes of ``category_choices``, without their labels (no translation needed)."""
    return [band.code for band in age_bands()] + ([WOMEN] if settings.WOMENS_LIST else [])


def category_q(code: str, on: dt.date) -> Q:
    """The players in category ``code`` on ``on``, as a condition on ``Player``: a junior band holds every
    younger player, a senior band every older one; ``W`` the women's list. Raises ``ValueError`` for a code the
    federation does not publish (a filter's form refuses it first)."""
    if code == WOMEN and settings.WOMENS_LIST:
        return Q(on_womens_list=True)
    for band in age_bands():
        if band.code == code:
            after, on_or_before = birth_range(band, on)
            return Q(date_of_birth__gt=after) if after else Q(date_of_birth__lte=on_or_before)
    raise ValueError(f"no category {code!r}")


def category_entries_q(code: str) -> Q:
    """The entries of a stored list in category ``code`` on the list's date, as a condition on ``ListEntry``: each
    entry holds its narrowest age category, so a junior band takes the entries of it and of every younger band, a
    senior band of it and of every older one. Raises ``ValueError`` as ``category_q``."""
    if code == WOMEN and settings.WOMENS_LIST:
        return Q(womens_list=True)
    bands = age_bands()
    for band in bands:
        if band.code == code:
            younger = [b.code for b in bands if b.junior and b.age <= band.age]
            older = [b.code for b in bands if not b.junior and b.age >= band.age]
            return Q(age_group__in=younger if band.junior else older)
    raise ValueError(f"no category {code!r}")


def player_age_category(player: Player, on: dt.date) -> str:
    """``player``'s narrowest age category on ``on`` (its code), or "" (no date of birth, or in none)."""
    return age_category(player.date_of_birth, on, age_bands())


def age_categories_of(player_ids: Iterable[int], on: dt.date) -> dict[int, str]:
    """The age category of each of ``player_ids`` on ``on`` (players in none are left out). One query; the dates
    of birth stay here."""
    bands = age_bands()
    births = Player.objects.filter(pk__in=list(player_ids), date_of_birth__isnull=False).values_list(
        "pk", "date_of_birth"
    )
    found = {pk: age_category(birth, on, bands) for pk, birth in births}
    return {pk: code for pk, code in found.items() if code}


@dataclass(frozen=True)
class AgeCategory:
    code: str
    label: str


@dataclass(frozen=True)
class PlayerGroups:
    """A player's club and categories on a date, as the public pages and the API show them."""

    club: Club | None
    club_history: list[ClubMembership]  # the latest first
    age_category: AgeCategory | None  # the narrowest
    womens_list: bool


def player_groups(player: Player, on: dt.date) -> PlayerGroups:
    """``player``'s club on ``on`` with every change of club, his narrowest age category on ``on`` and whether he
    is on the women's list (never, where the federation publishes none). One query (the clubs)."""
    history = player_club_history(player)
    code = player_age_category(player, on)
    return PlayerGroups(
        club=next((m.club for m in history if m.since <= on), None),
        club_history=history,
        age_category=AgeCategory(code, category_label(code)) if code else None,
        womens_list=bool(settings.WOMENS_LIST and player.on_womens_list),
    )


@dataclass(frozen=True)
class CategoryTop:
    code: str
    label: str
    players: list[Player]


def top_per_category(limit: int = TOP_PER_CATEGORY) -> list[CategoryTop]:
    """The best ``limit`` of today's top list (active, established, not professionals) in each category, as FIDE
    publishes its juniors', seniors' and women's lists. One query per category."""
    today = timezone.localdate()
    return [
        CategoryTop(
            code,
            label,
            list(
                ranked_players()
                .filter(category_q(code, today))
                .order_by("-rating", "family_name", "given_name", "pk")[:limit]
            ),
        )
        for code, label in category_choices()
    ]

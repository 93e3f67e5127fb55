"""Everything the site holds about one player, as a JSON document: his answer to a GDPR access request.

The document has his identity as stored now, every recorded change of it (django-simple-history, with who
made it), his opening state from a migrated FESA list, his table entries, games, rating rows, promotions and
the exports and erasures done for him. Opponents appear by federation id and the name the public pages show.
docs/privacy.md says what each part is and why it is held.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from ratings.engine.age_categories import age_category, parse_bands
from ratings.models import (
    ClubMembership,
    Game,
    MistakeReport,
    OpeningState,
    OutgoingMail,
    Player,
    PrivacyAction,
    Promotion,
    RatingRow,
    Subscription,
    TableEntry,
)

DOCUMENT_VERSION = 1

HISTORY_COLUMNS = ("history_id", "history_date", "history_type", "history_change_reason")


def _plain(value: Any) -> Any:
    """A stored value as JSON holds it: dates in ISO 8601, countries as their codes."""
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, (Decimal, Fraction)):
        return float(value)
    if hasattr(value, "code"):  # django-countries' Country
        return value.code
    return value


def _row(obj: models.Model, exclude: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every stored column of ``obj`` (foreign keys as ids), ``exclude`` left out."""
    return {
        field.attname: _plain(getattr(obj, field.attname))
        for field in obj._meta.concrete_fields
        if field.name not in exclude and field.attname not in exclude
    }


def _changes(player: Player) -> list[dict[str, Any]]:
    changes = []
    for record in player.history.select_related("history_user").order_by("history_date", "history_id"):
        user = record.history_user
        changes.append(
            {
                "at": _plain(record.history_date),
                "kind": {"+": "created", "~": "changed", "-": "deleted"}.get(record.history_type, record.history_type),
                "by": user.get_username() if user is not None else None,
                "reason": record.history_change_reason,
                "values": _row(record, exclude=(*HISTORY_COLUMNS, "history_user", "id")),
            }
        )
    return changes


def _games(player: Player) -> list[dict[str, Any]]:
    games = []
    query = Game.objects.filter(Q(first=player) | Q(second=player)).select_related("first", "second", "table")
    for game in query.order_by("table__date", "table__sequence", "round"):
        opponent = game.second if game.first_id == player.pk else game.first
        games.append(
            {
                **_row(game, exclude=("first", "second")),
                "table_date": _plain(game.table.date),
                "seat": "first" if game.first_id == player.pk else "second",
                "opponent": None
                if opponent is None
                else {"federation_id": opponent.federation_id, "name": str(opponent)},
            }
        )
    return games


def _subscriptions(player: Player) -> list[dict[str, Any]]:
    """The addresses told about him (ratings/services/season/subscriptions.py), each with its messages."""
    subscriptions = []
    for subscription in Subscription.objects.filter(player=player).order_by("created_at", "pk"):
        messages = OutgoingMail.objects.filter(event_key__startswith=f"subscription:{subscription.pk}:")
        subscriptions.append(
            {
                **_row(subscription, exclude=("player",)),
                "messages": [_row(m, exclude=("id", "body", "headers")) for m in messages.order_by("created_at")],
            }
        )
    return subscriptions


def _clubs(player: Player) -> list[dict[str, Any]]:
    """His clubs by date (ratings/models/clubs.py), each with the club's name, and every recorded change."""
    memberships = ClubMembership.objects.filter(player=player).select_related("club").order_by("since", "pk")
    changes = ClubMembership.history.filter(player_id=player.pk).order_by("history_date", "history_id")
    return [{**_row(m, exclude=("player",)), "club_name": m.club.name if m.club else None} for m in memberships] + [
        {
            "change": {"+": "created", "~": "changed", "-": "deleted"}.get(c.history_type, c.history_type),
            "at": _plain(c.history_date),
            "club_id": c.club_id,
            "since": _plain(c.since),
        }
        for c in changes
    ]


def _categories(player: Player) -> dict[str, Any]:
    """The categories the site publishes for him today: his age category (from the date of birth, which the
    player row above holds) and the women's list, with the date of his consent."""
    bands = parse_bands(settings.AGE_CATEGORIES)
    return {
        "age_category": age_category(player.date_of_birth, timezone.localdate(), bands) or None,
        "on_womens_list": player.on_womens_list,
        "womens_list_consent": _plain(player.womens_list_consent),
    }


def player_personal_data(*, player: Player) -> dict[str, Any]:
    """The document of everything held about ``player``; plain JSON types only."""
    opening = OpeningState.objects.filter(player=player).first()
    entries = TableEntry.objects.filter(player=player).select_related("table__tournament").order_by("table__date")
    return {
        "document": "personal data held by the federation's rating site",
        "version": DOCUMENT_VERSION,
        "exported_at": _plain(timezone.now()),
        "player": _row(player, exclude=("search_name",)),
        "changes": _changes(player),
        "opening_state": None if opening is None else _row(opening, exclude=("player",)),
        "tables": [
            {
                **_row(entry, exclude=("player",)),
                "tournament": str(entry.table.tournament),
                "table": str(entry.table),
                "date": _plain(entry.table.date),
            }
            for entry in entries
        ],
        "games": _games(player),
        "ratings": [_row(row, exclude=("player",)) for row in RatingRow.objects.filter(player=player)],
        "promotions": [
            _row(p, exclude=("player", "decided_by", "reviewed_by"))
            for p in Promotion.objects.filter(player=player).order_by("created_at")
        ],
        "subscriptions": _subscriptions(player),
        "clubs": _clubs(player),
        "categories": _categories(player),
        # What was reported about him; not the reporters' addresses, which are theirs, not his.
        "reports": [
            _row(r, exclude=("player", "email", "decided_by"))
            for r in MistakeReport.objects.filter(player=player).order_by("created_at", "pk")
        ],
        "privacy_actions": [
            _row(a, exclude=("player", "done_by")) for a in PrivacyAction.objects.filter(player=player)
        ],
    }

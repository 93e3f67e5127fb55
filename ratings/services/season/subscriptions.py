"""Players' subscribers: people told by e-mail, without an account, when a table a player played is rated or
corrected and when he is awarded a grade.

* **Double opt-in.** ``subscription_request`` records the address unconfirmed and queues a message whose link
  carries a signed, expiring token (django.core.signing) with the choices asked for; only
  ``subscription_confirm`` with that token makes the row confirmed, and nothing is sent for events before. An
  unconfirmed row expires after SUBSCRIPTION_CONFIRM_DAYS (``subscriptions_expire``, daily). A request for an
  address already subscribed queues a new confirmation too, so that nobody but the address's owner changes its
  choices, and the person asking is told the same thing whatever was there: whether an address is subscribed
  is never revealed. An address is sent at most ``CONFIRMATIONS_PER_DAY`` confirmation requests a day.
* **Messages.** After a re-rate, each confirmed subscriber of a player whose stored figures it changed (a rating
  row of his came, went or moved, or his rating, grade or games counted; ``RerateChange``, recorded by the run)
  gets one message, listing those tables with the change, the new rating and the link to the page that
  explains it, and his figures before → after. A player whose table was redone but whose figures came out the
  same is not told of. The runs not told yet are told together and marked told in the same transaction (a
  burst of edits is one message; a worker stopped after its run leaves them to the next task; a repeated task
  sends nothing new). A grade awarded (a Kyu grade found by the run, a Dan grade approved by a grade
  officer) is one message per promotion. Each is in the language the subscriber chose and carries a one-click
  unsubscribe link, in the body and in the List-Unsubscribe headers (RFC 8058).
* **Personal data.** Addresses are never shown publicly; the outbox rows of a subscription carry its id in
  their event (``subscription:<id>:...``), so unsubscribing, expiry and the player's erasure delete them with it.

A subscription to a record later merged into another follows the kept record's tables and grades.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ratings.db import advisory_xact_lock
from ratings.engine import grade_label
from ratings.models import (
    OutgoingMail,
    Player,
    Promotion,
    PromotionStatus,
    RatingRow,
    RerateChange,
    RerateRun,
    Subscription,
    Table,
)
from ratings.services.mail import mail_queue, site_link

CONFIRM_SALT = "ratings.subscriptions.confirm"
UNSUBSCRIBE_SALT = "ratings.subscriptions.unsubscribe"
CONFIRMATIONS_PER_DAY = 3
"""Confirmation requests sent to one address in a day, whatever the players: a stranger cannot flood it."""
ADDRESS_LOCK = 0x5E5A_0003
"""The class of the advisory locks that hold one address while its day's confirmations are counted."""


class SubscriptionInvalid(ValueError):
    """The request names no event, or a language the site does not speak."""


def _event(subscription_id: int, rest: str) -> str:
    return f"subscription:{subscription_id}:{rest}"


def normalise_email(email: str) -> str:
    """Addresses compare without case: one person does not get two subscriptions by writing it twice."""
    return email.strip().lower()


# --- Tokens ----------------------------------------------------------------------------------------------------


def confirm_token(*, subscription: Subscription, language: str, on_tables: bool, on_grades: bool) -> str:
    """A signed, timestamped token of the subscription and the choices its confirmation will set."""
    payload = {"s": subscription.pk, "l": language, "t": on_tables, "g": on_grades}
    return signing.dumps(payload, salt=CONFIRM_SALT, compress=True)


def unsubscribe_token(subscription: Subscription) -> str:
    """A signed token of the subscription, without expiry: the link in a message works for as long as it exists."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign(str(subscription.pk))


def confirm_payload(token: str) -> dict[str, Any] | None:
    """The choices a confirmation token carries, or None when it is forged, damaged or expired."""
    max_age = dt.timedelta(days=settings.SUBSCRIPTION_CONFIRM_DAYS)
    try:
        payload = signing.loads(token, salt=CONFIRM_SALT, max_age=max_age)
    except signing.BadSignature:  # SignatureExpired included
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("s"), int):
        return None
    if payload.get("l") not in dict(settings.LANGUAGES) or not (payload.get("t") or payload.get("g")):
        return None
    return payload


def unsubscribe_id(token: str) -> int | None:
    try:
        value = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign(token)
    except signing.BadSignature:
        return None
    return int(value) if value.isdigit() else None


def unsubscribe_url(subscription: Subscription) -> str:
    return site_link("ratings:unsubscribe", unsubscribe_token(subscription))


def unsubscribe_headers(subscription: Subscription) -> dict[str, str]:
    """One-click unsubscribe (RFC 8058): the mail program POSTs ``List-Unsubscribe=One-Click`` to the URL."""
    return {
        "List-Unsubscribe": f"<{unsubscribe_url(subscription)}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": "auto-generated",
    }


# --- Subscribing, confirming, leaving ---------------------------------------------------------------------------


def subscription_request(*, player: Player, email: str, language: str, on_tables: bool, on_grades: bool) -> None:
    """Ask that ``email`` be told about ``player``: queue the confirmation message (see the module's doc).

    Returns nothing on purpose: the caller says the same thing whether the address was new, waiting for its
    confirmation or subscribed already, and whether a message was sent. Raises SubscriptionInvalid.
    """
    if language not in dict(settings.LANGUAGES):
        raise SubscriptionInvalid(f"unknown language {language!r}")
    if not (on_tables or on_grades):
        raise SubscriptionInvalid("no event chosen")
    email = normalise_email(email)
    now = timezone.now()
    with transaction.atomic():
        _address_lock(email)
        subscription, _created = Subscription.objects.get_or_create(
            player=player, email=email, defaults={"language": language, "on_tables": on_tables, "on_grades": on_grades}
        )
        if subscription.confirmed_at is None:  # nothing is sent for it yet: the latest request's choices hold
            Subscription.objects.filter(pk=subscription.pk).update(
                language=language, on_tables=on_tables, on_grades=on_grades
            )
        recent = OutgoingMail.objects.filter(
            recipient=email, event_key__startswith="subscription:", event_key__contains=":confirm:"
        ).filter(created_at__gte=now - dt.timedelta(days=1))
        if recent.count() >= CONFIRMATIONS_PER_DAY:
            return
        token = confirm_token(subscription=subscription, language=language, on_tables=on_tables, on_grades=on_grades)
        with translation.override(language):
            subject, body = _confirmation_text(player, token, on_tables=on_tables, on_grades=on_grades)
        choice = f"{language}:{int(on_tables)}{int(on_grades)}"
        key = _event(subscription.pk, f"confirm:{timezone.localdate(now).isoformat()}:{choice}")
        mail_queue(event_key=key, recipient=email, subject=subject, body=body)


def _address_lock(email: str) -> None:
    """Hold ``email`` until the transaction ends, so that its day's confirmations are counted and the next one
    queued by one request at a time (a burst from many client addresses all counted 2 and all queued).
    PostgreSQL: an advisory lock keyed by the address's hash; SQLite lets one transaction write at a time."""
    key = int.from_bytes(hashlib.sha256(email.encode()).digest()[:4], "big", signed=True)
    advisory_xact_lock(ADDRESS_LOCK, key)


def _events_text(*, on_tables: bool, on_grades: bool) -> list[str]:
    events = []
    if on_tables:
        events.append(_("a table the player played is rated or corrected"))
    if on_grades:
        events.append(_("the player is awarded a grade"))
    return events


def _confirmation_text(player: Player, token: str, *, on_tables: bool, on_grades: bool) -> tuple[str, str]:
    subject = _("FESA ratings: confirm the messages about %(player)s") % {"player": player}
    link = site_link("ratings:subscription_confirm", token)
    lines = [
        _(
            "Someone, probably you, asked the FESA rating site to send this address a message when, for "
            "%(player)s (federation id %(id)s):"
        )
        % {"player": player, "id": player.federation_id},
        *(f"- {event}" for event in _events_text(on_tables=on_tables, on_grades=on_grades)),
        "",
        _("To confirm, open this link within %(days)d days and press the button:")
        % {"days": settings.SUBSCRIPTION_CONFIRM_DAYS},
        link,
        "",
        _("If you did not ask for it, ignore this message: nothing more will be sent."),
    ]
    return subject, "\n".join(lines)


def subscription_confirm(*, token: str) -> Subscription | None:
    """Confirm the subscription of ``token`` with the choices it carries; None for a bad or expired token or a
    subscription that no longer exists. Confirming again changes nothing more."""
    payload = confirm_payload(token)
    if payload is None:
        return None
    with transaction.atomic():
        subscription = Subscription.objects.select_for_update().filter(pk=payload["s"]).first()
        if subscription is None:
            return None
        subscription.language = payload["l"]
        subscription.on_tables, subscription.on_grades = bool(payload["t"]), bool(payload["g"])
        subscription.confirmed_at = subscription.confirmed_at or timezone.now()
        subscription.save(update_fields=["language", "on_tables", "on_grades", "confirmed_at"])
    return subscription


def subscription_confirmed(payload: dict[str, Any]) -> Subscription | None:
    """The subscription of a confirmation ``payload`` if it is confirmed already with the choices it carries: a
    link opened again says so, rather than asking as if nothing had been done."""
    return Subscription.objects.filter(
        pk=payload["s"],
        confirmed_at__isnull=False,
        language=payload["l"],
        on_tables=bool(payload["t"]),
        on_grades=bool(payload["g"]),
    ).first()


def subscription_cancel(*, token: str) -> bool:
    """Delete the subscription of an unsubscribe ``token`` and its messages; False for a bad token. An address
    unsubscribed already is no error: the link may be followed twice."""
    subscription_id = unsubscribe_id(token)
    if subscription_id is None:
        return False
    with transaction.atomic():
        _delete(Subscription.objects.filter(pk=subscription_id))
    return True


def _delete(subscriptions: Any) -> int:
    """Delete ``subscriptions`` (a queryset) and the outbox rows of their messages, which hold the address."""
    ids = list(subscriptions.values_list("pk", flat=True))
    for pk in ids:
        OutgoingMail.objects.filter(event_key__startswith=_event(pk, "")).delete()
    return Subscription.objects.filter(pk__in=ids).delete()[0] if ids else 0


def subscriptions_delete(*, ids: list[int]) -> int:
    """Delete these subscriptions with their messages (a rating officer in the admin); how many."""
    with transaction.atomic():
        return _delete(Subscription.objects.filter(pk__in=ids))


def subscriptions_expire(*, now: dt.datetime) -> int:
    """Delete the subscriptions left unconfirmed past SUBSCRIPTION_CONFIRM_DAYS; how many."""
    limit = now - dt.timedelta(days=settings.SUBSCRIPTION_CONFIRM_DAYS)
    with transaction.atomic():
        return _delete(Subscription.objects.filter(confirmed_at__isnull=True, created_at__lt=limit))


def subscriptions_erase(*, player: Player) -> int:
    """The player's erasure: every subscription to him goes, with its messages (ratings/services/privacy.py)."""
    return _delete(Subscription.objects.filter(player=player))


# --- Telling the subscribers ------------------------------------------------------------------------------------


def _watching(player_ids: Any, **flags: bool) -> Any:
    """Confirmed subscriptions to these players, or to records merged into them."""
    return (
        Subscription.objects.filter(confirmed_at__isnull=False, **flags)
        .filter(Q(player_id__in=player_ids) | Q(player__merged_into_id__in=player_ids))
        .select_related("player__merged_into")
        .order_by("pk")
    )


def runs_subscribers_notify() -> int:
    """Queue the subscribers' messages of every finished re-rate run not told yet; how many were queued.

    A subscriber of a player whose stored figures the runs changed (``RerateChange``) gets one message for them
    all, with the tables whose rows of his changed and his figures before and after; a player a run merely
    passed over is not told of. The Kyu grades the runs awarded are told too (``promotion_subscribers_notify``).

    Called after every re-rate call, and when a task finds nothing pending: the runs are marked told in the
    transaction that queues their messages (the outbox's rows), so a worker stopped between a run and its
    telling leaves them for the next task, and a repeated task finds nothing left; the runs are locked while
    they are told, so that two workers do not both tell them.
    """
    with transaction.atomic():
        runs = list(
            RerateRun.objects.select_for_update()
            .filter(finished_at__isnull=False, subscribers_told_at__isnull=True)
            .order_by("started_at", "pk")
        )
        if not runs:
            return 0
        queued = _runs_tell(runs)
        RerateRun.objects.filter(pk__in=[run.pk for run in runs]).update(subscribers_told_at=timezone.now())
    return queued


def _runs_tell(runs: list[RerateRun]) -> int:
    start, end, last = runs[0].started_at, max(run.finished_at for run in runs if run.finished_at), runs[-1]
    changes: dict[int, tuple[dict[str, int], dict[str, int], set[int]]] = {}
    for change in RerateChange.objects.filter(run__in=runs).order_by("run__started_at", "run_id"):
        first = changes.get(change.player_id)
        before = change.before if first is None else first[0]  # as the earliest run found him
        tables = set(change.tables) | (first[2] if first else set())
        changes[change.player_id] = (before, change.after, tables)
    queued = 0
    for subscription in _watching(list(changes), on_tables=True):
        player = subscription.player  # or the record it was merged into, which holds its tables now
        kept = player.merged_into if player.merged_into_id in changes else player
        assert kept is not None
        before, after, tables = changes[kept.pk]
        rows = list(
            RatingRow.objects.filter(player=kept, table_id__in=tables)
            .select_related("table__tournament")
            .order_by("date", "sequence")
        )
        with translation.override(subscription.language):
            subject, body = _tables_text(
                subscription, kept, rows, tables=tables, before=before, after=after, first_from=start
            )
        queued += (
            mail_queue(
                event_key=_event(subscription.pk, f"run:{last.pk}"),
                recipient=subscription.email,
                subject=subject,
                body=body,
                headers=unsubscribe_headers(subscription),
            )
            is not None
        )
    watched = Subscription.objects.filter(confirmed_at__isnull=False).values_list("player_id", flat=True)
    merged = Player.objects.filter(pk__in=watched, merged_into__isnull=False).values_list("merged_into_id", flat=True)
    kyu = Promotion.objects.filter(
        status=PromotionStatus.EFFECTIVE,
        created_at__gte=start,
        created_at__lte=end,
        player_id__in={*watched, *merged},
    )
    for promotion in kyu.select_related("player"):
        queued += promotion_subscribers_notify(promotion=promotion)
    return queued


def _tables_text(
    subscription: Subscription,
    player: Player,
    rows: list[RatingRow],
    *,
    tables: set[int],
    before: dict[str, int],
    after: dict[str, int],
    first_from: dt.datetime,
) -> tuple[str, str]:
    subject = _("FESA ratings: new ratings for %(player)s") % {"player": player}
    lines = [_("%(player)s (federation id %(id)s):") % {"player": player, "id": player.federation_id}, ""]
    for row in rows:
        table = row.table
        first = table.first_rated_at is not None and table.first_rated_at >= first_from
        what = _("rated for the first time") if first else _("rated again after a correction")
        if row.change is None:
            figures = _("rated by performance, new rating %(rating)d") % {"rating": row.rating_after}
        else:
            figures = _("rating change %(change)s, new rating %(rating)d") % {
                "change": f"{row.change:+d}",
                "rating": row.rating_after,
            }
        lines.append(  # the punctuation is the language's: French spaces its colons and semicolons
            _("%(table)s (%(date)s): %(what)s; %(figures)s.")
            % {"table": table.label, "date": table.date.isoformat(), "what": what, "figures": figures}
        )
        link = site_link("ratings:player_table", player.federation_id, table.pk)
        lines.append(_("How the rating moved: %(url)s") % {"url": link})
        lines.append("")
    gone = Table.objects.filter(pk__in=tables - {row.table_id for row in rows}).select_related("tournament")
    for table in gone.order_by("date", "sequence"):
        lines.append(
            _("%(table)s (%(date)s): no longer counted for the player.")
            % {"table": table.label, "date": table.date.isoformat()}
        )
        lines.append("")
    lines.extend(_figures_lines(before, after))
    return subject, "\n".join([*lines, "", *_footer(subscription)])


def _figures_lines(before: dict[str, int], after: dict[str, int]) -> list[str]:
    """The player's figures that changed, before → after; his rating now when none did (a past table changed
    and later ones brought him back to where he was)."""
    lines = []
    if before["rating"] != after["rating"]:
        lines.append(_("Rating: %(before)d → %(after)d.") % {"before": before["rating"], "after": after["rating"]})
    if before["grade"] != after["grade"]:
        grades = {"before": grade_label(before["grade"]), "after": grade_label(after["grade"])}
        lines.append(_("Grade: %(before)s → %(after)s.") % grades)
    if before["games"] != after["games"]:
        lines.append(_("Games counted: %(before)d → %(after)d.") % {"before": before["games"], "after": after["games"]})
    return lines or [_("The player's rating now: %(rating)d.") % {"rating": after["rating"]}]


def _footer(subscription: Subscription) -> list[str]:
    return [
        "-- ",
        _("You receive this message because this address asked the FESA rating site to be told about %(player)s.")
        % {"player": subscription.player},
        _("Unsubscribe with one click: %(url)s") % {"url": unsubscribe_url(subscription)},
    ]


def promotion_subscribers_notify(*, promotion: Promotion) -> int:
    """Queue the subscribers' messages for a grade awarded to the promotion's player (a Kyu grade in effect, a
    Dan grade approved), once per promotion and subscriber; how many were queued."""
    if promotion.status not in (PromotionStatus.EFFECTIVE, PromotionStatus.APPROVED):
        return 0
    player = promotion.player
    queued = 0
    for subscription in _watching([player.pk], on_grades=True):
        with translation.override(subscription.language):
            grade = grade_label(promotion.grade)
            subject = _("FESA ratings: %(player)s is awarded %(grade)s") % {"player": player, "grade": grade}
            link = site_link("ratings:player", player.federation_id, fragment="grades")
            lines = [
                _("%(player)s (federation id %(id)s) is awarded the grade %(grade)s.")
                % {"player": player, "id": player.federation_id, "grade": grade},
                _("The player's grade history: %(url)s") % {"url": link},
                "",
                *_footer(subscription),
            ]
        queued += (
            mail_queue(
                event_key=_event(subscription.pk, f"grade:{promotion.pk}"),
                recipient=subscription.email,
                subject=subject,
                body="\n".join(lines),
                headers=unsubscribe_headers(subscription),
            )
            is not None
        )
    return queued

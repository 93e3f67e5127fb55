"""The grade officers' daily digest: the promotions waiting for a decision, the 5 and 6 Dan ones waiting for the
Japan Shogi Association's (NSR) consent, and the approved grades a correction left unsupported, each with a link
to its page in the admin.

Sent to every active member of the grade officers' group who has an e-mail address, once a day (the event names
the day, so a second run of the daily task sends nothing new) and only when something waits. The text is in the
site's default language (LANGUAGE_CODE): staff have no language of their own in the site.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ratings.access import GRADE_OFFICERS
from ratings.engine import grade_label
from ratings.models import Promotion
from ratings.selectors.grades import promotions_to_decide, waiting_days
from ratings.services.mail import mail_queue, site_link

DIGEST_LIMIT = 10
"""Promotions listed per part; the queue's link shows the rest."""


def grade_digest_queue(*, today: dt.date) -> int:
    """Queue the grade officers' digest of ``today``; how many messages were queued (0 when nothing waits)."""
    parts = promotions_to_decide()
    counts = {name: queryset.count() for name, queryset in parts.items()}
    if not any(counts.values()):
        return 0
    officers = get_user_model().objects.filter(groups__name=GRADE_OFFICERS, is_active=True).exclude(email="")
    recipients = sorted(set(officers.values_list("email", flat=True)))
    if not recipients:
        return 0
    with translation.override(settings.LANGUAGE_CODE):
        headings = {
            "decision": _("Dan promotions waiting for a decision: %(count)d"),
            "consent": _(
                "5 and 6 Dan promotions waiting for the NSR's consent, to approve once it has consented: %(count)d"
            ),
            "flagged": _("Approved grades a correction left unsupported, to keep or take away: %(count)d"),
        }
        subject = _("FESA ratings: what waits for the grade officers on %(date)s") % {"date": today.isoformat()}
        lines: list[str] = []
        for name, queryset in parts.items():
            if counts[name]:
                lines += ["", headings[name] % {"count": counts[name]}, *_listed(queryset, counts[name], today)]
        lines += [
            "",
            _("The grade officers' queue: %(url)s") % {"url": site_link("admin:ratings_promotion_changelist")},
        ]
        body = "\n".join(lines).strip() + "\n"
        key = f"grade-digest:{today.isoformat()}"
        return sum(
            mail_queue(event_key=key, recipient=email, subject=subject, body=body) is not None for email in recipients
        )


def _listed(queryset: QuerySet[Promotion], count: int, today: dt.date) -> list[str]:
    lines = []
    for promotion in queryset[:DIGEST_LIMIT]:
        days = waiting_days(promotion, today=today)
        where = str(promotion.table) if promotion.table is not None else _("its table was deleted")
        lines.append(
            ngettext(
                "- %(player)s (%(id)s): %(grade)s, %(where)s, waiting %(days)d day",
                "- %(player)s (%(id)s): %(grade)s, %(where)s, waiting %(days)d days",
                days,
            )
            % {
                "player": promotion.player,
                "id": promotion.player.federation_id,
                "grade": grade_label(promotion.grade),
                "where": where,
                "days": days,
            }
        )
        lines.append(f"  {site_link('admin:ratings_promotion_change', promotion.pk)}")
    if count > DIGEST_LIMIT:
        lines.append(_("… and %(count)d more in the queue.") % {"count": count - DIGEST_LIMIT})
    return lines

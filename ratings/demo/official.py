"""The demo's published official lists: the list of each 1 January of the demo's period (the last three), published
by its rating officer as one would (ratings/services/official_lists.py), so that the official lists' pages,
their PDF and each player's peak rank have something to show."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from ratings.access import RATING_OFFICERS
from ratings.models import OfficialList, Table
from ratings.services.official_lists import official_list_publish

LISTS = 3


def demo_official_lists() -> list[dt.date]:
    """Publish the lists of the latest ``LISTS`` first days of January after the first table (none published
    yet); the dates published. Nothing without a rating officer or a superuser to publish them."""
    users = get_user_model().objects.filter(Q(groups__name=RATING_OFFICERS) | Q(is_superuser=True), is_active=True)
    officer = users.order_by("pk").first()
    first = Table.objects.order_by("date").values_list("date", flat=True).first()
    if officer is None or first is None:
        return []
    today = timezone.localdate()
    dates = [dt.date(year, 1, 1) for year in range(first.year + 1, today.year + 1)][-LISTS:]
    published = []
    for date in dates:
        if not OfficialList.objects.filter(date=date).exists():
            official_list_publish(date=date, user=officer, title=f"Official list {date:%Y-%m}", expected=None)
            published.append(date)
    return published

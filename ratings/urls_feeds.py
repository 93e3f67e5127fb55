"""Atom feeds of the latest rated tables and promotions: ratings/feeds.py."""

from __future__ import annotations

from django.urls import path

from ratings import feeds
from ratings.conditional import public_page

app_name = "feeds"

urlpatterns = [
    # Validators and the page cache as every public page (ratings/conditional.py): feed readers poll.
    path("tables.atom", public_page(feeds.RatedTablesFeed()), name="tables"),
    path("promotions.atom", public_page(feeds.PromotionsFeed()), name="promotions"),
]

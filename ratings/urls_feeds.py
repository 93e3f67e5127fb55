"""Atom feeds of the latest rated tables and promotions: ratings/feeds.py."""

from __future__ import annotations

from django.urls import path

from ratings import feeds

app_name = "feeds"

urlpatterns = [
    path("tables.atom", feeds.RatedTablesFeed(), name="tables"),
    path("promotions.atom", feeds.PromotionsFeed(), name="promotions"),
]

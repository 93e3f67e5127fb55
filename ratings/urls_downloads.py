"""The downloads page and the rating history files: ratings/views_downloads.py."""

from __future__ import annotations

from django.urls import path

from ratings import views_downloads

app_name = "downloads"

urlpatterns = [
    path("", views_downloads.downloads, name="index"),
    path("<str:name>", views_downloads.history_file, name="file"),
]

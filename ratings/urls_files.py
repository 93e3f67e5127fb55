"""Downloads of the FESA program's files (result tables, rating lists)."""

from __future__ import annotations

from django.urls import path

app_name = "files"

urlpatterns: list = []

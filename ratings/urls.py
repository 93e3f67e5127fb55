"""Public pages of the federation site."""

from __future__ import annotations

from django.urls import path

app_name = "ratings"

urlpatterns: list = []

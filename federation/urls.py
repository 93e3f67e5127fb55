"""URLs: the public pages of ratings/ at the root, the admin under ``ADMIN_URL`` (``admin/`` unless set), the
health endpoints for monitoring, and the read-only JSON API under ``api/v1/``."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from federation import health

urlpatterns = [
    path(settings.ADMIN_URL, admin.site.urls),
    path("health/live", health.live, name="health-live"),
    path("health/ready", health.ready, name="health-ready"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("files/", include("ratings.urls_files")),
    path("api/v1/", include("ratings.api.urls")),
    path("feeds/", include("ratings.urls_feeds")),
    path("downloads/", include("ratings.urls_downloads")),
    path("", include("ratings.urls")),
]

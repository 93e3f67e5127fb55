"""URLs: the public pages of ratings/ at the root, the admin under ``ADMIN_URL`` (``admin/`` unless set), the
health endpoints for monitoring, and the read-only JSON API under ``api/v1/``."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.contrib.sitemaps import views as sitemaps
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView
from django.views.i18n import set_language

from federation import health, metrics
from ratings.web import urls as web
from ratings.web.sitemaps import SITEMAPS
from ratings.web.views.robots import robots_txt

# Under /api/v1/ errors are the API's JSON (ratings/api/errors.py); elsewhere the site's error pages.
handler400 = "ratings.api.errors.bad_request"
handler404 = "ratings.api.errors.page_not_found"
handler500 = "ratings.api.errors.server_error"

urlpatterns = [
    path(settings.ADMIN_URL + "second-factor/", include("ratings.admin.second_factor")),
    path(settings.ADMIN_URL, admin.site.urls),
    path("health/live", health.live, name="health-live"),
    path("health/ready", health.ready, name="health-ready"),
    path("metrics", metrics.metrics, name="metrics"),
    # The footer's language choice. Without a CSRF token: a forged request can only change a visitor's language,
    # and a token would give every public page a cookie of its own, so no cache could share them.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("robots.txt", robots_txt, name="robots"),
    path("sitemap.xml", sitemaps.index, {"sitemaps": SITEMAPS, "sitemap_url_name": "sitemap"}, name="sitemap-index"),
    path("sitemap-<section>.xml", sitemaps.sitemap, {"sitemaps": SITEMAPS}, name="sitemap"),
    path("files/", include((web.files_urlpatterns, "files"))),
    path("api/", RedirectView.as_view(pattern_name="api-v1:index")),  # the address people guess: the current version
    path("api/v1/", include("ratings.api.urls")),
    path("feeds/", include((web.feeds_urlpatterns, "feeds"))),
    path("downloads/", include((web.downloads_urlpatterns, "downloads"))),
    path("", include(web)),
]

"""URLs: the public pages of ratings/ at the root, the admin under /admin/."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("files/", include("ratings.urls_files")),
    path("", include("ratings.urls")),
]

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created  # noqa: PLC0415 - the app registry is ready now

        from ratings.db import session_prepare  # noqa: PLC0415

        connection_created.connect(session_prepare, dispatch_uid="ratings.db.session_prepare")

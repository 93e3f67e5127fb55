"""Test settings: the real settings, made fast and deterministic."""

from __future__ import annotations

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LOGGING = {"version": 1, "disable_existing_loggers": False}

# Tests run without collectstatic: let WhiteNoise look files up as they are requested instead of warning.
WHITENOISE_AUTOREFRESH = True

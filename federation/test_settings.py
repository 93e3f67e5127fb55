"""Test settings: the real settings, made fast and deterministic."""

from __future__ import annotations

import os

# The tests run the development configuration; tests/test_deploy.py starts production ones in processes of their own.
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("LOG_FORMAT", "text")  # a test worker's log is read by people and by the tests ("ready.")

from .settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Tests run without collectstatic: let WhiteNoise look files up as they are requested instead of warning.
WHITENOISE_AUTOREFRESH = True

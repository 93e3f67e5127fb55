"""Reading settings from the environment, failing loudly on malformed values.

A typo in a production variable must stop the site at start-up, not fall back silently to a default.
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r}: expected one of 1/0, true/false, yes/no, on/off")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a comma-separated list")
    return items


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a whole number") from None


def env_url(name: str, schemes: set[str]) -> str | None:
    """A URL whose scheme is one of ``schemes``, or None when the variable is unset or empty."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    parsed = urlparse(raw)
    if parsed.scheme not in schemes or not (parsed.netloc or parsed.path):
        allowed = ", ".join(sorted(f"{s}://" for s in schemes))
        raise ImproperlyConfigured(f"{name}={raw!r}: expected a URL starting with {allowed}")
    return raw


def secret_key_problem(key: str, *, development_key: str) -> str | None:
    """Why ``key`` cannot sign a production site's sessions and tokens, or None if it can.

    The bar is Django's own deployment check (at least 50 characters, at least 5 different ones), refused at
    start-up instead of warned about, and the development key is never accepted.
    """
    if not key:
        return "must be set"
    if key == development_key or key.startswith("django-insecure-"):
        return "is a development key"
    if len(key) < 50 or len(set(key)) < 5:
        return "is too short: use at least 50 random characters"
    return None

"""Links in e-mail: a message is written by a task, with no request to tell the site's address, so the links
are made from SITE_URL (docs/deploy.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse


def site_link(url_name: str, *args: Any, query: str = "", fragment: str = "") -> str:
    """The absolute address of the named URL (``query`` without its "?", ``fragment`` without its "#"), as people
    reach the site."""
    path = reverse(url_name, args=args)
    return f"{settings.SITE_URL}{path}" + (f"?{query}" if query else "") + (f"#{fragment}" if fragment else "")

"""/favicon.ico: browsers ask for it on pages that name no icon (the admin's, a feed's), so no console shows a 404."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    # The static file's address is asked at the request, not when the URLs are loaded: with the manifest storage
    # of production it exists only once collectstatic has run.
    return HttpResponsePermanentRedirect(static("favicon.svg"))

"""robots.txt: crawlers are welcome on the pages people read, and kept off the endless ones (every past day's
list, every search's results, the calculator's answers, the API and the exports), which the sitemap does not list
either. The search and the calculator themselves are pages to find (the sitemap lists them): only their
addresses with a query (``/search/?q=…``) are kept off, as robots.txt rules match the start of an address."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

DISALLOWED = ("search/?", "calculator/?", "lists/", "export.", "api/", "i18n/")


@require_GET
@cache_control(max_age=86_400, public=True)
def robots_txt(request: HttpRequest) -> HttpResponse:
    lines = ["User-agent: *", *(f"Disallow: /{path}" for path in DISALLOWED), "Allow: /lists/official/"]
    lines.append(f"Sitemap: {request.build_absolute_uri(reverse('sitemap-index'))}")
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")

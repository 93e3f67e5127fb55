"""Top lists per category: juniors, seniors and the women's list, as FIDE publishes them."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ratings.selectors.categories import top_per_category
from ratings.web.caching import public_page


@public_page
def category_tops(request: HttpRequest) -> HttpResponse:
    """The best players of today's list in each category."""
    return render(request, "ratings/category_tops.html", {"tops": top_per_category(), "section": "statistics"})

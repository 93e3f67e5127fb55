"""Recent promotions and the Dan promotions waiting for approval."""

from __future__ import annotations

from django.core.paginator import EmptyPage
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_tables2.paginators import LazyPaginator

from ratings import selectors
from ratings.selectors.search import namesake_ids
from ratings.web.caching import public_page
from ratings.web.tables import PendingPromotionTable
from ratings.web.views.paging import int_param, paginate_table

MAX_PAGE = 2**31  # a page's offset must stay within the databases' integers


@public_page
def promotion_list(request: HttpRequest) -> HttpResponse:
    """Recent promotions, table by table (as FESA prints them under each result table), and the Dan
    promotions waiting for approval."""
    # Newer and older pages, without a count: counting every table that promoted someone reads nearly all tables.
    paginator = LazyPaginator(selectors.promotion_tables(), 10)
    number = int_param(request, "page", 1)
    try:
        page = paginator.page(number if number < MAX_PAGE else 0)  # past the end, or past what SQL can offset
    except EmptyPage:
        page = paginator.page(1)
    lines = selectors.table_promotions([t.pk for t in page.object_list])
    recent = [(t, lines.get(t.pk, [])) for t in page.object_list]
    namesakes = namesake_ids([line.player for table_lines in lines.values() for line in table_lines])
    pending = PendingPromotionTable(selectors.pending_promotions(), prefix="pending-")
    paginate_table(pending, request, per_page=25)
    context = {"page": page, "recent": recent, "pending": pending, "section": "promotions", "namesakes": namesakes}
    return render(request, "ratings/promotion_list.html", context)

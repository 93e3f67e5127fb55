"""Recent promotions and the Dan promotions waiting for approval."""

from __future__ import annotations

from django.core.paginator import EmptyPage, PageNotAnInteger
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_tables2.paginators import LazyPaginator

from ratings import selectors
from ratings.selectors.search import namesake_ids
from ratings.web.caching import public_page
from ratings.web.tables import PendingPromotionTable
from ratings.web.views.paging import paginate_table


@public_page
def promotion_list(request: HttpRequest) -> HttpResponse:
    """Recent promotions, table by table (as FESA prints them under each result table), and the Dan
    promotions waiting for approval."""
    # Newer and older pages, without a count: counting every table that promoted someone reads nearly all tables.
    paginator = LazyPaginator(selectors.promotion_tables(), 10)
    try:
        page = paginator.page(request.GET.get("page") or 1)
    except (EmptyPage, PageNotAnInteger):
        page = paginator.page(1)
    lines = selectors.table_promotions([t.pk for t in page.object_list])
    recent = [(t, lines.get(t.pk, [])) for t in page.object_list]
    namesakes = namesake_ids([line.player for table_lines in lines.values() for line in table_lines])
    pending = PendingPromotionTable(selectors.pending_promotions(), prefix="pending-")
    paginate_table(pending, request, per_page=25)
    context = {"page": page, "recent": recent, "pending": pending, "section": "promotions", "namesakes": namesakes}
    return render(request, "ratings/promotion_list.html", context)

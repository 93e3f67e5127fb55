"""A submitted or rated table's page."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from ratings import selectors
from ratings.models import Table as RatedTable
from ratings.models import TableStatus
from ratings.selectors.search import namesake_ids
from ratings.selectors.tournaments import table_number_of_day
from ratings.web.caching import public_page


@public_page
def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A submitted or rated table: its crosstable, its promotions, its status and dates."""
    try:
        table = selectors.table_for_page(pk)
    except RatedTable.DoesNotExist:
        raise Http404(_("No public table has that number.")) from None
    result_txt = reverse("files:table_result_txt", args=[table.pk]) if table.status == TableStatus.RATED else None
    crosstable = selectors.table_crosstable(table)
    context = {
        "crosstable": crosstable,
        "table": table,
        "result_txt_url": result_txt,
        "namesakes": namesake_ids([row.player for row in crosstable.rows]),
        "of_day": table_number_of_day(table),
    }
    return render(request, "ratings/table_detail.html", context)

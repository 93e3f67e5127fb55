"""Paging and sorting of the public tables, from the query string."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.core.paginator import EmptyPage, PageNotAnInteger, Paginator
from django.http import HttpRequest
from django_tables2 import RequestConfig, Table

PER_PAGE_CHOICES = (25, 50, 100, 200)


def int_param(request: HttpRequest, name: str, default: int, allowed: tuple[int, ...] | None = None) -> int:
    try:
        value = int(request.GET.get(name, default))
    except ValueError:
        return default
    if allowed is not None and value not in allowed:
        return default
    return value


class CountedPaginator(Paginator):
    """A paginator told how many rows there are (a stored list counts its lines once): no COUNT query."""

    def __init__(self, *args: Any, count: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.known_count = count

    @cached_property
    def count(self) -> int:
        return self.known_count


def paginate_table(table: Table, request: HttpRequest, *, per_page: int, count: int | None = None) -> None:
    """Sort the table from the request (unknown columns are ignored) and show the requested page, or the
    first/last page for a page number that is not one. ``count``: the rows' number where it is known already."""
    RequestConfig(request, paginate=False).configure(table)
    page = int_param(request, table.prefixed_page_field, 1)
    counted: dict[str, Any] = {} if count is None else {"paginator_class": CountedPaginator, "count": count}
    try:
        table.paginate(page=page, per_page=per_page, **counted)
    except (EmptyPage, PageNotAnInteger):
        table.page = table.paginator.page(1 if page < 1 else table.paginator.num_pages)

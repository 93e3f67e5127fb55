"""Paging and sorting of the public tables, from the query string."""

from __future__ import annotations

from django.core.paginator import EmptyPage, PageNotAnInteger
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


def paginate_table(table: Table, request: HttpRequest, *, per_page: int) -> None:
    """Sort the table from the request (unknown columns are ignored) and show the requested page, or the
    first/last page for a page number that is not one."""
    RequestConfig(request, paginate=False).configure(table)
    page = int_param(request, table.prefixed_page_field, 1)
    try:
        table.paginate(page=page, per_page=per_page)
    except (EmptyPage, PageNotAnInteger):
        table.page = table.paginator.page(1 if page < 1 else table.paginator.num_pages)

"""Pages of API lists: ``?page=`` and ``?page_size=`` (at most 200), 50 rows unless asked."""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination


class ApiPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

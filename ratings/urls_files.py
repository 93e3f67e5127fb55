"""Downloads of the FESA program's files (result tables, rating lists): ratings/views_files.py."""

from __future__ import annotations

from django.urls import path

from ratings import views_files

app_name = "files"

urlpatterns = [
    path("tables/<int:pk>/result.txt", views_files.table_result_txt_view, name="table_result_txt"),
    path("rating-list", views_files.rating_list_view, name="rating_list"),
]

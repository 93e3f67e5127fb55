"""Public pages of the federation site: the rating list (the front page), players, tables, tournaments and
promotions."""

from __future__ import annotations

from django.urls import path

from ratings import views, views_official, views_pages

app_name = "ratings"

urlpatterns = [
    path("", views.rating_list, name="rating_list"),
    # Before "lists/<date>/", which would take "official" for a date.
    path("lists/official/", views_official.official_list_archive, name="official_lists"),
    path("lists/official/<str:list_date>/", views_official.official_list, name="official_list"),
    path("lists/official/<str:list_date>/revised/", views_official.official_list_revised, name="official_list_revised"),
    path(
        "lists/official/<str:list_date>/all.txt",
        views_official.official_list_file,
        {"fmt": "all.txt"},
        name="official_list_txt",
    ),
    path(
        "lists/official/<str:list_date>/list.csv",
        views_official.official_list_file,
        {"fmt": "csv"},
        name="official_list_csv",
    ),
    path(
        "lists/official/<str:list_date>/list.json",
        views_official.official_list_file,
        {"fmt": "json"},
        name="official_list_json",
    ),
    path("lists/<str:list_date>/", views.rating_list, name="rating_list_of"),
    path("export.csv", views.rating_list_export, {"fmt": "csv"}, name="rating_list_csv"),
    path("export.json", views.rating_list_export, {"fmt": "json"}, name="rating_list_json"),
    path("players/<str:federation_id>/", views.player_detail, name="player"),
    path("players/<str:federation_id>/tables/<int:table_id>/", views.player_table, name="player_table"),
    path("tables/<int:pk>/", views.table_detail, name="table"),
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("promotions/", views.promotion_list, name="promotions"),
]

urlpatterns += [
    path("search/", views_pages.search, name="search"),
    path("tournaments/<int:pk>/", views_pages.tournament_detail, name="tournament"),
    path("calculator/", views_pages.calculator, name="calculator"),
    path("statistics/", views_pages.statistics, name="statistics"),
]

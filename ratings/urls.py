"""Public pages of the federation site: the rating list (the front page), players, tables, tournaments and
promotions."""

from __future__ import annotations

from django.urls import path

from ratings import views, views_pages

app_name = "ratings"

urlpatterns = [
    path("", views.rating_list, name="rating_list"),
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

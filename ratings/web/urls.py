"""The public site's URLs. federation/urls.py mounts each list under its own prefix and namespace:
``urlpatterns`` at the root ("ratings"), ``files_urlpatterns`` under /files/ (the FESA program's files),
``feeds_urlpatterns`` under /feeds/ and ``downloads_urlpatterns`` under /downloads/."""

from __future__ import annotations

from django.urls import path, re_path

from ratings.web import feeds
from ratings.web.caching import public_page
from ratings.web.views import (
    calculator,
    calendar,
    categories,
    clubs,
    downloads,
    embed,
    favicon,
    files,
    head_to_head,
    lists,
    official,
    players,
    predictions,
    promotions,
    reports,
    search,
    statistics,
    subscriptions,
    tables,
    tournaments,
)

app_name = "ratings"

urlpatterns = [
    path("", lists.rating_list, name="rating_list"),
    # Browsers ask for /favicon.ico on pages that name no icon (the admin's, a feed's): no 404 in any console.
    path("favicon.ico", favicon.favicon, name="favicon"),
    # Before "lists/<date>/", which would take "official" for a date.
    path("lists/official/", official.official_list_archive, name="official_lists"),
    path("lists/official/<str:list_date>/", official.official_list, name="official_list"),
    path("lists/official/<str:list_date>/revised/", official.official_list_revised, name="official_list_revised"),
    path(
        "lists/official/<str:list_date>/all.txt",
        official.official_list_file,
        {"fmt": "all.txt"},
        name="official_list_txt",
    ),
    path(
        "lists/official/<str:list_date>/list.csv", official.official_list_file, {"fmt": "csv"}, name="official_list_csv"
    ),
    path(
        "lists/official/<str:list_date>/list.json",
        official.official_list_file,
        {"fmt": "json"},
        name="official_list_json",
    ),
    path(
        "lists/official/<str:list_date>/list.pdf", official.official_list_file, {"fmt": "pdf"}, name="official_list_pdf"
    ),
    path("lists/<str:list_date>/", lists.rating_list, name="rating_list_of"),
    path("export.csv", lists.rating_list_export, {"fmt": "csv"}, name="rating_list_csv"),
    path("export.json", lists.rating_list_export, {"fmt": "json"}, name="rating_list_json"),
    path("export.xlsx", lists.rating_list_export, {"fmt": "xlsx"}, name="rating_list_xlsx"),
    path("export.ods", lists.rating_list_export, {"fmt": "ods"}, name="rating_list_ods"),
    path("export.excel.csv", lists.rating_list_export, {"fmt": "excel.csv"}, name="rating_list_excel_csv"),
    path("players/<str:federation_id>/", players.player_detail, name="player"),
    path("players/<str:federation_id>/tables/<int:table_id>/", players.player_table, name="player_table"),
    path("players/<str:federation_id>/opponents/", head_to_head.opponents, name="opponents"),
    path("players/<str:federation_id>/vs/<str:other_id>/", head_to_head.head_to_head_page, name="head_to_head"),
    path("players/<str:federation_id>/badge.svg", embed.player_badge, name="player_badge"),
    path("players/<str:federation_id>/subscribe/", subscriptions.subscribe, name="subscribe"),
    path("players/<str:federation_id>/subscribe/sent/", subscriptions.subscribe_sent, name="subscribe_sent"),
    path(
        "subscriptions/confirm/<str:token>/",
        subscriptions.subscription_confirm_view,
        name="subscription_confirm",
    ),
    path("subscriptions/unsubscribe/<str:token>/", subscriptions.unsubscribe, name="unsubscribe"),
    path("players/<str:federation_id>/report/", reports.report, name="report_player"),
    path("tables/<int:pk>/report/", reports.report, name="report_table"),
    path("reports/sent/", reports.report_sent, name="report_sent"),
    path("reports/confirm/<str:token>/", reports.report_confirm_view, name="report_confirm"),
    path("embed/top/", embed.top_list, name="embed_top"),
    path("tables/<int:pk>/", tables.table_detail, name="table"),
    path("tournaments/", tournaments.tournament_list, name="tournaments"),
    path("tournaments/<int:pk>/", tournaments.tournament_detail, name="tournament"),
    path("calendar/", calendar.calendar, name="calendar"),
    path("calendar/results/", calendar.results_status, name="results_status"),
    path("promotions/", promotions.promotion_list, name="promotions"),
    path("search/", search.search, name="search"),
    path("calculator/", calculator.calculator, name="calculator"),
    path("statistics/", statistics.statistics, name="statistics"),
    path("statistics/categories/", categories.category_tops, name="category_tops"),
    path("clubs/", clubs.club_list, name="clubs"),
    path("clubs/<int:pk>/", clubs.club_detail, name="club"),
    path("countries/", clubs.country_list, name="countries"),
    path("statistics/predictions/", predictions.predictions, name="predictions"),
]

files_urlpatterns = [
    path("tables/<int:pk>/result.txt", files.table_result_txt_view, name="table_result_txt"),
    path("rating-list", files.rating_list_view, name="rating_list"),
]

feeds_urlpatterns = [
    # Validators and the page cache as every public page (ratings/web/caching.py): feed readers poll.
    path("tables.atom", public_page(feeds.RatedTablesFeed()), name="tables"),
    path("promotions.atom", public_page(feeds.PromotionsFeed()), name="promotions"),
    path("clubs/<int:pk>.atom", public_page(feeds.ClubTablesFeed()), name="club"),
    path("tournaments.atom", public_page(feeds.AnnouncedTournamentsFeed()), name="announced"),
    path("calendar.ics", public_page(calendar.calendar_ical), name="calendar"),
    re_path(r"^calendar-(?P<country>[A-Za-z]{2})\.ics$", public_page(calendar.calendar_ical), name="calendar_country"),
]

downloads_urlpatterns = [
    path("", downloads.downloads, name="index"),
    path("<str:name>", downloads.history_file, name="file"),
]

"""Data and constraints of the federation: players, tournaments, tables, games and the rating history.

Two kinds of rows live here:

* **facts** a person enters — players, tournaments, tables, their entries and games, promotion decisions;
  these keep an audit history (django-simple-history), so a correction never loses what was there before;
* **derived rows** the re-rating service computes from the facts — ``RatingRow`` (a player's state before and
  after a table, with the per-game explanation) and the engine's findings in ``Promotion``. They are replaced,
  never edited, whenever something they depend on changes (ratings/services/rerate.py).

Rules live in ratings/engine and ratings/services; here only what the database itself can guarantee.
"""

from __future__ import annotations

from ratings.models.clubs import Club, ClubMembership
from ratings.models.common import (
    GERMAN_FOLDS,
    GRADE_CHOICES,
    VALID_FOREVER,
    Category,
    PriorGradeKind,
    PriorGradeSource,
    concrete_field,
    db_column,
    in_latin_script,
    latin_name,
    name_fold_key,
    name_search_key,
    new_federation_id,
    player_search_key,
    prior_grade_condition,
)
from ratings.models.grades import LIVE_PROMOTION_STATUSES, Promotion, PromotionRevision, PromotionRoute, PromotionStatus
from ratings.models.history import (
    Correction,
    HistoricalRow,
    ListArrival,
    PendingRerate,
    RatingRow,
    RerateChange,
    RerateRun,
)
from ratings.models.official import ListEntry, OfficialList, StoredList
from ratings.models.players import (
    LEFT_OUT_OF_LISTS,
    OpeningState,
    Player,
    PriorGradeProposal,
    PrivacyAction,
    ProposalStatus,
    WomensListEntry,
)
from ratings.models.predictions import PredictionReport, WhatIfReport
from ratings.models.reports import REPORT_SETTLED, MistakeReport, ReportStatus
from ratings.models.season import MailStatus, OutgoingMail
from ratings.models.subscriptions import Subscription
from ratings.models.tables import (
    PAIRED_RESULTS,
    AnnouncementStatus,
    Game,
    GameResult,
    HandicapCode,
    HandicapGiver,
    Table,
    TableEntry,
    TableResolution,
    TableStatus,
    Tournament,
    UnsettledTable,
    UploadConfirmation,
)
from ratings.models.tokens import AccessToken, ApiSubmission

__all__ = [
    "GERMAN_FOLDS",
    "GRADE_CHOICES",
    "LEFT_OUT_OF_LISTS",
    "LIVE_PROMOTION_STATUSES",
    "PAIRED_RESULTS",
    "REPORT_SETTLED",
    "VALID_FOREVER",
    "AccessToken",
    "AnnouncementStatus",
    "ApiSubmission",
    "Category",
    "Club",
    "ClubMembership",
    "Correction",
    "Game",
    "GameResult",
    "HandicapCode",
    "HandicapGiver",
    "HistoricalRow",
    "ListArrival",
    "ListEntry",
    "MailStatus",
    "MistakeReport",
    "OfficialList",
    "OpeningState",
    "OutgoingMail",
    "PendingRerate",
    "Player",
    "PredictionReport",
    "PriorGradeKind",
    "PriorGradeProposal",
    "PriorGradeSource",
    "PrivacyAction",
    "Promotion",
    "PromotionRevision",
    "PromotionRoute",
    "PromotionStatus",
    "ProposalStatus",
    "RatingRow",
    "ReportStatus",
    "RerateChange",
    "RerateRun",
    "StoredList",
    "Subscription",
    "Table",
    "TableEntry",
    "TableResolution",
    "TableStatus",
    "Tournament",
    "UnsettledTable",
    "UploadConfirmation",
    "WhatIfReport",
    "WomensListEntry",
    "concrete_field",
    "db_column",
    "in_latin_script",
    "latin_name",
    "name_fold_key",
    "name_search_key",
    "new_federation_id",
    "player_search_key",
    "prior_grade_condition",
]

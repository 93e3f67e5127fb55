"""The FESA rating rules as pure Python (docs/rules.md): no Django, no I/O, deterministic.

The public surface is re-exported here; see ``types`` for the values and ``table.rate_table`` for the
entry point.
"""

from __future__ import annotations

from .errors import EngineError, InvalidTable, RatingOffScale, TableBeyondNumbers, TableDidNotSettle
from .settle import SETTLE_RULE, settle_by_rule
from .table import rate_table
from .types import (
    NO_GRADE,
    Game,
    GameDetail,
    Handicap,
    PlayerOutcome,
    PlayerState,
    PriorGrade,
    Promotion,
    TableInput,
    TableResult,
    grade_label,
    grade_of,
    grade_parts,
)

__all__ = [
    "NO_GRADE",
    "SETTLE_RULE",
    "EngineError",
    "Game",
    "GameDetail",
    "Handicap",
    "InvalidTable",
    "PlayerOutcome",
    "PlayerState",
    "PriorGrade",
    "Promotion",
    "RatingOffScale",
    "TableBeyondNumbers",
    "TableDidNotSettle",
    "TableInput",
    "TableResult",
    "grade_label",
    "grade_of",
    "grade_parts",
    "rate_table",
    "settle_by_rule",
]

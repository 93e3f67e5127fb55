"""The FESA rating rules as pure Python (docs/rules.md): no Django, no I/O, deterministic.

The public surface is re-exported here; see ``types`` for the values and ``table.rate_table`` for the
entry point.
"""

from __future__ import annotations

from .errors import EngineError, InvalidRules, InvalidTable, RatingOffScale, TableBeyondNumbers, TableDidNotSettle
from .rules import FESA_RULES, RuleConstants
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
    "FESA_RULES",
    "NO_GRADE",
    "SETTLE_RULE",
    "EngineError",
    "Game",
    "GameDetail",
    "Handicap",
    "InvalidRules",
    "InvalidTable",
    "PlayerOutcome",
    "PlayerState",
    "PriorGrade",
    "Promotion",
    "RatingOffScale",
    "RuleConstants",
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

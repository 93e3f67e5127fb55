"""What an import of a ``turnering.txt`` found and would do (ratings/services/fesa/turnering.py): the plan the
admin preview and ``manage.py import_turnering`` show, line by line, with every problem."""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from django.utils.translation import gettext as _

from ratings.fesa_files.turnering import Turnering
from ratings.models import Tournament
from ratings.selectors.fesa_match import NameMatch
from ratings.services.fesa.newcomers import Newcomer
from ratings.services.fesa.tables import NewPlayerFacts

NEW: Literal["new"] = "new"
Choice = int | Literal["new"]


@dataclass(frozen=True)
class TurneringRequest:
    """What a director sends to be imported, as an interface read it (the admin's upload, the API's submit):
    :func:`ratings.services.fesa.turnering.turnering_request_import` plans or saves it, and the arguments are
    those of ``turnering_import``."""

    data: bytes
    tournament: Tournament | None
    file: str = "turnering.txt"
    user: Any = None
    choices: Mapping[int, Choice] = field(default_factory=dict)
    new_players: Mapping[int, NewPlayerFacts] = field(default_factory=dict)
    nye_spillere: bytes | None = None
    nye_spillere_file: str = "nye-spillere"
    create_new: bool = False
    sequence: int | None = None
    table_name: str = ""


class TurneringRejected(Exception):
    """``commit=True`` found problems: nothing was saved; ``plan`` says why."""

    def __init__(self, plan: TurneringPlan) -> None:
        super().__init__("; ".join(str(p) for p in plan.problems))
        self.plan = plan


@dataclass(frozen=True, slots=True)
class Problem:
    """Why the file cannot be saved; ``line`` is the file's line number when one line is to blame, ``file``
    the file (the table's, or the ``nye-spillere`` that came with it)."""

    line: int | None
    message: str
    file: str = ""

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        return _("line %(line)s: %(message)s") % {"line": self.line, "message": self.message}


@dataclass(frozen=True, slots=True)
class LinePlan:
    """One player line: what was read, who it matched, and what the import does with it.

    ``choice`` is a player id, :data:`NEW`, or None while the line waits for the director's choice.
    """

    number: int
    line: int | None
    family_name: str
    given_name: str
    free_text: str
    results: str
    points: str
    match: NameMatch
    choice: Choice | None
    new_player: NewPlayerFacts | None = None
    marked_new: bool = False
    from_new_players: bool = False  # created from the nye-spillere file that came with the table

    @property
    def name(self) -> str:
        return f"{self.family_name} {self.given_name}".strip()


@dataclass(frozen=True, slots=True)
class RatingEffect:
    """What the table would do to one player (as the admin preview shows it)."""

    number: int
    name: str
    method: str  # "normal" or "performance"
    rating_before: int
    rating_after: int
    change: int | None
    games: int
    score: float
    new_player: bool
    grade_before: str  # "" for no grade
    promoted_to: str  # the grade after the table when it promoted him, else ""


@dataclass
class TurneringPlan:
    """Everything the preview shows; after a successful commit ``table_id`` is the saved table."""

    file: str
    turnering: Turnering | None = None
    lines: list[LinePlan] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sequence: int | None = None
    effects: list[RatingEffect] = field(default_factory=list)
    table_id: int | None = None
    created_players: int = 0
    newcomers: list[Newcomer] = field(default_factory=list)  # the players of the nye-spillere, in file order

    @property
    def ok(self) -> bool:
        return not self.problems

    def problem(self, line: int | None, message: str, file: str | None = None) -> None:
        """Record a problem (each once: the same problem found twice is told once), in the order a director reads
        his files: the nye-spillere's first (the table's lines take their new players from it), then the table's;
        in each, by line, the file's own problems after its lines."""
        problem = Problem(line, message, file or self.file)
        if problem not in self.problems:
            bisect.insort(self.problems, problem, key=self._reading_order)

    def _reading_order(self, problem: Problem) -> tuple[bool, bool, int]:
        return problem.file == self.file, problem.line is None, problem.line or 0

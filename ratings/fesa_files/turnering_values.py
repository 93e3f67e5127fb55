"""The values of a table read from ``turnering.txt`` (ratings/fesa_files/turnering.py): its player lines,
their cells and handicaps, and the limits a file is held to.

Named tuples, as the engine's values are (ratings/engine/types.py).
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Literal, NamedTuple

from ratings.engine.constants import HANDICAP_CODES as ENGINE_HANDICAP_CODES
from ratings.engine.literals import HandicapCode

from .values import same_fields

Sign = Literal["+", "-", "=", "#"]


# The file spells the piece handicaps in capitals (2P); the engine's codes are the one list of handicaps.
HANDICAP_CODES: dict[str, HandicapCode] = {code.upper(): code for code in ENGINE_HANDICAP_CODES}
MAX_PLAYERS = 1000
"""The most players a table may have: ten times the largest European tournaments. Beyond it a file is refused
at once, so that a runaway file (tens of thousands of lines) is not matched and rated line by line."""
MAX_ROUNDS = 30
"""The most rounds a table may have: a double round robin of sixteen players; real tables have five to ten."""
HALVES: dict[str, int] = {"+": 2, "-": 0, "=": 1, "#": 0}  # the scores in half points, summed as integers
_SCORES: dict[str, float] = {sign: halves / 2 for sign, halves in HALVES.items()}
_MIRROR: dict[Sign, Sign] = {"+": "-", "-": "+", "=": "="}


class HandicapMark(NamedTuple):
    """A cell's handicap: ``received`` for side ``+`` (this player received it), else he gave it.
    ``spelling`` is the code as written (``r``), which the result table prints; it never matters for
    equality, codes being case-insensitive."""

    received: bool
    code: HandicapCode
    spelling: str = ""

    def __eq__(self, other: object) -> bool:
        return same_fields(self, other, 2)

    def __ne__(self, other: object) -> bool:
        return not same_fields(self, other, 2)

    def __hash__(self) -> int:
        return hash(self[:2])

    def mirrored(self) -> HandicapMark:
        return HandicapMark(not self.received, self.code, self.spelling)

    def text(self) -> str:
        return f"({'+' if self.received else '-'}{self.code})"


class Cell(NamedTuple):
    """One round of a player: ``opponent`` is a line number, 0 for no game (bye ``0+``, absence ``0-``,
    half-point bye ``0=``, no-show ``0#``)."""

    opponent: int
    sign: Sign
    handicap: HandicapMark | None = None

    @property
    def score(self) -> float:
        """What the cell counts in the standings: 1, 1/2 or 0 (exact as a float, as their sums are)."""
        return _SCORES[self.sign]

    @property
    def is_game(self) -> bool:
        """A game actually played, hence rated."""
        return self.opponent != 0

    def mirrored(self, player: int) -> Cell:
        """The opponent's cell for this game, ``player`` being this cell's owner."""
        return Cell(player, _MIRROR[self.sign], None if self.handicap is None else self.handicap.mirrored())

    def text(self) -> str:
        """The cell as written: ``12+``, ``16-(+R)``, ``0=``."""
        return f"{self.opponent}{self.sign}{'' if self.handicap is None else self.handicap.text()}"


class TablePlayer(NamedTuple):
    """A player line. ``cells`` holds one cell per round; a simultaneous-display giver (``[&]``) has none,
    his games are the mirror of the cells naming him (:meth:`Turnering.cells_of`)."""

    number: int
    last_name: str
    first_name: str
    cells: tuple[Cell, ...] = ()
    simul_giver: bool = False
    free_text: str = " "
    macmahon: str | None = None
    tail: str = ""
    line: int | None = None

    # Compared on the first 8 fields: not the line it was read from.
    def __eq__(self, other: object) -> bool:
        return same_fields(self, other, 8)

    def __ne__(self, other: object) -> bool:
        return not same_fields(self, other, 8)

    def __hash__(self) -> int:
        return hash(self[:8])

    @property
    def name(self) -> tuple[str, str]:
        return self.last_name, self.first_name

    @property
    def marked_new(self) -> bool:
        """The free text holds an ``N`` marking a new player."""
        return "N" in self.free_text.split()

    @property
    def nationality(self) -> str | None:
        """A two-letter code in the free text, if any."""
        for word in self.free_text.split():
            if len(word) == 2 and word.isalpha():
                return word.upper()
        return None


class Turnering(NamedTuple):
    """A table as read from (or to be written to) ``turnering.txt``: ``date_text`` is the date as written,
    ``date`` its last day; ``rounds`` the number of rounds every non-giver has."""

    name: str
    date: dt.date
    date_text: str
    players: tuple[TablePlayer, ...]
    rounds: int
    file: str = "turnering.txt"

    # Compared on the first 5 fields: not the file's name.
    def __eq__(self, other: object) -> bool:
        return same_fields(self, other, 5)

    def __ne__(self, other: object) -> bool:
        return not same_fields(self, other, 5)

    def __hash__(self) -> int:
        return hash(self[:5])

    def player(self, number: int) -> TablePlayer:
        return self.players[number - 1]

    def cells_of(self, number: int) -> tuple[tuple[Cell, ...], ...]:
        """Per round, the cells of a player: one for a normal player, for a simultaneous giver the
        mirror of every cell naming him, in table order."""
        player = self.player(number)
        if not player.simul_giver:
            return tuple((c,) for c in player.cells)
        rounds: list[list[Cell]] = [[] for _ in range(self.rounds)]
        for other in self.players:
            for r, cell in enumerate(other.cells):
                if cell.opponent == number:
                    rounds[r].append(cell.mirrored(other.number))
        return tuple(tuple(r) for r in rounds)

    def all_cells(self, number: int) -> tuple[Cell, ...]:
        """Every cell of a player, round after round: :meth:`cells_of` without the rounds, and for a normal
        player simply his cells (nothing built: a run asks this of every player twice)."""
        player = self.player(number)
        if not player.simul_giver:
            return player.cells
        return tuple(c for cells in self.cells_of(number) for c in cells)

    def has_game(self, number: int) -> bool:
        """The player played at least one game (so takes part in the rating, docs/rules.md §6)."""
        return any(c.opponent != 0 for c in self.all_cells(number))

    def half_points(self, number: int) -> int:
        """The results of every cell (byes included) in half points, without the MacMahon start score: summed
        as integers, as adding Fractions one cell at a time was a tenth of a result table's time."""
        return sum([HALVES[c.sign] for c in self.all_cells(number)])

    def points(self, number: int) -> Fraction:
        """Standing points: the results of every cell (byes included) plus the MacMahon start score."""
        start = self.player(number).macmahon
        return Fraction(self.half_points(number), 2) + (Fraction(start) if start else 0)

"""A correction in the reader's words: rendered from its stored facts (``before`` and ``after``) when it is
shown, in the language of the page, with the players' names as they stand.

``Correction.summary`` keeps the words written when the correction was made, in the language of the officer who
made it; it is searched in the admin and shown only when the facts cannot be read (a correction whose facts say
nothing any more, such as an identity correction of a player whose personal data were erased).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ratings.models import Correction
from ratings.selectors.players import player_names
from ratings.services.corrections.facts import describe
from ratings.services.merge.moves import describe_merge


def correction_lines(correction: Correction) -> list[str]:
    """What ``correction`` changed, one line a fact, in the active language."""
    return facts_lines(correction.kind, correction.before, correction.after) or _stored(correction)


def facts_lines(kind: str, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The lines of a change of ``kind`` from ``before`` to ``after``; [] when the facts do not say it."""
    try:
        if kind == Correction.Kind.MERGE:
            # With the federation ids: a merge joins namesakes, whom the names alone do not tell apart.
            names = player_names([after["duplicate"], after["kept"]], with_ids=True)
            return describe_merge(before, after, names)
        return describe(kind, before, after)
    except (KeyError, TypeError):  # facts of another shape than today's: the stored words say it
        return []


def _stored(correction: Correction) -> list[str]:
    return [line for line in correction.summary.splitlines() if line]


def correction_text(correction: Correction) -> str:
    """The lines on one line, "a; b", as a list or a message shows them."""
    return "; ".join(correction_lines(correction))


def with_lines(corrections: Iterable[Correction]) -> list[Correction]:
    """The corrections, each with ``lines`` set for a template."""
    shown = list(corrections)
    for correction in shown:
        correction.lines = correction_lines(correction)  # type: ignore[attr-defined]
    return shown

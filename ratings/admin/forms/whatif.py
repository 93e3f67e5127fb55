"""The rating officer's form for a what-if: FESA's rules with other constants (ratings/engine/rules.py).

Every field starts at FESA's value: each K band's start and its K, the bonus, the handicaps. The form checks
each value on its own (a K is a positive whole number, a handicap is 0 or more grades) and then the whole set
as the engine does (``RuleConstants``), so that a question the engine would refuse is never queued: each of the
engine's problems is put on the field it names (a band that starts too high on that band's start).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.engine.errors import InvalidRules, RuleProblem
from ratings.engine.rules import FESA_RULES, RuleConstants
from ratings.models.tables import HandicapCode

MAX_K = 400
MAX_RATING = 5000
MAX_HANDICAP = 20.0  # grades: the whole scale from 20 Kyu to 7 Dan is 27

MESSAGES = {"k_from": _("A band must start below the band above it.")}
"""The engine's problems a rating officer can meet through this form, in his language; the others (each field's
own checks stop them first) keep the engine's words."""


def _k_label(i: int) -> Any:
    if i == len(FESA_RULES.k_from):
        return _("K below band %(band)s") % {"band": i}
    return _("K in band %(band)s") % {"band": i + 1}


def _field_of(problem: RuleProblem) -> str | None:
    """The form's field that ``problem`` is about, None for one about the whole table."""
    if problem.at is None:
        return problem.name if problem.name.startswith("bonus_") else None
    prefix = "handicap" if problem.name == "handicaps" else problem.name
    return f"{prefix}_{problem.at}"


class WhatIfForm(forms.Form):
    bonus_ceiling = forms.IntegerField(
        label=_("Bonus up to the rating"),
        initial=int(FESA_RULES.bonus_ceiling),
        min_value=0,
        max_value=MAX_RATING,
        help_text=_("A player below this rating earns (this rating − his rating) / the divisor per game."),
    )
    bonus_divisor = forms.FloatField(
        label=_("Bonus divisor"),
        initial=FESA_RULES.bonus_divisor,
        min_value=0,
        max_value=100000,
        help_text=_("0: no bonus at all."),
    )
    bonus_games = forms.IntegerField(
        label=_("Bonus games"),
        initial=FESA_RULES.bonus_games,
        min_value=0,
        max_value=100000,
        help_text=_("A player's first games that may earn the bonus."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i, start in enumerate(FESA_RULES.k_from):
            self.fields[f"k_from_{i}"] = forms.IntegerField(
                label=_("Band %(band)s starts at the rating") % {"band": i + 1},
                initial=start,
                min_value=0,
                max_value=MAX_RATING,
            )
        for i, k in enumerate(FESA_RULES.k):
            self.fields[f"k_{i}"] = forms.IntegerField(label=_k_label(i), initial=k, min_value=1, max_value=MAX_K)
        for code, value in FESA_RULES.handicaps:
            self.fields[f"handicap_{code}"] = forms.FloatField(
                label=_("Handicap %(name)s, in grades") % {"name": HandicapCode(code).label},
                initial=value,
                min_value=0,
                max_value=MAX_HANDICAP,
            )
        # The K table first, as the rules list it (docs/rules.md §2): each band's start, then its K, the lowest
        # band's K last; then the bonus, then the handicaps.
        order = [name for i in range(len(FESA_RULES.k_from)) for name in (f"k_from_{i}", f"k_{i}")]
        order += [f"k_{len(FESA_RULES.k_from)}"]
        order += ["bonus_ceiling", "bonus_divisor", "bonus_games"]
        order += [f"handicap_{code}" for code, _value in FESA_RULES.handicaps]
        self.order_fields(order)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            self.rules = RuleConstants(
                k_from=tuple(data[f"k_from_{i}"] for i in range(len(FESA_RULES.k_from))),
                k=tuple(data[f"k_{i}"] for i in range(len(FESA_RULES.k))),
                bonus_ceiling=float(data["bonus_ceiling"]),
                bonus_divisor=float(data["bonus_divisor"]),
                bonus_games=data["bonus_games"],
                handicaps=tuple((code, float(data[f"handicap_{code}"])) for code, _value in FESA_RULES.handicaps),
            )
        except InvalidRules as exc:
            for problem in exc.problems or (RuleProblem("", None, str(exc)),):
                field = _field_of(problem)
                if field not in self.fields:
                    field = None
                self.add_error(field, MESSAGES.get(problem.name, problem.message))
        return data

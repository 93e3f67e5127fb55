"""The rating officer's form for a what-if: FESA's rules with other constants (ratings/engine/rules.py).

Every field starts at FESA's value; the K bands keep FESA's boundaries and each gets its own K. The form
checks each value on its own (a K is a positive whole number, a handicap is 0 or more grades) and then the
whole set as the engine would (``RuleConstants``), so that a question the engine would refuse is never queued.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ratings.engine.errors import InvalidRules
from ratings.engine.rules import FESA_RULES, RuleConstants
from ratings.models.tables import HandicapCode

MAX_K = 400
MAX_HANDICAP = 20.0  # grades: the whole scale from 20 Kyu to 7 Dan is 27


def _k_label(i: int) -> Any:
    starts = FESA_RULES.k_from
    if i == 0:
        return _("K at %(rating)s and above") % {"rating": starts[0]}
    if i == len(starts):
        return _("K below %(rating)s") % {"rating": starts[-1]}
    return _("K from %(low)s to below %(high)s") % {"low": starts[i], "high": starts[i - 1]}


class WhatIfForm(forms.Form):
    bonus_ceiling = forms.IntegerField(
        label=_("Bonus up to the rating"),
        initial=int(FESA_RULES.bonus_ceiling),
        min_value=0,
        max_value=5000,
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
        for i, k in enumerate(FESA_RULES.k):
            self.fields[f"k_{i}"] = forms.IntegerField(label=_k_label(i), initial=k, min_value=1, max_value=MAX_K)
        for code, value in FESA_RULES.handicaps:
            self.fields[f"handicap_{code}"] = forms.FloatField(
                label=_("Handicap %(name)s, in grades") % {"name": HandicapCode(code).label},
                initial=value,
                min_value=0,
                max_value=MAX_HANDICAP,
            )
        # The K table first, as the rules list it (docs/rules.md §2), then the bonus, then the handicaps.
        order = [f"k_{i}" for i in range(len(FESA_RULES.k))]
        order += ["bonus_ceiling", "bonus_divisor", "bonus_games"]
        order += [f"handicap_{code}" for code, _value in FESA_RULES.handicaps]
        self.order_fields(order)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            self.rules = RuleConstants(
                k_from=FESA_RULES.k_from,
                k=tuple(data[f"k_{i}"] for i in range(len(FESA_RULES.k))),
                bonus_ceiling=float(data["bonus_ceiling"]),
                bonus_divisor=float(data["bonus_divisor"]),
                bonus_games=data["bonus_games"],
                handicaps=tuple((code, float(data[f"handicap_{code}"])) for code, _value in FESA_RULES.handicaps),
            )
        except InvalidRules as exc:
            raise forms.ValidationError(str(exc)) from exc
        return data

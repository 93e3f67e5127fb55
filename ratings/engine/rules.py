"""The rules' constants as one value passed into the engine: the K table (docs/rules.md §2, R1), the weak-player
bonus (§4, R9) and the handicaps in grades (§3, R12). ``FESA_RULES`` holds FESA's own, the only ones the site
rates the federation by; any other set is for a what-if (docs/rules.md §11), never for the federation's ratings.

The engine's hot paths are written out for FESA's constants (normal.py, outcomes.py): given ``FESA_RULES``
itself, the engine takes them exactly as before. Any other value, even one equal to FESA's, takes the general
form, which reads the constants from the value; tests/engine/test_rules.py holds the two to the same numbers on
FESA's constants.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from .constants import HANDICAPS
from .errors import InvalidRules, RuleProblem
from .literals import HandicapCode

FESA_K_FROM: Final = (2240, 1920, 1560, 1280, 1040, 720)
FESA_K: Final = (16, 20, 24, 28, 32, 36, 40)


@dataclass(frozen=True)
class RuleConstants:
    """The constants of FESA's rules that a what-if may change; the defaults are FESA's.

    ``k_from`` are the ratings where each K band starts, highest first; ``k`` has one K more than ``k_from``:
    ``k[i]`` applies from ``k_from[i]`` up (to the band above), the last one below ``k_from[-1]``. The bonus
    ``(bonus_ceiling − r) / bonus_divisor`` is earned per game while ``r < bonus_ceiling`` and fewer than
    ``bonus_games`` games have been counted; a divisor of 0 means no bonus at all. ``handicaps`` gives every
    handicap code its value in grades, as pairs so that the value stays hashable.
    """

    k_from: tuple[int, ...] = FESA_K_FROM
    k: tuple[int, ...] = FESA_K
    bonus_ceiling: float = 1800.0
    bonus_divisor: float = 200.0
    bonus_games: int = 100
    handicaps: tuple[tuple[HandicapCode, float], ...] = field(default=tuple(HANDICAPS.items()))

    def __post_init__(self) -> None:
        problems = self._problems()
        if problems:
            raise InvalidRules(problems[0].message, problems=problems)

    def _problems(self) -> list[RuleProblem]:
        """Everything that keeps the engine from rating with these constants, each where it is (InvalidRules
        carries them all): a K that is not a positive whole number at its position, a band that does not start
        below the band above it at the lower band's position, a negative handicap at its code."""
        out: list[RuleProblem] = []
        if len(self.k) != len(self.k_from) + 1:
            out.append(
                RuleProblem("k", None, f"the K table needs one K more than band starts ({len(self.k_from)} starts)")
            )
        out += [
            RuleProblem("k", i, "every K must be a positive whole number")
            for i, k in enumerate(self.k)
            if not isinstance(k, int) or k <= 0
        ]
        out += [
            RuleProblem("k_from", i + 1, "the K bands must start at ratings in strictly falling order")
            for i, (above, start) in enumerate(zip(self.k_from, self.k_from[1:], strict=False))
            if above <= start
        ]
        bonus = "the bonus needs a finite ceiling and a divisor of 0 (no bonus) or more"
        if not math.isfinite(self.bonus_ceiling):
            out.append(RuleProblem("bonus_ceiling", None, bonus))
        if not math.isfinite(self.bonus_divisor) or self.bonus_divisor < 0:
            out.append(RuleProblem("bonus_divisor", None, bonus))
        if self.bonus_games < 0:
            out.append(RuleProblem("bonus_games", None, "the bonus's number of games cannot be negative"))
        codes = [code for code, _ in self.handicaps]
        if sorted(codes) != sorted(HANDICAPS):
            out.append(
                RuleProblem(
                    "handicaps", None, f"the handicaps must give a value to each of {', '.join(HANDICAPS)}, once"
                )
            )
        out += [
            RuleProblem("handicaps", code, "a handicap's value in grades must be 0 or more")
            for code, value in self.handicaps
            if not math.isfinite(value) or value < 0
        ]
        return out

    @functools.cached_property
    def handicap_values(self) -> Mapping[HandicapCode, float]:
        """The handicaps by code (participants.py reads them so)."""
        return dict(self.handicaps)

    @functools.cached_property
    def _bands(self) -> tuple[tuple[int, int], ...]:
        return tuple(zip(self.k_from, self.k, strict=False))

    def k_factor(self, r: float) -> int:
        """K for the running, unrounded rating ``r``: the general form of constants.k_factor."""
        for start, k in self._bands:
            if r >= start:
                return k
        return self.k[-1]

    def bonus(self, r: float, counted: int) -> float:
        """The weak-player bonus of one game at ``r`` after ``counted`` bonus games; 0.0 when none is earned."""
        if self.bonus_divisor and r < self.bonus_ceiling and counted < self.bonus_games:
            return (self.bonus_ceiling - r) / self.bonus_divisor
        return 0.0

    def as_json(self) -> dict[str, Any]:
        """Plain values (JSON), the handicaps in the order of constants.HANDICAPS."""
        values = self.handicap_values
        return {
            "k_from": list(self.k_from),
            "k": list(self.k),
            "bonus_ceiling": self.bonus_ceiling,
            "bonus_divisor": self.bonus_divisor,
            "bonus_games": self.bonus_games,
            "handicaps": {code: values[code] for code in HANDICAPS},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RuleConstants:
        """The inverse of ``as_json``; a key left out keeps FESA's value. InvalidRules for a bad value."""
        try:
            handicaps = {**HANDICAPS, **data.get("handicaps", {})}
            return cls(
                k_from=tuple(int(v) for v in _sequence(data.get("k_from", FESA_K_FROM))),
                k=tuple(int(v) for v in _sequence(data.get("k", FESA_K))),
                bonus_ceiling=float(data.get("bonus_ceiling", 1800.0)),
                bonus_divisor=float(data.get("bonus_divisor", 200.0)),
                bonus_games=int(data.get("bonus_games", 100)),
                handicaps=tuple((code, float(value)) for code, value in handicaps.items()),
            )
        except (TypeError, ValueError) as exc:
            raise InvalidRules(f"rule constants cannot be read: {exc}") from exc

    @property
    def key(self) -> str:
        """A short digest of the constants: equal constants, equal key (a what-if is stored under it)."""
        text = json.dumps(self.as_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:16]

    def differences(self) -> dict[str, tuple[Any, Any]]:
        """What differs from FESA's constants: name -> (FESA's value, this value); the handicaps by code."""
        mine, fesa = self.as_json(), FESA_RULES.as_json()
        out: dict[str, tuple[Any, Any]] = {}
        for name in ("k_from", "k", "bonus_ceiling", "bonus_divisor", "bonus_games"):
            if mine[name] != fesa[name]:
                out[name] = (fesa[name], mine[name])
        for code, value in mine["handicaps"].items():
            if value != fesa["handicaps"][code]:
                out[f"handicap {code}"] = (fesa["handicaps"][code], value)
        return out


def _sequence(value: Any) -> Sequence[Any]:
    if isinstance(value, str):
        return [part for part in value.replace(",", " ").split() if part]
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{value!r} is not a list")
    return value


FESA_RULES: Final = RuleConstants()
"""FESA's constants: the engine's default, and the only ones the federation is rated by."""

"""Other rating systems beside FESA's, for the comparison of how well each predicts (compare.py).

Pure Python like the rest of the engine: seed 003's plain Elo (elo.py), the European system of 1996
(european.py), Game Courier Ratings (game_courier.py), Glicko-2 (glicko2.py) and a Bayesian system from the
openskill package (bayesian.py). None of them rates the federation: the site rates by FESA's rules alone.
"""

from __future__ import annotations

from .base import PairGame, RatingSystem
from .bayesian import Bayesian
from .elo import Elo
from .european import European1996
from .game_courier import GameCourier, Refresh
from .glicko2 import Glicko2


def all_systems(*, courier_refresh: Refresh = "table") -> list[RatingSystem]:
    """One fresh instance of each system, in the order the comparison shows them."""
    return [Elo(), European1996(), GameCourier(refresh=courier_refresh), Glicko2(), Bayesian()]


__all__ = ["Bayesian", "Elo", "European1996", "GameCourier", "Glicko2", "PairGame", "RatingSystem", "all_systems"]

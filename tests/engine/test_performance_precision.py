"""The performance root is exact to 1e-6 wherever it lies, even thousands of points above the opponents.

A table of newcomers can drive estimates far above every opponent; there each expected score is within a hair
of 1, and a naive ``score − Σ E`` loses the digits that decide the root. The oracle here bisects the same sum in
50-digit decimal arithmetic.
"""

from __future__ import annotations

from decimal import Decimal, getcontext

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine.performance import performance

getcontext().prec = 60
BRACKET = Decimal("1e-12")  # the oracle's root is bisected to a millionth of the 1e-6 the test allows


def exact_root(pairs: list[tuple[int, float]]) -> Decimal:
    opponents = [o for o, _ in pairs]
    score = sum(Decimal(str(s)) for _, s in pairs)
    if score == len(pairs):  # the temporary draw of §5
        opponents.append(max(opponents))
        score += Decimal("0.5")

    def excess(x: Decimal) -> Decimal:
        return score - sum(1 / (1 + Decimal(10) ** ((Decimal(o) - x) / 400)) for o in opponents)

    lo, hi = Decimal(-20000), Decimal(40000)
    while hi - lo > BRACKET:
        mid = (lo + hi) / 2
        if excess(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


pairs_strategy = st.lists(
    st.tuples(st.integers(min_value=400, max_value=16000), st.sampled_from([0.0, 0.5, 1.0])), min_size=1, max_size=12
).filter(lambda ps: any(s > 0 for _, s in ps))


@settings(deadline=None, max_examples=200)
@given(pairs_strategy)
def test_performance_root_matches_the_exact_root(pairs: list[tuple[int, float]]) -> None:
    root = performance(pairs)
    assert root is not None
    assert abs(Decimal(root) - exact_root(pairs)) < Decimal("1e-6")


def test_performance_root_far_above_the_opponents_keeps_its_digits() -> None:
    # Nine wins against 400 and one loss against 12000: the root is near 6391, where every E against 400 is
    # 1 − 1e-15 or so; summing those E directly put the root three points off.
    pairs = [(400, 1.0)] * 9 + [(12000, 0.0)]
    root = performance(pairs)
    assert root is not None
    assert abs(Decimal(root) - exact_root(pairs)) < Decimal("1e-6")

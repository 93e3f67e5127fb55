"""Equality for the named tuples of the files whose last fields say where a value was read from (its line, its
source text, its spelling): two values read from different places are still equal, as the values are.

Such a class compares and hashes its first ``count`` fields only, with its own ``__ne__`` too (a tuple's
``!=`` would compare every field)::

    def __eq__(self, other: object) -> bool:
        return same_fields(self, other, 4)

    def __ne__(self, other: object) -> bool:
        return not same_fields(self, other, 4)

    def __hash__(self) -> int:
        return hash(self[:4])
"""

from __future__ import annotations


def same_fields(value: tuple[object, ...], other: object, count: int) -> bool:
    """Whether ``other`` is a value of ``value``'s own class with the same first ``count`` fields."""
    return type(other) is type(value) and value[:count] == other[:count]

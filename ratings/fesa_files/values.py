"""Equality for the named tuples of the files whose last fields say where a value was read from (its line, its
source text, its spelling): two values read from different places are still equal, as the values are."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    _Methods = tuple[Callable[[Any, object], Any], Callable[[Any, object], Any], Callable[[Any], int]]


def compared_on(count: int) -> _Methods:
    """``__eq__``, ``__ne__`` and ``__hash__`` of a named tuple compared on its first ``count`` fields only.

    ``__ne__`` too: a tuple's own ``!=`` would compare every field. A value of another class is not equal
    (``NotImplemented``), as with a dataclass.
    """

    def __eq__(self: tuple[object, ...], other: object) -> Any:
        if type(other) is not type(self):
            return NotImplemented
        return self[:count] == other[:count]  # type: ignore[index]

    def __ne__(self: tuple[object, ...], other: object) -> Any:
        equal = __eq__(self, other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self: tuple[object, ...]) -> int:
        return hash(self[:count])

    return __eq__, __ne__, __hash__

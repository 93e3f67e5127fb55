"""The engine's ``NamedTuple`` (named_tuple.py) makes the class ``typing.NamedTuple`` makes, without ``typing``."""

from __future__ import annotations

import pickle
import typing

import pytest

from ratings.engine.named_tuple import NamedTuple
from ratings.engine.types import PlayerState


def value_class(base: type) -> type:
    """The same class body on ``base``: this module's NamedTuple or typing's."""

    class Value(base):  # type: ignore[misc,valid-type]
        """A value."""

        name: str
        count: int = 0
        tags: tuple[str, ...] = ()

        @property
        def label(self) -> str:
            return f"{self.name}:{self.count}"

        def more(self) -> Value:
            return self._replace(count=self.count + 1)

    return Value


Light = value_class(NamedTuple)
Typed = value_class(typing.NamedTuple)


def test_the_class_is_the_one_typing_makes() -> None:
    light, typed = Light("a", tags=("x",)), Typed("a", tags=("x",))
    assert Light is not Typed
    assert tuple(light) == tuple(typed) == ("a", 0, ("x",))
    assert Light._fields == Typed._fields
    assert Light._field_defaults == Typed._field_defaults == {"count": 0, "tags": ()}
    assert list(Light.__annotations__) == list(Typed.__annotations__)
    for name in ("__doc__", "__module__", "__qualname__"):
        assert getattr(Light, name) == getattr(Typed, name)
    assert (Light.__doc__, Light.__module__) == ("A value.", __name__)
    assert (light.label, light.more(), light._asdict()) == (typed.label, Light("a", 1, ("x",)), typed._asdict())
    assert repr(light) == repr(typed) == "Value(name='a', count=0, tags=('x',))"
    assert Light.__mro__[1:] == Typed.__mro__[1:] == (tuple, object)
    assert not hasattr(light, "__dict__")
    with pytest.raises(AttributeError):
        light.count = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Light()  # type: ignore[call-arg]


def test_values_pickle_and_hash_as_tuples() -> None:
    state = PlayerState(1500, None, 30)
    assert pickle.loads(pickle.dumps(state)) == state
    assert hash(Light("a", 1)) == hash(("a", 1, ()))


def test_a_field_without_default_after_one_with_is_refused() -> None:
    """collections.namedtuple would give the default to the wrong field; typing refuses, and so does this."""
    with pytest.raises(TypeError, match="without a default follows"):

        class Wrong(NamedTuple):
            first: int = 0
            second: int  # type: ignore[misc]


def test_the_named_tuple_machinery_cannot_be_overwritten() -> None:
    with pytest.raises(AttributeError, match="_replace"):

        class Wrong(NamedTuple):
            first: int

            def _replace(self, **changes: object) -> Wrong:  # type: ignore[override]
                return self


def test_a_named_tuple_derives_from_nothing_else() -> None:
    with pytest.raises(TypeError, match="only derive from NamedTuple"):

        class Wrong(NamedTuple, int):  # type: ignore[misc]
            first: int

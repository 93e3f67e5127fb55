"""``NamedTuple`` for the engine's and the FESA files' values, without ``typing`` at run time.

The per-table FESA run (``python -m ratings.fesa_files DIR``) starts an interpreter for every table, so its
imports are most of its cost. ``typing`` takes about 2 ms to import, and its ``NamedTuple`` checks every
field's type as it makes the class. The class made here is the same one: ``collections.namedtuple`` with the
fields the class body annotates, the defaults it gives them, and its methods, docstring and other attributes;
the annotations are kept as written (strings, under ``from __future__ import annotations``). Type checkers
see ``typing.NamedTuple`` itself, so a value class is written exactly as with ``typing``::

    from ratings.engine.named_tuple import NamedTuple

    class Point(NamedTuple):
        x: int
        y: int = 0

What it leaves out: generic named tuples, and ``super()`` in a method (neither is used); ``typing`` gives a
named tuple no ``super()`` before Python 3.12 either.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    # What a class body may not set, as with typing.NamedTuple: the named tuple's own machinery.
    _RESERVED = frozenset(
        [
            "__new__",
            "__init__",
            "__slots__",
            "__getnewargs__",
            "_fields",
            "_field_defaults",
            "_make",
            "_replace",
            "_asdict",
            "_source",
        ]
    )
    _NOT_COPIED = frozenset({"__module__", "__annotations__"})

    class _Builder(type):
        """Makes each subclass of ``NamedTuple`` a ``collections.namedtuple`` of the body's annotated fields."""

        def __new__(mcs, name, bases, namespace):
            if not bases:  # NamedTuple itself
                return super().__new__(mcs, name, bases, namespace)
            if bases != (NamedTuple,):
                raise TypeError(f"{name}: a named tuple can only derive from NamedTuple")
            fields = namespace.get("__annotations__", {})
            defaults = [namespace[field] for field in fields if field in namespace]
            # collections.namedtuple gives the defaults to the last fields, so they must be the ones that have
            # them, or a value would silently land in the wrong field.
            if any(field not in namespace for field in list(fields)[len(fields) - len(defaults) :]):
                raise TypeError(f"{name}: a field without a default follows a field with one")
            cls = namedtuple(name, fields, defaults=defaults, module=namespace["__module__"])
            cls.__annotations__ = dict(fields)
            for key, value in namespace.items():
                if key in _RESERVED:
                    raise AttributeError(f"{name}: a named tuple cannot set {key}")
                if key not in _NOT_COPIED and key not in fields:
                    setattr(cls, key, value)
            return cls

    class NamedTuple(metaclass=_Builder):
        """Base of a value class: ``class Point(NamedTuple): x: int; y: int = 0`` (see the module)."""

        __slots__ = ()

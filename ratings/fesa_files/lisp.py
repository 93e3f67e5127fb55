"""A reader and printer for the small part of Common Lisp syntax the FESA program's files use.

Supported: lists ``( … )``, structures ``#S(NAME :key value …)``, keywords ``:name``, symbols (read
case-insensitively, i.e. upcased as the Lisp reader does), strings ``"…"`` with ``\\`` escaping the next
character, characters ``#\\E``, integers, ratios ``1/2`` and ``;`` comments. ``NIL`` and ``T`` are read
as the symbols ``NIL`` and ``T``; ``()`` is read as an empty list (printed back as ``NIL``, as Lisp does).
Anything else (floats, ``|…|``, other ``#`` syntax) is rejected with the line where it starts, because the
FESA files never contain it and guessing would hide a damaged file.

The printer writes what the program's ``prin1`` writes for these values, on one line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from .errors import FesaFileError


@dataclass(frozen=True, slots=True)
class Symbol:
    """A symbol; ``name`` is upper case. Keywords have ``keyword=True`` and no colon in the name."""

    name: str
    keyword: bool = False


@dataclass(frozen=True, slots=True)
class Char:
    """A character object ``#\\E``; ``name`` is the text after ``#\\`` (``E``, ``Space``)."""

    name: str


@dataclass(frozen=True, slots=True)
class Struct:
    """A structure ``#S(NAME :KEY value …)``; ``fields`` keeps the keys (upper case, no colon) in order."""

    name: str
    fields: tuple[tuple[str, Form], ...]

    def get(self, key: str, default: Form | None = None) -> Form | None:
        for k, v in self.fields:
            if k == key:
                return v
        return default

    def has(self, key: str) -> bool:
        return any(k == key for k, _ in self.fields)


Form = int | Fraction | str | Symbol | Char | Struct | list["Form"]

NIL = Symbol("NIL")
T = Symbol("T")

_DELIMITERS = set(" \t\r\n\f()\";'`,")
_INTEGER = re.compile(r"[+-]?\d+\.?")
_RATIO = re.compile(r"[+-]?\d+/\d+")
_CHAR_NAMES = {"SPACE": " ", "NEWLINE": "\n", "TAB": "\t"}


class _Reader:
    def __init__(self, text: str, file: str) -> None:
        self.text = text
        self.file = file
        self.pos = 0
        self.line = 1

    def error(self, message: str, line: int | None = None) -> FesaFileError:
        return FesaFileError(self.file, self.line if line is None else line, message)

    def advance(self, n: int = 1) -> None:
        self.line += self.text.count("\n", self.pos, self.pos + n)
        self.pos += n

    def skip_blank(self) -> None:
        """Skip whitespace and ``;`` comments."""
        text = self.text
        while self.pos < len(text):
            c = text[self.pos]
            if c in " \t\r\n\f":
                self.advance()
            elif c == ";":
                end = text.find("\n", self.pos)
                self.advance((len(text) if end < 0 else end) - self.pos)
            else:
                return

    def at_end(self) -> bool:
        self.skip_blank()
        return self.pos >= len(self.text)

    def read(self) -> Form:
        self.skip_blank()
        if self.pos >= len(self.text):
            raise self.error("unexpected end of file: a form is missing")
        c = self.text[self.pos]
        if c == "(":
            return self.read_list_tail(self.line)
        if c == ")":
            raise self.error("unexpected ')'")
        if c == '"':
            return self.read_string()
        if c == "#":
            return self.read_dispatch()
        if c in "'`,|":
            raise self.error(f"unsupported Lisp syntax {c!r}")
        return self.read_token()

    def read_list_tail(self, start: int) -> list[Form]:
        self.advance()  # the "("
        items: list[Form] = []
        while True:
            self.skip_blank()
            if self.pos >= len(self.text):
                raise self.error("a list is not closed", start)
            if self.text[self.pos] == ")":
                self.advance()
                return items
            items.append(self.read())

    def read_string(self) -> str:
        start = self.line
        self.advance()
        out: list[str] = []
        text = self.text
        while self.pos < len(text):
            c = text[self.pos]
            if c == '"':
                self.advance()
                return "".join(out)
            if c == "\\":
                if self.pos + 1 >= len(text):
                    break
                c = text[self.pos + 1]
                self.advance()
            out.append(c)
            self.advance()
        raise self.error("a string is not closed", start)

    def read_dispatch(self) -> Form:
        nxt = self.text[self.pos + 1 : self.pos + 2]
        if nxt == "\\":
            self.advance(2)
            if self.pos >= len(self.text):
                raise self.error("character '#\\' without a character")
            # The first character is taken whatever it is; a longer name (Space) follows it.
            end = self.pos + 1
            while end < len(self.text) and self.text[end] not in _DELIMITERS:
                end += 1
            name = self.text[self.pos : end]
            if len(name) > 1 and name.upper() not in _CHAR_NAMES:
                raise self.error(f"unknown character name #\\{name}")
            self.advance(end - self.pos)
            return Char(name)
        if nxt in ("S", "s"):
            start = self.line
            self.advance(2)
            if self.pos >= len(self.text) or self.text[self.pos] != "(":
                raise self.error("'#S' must be followed by '('")
            items = self.read_list_tail(start)
            if not items or not isinstance(items[0], Symbol) or items[0].keyword:
                raise self.error("a structure must start with its type name", start)
            fields: list[tuple[str, Form]] = []
            rest = items[1:]
            if len(rest) % 2:
                raise self.error(f"structure {items[0].name} has a key without a value", start)
            for key, value in zip(rest[::2], rest[1::2], strict=True):
                if not isinstance(key, Symbol) or not key.keyword:
                    raise self.error(f"structure {items[0].name}: {print_form(key)} is not a keyword", start)
                fields.append((key.name, value))
            return Struct(items[0].name, tuple(fields))
        raise self.error(f"unsupported Lisp syntax '#{nxt}'")

    def read_token(self) -> Form:
        end = self.pos
        while end < len(self.text) and self.text[end] not in _DELIMITERS and self.text[end] != "|":
            end += 1
        token = self.text[self.pos : end]
        if _INTEGER.fullmatch(token):
            self.advance(end - self.pos)
            return int(token.rstrip("."))
        if _RATIO.fullmatch(token):
            num, den = token.split("/")
            if int(den) == 0:
                raise self.error(f"ratio {token} divides by zero")
            self.advance(end - self.pos)
            return Fraction(int(num), int(den))
        if token[:1].isdigit() or token[:2] in ("-.", "+.") or (token[:1] in "+-." and token[1:2].isdigit()):
            raise self.error(f"unsupported number {token!r}")
        self.advance(end - self.pos)
        if token.startswith(":"):
            if len(token) == 1 or ":" in token[1:]:
                raise self.error(f"bad keyword {token!r}")
            return Symbol(token[1:].upper(), keyword=True)
        if ":" in token:
            raise self.error(f"package-qualified symbol {token!r} is not supported")
        return Symbol(token.upper())


def read_one(text: str, file: str) -> Form:
    """Read exactly one form from ``text``; anything but blanks and comments after it is an error."""
    reader = _Reader(text, file)
    form = reader.read()
    if not reader.at_end():
        raise reader.error("text after the end of the form")
    return form


def read_list_items(text: str, file: str) -> list[tuple[int, Form]]:
    """Read a file holding one list and return its elements, each with the line it starts on.

    The whole file must be that one list (blanks and comments aside). An empty file is an error; ``()``
    or ``NIL`` gives no elements.
    """
    reader = _Reader(text, file)
    reader.skip_blank()
    if reader.pos >= len(text):
        raise reader.error("the file is empty: a list was expected")
    if text[reader.pos] != "(":
        form = reader.read()
        if form == NIL and reader.at_end():
            return []
        raise reader.error("the file must hold one list '( … )'")
    start = reader.line
    reader.advance()
    items: list[tuple[int, Form]] = []
    while True:
        reader.skip_blank()
        if reader.pos >= len(text):
            raise reader.error("the list is not closed", start)
        if text[reader.pos] == ")":
            reader.advance()
            break
        line = reader.line
        items.append((line, reader.read()))
    if not reader.at_end():
        raise reader.error("text after the end of the list")
    return items


def _print_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def print_form(form: Form) -> str:
    """The form as the program prints it, on one line (upper-case symbols, ``NIL`` for an empty list)."""
    if isinstance(form, bool):
        raise TypeError("booleans are not Lisp forms; use T or NIL")
    if isinstance(form, int):
        return str(form)
    if isinstance(form, Fraction):
        return str(form.numerator) if form.denominator == 1 else f"{form.numerator}/{form.denominator}"
    if isinstance(form, str):
        return _print_string(form)
    if isinstance(form, Symbol):
        return (":" if form.keyword else "") + form.name
    if isinstance(form, Char):
        return "#\\" + form.name
    if isinstance(form, Struct):
        parts = [form.name] + [f":{k} {print_form(v)}" for k, v in form.fields]
        return "#S(" + " ".join(parts) + ")"
    if isinstance(form, list):
        return "(" + " ".join(print_form(x) for x in form) + ")" if form else "NIL"
    raise TypeError(f"not a Lisp form: {form!r}")


def is_nil(form: Form | None) -> bool:
    """True for ``NIL`` and ``()`` (the same object in Lisp)."""
    return form == NIL or form == []

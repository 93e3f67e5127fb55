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
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Final, NamedTuple

from .errors import FesaFileError, gettext_noop

# Each form is its own type (the printer dispatches on it); no form is a plain tuple.


class Symbol(NamedTuple):
    """A symbol; ``name`` is upper case. Keywords have ``keyword=True`` and no colon in the name."""

    name: str
    keyword: bool = False


class Char(NamedTuple):
    """A character object ``#\\E``; ``name`` is the text after ``#\\`` (``E``, ``Space``)."""

    name: str


class Struct(NamedTuple):
    """A structure ``#S(NAME :KEY value …)``; ``fields`` keeps the keys (upper case, no colon) in order."""

    name: str
    fields: tuple[tuple[str, Form], ...]

    def get(self, key: str, default: Form | None = None) -> Form | None:
        return next((v for k, v in self.fields if k == key), default)

    def has(self, key: str) -> bool:
        return any(k == key for k, _ in self.fields)


Form = int | Fraction | str | Symbol | Char | Struct | list["Form"]

NIL = Symbol("NIL")
T = Symbol("T")

HALF: Final = Fraction(1, 2)
"""``1/2``, the result of a drawn game. Every reader and writer uses this one object, so comparing two result
lists finds equal halves by identity instead of through ``Fraction.__eq__``."""

_BLANK = re.compile(r"(?:[ \t\r\n\f]+|;[^\n]*)*")
_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_CHAR_REST = re.compile(r"[^ \t\r\n\f()\";'`,]*")  # up to a delimiter
_TOKEN = re.compile(r"[^ \t\r\n\f()\";'`,|]*")  # up to a delimiter or "|"
_CHAR_NAMES = {"SPACE": " ", "NEWLINE": "\n", "TAB": "\t"}


def _digits(text: str) -> bool:
    """Whether ``text`` is one to nine ASCII digits, as a number of the files is written. ASCII only, and at
    most nine: every number of the FESA files (ratings, counts, grades) is far smaller, and a longer one
    would overflow the database's integer columns (or int()'s digit limit)."""
    return 0 < len(text) < 10 and text.isascii() and text.isdigit()


def _number(token: str) -> int | tuple[int, int] | None:
    """What ``token`` is as a number: an integer ``[+-]digits[.]``, a ratio ``[+-]digits/digits`` as its
    numerator and denominator (not made into a Fraction: the denominator may be zero), or None."""
    if _digits(token):  # most numbers: ratings, counts
        return int(token)
    if token[:1] not in "+-0123456789":  # most other tokens: symbols and keywords
        return None
    sign = token[:1] if token.startswith(("+", "-")) else ""
    unsigned = token[len(sign) :]
    if _digits(unsigned.removesuffix(".")):
        return int(token.rstrip("."))
    numerator, slash, denominator = unsigned.partition("/")
    if slash and _digits(numerator) and _digits(denominator):
        return int(sign + numerator), int(denominator)
    return None


class _Reader:
    """A recursive reader over the whole text. Positions move by slices and regular expressions, and the
    line is counted only when asked (messages, list items), from where it was last asked: counting newlines
    on every step was most of the time spent on a large list."""

    def __init__(self, text: str, file: str) -> None:
        self.text = text
        self.file = file
        self.pos = 0
        self._counted = 0  # the position whose line _line is
        self._line = 1
        self._blank = _BLANK.match  # the most used patterns, looked up once
        self._token = _TOKEN.match

    @property
    def line(self) -> int:
        if self.pos < self._counted:  # never so far: the position only moves forward
            self._counted, self._line = 0, 1
        self._line += self.text.count("\n", self._counted, self.pos)
        self._counted = self.pos
        return self._line

    def error(self, message: str, line: int | None = None, params: dict[str, Any] | None = None) -> FesaFileError:
        return FesaFileError(self.file, self.line if line is None else line, message, params)

    def advance(self, n: int = 1) -> None:
        self.pos += n

    def skip_blank(self) -> None:
        """Skip whitespace and ``;`` comments."""
        self.pos = self._blank(self.text, self.pos).end()  # type: ignore[union-attr]  # matches ""

    def at_end(self) -> bool:
        self.skip_blank()
        return self.pos >= len(self.text)

    def read(self) -> Form:
        self.skip_blank()
        if self.pos >= len(self.text):
            raise self.error(gettext_noop("unexpected end of file: a form is missing"))
        c = self.text[self.pos]
        if c == "(":
            return self.read_list_tail(self.line)
        if c == ")":
            raise self.error(gettext_noop("unexpected ')'"))
        if c == '"':
            return self.read_string()
        if c == "#":
            return self.read_dispatch()
        if c in "'`,|":
            raise self.error(gettext_noop("unsupported Lisp syntax %(char)r"), params={"char": c})
        return self.read_token()

    def read_list_tail(self, start: int) -> list[Form]:
        self.advance()  # the "("
        items: list[Form] = []
        while True:
            self.skip_blank()
            if self.pos >= len(self.text):
                raise self.error(gettext_noop("a list is not closed"), start)
            if self.text[self.pos] == ")":
                self.advance()
                return items
            items.append(self.read())

    def read_string(self) -> str:
        match = _STRING.match(self.text, self.pos)
        if match is None:
            raise self.error(gettext_noop("a string is not closed"))
        self.pos = match.end()
        body = match.group(1)
        return _ESCAPE.sub(r"\1", body) if "\\" in body else body

    def read_dispatch(self) -> Form:
        nxt = self.text[self.pos + 1 : self.pos + 2]
        if nxt == "\\":
            self.advance(2)
            if self.pos >= len(self.text):
                raise self.error(gettext_noop("character '#\\' without a character"))
            # The first character is taken whatever it is; a longer name (Space) follows it.
            end = _CHAR_REST.match(self.text, self.pos + 1).end()  # type: ignore[union-attr]  # matches ""
            name = self.text[self.pos : end]
            if len(name) > 1 and name.upper() not in _CHAR_NAMES:
                raise self.error(gettext_noop("unknown character name #\\%(name)s"), params={"name": name})
            self.advance(end - self.pos)
            return Char(name)
        if nxt in ("S", "s"):
            start = self.line
            self.advance(2)
            if self.pos >= len(self.text) or self.text[self.pos] != "(":
                raise self.error(gettext_noop("'#S' must be followed by '('"))
            items = self.read_list_tail(start)
            if not items or not isinstance(items[0], Symbol) or items[0].keyword:
                raise self.error(gettext_noop("a structure must start with its type name"), start)
            fields: list[tuple[str, Form]] = []
            rest = items[1:]
            if len(rest) % 2:
                message = gettext_noop("structure %(name)s has a key without a value")
                raise self.error(message, start, {"name": items[0].name})
            for key, value in zip(rest[::2], rest[1::2], strict=True):
                if not isinstance(key, Symbol) or not key.keyword:
                    message = gettext_noop("structure %(name)s: %(key)s is not a keyword")
                    raise self.error(message, start, {"name": items[0].name, "key": print_form(key)})
                fields.append((key.name, value))
            return Struct(items[0].name, tuple(fields))
        raise self.error(gettext_noop("unsupported Lisp syntax '#%(char)s'"), params={"char": nxt})

    def read_token(self) -> Form:
        end = self._token(self.text, self.pos).end()  # type: ignore[union-attr]  # matches ""
        token = self.text[self.pos : end]
        number = _number(token)
        if isinstance(number, int):
            self.advance(end - self.pos)
            return number
        if number is not None:
            num, den = number
            if den == 0:
                raise self.error(gettext_noop("ratio %(token)s divides by zero"), params={"token": token})
            self.advance(end - self.pos)
            return Fraction(num, den)
        if token[:1].isdigit() or token[:2] in ("-.", "+.") or (token[:1] in "+-." and token[1:2].isdigit()):
            message = gettext_noop("unsupported number %(token)r (numbers have at most 9 digits)")
            raise self.error(message, params={"token": token[:20]})
        self.advance(end - self.pos)
        if token.startswith(":"):
            if len(token) == 1 or ":" in token[1:]:
                raise self.error(gettext_noop("bad keyword %(token)r"), params={"token": token})
            return Symbol(token[1:].upper(), keyword=True)
        if ":" in token:
            message = gettext_noop("package-qualified symbol %(token)r is not supported")
            raise self.error(message, params={"token": token})
        return Symbol(token.upper())


def read_one(text: str, file: str) -> Form:
    """Read exactly one form from ``text``; anything but blanks and comments after it is an error."""
    reader = _Reader(text, file)
    form = reader.read()
    if not reader.at_end():
        raise reader.error(gettext_noop("text after the end of the form"))
    return form


def read_list_items(text: str, file: str) -> list[tuple[int, Form]]:
    """Read a file holding one list and return its elements, each with the line it starts on.

    The whole file must be that one list (blanks and comments aside). An empty file is an error; ``()``
    or ``NIL`` gives no elements.
    """
    fast = _scan_list_items(text)
    return fast if fast is not None else _read_list_items(text, file)


def _read_list_items(text: str, file: str) -> list[tuple[int, Form]]:
    reader = _Reader(text, file)
    reader.skip_blank()
    if reader.pos >= len(text):
        raise reader.error(gettext_noop("the file is empty: a list was expected"))
    if text[reader.pos] != "(":
        form = reader.read()
        if form == NIL and reader.at_end():
            return []
        raise reader.error(gettext_noop("the file must hold one list '( … )'"))
    start = reader.line
    reader.advance()
    items: list[tuple[int, Form]] = []
    while True:
        reader.skip_blank()
        if reader.pos >= len(text):
            raise reader.error(gettext_noop("the list is not closed"), start)
        if text[reader.pos] == ")":
            reader.advance()
            break
        line = reader.line
        items.append((line, reader.read()))
    if not reader.at_end():
        raise reader.error(gettext_noop("text after the end of the list"))
    return items


# --- the fast path ---------------------------------------------------------------------------------------
#
# A state list of a few thousand players is read on every run. The reader above steps through it one
# form at a time; this one takes it in a single pass of one regular expression with an explicit stack,
# about ten times faster. It only accepts what it fully understands: on anything else (a syntax error, an
# unsupported form, a bad structure) it gives up and the reader above reads the file again, so the
# messages and what is accepted stay exactly the reader's.

_SCAN = re.compile(
    # Blanks before a token are taken with it, so most tokens are one match.
    r"""[ \t\r\f]*(?:(\n[ \t\r\n\f]*)|;[^\n]*"""  # 1 newlines and the blanks after them; a comment
    r"""|\(([0-9]{1,9}) (0|1|1/2) 1\)"""  # 2, 3 a game of a result list, (1740 1/2 1): most of a long list
    r"""|(\()|(\#[Ss]\()|(\))"""  # 4 list, 5 structure, 6 close
    r'|("(?:[^"\\]|\\.)*")'  # 7 string
    r"""|\#\\(.[^ \t\r\n\f()";'`,]*)"""  # 8 character
    r"""|([^ \t\r\n\f()";'`,|#][^ \t\r\n\f()";'`,|]*)"""  # 9 number, symbol, keyword
    r"""|(.))""",  # 10 anything else: leave it to the reader
    re.DOTALL,
)


def _scan_atom(token: str, symbols: dict[str, Symbol]) -> Form | None:
    """What ``_Reader.read_token`` makes of ``token``, or None where it would raise."""
    symbol = symbols.get(token)
    if symbol is not None:
        return symbol
    number = _number(token)
    if isinstance(number, int):
        return number
    if number is not None:
        num, den = number
        return Fraction(num, den) if den else None
    if token[:1].isdigit() or token[:2] in ("-.", "+.") or (token[:1] in "+-." and token[1:2].isdigit()):
        return None
    if token.startswith(":"):
        if len(token) == 1 or ":" in token[1:]:
            return None
        symbol = Symbol(token[1:].upper(), keyword=True)
    elif ":" in token:
        return None
    else:
        symbol = Symbol(token.upper())
    symbols[token] = symbol
    return symbol


def _scan_struct(items: list[Form]) -> Struct | None:
    head, rest = items[:1], items[1:]
    if not head or not isinstance(head[0], Symbol) or head[0].keyword or len(rest) % 2:
        return None
    keys = rest[::2]
    if not all(isinstance(k, Symbol) and k.keyword for k in keys):
        return None
    return Struct(head[0].name, tuple(zip((k.name for k in keys), rest[1::2], strict=True)))  # type: ignore[union-attr]


def _scan_list_items(text: str) -> list[tuple[int, Form]] | None:
    """:func:`read_list_items` for a well-formed list, or None to leave the file to the reader.

    ``findall`` gives every token's groups at once (faster than a match object each); every group that
    matched is non-empty, so the first non-empty one says what the token is. Lines are counted from the
    blanks that hold newlines (and strings), not token by token."""
    stack: list[list[Form]] = []
    structs: list[bool] = []
    lines: list[int] = []  # the line each element of the outer list starts on
    symbols: dict[str, Symbol] = {}
    outer: list[Form] | None = None
    line = 1
    for newline, opponent, result, open_list, open_struct, close, string, char, atom, other in _SCAN.findall(text):
        if newline:
            line += newline.count("\n")
            continue
        if opponent and len(stack) > 1:
            stack[-1].append([int(opponent), HALF if result == "1/2" else int(result), 1])
            continue
        if not (atom or string or open_list or open_struct or close or char or other or opponent):
            continue  # a comment
        if outer is not None or (not stack and not open_list):
            return None
        if len(stack) == 1 and not close:
            lines.append(line)
        value: Form | None
        if opponent:  # an outer-list element that looks like a game: leave it to the reader
            return None
        if atom:
            value = int(atom) if atom.isdigit() and atom.isascii() and len(atom) < 10 else _scan_atom(atom, symbols)
        elif string:
            body = string[1:-1]
            if "\n" in body:
                line += body.count("\n")
            value = _ESCAPE.sub(r"\1", body) if "\\" in body else body
        elif open_list or open_struct:
            stack.append([])
            structs.append(bool(open_struct))
            continue
        elif close:
            items = stack.pop()
            if not stack:
                outer = items
                continue
            value = _scan_struct(items) if structs.pop() else items
        elif char:
            value = Char(char) if len(char) == 1 or char.upper() in _CHAR_NAMES else None
            line += char.count("\n")
        else:
            return None
        if value is None:
            return None
        stack[-1].append(value)
    if outer is None:
        return None
    return list(zip(lines, outer, strict=True))


def print_string(value: str) -> str:
    """A string as ``prin1`` prints it: in double quotes, ``\\`` and ``"`` escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _print_list(form: list[Form]) -> str:
    # Integers, most of a result list's elements, inline: a call each was a good part of printing a record.
    return "(" + " ".join([str(x) if type(x) is int else print_form(x) for x in form]) + ")" if form else "NIL"


def _print_struct(form: Struct) -> str:
    return "#S(" + " ".join([form.name, *[f":{k} {print_form(v)}" for k, v in form.fields]]) + ")"


# By exact type: a whole list is printed on every run, and a chain of isinstance tests per form was a
# good part of that. A bool (an int subclass) is not here, so it is refused below.
_PRINTERS: dict[type, Callable[[Any], str]] = {
    int: str,
    str: print_string,
    Symbol: lambda s: (":" if s.keyword else "") + s.name,
    Char: lambda c: "#\\" + c.name,
    list: _print_list,
    Struct: _print_struct,
}


def print_form(form: Form) -> str:
    """The form as the program prints it, on one line (upper-case symbols, ``NIL`` for an empty list)."""
    printer = _PRINTERS.get(type(form))
    if printer is None:
        return _print_other(form)
    return printer(form)


def _print_other(form: Form) -> str:
    """A ratio, or a refusal."""
    if type(form) is Fraction:
        return str(form.numerator) if form.denominator == 1 else f"{form.numerator}/{form.denominator}"
    if isinstance(form, bool):
        raise TypeError("booleans are not Lisp forms; use T or NIL")
    raise TypeError(f"not a Lisp form: {form!r}")


def is_nil(form: Form | None) -> bool:
    """True for ``NIL`` and ``()`` (the same object in Lisp)."""
    return form == NIL or form == []

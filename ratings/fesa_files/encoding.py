"""The FESA files' character set: ISO-8859-1, with UTF-8 also accepted for a director's turnering.txt.

Names are not all ISO-8859-1 (Zieliński, Dvořák, Čulić): :func:`latin1_text` transliterates the letters
ISO-8859-1 lacks, one by one, with ``anyascii`` (ń→n, ř→r, Ł→L, ŋ→ng, ı→i) and keeps every letter it holds
(é, ö, å, ß) as it is, so writing a FESA file never fails on a name. The site keeps the real name; a file
read back matches the transliterated name to its player (ratings/selectors/fesa_match.py).
"""

from __future__ import annotations

import unicodedata

from .errors import FesaFileError, gettext_noop

ENCODING = "iso-8859-1"
UNKNOWN = "?"
"""Written for a character that has no transliteration (rare: unassigned code points, some symbols)."""


def _transliterated(char: str, following: str) -> str:
    # anyascii loads importlib.resources (pathlib, tempfile, shutil...), a quarter of a per-table run's CPU,
    # for the rare name outside ISO-8859-1: within the budget of bench/README.md only when imported here.
    from anyascii import anyascii  # noqa: PLC0415 - imported on first use: see above

    text = anyascii(char) or UNKNOWN
    # anyascii writes Œ as "Oe", right before a lower-case letter (Œuvray); in a capitalised name or
    # alone it is "OE" (ŒUVRAY, Œ).
    if len(text) > 1 and char.isupper() and not following.islower():
        return text.upper()
    return text


def latin1_text(text: str) -> str:
    """``text`` with every character outside ISO-8859-1 transliterated to ASCII; the others are kept.

    Composed first (NFC), so that ``e`` + combining acute stays ``é`` rather than losing its accent. Text
    already in ISO-8859-1 is returned as it is: NFC leaves every ISO-8859-1 character alone and no two of them
    compose (tests/fesa/test_encoding.py checks both), and the C encoder tells it in one pass.
    """
    if _is_latin1(text):
        return text
    text = unicodedata.normalize("NFC", text)
    if _is_latin1(text):
        return text
    return "".join(c if ord(c) < 0x100 else _transliterated(c, text[i + 1 : i + 2]) for i, c in enumerate(text))


def _is_latin1(text: str) -> bool:
    try:
        text.encode(ENCODING)
    except UnicodeEncodeError:
        return False
    return True


def encode_text(text: str, file: str) -> bytes:
    """``text`` in ISO-8859-1, characters it lacks transliterated (:func:`latin1_text`).

    The writers transliterate names before laying out their columns, so that a name that grows (Œ→OE)
    keeps the columns aligned; this is the last guard for any other text.
    """
    try:
        return text.encode(ENCODING)  # nearly always: the writers' text is already transliterated
    except UnicodeEncodeError:
        pass
    try:
        return latin1_text(text).encode(ENCODING)
    except UnicodeEncodeError as exc:  # latin1_text leaves nothing ISO-8859-1 lacks; kept to name the line
        line = text.count("\n", 0, exc.start) + 1
        message = gettext_noop("%(char)r cannot be written in ISO-8859-1")
        raise FesaFileError(file, line, message, {"char": text[exc.start]}) from None


def decode_lenient(data: bytes) -> str:
    """UTF-8 when the bytes are valid UTF-8 and hold a non-ASCII byte, ISO-8859-1 otherwise.

    Latin-1 text with accents is almost never valid UTF-8 (an accented letter followed by a plain one is
    an invalid sequence), so the test tells the two apart in practice. A UTF-8 byte-order mark is dropped.
    """
    if not data.isascii():
        try:
            return data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            pass
    return data.decode(ENCODING)

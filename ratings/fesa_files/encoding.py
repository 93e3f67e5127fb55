"""The FESA files' character set: ISO-8859-1, with UTF-8 also accepted for a director's turnering.txt."""

from __future__ import annotations

from .errors import FesaFileError

ENCODING = "iso-8859-1"


def encode_text(text: str, file: str) -> bytes:
    """``text`` in ISO-8859-1; a character the encoding lacks is an error naming its line."""
    try:
        return text.encode(ENCODING)
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        raise FesaFileError(file, line, f"{text[exc.start]!r} cannot be written in ISO-8859-1") from None


def decode_lenient(data: bytes) -> str:
    """UTF-8 when the bytes are valid UTF-8 and hold a non-ASCII byte, ISO-8859-1 otherwise.

    Latin-1 text with accents is almost never valid UTF-8 (an accented letter followed by a plain one is
    an invalid sequence), so the test tells the two apart in practice. A UTF-8 byte-order mark is dropped.
    """
    if any(b >= 0x80 for b in data):
        try:
            return data.decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError:
            pass
    return data.decode(ENCODING)

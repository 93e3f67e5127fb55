"""A list in the program's spelling but for a few lines (a hand-edited record, a comment): those lines are read by
the general reader a run at a time, and the rest line by line (ratings/fesa_files/spelling.py ``read_spelled``).
The records, their lines, the written list and a run's files must be what the general reader alone gives, and a
mistake in such a run must get the general reader's message."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from ratings.fesa_files import ratingliste
from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.ratingliste import read_ratingliste, write_ratingliste
from ratings.fesa_files.run import rate_files
from ratings.fesa_files.spelling import RECORD

from .data import case_dir, case_names


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _split_record(line: str) -> str:
    """The record over two lines, as a hand edit may leave it."""
    at = line.index(" :NATIONALITY-LIST")
    return line[:at] + "\n   " + line[at:]


def _comment_after_first(text: str) -> str:
    lines = _lines(text)
    return "\n".join([lines[0], ";; checked by hand", *lines[1:]])


def _middle_split(text: str) -> str:
    lines = _lines(text)
    records = [i for i, line in enumerate(lines) if RECORD.fullmatch(line.removeprefix("("))]
    middle = records[len(records) // 2]
    lines[middle] = _split_record(lines[middle])
    return "\n".join(lines)


def _last_split_and_lower_case(text: str) -> str:
    """The last record over two lines with a key in lower case: the run that ends the file closes the list."""
    lines = _lines(text)
    last = max(i for i, line in enumerate(lines) if RECORD.fullmatch(line.removeprefix("(")))
    lines[last] = _split_record(lines[last]).replace(":BONUS-COUNT", ":bonus-count")
    return "\n".join(lines)


EDITS: dict[str, Callable[[str], str]] = {
    "comment": _comment_after_first,
    "split": _middle_split,
    "last": _last_split_and_lower_case,
}


def _list_text(name: str) -> str:
    return (case_dir(name) / "ratingliste.pre").read_bytes().decode("latin-1")


@pytest.mark.parametrize("edit", EDITS)
@pytest.mark.parametrize("name", case_names())
def test_a_few_odd_lines_are_read_as_the_general_reader_reads_them(name: str, edit: str) -> None:
    text = EDITS[edit](_list_text(name))
    assert text != _list_text(name)
    fast, slow = read_ratingliste(text, keep_text=True), read_ratingliste(text)
    assert fast == slow
    assert [r.line for r in fast] == [r.line for r in slow]
    assert sum(r.text is not None for r in fast) >= len(fast) - 1  # the others were still read by their line
    assert write_ratingliste(fast) == write_ratingliste(slow)


@pytest.mark.parametrize("edit", EDITS)
@pytest.mark.parametrize("name", case_names())
def test_a_run_on_a_list_with_odd_lines_writes_the_general_readers_files(
    name: str, edit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = case_dir(name)
    nye = case / "nye-spillere"
    args = (
        (case / "turnering.txt").read_bytes(),
        EDITS[edit](_list_text(name)).encode("latin-1"),
        nye.read_bytes() if nye.exists() else None,
    )
    mixed = rate_files(*args).files()
    monkeypatch.setattr(ratingliste, "read_spelled", lambda *_args, **_kwargs: None)
    assert mixed == rate_files(*args).files()


@pytest.mark.parametrize(
    "change",
    [
        (r" :ELO-NUMBER -?\d+", '\n :ELO-NUMBER "x"'),  # a mistake inside a record over two lines
        (r"^#S\(PLAYER", '"\n#S(PLAYER'),  # a string opened on a line of its own...
    ],
)
def test_a_mistake_in_an_odd_run_gets_the_general_readers_message(change: tuple[str, str]) -> None:
    text = _list_text("nekomadoken-13")
    lines = _lines(text)
    middle = len(lines) // 2
    lines[middle], count = re.subn(change[0], change[1], lines[middle], count=1)
    assert count == 1
    if change[1].startswith('"'):
        lines.insert(middle + 3, '"')  # ...and closed two records later: one form across lines in the spelling
    odd = "\n".join(lines)
    with pytest.raises(FesaFileError) as general:
        read_ratingliste(odd)
    with pytest.raises(FesaFileError) as mixed:
        read_ratingliste(odd, keep_text=True)
    assert str(mixed.value) == str(general.value)
    assert general.value.line is not None and general.value.line > 1

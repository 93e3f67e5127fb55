"""The results text of a player line read cell by cell from its space-separated words
(ratings/fesa_files/turnering.py ``_parse_cells``) against the scan it stands for (``_scan_cells``): the same
cells, or the same error, on texts built from cells, blanks and the characters a cell may hold."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.fesa_files.errors import FesaFileError
from ratings.fesa_files.turnering import _parse_cells, _scan_cells

_BLANKS = st.sampled_from([" ", "  ", "\t", " \t", "\xa0", "\x1c", ""])
_CELLS = st.builds(
    lambda opponent, before, sign, space, handicap: f"{opponent}{before}{sign}{space}{handicap}",
    st.sampled_from(["0", "1", "12", "007", "1234", "x"]),
    st.sampled_from(["", "", " "]),
    st.sampled_from(["+", "-", "=", "#", "&", "?"]),
    st.sampled_from(["", "", " "]),
    st.sampled_from(["", "", "", "(+2p)", "(-R)", "( - 4P )", "(+x)", "(", "()"]),
)


def _outcome(read: object, text: str) -> object:
    try:
        return read(text, 3, "turnering.txt")  # type: ignore[operator]
    except FesaFileError as exc:
        return str(exc)


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.tuples(_BLANKS, _CELLS), max_size=8), _BLANKS)
def test_cells_read_word_by_word_are_the_cells_scanned(parts: list[tuple[str, str]], end: str) -> None:
    text = "".join(blank + cell for blank, cell in parts) + end
    assert _outcome(_parse_cells, text) == _outcome(_scan_cells, text.rstrip())

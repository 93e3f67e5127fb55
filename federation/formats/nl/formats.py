"""Dutch: Django's own Dutch formats show dates and numbers; dates are typed as federation/formats/en/formats.py
reads them (ISO, or day first), and in the Dutch forms too."""

from __future__ import annotations

from django.conf.locale.nl import formats as _dutch

from federation.formats.en import formats as _federation

DATE_INPUT_FORMATS = [*_federation.DATE_INPUT_FORMATS, *_dutch.DATE_INPUT_FORMATS]
DATETIME_INPUT_FORMATS = [*_federation.DATETIME_INPUT_FORMATS, *_dutch.DATETIME_INPUT_FORMATS]

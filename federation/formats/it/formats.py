"""Italian: Django's own Italian formats show dates and numbers; dates are typed as federation/formats/en/formats.py
reads them (ISO, or day first), and in the Italian forms too."""

from __future__ import annotations

from django.conf.locale.it import formats as _italian

from federation.formats.en import formats as _federation

DATE_INPUT_FORMATS = [*_federation.DATE_INPUT_FORMATS, *_italian.DATE_INPUT_FORMATS]
DATETIME_INPUT_FORMATS = [*_federation.DATETIME_INPUT_FORMATS, *_italian.DATETIME_INPUT_FORMATS]

"""Polish: Django's own Polish formats show dates and numbers; dates are typed as federation/formats/en/formats.py
reads them (ISO, or day first), and in the Polish forms too."""

from __future__ import annotations

from django.conf.locale.pl import formats as _polish

from federation.formats.en import formats as _federation

DATE_INPUT_FORMATS = [*_federation.DATE_INPUT_FORMATS, *_polish.DATE_INPUT_FORMATS]
DATETIME_INPUT_FORMATS = [*_federation.DATETIME_INPUT_FORMATS, *_polish.DATETIME_INPUT_FORMATS]

"""Spanish: Django's own Spanish formats show dates and numbers; dates are typed as federation/formats/en/formats.py
reads them (ISO, or day first), and in the Spanish forms too."""

from __future__ import annotations

from django.conf.locale.es import formats as _spanish

from federation.formats.en import formats as _federation

DATE_INPUT_FORMATS = [*_federation.DATE_INPUT_FORMATS, *_spanish.DATE_INPUT_FORMATS]
DATETIME_INPUT_FORMATS = [*_federation.DATETIME_INPUT_FORMATS, *_spanish.DATETIME_INPUT_FORMATS]

"""Japanese: Django's own Japanese formats show dates and numbers; dates are typed as
federation/formats/en/formats.py reads them (ISO, or day first), or year first as Japanese write them
(2025/02/01, 2025年2月1日). Django's Japanese formats name no input format, and the default ones read month first."""

from __future__ import annotations

from federation.formats.en import formats as _federation

DATE_INPUT_FORMATS = [*_federation.DATE_INPUT_FORMATS, "%Y/%m/%d", "%Y年%m月%d日"]
DATETIME_INPUT_FORMATS = [*_federation.DATETIME_INPUT_FORMATS, "%Y/%m/%d %H:%M:%S", "%Y/%m/%d %H:%M"]

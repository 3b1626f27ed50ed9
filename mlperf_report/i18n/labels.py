"""Chart and table label text in every report language, so a chart is drawn once per language.

Only words live here, and they live in the gettext catalogues (``i18n.catalogue``); numbers are drawn
by matplotlib or formatted by ``formatting``. A key missing in one language is an error the tests
catch, never a silent English fallback.
"""

from __future__ import annotations

from mlperf_report.core import languages
from mlperf_report.i18n import catalogue

LANGUAGES = languages.available()


def label(key: str, lang: str, **fields: object) -> str:
    """The text of ``key`` in ``lang``, with ``{fields}`` filled in."""
    return catalogue.message(key, lang, **fields)


def counted(key: str, lang: str, count: int, **fields: object) -> str:
    """The form of a plural message for ``count`` (``1 valid result``, ``2 valid results``)."""
    return catalogue.counted(key, lang, count, **fields)


def keys() -> list[str]:
    """Every label key, for tests that check all languages are complete."""
    return catalogue.keys()

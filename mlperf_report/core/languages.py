"""The report languages: English, the source language, plus every language with a gettext catalogue.

A language is a BCP 47 tag (``zh-Hant``); its catalogue lives in ``locale/<zh_Hant>/LC_MESSAGES/
messages.po``, gettext's spelling of the same tag. Adding a language is adding files (see
docs/TRANSLATING.md), so this list is read from the folder rather than typed in code.
"""

from __future__ import annotations

import functools
from pathlib import Path

from mlperf_report.core import paths

SOURCE = "en"


def tag_of(folder: str) -> str:
    """``zh_Hant`` (gettext folder) -> ``zh-Hant`` (the tag the configuration and templates use)."""
    return folder.replace("_", "-")


def folder_of(tag: str) -> str:
    """``zh-Hant`` -> ``zh_Hant``."""
    return tag.replace("-", "_")


@functools.lru_cache(maxsize=None)
def _available(locale_dir: Path) -> tuple[str, ...]:
    found = sorted(tag_of(p.parent.parent.name) for p in locale_dir.glob("*/LC_MESSAGES/messages.po"))
    return (SOURCE, *[tag for tag in found if tag != SOURCE])


def available(locale_dir: Path = paths.LOCALE) -> tuple[str, ...]:
    """Every report language, English first."""
    return _available(Path(locale_dir))

"""Short texts of the report (chart and table labels, status words, the frame, the email) from gettext
catalogues, the files translators and their tools (Poedit, Weblate, ``pybabel``) work with.

Every message has a context (its key, e.g. ``time_to_train.title``) and an English msgid in
``locale/messages.pot``; each language's ``messages.po`` gives the msgstr. Catalogues are read with
Babel (no compile step) once per process. A message that is untranslated, fuzzy or has other
``{placeholders}`` than its English text is an error, never a silent English fallback.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from mlperf_report.core import languages, paths

_FIELD = re.compile(r"{(\w*)}")


def _read(path: Path):
    from babel.messages.pofile import read_po

    with open(path, "rb") as handle:
        return read_po(handle)


@functools.lru_cache(maxsize=None)
def _messages(lang: str, locale_dir: Path) -> dict[str, tuple[str, bool]]:
    """key -> (text, usable) of one language; the template's English for the source language."""
    template = {m.context: m.id for m in _read(locale_dir / "messages.pot") if m.id and m.context}
    if lang == languages.SOURCE:
        return {key: (text, True) for key, text in template.items()}
    po = locale_dir / languages.folder_of(lang) / "LC_MESSAGES" / "messages.po"
    if not po.is_file():
        raise KeyError(f"no catalogue for language {lang!r} ({po}); languages are {list(languages.available())}")
    found = {m.context: m for m in _read(po) if m.id and m.context}
    result = {}
    for key, english in template.items():
        message = found.get(key)
        text = message.string if message is not None and isinstance(message.string, str) else ""
        usable = bool(text) and not message.fuzzy and message.id == english and _fields(text) == _fields(english)
        result[key] = (text, usable)
    return result


def _fields(text: str) -> set[str]:
    return set(_FIELD.findall(text))


def keys(locale_dir: Path = paths.LOCALE) -> list[str]:
    """Every message key of the template."""
    return sorted(_messages(languages.SOURCE, Path(locale_dir)))


def problems(lang: str, locale_dir: Path = paths.LOCALE) -> list[str]:
    """Why ``lang``'s catalogue is not complete: one line per untranslated, fuzzy or mismatched message."""
    out = []
    english = _messages(languages.SOURCE, Path(locale_dir))
    for key, (text, usable) in sorted(_messages(lang, Path(locale_dir)).items()):
        if not usable:
            why = "no translation" if not text else "fuzzy, outdated or other {placeholders} than the English"
            out.append(f"{lang}: {key} ({english[key][0]!r}): {why}")
    return out


def message(key: str, lang: str, locale_dir: Path = paths.LOCALE, **fields: object) -> str:
    """The text of ``key`` in ``lang``, with ``{fields}`` filled in."""
    table = _messages(lang, Path(locale_dir))
    if key not in table:
        raise KeyError(f"no message {key!r}; add it to locale/messages.pot and every messages.po")
    text, usable = table[key]
    if not usable:
        raise KeyError(f"message {key!r} has no usable {lang!r} translation in its messages.po "
                       "(missing, fuzzy or other placeholders); see docs/TRANSLATING.md")
    return text.format(**fields) if fields else text

"""Short texts of the report (chart and table labels, status words, the frame, the email) from gettext
catalogues, the files translators and their tools (Poedit, Weblate, ``pybabel``) work with.

Every message has a context (its key, e.g. ``time_to_train.title``) and an English msgid in
``locale/messages.pot``; each language's ``messages.po`` gives the msgstr. Catalogues are read with
Babel (no compile step) once per process. A message that is untranslated, fuzzy or has other
``{placeholders}`` than its English text is an error, never a silent English fallback.

A message that counts something (``{count} valid result`` / ``{count} valid results``) is a gettext
plural message (msgid_plural): ``counted`` picks its form by the language's own ``Plural-Forms`` rule.
"""

from __future__ import annotations

import functools
import gettext
import re
from pathlib import Path

from mlperf_report.core import languages, paths

_FIELD = re.compile(r"{(\w*)}")

#: Files this module reads at run time: a notebook or report that imports it is stale when they change.
DATA_INPUTS = (paths.LOCALE,)


@functools.lru_cache(maxsize=None)
def _read(path: Path):
    """A catalogue as Babel reads it, once per process (its messages and its Plural-Forms rule)."""
    from babel.messages.pofile import read_po

    with open(path, "rb") as handle:
        return read_po(handle)


def _po(lang: str, locale_dir: Path) -> Path:
    po = locale_dir / languages.folder_of(lang) / "LC_MESSAGES" / "messages.po"
    if not po.is_file():
        raise KeyError(f"no catalogue for language {lang!r} ({po}); languages are {list(languages.available())}")
    return po


@functools.lru_cache(maxsize=None)
def _plural_form(lang: str, locale_dir: Path):
    """n -> the index of the plural form to use, from the catalogue's Plural-Forms header."""
    if lang == languages.SOURCE:
        return lambda n: int(n != 1)
    return plural_rule(_read(_po(lang, locale_dir)))


def plural_rule(catalog):
    """n -> the form index of ``catalog``'s (Babel's) Plural-Forms rule, by the standard library's own
    reading of it: a catalogue of one message whose forms are their indexes, as GNU gettext's
    ``ngettext`` picks among them (``gettext.c2py``, which compiles the rule, is not public)."""
    import io

    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    probe = Catalog(locale=catalog.locale, domain="plural")
    probe.mime_headers = catalog.mime_headers  # the catalogue's own Plural-Forms, not Babel's for its locale
    probe.add(("n", "ns"), tuple(str(i) for i in range(probe.num_plurals)))
    mo = io.BytesIO()
    write_mo(mo, probe)
    mo.seek(0)
    translations = gettext.GNUTranslations(mo)
    return lambda n: int(translations.ngettext("n", "ns", n))


@functools.lru_cache(maxsize=None)
def _messages(lang: str, locale_dir: Path) -> dict[str, tuple[str | tuple[str, ...], bool]]:
    """key -> (text, usable) of one language; the template's English for the source language. The text of
    a plural message is the tuple of its forms."""
    template = {m.context: m.id for m in _read(locale_dir / "messages.pot") if m.id and m.context}
    if lang == languages.SOURCE:
        return {key: (text, True) for key, text in template.items()}
    found = {m.context: m for m in _read(_po(lang, locale_dir)) if m.id and m.context}
    result = {}
    for key, english in template.items():
        message = found.get(key)
        text = message.string if message is not None else ""
        same_kind = isinstance(text, tuple) == isinstance(english, tuple)
        usable = (same_kind and bool(text) and all(text if isinstance(text, tuple) else (text,))
                  and not message.fuzzy and message.id == english and _fields(text) == _fields(english))
        result[key] = (text if same_kind else "", usable)
    return result


def _fields(text: str | tuple[str, ...]) -> set[str]:
    forms = text if isinstance(text, tuple) else (text,)
    return {name for form in forms for name in _FIELD.findall(form)}


def keys(locale_dir: Path = paths.LOCALE) -> list[str]:
    """Every message key of the template."""
    return sorted(_messages(languages.SOURCE, Path(locale_dir)))


def fields(key: str, locale_dir: Path = paths.LOCALE) -> set[str]:
    """The ``{fields}`` the English message of ``key`` takes (every form of a plural message)."""
    return _fields(_messages(languages.SOURCE, Path(locale_dir))[key][0])


def is_counted(key: str, locale_dir: Path = paths.LOCALE) -> bool:
    """Whether ``key`` is a plural message (asked for with ``counted``)."""
    return isinstance(_messages(languages.SOURCE, Path(locale_dir))[key][0], tuple)


def problems(lang: str, locale_dir: Path = paths.LOCALE) -> list[str]:
    """Why ``lang``'s catalogue is not complete: one line per untranslated, fuzzy or mismatched message."""
    out = []
    english = _messages(languages.SOURCE, Path(locale_dir))
    for key, (text, usable) in sorted(_messages(lang, Path(locale_dir)).items()):
        if not usable:
            empty = not text or (isinstance(text, tuple) and not all(text))
            why = "no translation" if empty else "fuzzy, outdated or other {placeholders} than the English"
            out.append(f"{lang}: {key} ({english[key][0]!r}): {why}")
    return out


def _usable(key: str, lang: str, locale_dir: Path) -> str | tuple[str, ...]:
    table = _messages(lang, Path(locale_dir))
    if key not in table:
        raise KeyError(f"no message {key!r}; add it to locale/messages.pot and every messages.po")
    text, usable = table[key]
    if not usable:
        raise KeyError(f"message {key!r} has no usable {lang!r} translation in its messages.po "
                       "(missing, fuzzy or other placeholders); see docs/TRANSLATING.md")
    return text


def message(key: str, lang: str, locale_dir: Path = paths.LOCALE, **fields: object) -> str:
    """The text of ``key`` in ``lang``, with ``{fields}`` filled in."""
    text = _usable(key, lang, locale_dir)
    if isinstance(text, tuple):
        raise KeyError(f"message {key!r} counts something; ask for it with counted(key, lang, n)")
    return text.format(**fields) if fields else text


def counted(key: str, lang: str, count: int, locale_dir: Path = paths.LOCALE, **fields: object) -> str:
    """The form of plural message ``key`` for ``count`` in ``lang``, with ``{count}`` and ``{fields}``
    filled in."""
    forms = _usable(key, lang, locale_dir)
    if not isinstance(forms, tuple):
        raise KeyError(f"message {key!r} has no plural forms; ask for it with message(key, lang)")
    form = forms[min(_plural_form(lang, Path(locale_dir))(count), len(forms) - 1)]
    return form.format(count=count, **fields)

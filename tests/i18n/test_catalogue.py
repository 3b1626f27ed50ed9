"""Translations are catalogues: every message of the template has a usable translation in every report
language, every key the code asks for exists, and a broken catalogue is named precisely."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from mlperf_report.core import languages, paths
from mlperf_report.i18n import catalogue, formatting

PACKAGE = paths.ROOT / "mlperf_report"
#: label("key", ...), catalogue.message("key", ...), counted("key", ...) and f"prefix.{...}" keys built in code
_LITERAL = re.compile(r"""(?:label|message|counted)\(\s*["']([\w./]+)["']""")
_PREFIX = re.compile(r"""(?:label|message)\(\s*f["']([\w.]+)\.\{""")


def test_languages_come_from_the_catalogues():
    assert languages.available() == ("en", "zh-Hant")


@pytest.mark.parametrize("lang", languages.available())
def test_every_message_is_translated_in_every_language(lang):
    assert catalogue.problems(lang) == []
    for key in catalogue.keys():
        if catalogue.is_counted(key):  # {count} picks the form; other fields (a formatted number) are given
            other = {f: "x" for f in catalogue.fields(key) - {"count"}}
            assert all(catalogue.counted(key, lang, n, **other) for n in (0, 1, 2, 5))
            continue
        assert catalogue.message(key, lang, **{f: "x" for f in re.findall(r"{(\w+)}", catalogue.message(key, "en"))})


@pytest.mark.parametrize("lang", languages.available())
def test_every_language_has_its_narrative_and_title(lang):
    assert (paths.TEMPLATES / f"narrative.{lang}.html.j2").is_file()
    from mlperf_report.core.config import load_config

    config = load_config()
    for suite in config.suite_titles:  # the shipped report.yaml titles every suite in every language
        assert lang in config.suite_titles[suite], suite


def test_every_key_the_code_asks_for_is_in_the_template():
    keys = set(catalogue.keys())
    asked, prefixes = set(), set()
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        asked |= set(_LITERAL.findall(text))
        prefixes |= set(_PREFIX.findall(text))
    assert asked and prefixes
    assert sorted(asked - keys) == []
    assert all(any(k.startswith(p + ".") for k in keys) for p in prefixes), prefixes


def _copy_locale(tmp_path: Path) -> Path:
    target = tmp_path / "locale"
    shutil.copytree(paths.LOCALE, target)
    return target


def _edit(po: Path, key: str, new_msgstr_line: str, *, fuzzy: bool = False) -> None:
    text = po.read_text()
    start = text.index(f'msgctxt "{key}"')
    msgstr = text.index("msgstr", start)
    end = text.index("\n", msgstr)
    text = text[:msgstr] + new_msgstr_line + text[end:]
    if fuzzy:
        text = text[:start] + "#, fuzzy\n" + text[start:]
    po.write_text(text)


@pytest.mark.parametrize("line, fuzzy, why", [
    ('msgstr ""', False, "no translation"),
    ('msgstr "訓練時間"', False, "other {placeholders}"),  # lost {benchmark}
    ('msgstr "訓練時間：{benchmark}"', True, "fuzzy"),
])
def test_a_broken_translation_is_named_and_never_falls_back_to_english(tmp_path, line, fuzzy, why):
    locale = _copy_locale(tmp_path)
    _edit(locale / "zh_Hant/LC_MESSAGES/messages.po", "time_to_train.title", line, fuzzy=fuzzy)
    found = catalogue.problems("zh-Hant", locale)
    assert len(found) == 1 and "time_to_train.title" in found[0] and why in found[0]
    with pytest.raises(KeyError, match="time_to_train.title"):
        catalogue.message("time_to_train.title", "zh-Hant", locale, benchmark="BERT")
    assert catalogue.message("time_to_train.x", "zh-Hant", locale) == "訓練時間（分鐘，越低越好）"


def test_counts_take_the_plural_form_of_each_language(tmp_path):
    assert [catalogue.counted("inference.count.models", "en", n) for n in (1, 2, 0)] == [
        "1 model", "2 models", "0 models"]
    assert catalogue.counted("inference.count.models", "zh-Hant", 1) == "1 個模型"  # one form (nplurals=1)
    with pytest.raises(KeyError, match="counts something"):
        catalogue.message("inference.count.models", "en")
    with pytest.raises(KeyError, match="no plural forms"):
        catalogue.counted("time_to_train.x", "en", 2)
    locale = _copy_locale(tmp_path)
    po = locale / "zh_Hant/LC_MESSAGES/messages.po"
    text = po.read_text()
    at = text.index('msgctxt "inference.count.models"')
    po.write_text(text[:at] + text[at:].replace('msgstr[0] "{count} 個模型"', 'msgstr[0] ""', 1))
    found = catalogue.problems("zh-Hant", locale)
    assert len(found) == 1 and "inference.count.models" in found[0] and "no translation" in found[0]


def test_a_new_language_is_a_folder_of_files(tmp_path):
    locale = _copy_locale(tmp_path)
    (locale / "ja/LC_MESSAGES").mkdir(parents=True)
    shutil.copy(locale / "zh_Hant/LC_MESSAGES/messages.po", locale / "ja/LC_MESSAGES/messages.po")
    assert languages.available(locale) == ("en", "ja", "zh-Hant")
    assert catalogue.problems("ja", locale) == []


def test_numbers_and_money_of_a_language_come_from_cldr():
    # German is no report language, but its CLDR data is what a new language would get for free
    assert formatting.money(149995, "USD", "en") == "$149,995"
    assert formatting.money(149995, "USD", "zh-Hant") == "149,995 美元"
    assert formatting.date("2021-06-30", "zh-Hant") == "2021年6月30日"

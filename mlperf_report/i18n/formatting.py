"""Numbers as a reader sees them, per language: the only place a figure becomes text.

Templates never format or type numbers; the narrative passes them strings made here, so a headline
and a table can never disagree about rounding. Rounding is half-up on the shortest decimal form of the
float (``14.45`` → ``14.5``), which is what a reader checking the figure by hand expects.
"""

from __future__ import annotations

import datetime as _dt
import math
from decimal import ROUND_HALF_UP, Decimal

#: Decimal places of minutes: headlines are read, tables are checked.
HEADLINE_PLACES = 1
TABLE_PLACES = 2

#: How a currency is written, per language: (prefix, suffix). Unknown currencies fall back to the
#: ISO code after the amount, which is never wrong, only less familiar.
_CURRENCY = {
    "en": {"USD": ("$", ""), "EUR": ("€", ""), "GBP": ("£", ""), "JPY": ("¥", ""), "CNY": ("CN¥", ""),
           "TWD": ("NT$", "")},
    "zh-Hant": {"USD": ("", " 美元"), "EUR": ("", " 歐元"), "GBP": ("", " 英鎊"), "JPY": ("", " 日圓"),
                "CNY": ("", " 人民幣"), "TWD": ("新台幣 ", " 元")},
}

_MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
              "October", "November", "December")

#: Simple fractions a price comparison is said in words ("half the price"), with the tolerance
#: within which a ratio counts as that fraction (0.49998 is "half"; 0.47 is not).
FRACTION_TOLERANCE = 0.01
_FRACTIONS = {
    "en": ((1 / 2, "half"), (1 / 3, "a third"), (1 / 4, "a quarter"), (2 / 3, "two thirds"),
           (3 / 4, "three quarters")),
    "zh-Hant": ((1 / 2, "一半"), (1 / 3, "三分之一"), (1 / 4, "四分之一"), (2 / 3, "三分之二"),
                (3 / 4, "四分之三")),
}

LANGUAGES = ("en", "zh-Hant")


def _check_lang(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} not supported; must be one of {list(LANGUAGES)}")
    return lang


def _finite(value, what: str) -> Decimal:
    if value is None or isinstance(value, bool):
        raise ValueError(f"{what} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{what} must be a finite number, got {value!r}")
    return Decimal(repr(number)) if isinstance(value, float) else Decimal(value)


def fixed(value, places: int) -> str:
    """``value`` with exactly ``places`` decimals, rounded half-up; thousands separated by commas."""
    number = _finite(value, "value").quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return f"{number:,.{places}f}"


def minutes(value, *, places: int = HEADLINE_PLACES) -> str:
    """Time to train in minutes: ``14.48`` → ``14.5`` (headline) or ``14.48`` (``places=2``, tables)."""
    return fixed(value, places)


def ratio(value, *, places: int = 1) -> str:
    """A multiple such as a speed-up or a perf/$ ratio: ``1.55`` → ``1.6×``."""
    return f"{fixed(value, places)}×"


def count(value) -> str:
    """A whole number with thousands separators: ``1200`` → ``1,200``."""
    number = _finite(value, "count")
    if number != number.to_integral_value():
        raise ValueError(f"count must be a whole number, got {value!r}")
    return f"{int(number):,}"


def money(amount, currency: str, lang: str) -> str:
    """A price with its currency: ``149995, "USD"`` → ``$149,995`` / ``149,995 美元``.

    Whole amounts are written without cents; anything else with two decimals.
    """
    _check_lang(lang)
    number = _finite(amount, "price amount")
    digits = f"{int(number):,}" if number == number.to_integral_value() else fixed(number, 2)
    code = str(currency or "").strip().upper()
    if not code:
        raise ValueError(f"price {amount!r} has no currency; give an ISO code such as USD")
    prefix, suffix = _CURRENCY[lang].get(code, ("", f" {code}"))
    return f"{prefix}{digits}{suffix}"


def fraction_words(value: float, lang: str) -> str | None:
    """A share said in words when it is a simple fraction (``0.49998`` → ``half``), else None."""
    _check_lang(lang)
    number = float(_finite(value, "fraction"))
    for target, words in _FRACTIONS[lang]:
        if abs(number - target) <= FRACTION_TOLERANCE * target:
            return words
    return None


def percent(value: float, *, places: int = 0) -> str:
    """A share as a percentage: ``0.4999`` → ``50%``."""
    return f"{fixed(float(_finite(value, 'share')) * 100, places)}%"


def date(value, lang: str) -> str:
    """An ISO date (``2021-06-30`` or a date) as people write it: ``30 June 2021`` / ``2021年6月30日``."""
    _check_lang(lang)
    if isinstance(value, _dt.date):
        day = value
    else:
        try:
            day = _dt.date.fromisoformat(str(value).strip())
        except ValueError:
            raise ValueError(f"date {value!r} is not of the form YYYY-MM-DD") from None
    if lang == "zh-Hant":
        return f"{day.year}年{day.month}月{day.day}日"
    return f"{day.day} {_MONTHS_EN[day.month - 1]} {day.year}"

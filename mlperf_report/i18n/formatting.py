"""Numbers as a reader sees them, per language: the only place a figure becomes text.

Templates never format or type numbers; the narrative passes them strings made here, so a headline
and a table can never disagree about rounding. Rounding is half-up on the shortest decimal form of the
float (``14.45`` → ``14.5``), which is what a reader checking the figure by hand expects.
"""

from __future__ import annotations

import datetime as _dt
import math
from decimal import ROUND_HALF_UP, Decimal

from mlperf_report.core import languages
from mlperf_report.i18n import catalogue

#: Decimal places of minutes: headlines are read, tables are checked.
HEADLINE_PLACES = 1
TABLE_PLACES = 2

#: House rules where CLDR's own style is not the press convention, per language. Everything else
#: (digit grouping, decimal mark, currency symbols and names, long dates) comes from Babel's CLDR data
#: for the language, so a new language is formatted correctly without code.
#: - English dates are written day first ("30 June 2021"), as the press releases do.
_DATE_PATTERN = {"en": "d MMMM y"}
#: - Chinese prices read "149,995 美元": the amount, then the currency's CLDR name; New Taiwan dollars
#:   are "新台幣 149,995 元".
_MONEY_NAME_AFTER = {"zh-Hant"}
_MONEY_HOUSE = {("zh-Hant", "TWD"): "新台幣 {digits} 元"}

#: Simple fractions a price comparison is said in words ("half the price"), with the tolerance
#: within which a ratio counts as that fraction (0.49998 is "half"; 0.47 is not); the words per
#: language are in the catalogue (``fraction.1/2``).
FRACTION_TOLERANCE = 0.01
_FRACTIONS = ((1 / 2, "1/2"), (1 / 3, "1/3"), (1 / 4, "1/4"), (2 / 3, "2/3"), (3 / 4, "3/4"))

LANGUAGES = languages.available()


def _check_lang(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} not supported; must be one of {list(LANGUAGES)}")
    return lang


def _locale(lang: str):
    """Babel's locale for a report language tag (``zh-Hant`` -> ``zh_Hant``)."""
    from babel import Locale

    return Locale.parse(_check_lang(lang), sep="-")


def _finite(value, what: str) -> Decimal:
    if value is None or isinstance(value, bool):
        raise ValueError(f"{what} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{what} must be a finite number, got {value!r}")
    return Decimal(repr(number)) if isinstance(value, float) else Decimal(value)


def fixed(value, places: int, lang: str = "en") -> str:
    """``value`` with exactly ``places`` decimals, rounded half-up; digits grouped as ``lang`` groups them."""
    number = _finite(value, "value").quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    if lang == "en":  # the common case, without Babel's import
        return f"{number:,.{places}f}"
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * places if places else "")
    return format_decimal(number, format=pattern, locale=_locale(lang), decimal_quantization=False)


def compact(value, lang: str = "en") -> str:
    """An axis tick in CLDR's short compact form of ``lang`` (Babel): 250K, 1.2M in English, 25萬,
    120萬 in Traditional Chinese, so a narrow axis never runs "250000500000" together. Ticks are round
    numbers: two decimals are enough, and values under 0.01 keep their digits."""
    number = float(_finite(value, "value"))
    if number and abs(number) < 0.01:
        return f"{number:g}"
    from babel.numbers import format_compact_decimal

    # Babel leaves a number under a thousand as it is: a tick at 0.6000000000000001 printed so
    return format_compact_decimal(round(number, 2), locale=_locale(lang), fraction_digits=2)


def places_for(values, minimum: int, *, significant: int = 3, maximum: int = 6) -> int:
    """Decimal places that print the smallest non-zero value with ``significant`` digits (at least
    ``minimum``): 10,891.1 samples/s needs one, 0.464 tasks/s three, so none reads as 0 or 0.5."""
    sizes = [abs(float(v)) for v in values if v is not None and math.isfinite(float(v)) and float(v) != 0]
    if not sizes:
        return minimum
    return max(minimum, min(maximum, significant - 1 - math.floor(math.log10(min(sizes)))))


def carried_places(value) -> int:
    """Decimal places a measured value carries: those of its shortest decimal form, trailing zeros
    dropped (``100328.0`` -> 0, ``10891.1`` -> 1, ``0.212`` -> 3). LoadGen prints six significant
    digits, so a large throughput carries no decimal and must not be printed with one."""
    number = _finite(value, "value").normalize()
    return max(0, -number.as_tuple().exponent)


def measured(value, minimum: int, lang: str = "en", *, significant: int = 3) -> str:
    """A measured value as a sentence prints it: the places ``places_for`` gives, but never more than
    the value carries ("100,328 Tokens/s", not "100,328.0"; "0.212 ms", "12.5 ms")."""
    places = min(places_for([value], minimum, significant=significant), carried_places(value))
    return fixed(value, places, lang)


def minutes(value, *, places: int = HEADLINE_PLACES) -> str:
    """Time to train in minutes: ``14.48`` → ``14.5`` (headline) or ``14.48`` (``places=2``, tables).
    Under one minute (the largest clusters of recent rounds) a headline keeps two decimals: ``0.12``."""
    if places < TABLE_PLACES and abs(_finite(value, "minutes")) < 1:
        places = TABLE_PLACES
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
    from babel.numbers import format_currency, get_currency_name, get_currency_symbol, is_currency

    _check_lang(lang)
    number = _finite(amount, "price amount")
    places = 0 if number == number.to_integral_value() else 2
    code = str(currency or "").strip().upper()
    if not code:
        raise ValueError(f"price {amount!r} has no currency; give an ISO code such as USD")
    digits = fixed(number, places, lang)
    if not is_currency(code):  # the ISO code after the amount is never wrong, only less familiar
        return f"{digits} {code}"
    if (lang, code) in _MONEY_HOUSE:
        return _MONEY_HOUSE[(lang, code)].format(digits=digits)
    if lang in _MONEY_NAME_AFTER:
        return f"{digits} {get_currency_name(code, locale=_locale(lang))}"
    locale = _locale(lang)
    pattern = locale.currency_formats["standard"].pattern.split(";")[0]
    if not places:
        pattern = pattern.replace(".00", "")
    text = format_currency(number, code, format=pattern, locale=locale, currency_digits=False)
    symbol = get_currency_symbol(code, locale=locale)
    if text.startswith(symbol) and symbol[-1:].isalpha() and text[len(symbol):][:1].isdigit():
        text = f"{symbol}\u00a0{text[len(symbol):]}"  # CLDR's currency spacing: "CHF 5,000", not "CHF5,000"
    return text


def fraction_words(value: float, lang: str) -> str | None:
    """A share said in words when it is a simple fraction (``0.49998`` → ``half``), else None."""
    _check_lang(lang)
    number = float(_finite(value, "fraction"))
    for target, key in _FRACTIONS:
        if abs(number - target) <= FRACTION_TOLERANCE * target:
            return catalogue.message(f"fraction.{key}", lang)
    return None


def percent(value: float, *, places: int = 0) -> str:
    """A share as a percentage: ``0.4999`` → ``50%``."""
    return f"{fixed(float(_finite(value, 'share')) * 100, places)}%"


def date(value, lang: str) -> str:
    """An ISO date (``2021-06-30`` or a date) as people write it: ``30 June 2021`` / ``2021年6月30日``."""
    from babel.dates import format_date

    _check_lang(lang)
    if isinstance(value, _dt.date):
        day = value
    else:
        try:
            day = _dt.date.fromisoformat(str(value).strip())
        except ValueError:
            raise ValueError(f"date {value!r} is not of the form YYYY-MM-DD") from None
    return format_date(day, _DATE_PATTERN.get(lang, "long"), locale=_locale(lang))

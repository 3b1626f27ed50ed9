"""Numbers as the report prints them, checked against the official MLPerf Training v1.0 figures."""

import datetime

import pytest

from mlperf_report.i18n import formatting as fmt


@pytest.mark.parametrize("value, headline, table", [
    (14.48, "14.5", "14.48"),      # Graphcore IPU-POD64 ResNet-50, closed
    (9.39, "9.4", "9.39"),         # IPU-POD64 BERT, open
    (11.08, "11.1", "11.08"),      # IPU-POD64 BERT, closed
    (37.12, "37.1", "37.12"),
    (14.45, "14.5", "14.45"),      # half-up on the decimal a reader sees, not on the binary float
    (2.675, "2.7", "2.68"),
    (0.04, "0.04", "0.04"),  # under a minute: two decimals even in headlines
    (0.12, "0.12", "0.12"),
    (1234.5, "1,234.5", "1,234.50"),
])
def test_minutes_round_half_up_to_one_decimal_in_headlines_and_two_in_tables(value, headline, table):
    assert fmt.minutes(value) == headline
    assert fmt.minutes(value, places=fmt.TABLE_PLACES) == table


def test_ratios_are_written_with_a_multiplication_sign():
    resnet = 28.77 * 300_000 / (37.12 * 149_995)
    bert = 21.69 * 300_000 / (34.49 * 149_995)
    assert (round(resnet, 2), round(bert, 2)) == (1.55, 1.26)
    assert fmt.ratio(resnet) == "1.6×"
    assert fmt.ratio(bert) == "1.3×"
    assert fmt.ratio(bert, places=2) == "1.26×"
    assert fmt.ratio(2) == "2.0×"


@pytest.mark.parametrize("amount, currency, lang, text", [
    (149995, "USD", "en", "$149,995"),
    (300000, "usd", "en", "$300,000"),
    (149995, "USD", "zh-Hant", "149,995 美元"),
    (1999.5, "EUR", "en", "€1,999.50"),
    (1_000_000, "TWD", "zh-Hant", "新台幣 1,000,000 元"),
    (5000, "CHF", "en", "CHF\u00a05,000"),  # CLDR's symbol, spaced as CLDR says
    (5000, "CHF", "zh-Hant", "5,000 瑞士法郎"),  # CLDR's currency name, in the house order
    (5000, "XYZ", "en", "5,000 XYZ"),  # no such currency: the code after the amount
])
def test_money_carries_its_currency_and_thousands_separators(amount, currency, lang, text):
    assert fmt.money(amount, currency, lang) == text


def test_money_without_a_currency_says_how_to_fix_it():
    with pytest.raises(ValueError, match="ISO code"):
        fmt.money(100, "", "en")


@pytest.mark.parametrize("bad", [None, float("nan"), float("inf"), True])
def test_missing_or_non_finite_numbers_are_refused_rather_than_printed(bad):
    with pytest.raises(ValueError):
        fmt.minutes(bad)


def test_an_unknown_language_is_refused_with_the_accepted_ones():
    with pytest.raises(ValueError, match="zh-Hant"):
        fmt.money(1, "USD", "fr")


def test_simple_fractions_are_said_in_words_and_others_are_not():
    assert fmt.fraction_words(149_995 / 300_000, "en") == "half"
    assert fmt.fraction_words(149_995 / 300_000, "zh-Hant") == "一半"
    assert fmt.fraction_words(0.25, "en") == "a quarter"
    assert fmt.fraction_words(0.47, "en") is None
    assert fmt.percent(149_995 / 300_000) == "50%"


def test_dates_are_written_the_way_each_language_writes_them():
    assert fmt.date("2021-06-30", "en") == "30 June 2021"
    assert fmt.date("2021-06-30", "zh-Hant") == "2021年6月30日"
    assert fmt.date(datetime.date(2021, 1, 5), "en") == "5 January 2021"
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        fmt.date("30/06/2021", "en")


def test_counts_are_whole_numbers():
    assert fmt.count(4) == "4"
    assert fmt.count(4.0) == "4"
    assert fmt.count(1200) == "1,200"
    with pytest.raises(ValueError):
        fmt.count(2.5)


@pytest.mark.parametrize("values, minimum, places", [
    ([10891.1, 22.6141], 1, 1), ([0.464076], 1, 3), ([0.116019, 5.2], 1, 3), ([20.603], 3, 3),
    ([0.000123], 1, 6), ([0, float("nan")], 2, 2), ([], 1, 1),
])
def test_small_results_keep_three_significant_digits(values, minimum, places):
    assert fmt.places_for(values, minimum) == places
    if values and values[0]:
        assert fmt.fixed(values[0], places) != "0.5"


@pytest.mark.parametrize("value, minimum, text", [
    (100328.0, 1, "100,328"),       # an Inference lead printed "100,328.0 Tokens/s"
    (413565.0, 1, "413,565"),
    (10891.1, 1, "10,891.1"),       # LoadGen's six significant digits: one decimal carried, one printed
    (0.212, 3, "0.212"),
    (12.5, 3, "12.5"),              # a latency carries one decimal: not "12.500"
    (0.4641, 1, "0.464"),           # more carried than three significant digits need: rounded
])
def test_measured_values_print_no_more_decimals_than_they_carry(value, minimum, text):
    assert fmt.measured(value, minimum) == text


from hypothesis import given, strategies as st  # noqa: E402


@given(st.integers(min_value=1, max_value=999_999), st.integers(min_value=0, max_value=6), st.sampled_from([1, 3]))
def test_a_measured_value_never_gains_digits_it_does_not_carry(digits, exponent, minimum):
    """Six significant digits as LoadGen prints them: the printed decimals never exceed the text's."""
    text = f"{digits / 10 ** exponent:.{exponent}f}".rstrip("0").rstrip(".")
    carried = len(text.split(".")[1]) if "." in text else 0
    printed = fmt.measured(float(text), minimum)
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    assert decimals <= carried
    assert float(printed.replace(",", "")) == pytest.approx(float(text), rel=5e-3)

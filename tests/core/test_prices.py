"""The price catalogue: the press-release prices with sources, matching rules, refusing unsourced prices."""

import pytest

from mlperf_report.core import paths
from mlperf_report.core.errors import InputError
from mlperf_report.core.prices import load_prices, parse_prices


@pytest.fixture(scope="module")
def shipped():
    return load_prices(paths.PRICES)


def test_shipped_prices_are_the_press_release_ones_with_source_and_date(shipped):
    pod16 = shipped.price("Graphcore", "ipu-pod16-TF1", "training-v1.0")
    dgx = shipped.price("NVIDIA", "dgxa100_ngc21.05_mxnet", "training-v1.0")
    assert (pod16.amount, pod16.currency, pod16.date) == (149995, "USD", "2021-06-30")
    assert "list price" in pod16.source
    assert dgx.amount == 300000 and "reseller" in dgx.source
    assert dgx.as_dict() == {"amount": 300000, "currency": "USD", "source": dgx.source, "date": "2021-06-30",
                             "source_by_lang": {"zh-Hant": dict(dgx.source_by_lang)["zh-Hant"]}}
    for price in (pod16, dgx):  # every shipped source is quoted in every report language
        assert {"zh-Hant"} == set(dict(price.source_by_lang)) and "美元" in dict(dgx.source_by_lang)["zh-Hant"]
    assert shipped.price("Graphcore", "ipu-pod64-TF1") is None  # no published price: none invented


def test_display_names(shipped):
    row = {"submitter": "NVIDIA", "system_id": "dgxa100_n8_ngc21.05_mxnet", "nodes": 8.0, "system_name": "x"}
    assert shipped.display_name(row, "training-v1.0") == "NVIDIA DGX A100 × 8"
    assert shipped.display_name({"submitter": "NVIDIA", "system_id": "dgxa100_ngc21.05_pytorch"}, "training-v1.0") == "NVIDIA DGX A100 640GB"
    # the 640GB price and name are for v1.0/v1.1 only (v0.7's DGX A100 had 40 GB GPUs)
    assert shipped.display_name({"submitter": "NVIDIA", "system_id": "dgxa100_ngc20.06_mxnet"}, "training-v0.7") == "NVIDIA DGX A100"
    assert shipped.price("NVIDIA", "dgxa100_ngc20.06_mxnet", "training-v0.7") is None
    assert shipped.display_name({"submitter": "Graphcore", "system_id": "IPU-POD16-popart-closed"}) == "Graphcore IPU-POD16"
    assert shipped.display_name({"submitter": "Acme", "system_id": "box", "system_name": "Acme Box"}) == "Acme Box"
    assert shipped.display_name({"submitter": "Acme", "system_id": "box", "system_name": None}) == "box"


def test_a_price_without_source_is_refused():
    raw = {"systems": [{"system_id": "x", "price": {"amount": 10, "currency": "USD", "date": "2021-01-01"}}]}
    with pytest.raises(InputError, match=r"systems\[0\] \(x\): price: a price needs a source"):
        parse_prices(raw, where="p.yaml")


@pytest.mark.parametrize("price, message", [
    ({"amount": "$10", "source": "s", "date": "2021-01-01"}, "amount must be a positive number"),
    ({"amount": 10, "currency": "usd", "source": "s", "date": "2021-01-01"}, "ISO 4217"),
    ({"amount": 10, "source": "s", "date": "June 2021"}, "YYYY-MM-DD"),
])
def test_bad_price_fields(price, message):
    with pytest.raises(InputError, match=message):
        parse_prices({"systems": [{"pattern": "a*", "price": price}]})


def test_entry_needs_exactly_one_matcher():
    with pytest.raises(InputError, match="exactly one of system_id"):
        parse_prices({"systems": [{"display_name": "x"}]})
    with pytest.raises(InputError, match="unknown key"):
        parse_prices({"systems": [{"pattern": "a*", "name": "x"}]})


def test_exact_system_id_beats_an_earlier_pattern_and_submitter_filters():
    catalogue = parse_prices({"systems": [
        {"pattern": "box*", "display_name": "Any box"},
        {"system_id": "BOX-2", "submitter": "Acme", "display_name": "Acme Box 2",
         "price": {"amount": 5.5, "currency": "EUR", "source": "quote", "date": "2021-02-03"}},
    ]})
    assert catalogue.lookup("acme", "box-2").display_name == "Acme Box 2"
    assert catalogue.price("acme", "box-2").as_dict()["amount"] == 5.5
    assert catalogue.lookup("Other", "box-2").display_name == "Any box"
    assert catalogue.lookup("Other", "crate") is None


def test_cpus_per_server_is_a_positive_whole_number():
    from mlperf_report.core.errors import InputError
    from mlperf_report.core.prices import parse_prices

    catalogue = parse_prices({"systems": [{"pattern": "pod*", "cpus_per_server": 2}]})
    assert catalogue.lookup("X", "pod16").cpus_per_server == 2
    for bad in (0, "2", 1.5, True):
        with pytest.raises(InputError, match="cpus_per_server"):
            parse_prices({"systems": [{"pattern": "pod*", "cpus_per_server": bad}]})


def test_a_source_per_language_needs_english_and_known_languages(tmp_path):
    from mlperf_report.core.errors import InputError
    from mlperf_report.core.prices import load_prices

    def catalogue(source: str):
        path = tmp_path / "prices.yaml"
        path.write_text("systems:\n  - pattern: 'x*'\n    price: {amount: 1, currency: USD, date: '2021-01-01', "
                        f"source: {source}}}\n")
        return load_prices(path)

    assert catalogue("{en: list price, zh-Hant: 牌價}").entries[0].price.source_by_lang == (("zh-Hant", "牌價"),)
    assert catalogue("plain text").entries[0].price.as_dict()["source"] == "plain text"
    with pytest.raises(InputError, match="a price needs a source"):
        catalogue("{zh-Hant: 牌價}")
    with pytest.raises(InputError, match="unknown language"):
        catalogue("{en: list price, xx: y}")

"""Names that are never wrong (issue 44): a chip is identified by its most specific token, a model
number before any family word; a text with an unknown model number, or two chips, resolves to nothing
and is named as written; host processors fall in the families Grace, Xeon, EPYC or "other".

Fed with every accelerator and host spelling of the embedded rounds (``data/*/systems.csv`` and
``results.csv``), the Training v6.0 and Inference v5.1 spellings the issue names, and spellings made
to trip the rules."""

from __future__ import annotations

import csv
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlperf_report.analysis import names
from mlperf_report.analysis.vendors import host_vendor_of
from mlperf_report.core import accelerators, paths

GENERATIONS = accelerators.load()
FIXTURE = paths.ROOT / "tests" / "fixtures" / "chip_names.csv"

#: Each catalogued chip by its model number, in the spellings submitters use for it.
MODELS = {
    "NVIDIA V100": ["V100", "Tesla V100S"], "NVIDIA A100": ["A100"], "NVIDIA H100": ["H100"],
    "NVIDIA H200": ["H200"], "NVIDIA GH200": ["GH200"], "NVIDIA B200": ["B200"], "NVIDIA GB200": ["GB200"],
    "NVIDIA B300": ["B300"], "NVIDIA GB300": ["GB300"], "AMD Instinct MI250": ["MI250"],
    "AMD Instinct MI300X": ["MI300X", "MI-300X"], "AMD Instinct MI325X": ["MI325X"],
    "AMD Instinct MI350X": ["MI350X"], "AMD Instinct MI355X": ["MI355X"], "Intel Gaudi 2": ["Gaudi 2", "Gaudi2"],
    "Intel Gaudi 3": ["Gaudi 3", "Gaudi-3"], "Google TPU v4": ["TPU-v4", "TPU v4"], "Google TPU v5p": ["TPU v5p"],
    "Google TPU Trillium": ["TPU v6e", "Trillium"], "Google TPU Ironwood": ["Ironwood", "TPU v7"],
}
#: What sits around a model number in a systems JSON: vendors, family words (right or wrong ones),
#: memory, form factor, power, counts.
BEFORE = ["", "NVIDIA ", "AMD Instinct ", "Google ", "Intel ", "NVIDIA Blackwell GPU (", "NVIDIA Blackwell Ultra GPU (",
          "Grace Hopper ", "Instinct "]
AFTER = ["", "-SXM-270GB", " SXM6 PC", " Blackwell Ultra GPU", "-SXM5-80GB (700W)", " 192GB HBM3", " NVL72", ")",
         " (x8)", "-NPS1-SPX-192GB-750W", " Blackwell"]
#: Texts the issue names, as Training v6.0 and Inference v5.1 write them.
NAMED = {
    "NVIDIA Blackwell Ultra GPU (B300-SXM-270GB)": "NVIDIA B300", "NVIDIA Blackwell GPU (B300-SXM-270GB)": "NVIDIA B300",
    "NVIDIA B300 Blackwell Ultra GPU": "NVIDIA B300", "NVIDIA B300 SXM6 PC": "NVIDIA B300",
    "NVIDIA GB200": "NVIDIA GB200", "NVIDIA B200-SXM-180GB": "NVIDIA B200", "NVIDIA GH200 Grace Hopper Superchip 144GB":
    "NVIDIA GH200", "NVIDIA H200-SXM5-141GB": "NVIDIA H200",
}
UNKNOWN = ["NVIDIA RTX PRO 6000 Blackwell Server Edition", "NVIDIA Blackwell GPU", "Blackwell",
           "AMD Instinct MI300X 192GB HBM3 (x32), AMD Instinct MI325X 256GB HBM3e (x16)", "Acme Zeta-9"]


def _embedded() -> list[dict]:
    with FIXTURE.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _vary(text: str, case: int, sep: str) -> str:
    """A case and separator variant of a spelling (model numbers keep their own separator)."""
    text = text.replace(" ", sep) if sep != " " else text
    return text.upper() if case == 1 else text.lower() if case == 2 else text


def _as_written(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("_", " ")).strip()


# --- every spelling of the embedded rounds ----------------------------------------------------------

def test_every_embedded_spelling_resolves_as_before():
    """The resolutions of the rounds in data/ (frozen in tests/fixtures/chip_names.csv from the catalogue
    before issue 44) are unchanged: none of them was wrong. Every table column is in the fixture."""
    rows = _embedded()
    assert len(rows) > 150 and {r["column"] for r in rows} == {"accelerator", "host"}
    changed = []
    for row in rows:
        found = GENERATIONS.resolve(row["text"])
        now = (found.generation.name if found else "", found.name if found else "")
        if now != (row["generation"], row["chip"]):
            changed.append((row["text"], (row["generation"], row["chip"]), now))
        if row["column"] == "host" and (host_vendor_of(row["text"]) or "") != row["host_vendor"]:
            changed.append((row["text"], row["host_vendor"], host_vendor_of(row["text"])))
    assert changed == []


def test_the_fixture_holds_every_spelling_of_the_embedded_tables():
    import pandas as pd

    texts = {r["text"] for r in _embedded()}
    for table in sorted(paths.DATA.glob("*/*.csv")):
        frame = pd.read_csv(table, dtype=str, keep_default_na=False)
        for column in ("accelerator_model", "host_processor_model", "raw_accelerator_model_name",
                       "raw_host_processor_model_name"):
            if column in frame:
                assert {v for v in frame[column] if v.strip()} <= texts, (table, column)


@pytest.mark.parametrize("row", [r for r in _embedded() if not r["generation"]], ids=lambda r: r["text"])
def test_an_embedded_spelling_the_catalogue_does_not_know_is_named_as_written(row):
    assert _as_written(row["text"]) in names.chip(row["text"], GENERATIONS)


# --- the issue's spellings ------------------------------------------------------------------------

@pytest.mark.parametrize("text, chip", sorted(NAMED.items()))
def test_each_spelling_the_issue_names_is_its_chip(text, chip):
    assert GENERATIONS.resolve(text).name == chip and names.chip(text, GENERATIONS) == chip


def test_the_four_training_v60_spellings_of_the_b300_are_one_blackwell_ultra_chip():
    found = {GENERATIONS.resolve(t) for t, chip in NAMED.items() if chip == "NVIDIA B300"}
    assert len(found) == 1 and found.pop().generation.name == "Blackwell Ultra (B300 / GB300)"


@pytest.mark.parametrize("text", UNKNOWN)
def test_an_unknown_model_number_a_family_word_alone_or_two_chips_resolve_to_nothing(text):
    assert GENERATIONS.resolve(text) is None and GENERATIONS.of(text) is None
    assert names.chip(text, GENERATIONS).endswith(_as_written(text))


def test_a_family_word_names_its_generation_only_when_the_text_has_no_other_model_number():
    assert GENERATIONS.resolve("NVIDIA Blackwell Ultra GPU 288GB HBM3e").generation.name.startswith("Blackwell Ultra")
    assert GENERATIONS.resolve("NVIDIA Grace Hopper Superchip").name == "NVIDIA GH200"
    assert GENERATIONS.resolve("NVIDIA RTX PRO 6000 Blackwell Ultra") is None
    assert GENERATIONS.mixed(UNKNOWN[3]) and not GENERATIONS.mixed("NVIDIA Blackwell GPU (B300-SXM-270GB)")


# --- properties -------------------------------------------------------------------------------------

KNOWN = sorted((chip, spelling) for chip, spellings in MODELS.items() for spelling in spellings)
_KNOWN_NUMBER = re.compile("|".join(p.pattern for g in GENERATIONS.items for _, p in g.chips), re.IGNORECASE)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(KNOWN), st.sampled_from(BEFORE), st.sampled_from(AFTER), st.integers(0, 2),
       st.sampled_from([" ", "_"]))
def test_a_known_model_number_resolves_to_its_chip_whatever_sits_around_it(known, before, after, case, sep):
    chip, spelling = known
    text = _vary(before, case, sep) + _vary(spelling, case, " ") + _vary(after, case, sep)
    found = GENERATIONS.resolve(text)
    assert found is not None and found.name == chip, text
    assert names.chip(text, GENERATIONS) == chip


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["", "NVIDIA ", "AMD Instinct ", "Intel "]),
       st.sampled_from(["", "Blackwell ", "Blackwell Ultra ", "Grace Hopper ", "Instinct ", "Gaudi "]),
       st.sampled_from(["RTX PRO ", "B", "H", "MI", "X", "Z", "L", "GB"]), st.integers(1, 9999),
       st.sampled_from(["", "X", " Server Edition", "-SXM-96GB"]), st.integers(0, 2))
def test_an_unknown_model_number_never_resolves_even_beside_a_family_word(vendor, word, prefix, number, suffix, case):
    token = f"{prefix}{number}{suffix}"
    text = _vary(f"{vendor}{word}{token}", case, " ")
    if _KNOWN_NUMBER.search(text):
        return   # a catalogued model number (B200, MI300X, ...): the property above
    assert GENERATIONS.resolve(text) is None, text
    assert names.chip(text, GENERATIONS).lower().endswith(_as_written(text).lower())


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(KNOWN), st.sampled_from(KNOWN), st.sampled_from([", ", " + ", " (x16), ", " / "]),
       st.integers(0, 2))
def test_two_chips_in_one_text_never_resolve_to_one(first, second, sep, case):
    if first[0] == second[0]:
        return
    text = _vary(f"{first[1]} 192GB (x32){sep}{second[1]}", case, " ")
    assert GENERATIONS.resolve(text) is None and GENERATIONS.mixed(text), text
    assert names.chip(text, GENERATIONS).lower().endswith(_as_written(text).lower())


@pytest.mark.parametrize("text, chip", [("NVIDIA GB200", "NVIDIA GB200"), ("GB200-NVL72", "NVIDIA GB200"),
                                        ("NVIDIA B200", "NVIDIA B200"), ("NVIDIA GH200-96GB", "NVIDIA GH200"),
                                        ("NVIDIA H200 NVL", "NVIDIA H200"), ("GB300 (72x GB300-288GB_aarch64)", "NVIDIA GB300"),
                                        ("NVIDIA RTX A1000", None), ("NVIDIA B2000", None), ("NVIDIA H1000", None)])
def test_a_longer_model_number_is_never_read_as_a_shorter_one(text, chip):
    found = GENERATIONS.resolve(text)
    assert (found.name if found else None) == chip


# --- host processors --------------------------------------------------------------------------------

@pytest.mark.parametrize("text, vendor", [
    ("Neoverse-V2", "NVIDIA"), ("NVIDIA Grace CPU", "NVIDIA"), ("ARM Neoverse V2", "NVIDIA"),
    ("Intel(R) Xeon(R) Platinum 8480+", "Intel"), ("AMD EPYC 9575F 64-Core Processor", "AMD"),
    ("12-core ARM Cortex-A78AE CPU", None), ("Ampere Altra Q80-30", None), ("Neoverse-N1", None),
    ("CPUName", None), ("Kunpeng 920", None)])
def test_host_families_grace_xeon_epyc_and_other(text, vendor):
    assert host_vendor_of(text) == vendor

"""A round whose systems use chips the catalogue has never seen (issue 44): the story claims nothing
about them it cannot support (no generation, debut or partner grouping with a known chip), a system of
mixed chips is compared with nothing, the B300 is a B300 however it is spelled, and
``--focus-accelerator`` selects exactly the systems of a catalogued chip."""

from __future__ import annotations

import csv

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlperf_report.analysis import names
from mlperf_report.analysis.planning import check_focus
from mlperf_report.core import paths
from mlperf_report.core.config import Focus, focus_from_key
from mlperf_report.core.errors import UserError
from tests.analysis.test_story import GENERATIONS, claims, focus, frame, of, result

RTX = "NVIDIA RTX PRO 6000 Blackwell Server Edition"
MIXED = "AMD Instinct MI300X 192GB HBM3 (x32), AMD Instinct MI325X 256GB HBM3e (x16)"
B300_SPELLINGS = ("NVIDIA Blackwell Ultra GPU (B300-SXM-270GB)", "NVIDIA Blackwell GPU (B300-SXM-270GB)",
                  "NVIDIA B300 Blackwell Ultra GPU", "NVIDIA B300 SXM6 PC")
V51 = "training-v5.1"


def _round():
    return frame(result("NVIDIA", "rtx8", "bert", 10.0, model=RTX, round_id=V51),
                 result("NVIDIA", "h100", "bert", 20.0, model="NVIDIA H100-SXM5-80GB", round_id=V51),
                 result("Dell", "b200", "bert", 10.5, model="NVIDIA B200-SXM-180GB", round_id=V51),
                 result("Cisco", "bw", "bert", 10.2, model="NVIDIA Blackwell GPU", round_id=V51),
                 result("Acme", "mixed", "bert", 9.0, model=MIXED, round_id=V51))


def test_no_generation_or_debut_claim_on_a_chip_the_catalogue_does_not_know():
    """The RTX PRO 6000 was filed as a B200 ("Blackwell"): a generation claim over the H100 was ready."""
    found = claims(_round(), focus("NVIDIA"))
    assert of(found, "generation") == []
    assert all(RTX not in str(c.facts) and "NVIDIA Blackwell GPU'" not in str(c.facts) for c in found
               if c.angle == "generation")


def test_an_unknown_chip_is_never_grouped_with_a_known_one():
    """NVIDIA's own RTX result set against Dell's B200 as "the closest partner on the same chip"."""
    (partners,) = of(claims(_round(), focus("NVIDIA")), "ecosystem", "partners")
    closest = partners.facts["closest"]
    assert closest is None or closest["own"]["accelerator_model"] == closest["partner"]["accelerator_model"]


def test_a_system_of_mixed_chips_is_compared_with_nothing():
    mixed_id = f"{V51}/closed/Acme/mixed/bert"
    chip_for_chip = {"generation", "competition", "scaling"}
    for who in ("NVIDIA", "Dell", "Cisco"):
        found = claims(_round(), focus(who))
        assert all(mixed_id not in c.cites for c in found if c.angle in chip_for_chip or c.kind == "partners"), who
    # it stays a result of the round: the fastest one, which its submitter may say and no one else may deny
    acme = claims(_round(), focus("Acme"))
    assert {c.angle for c in acme} <= {"leadership"} and acme
    assert not [c for c in claims(_round(), focus("NVIDIA")) if c.kind == "first_overall"]
    assert names.chip(MIXED, GENERATIONS) == MIXED


def test_the_b300_however_spelled_debuts_beats_its_b200_and_is_named_a_b300_as_a_rival():
    """Training v6.0's spellings: "NVIDIA Blackwell GPU (B300-...)" was a B200, which lost Dell's B300
    debut and its B300-over-B200 claim and named Supermicro's B300 "8 NVIDIA B200"."""
    df = frame(result("Dell", "b300", "bert", 5.0, model=B300_SPELLINGS[2], round_id=V51),
               result("Dell", "b200", "bert", 8.0, model="NVIDIA B200-SXM-180GB", round_id=V51),
               result("Supermicro", "sm", "bert", 5.05, model=B300_SPELLINGS[1], round_id=V51))
    found = claims(df, focus("Dell"))
    (debut,) = of(found, "generation", "debut")
    assert debut.facts["generation"] == "Blackwell Ultra (B300 / GB300)"
    (gain,) = of(found, "generation", "over_predecessor")
    assert (gain.facts["new"], gain.facts["old"]) == ("Blackwell Ultra (B300 / GB300)", "Blackwell (B200 / GB200)")
    (rival,) = of(found, "competition")
    assert names.chip(rival.facts["rival"]["accelerator_model"], GENERATIONS) == "NVIDIA B300"


# --- --focus-accelerator ----------------------------------------------------------------------------

@pytest.mark.parametrize("name, model, selected", [
    ("B200", "NVIDIA B200-SXM-180GB", True), ("B200", "NVIDIA Blackwell GPU (B200-SXM-180GB)", True),
    ("B200", "NVIDIA GB200", False), ("B200", B300_SPELLINGS[1], False), ("B200", RTX, False),
    ("B200", "NVIDIA Blackwell GPU", False), ("NVIDIA B200", "NVIDIA B200-SXM-180GB", True),
    ("nvidia b200", "NVIDIA GB200", False), ("H100", "NVIDIA H100-SXM5-80GB", True), ("H100", "NVIDIA GH200", False),
    ("MI355X", "AMD Instinct MI355X", True), ("MI355X", "AMD Instinct MI350X", False), ("MI300X", MIXED, False),
    ("Blackwell Ultra (B300 / GB300)", "NVIDIA GB300", True), ("Blackwell Ultra", "NVIDIA Blackwell Ultra GPU", True),
    ("Blackwell Ultra", B300_SPELLINGS[1], True), ("TPU", "TPU-v5p", True), ("TPU", "TPU v6e", True),
    ("RTX", RTX, True), ("Acme", "NVIDIA H100", False), ("Gaudi", "Intel Gaudi 2", True), ("Gaudi", "Habana Gaudi", True),
    ("Gaudi 2", "Intel Gaudi 3", False), ("NVIDIA", "NVIDIA GB200", True), ("GB200", "NVIDIA GB200 NVL72", True)])
def test_an_accelerator_focus_selects_exactly_the_systems_of_a_catalogued_chip(name, model, selected):
    assert Focus("accelerator", name).matches("Anyone", model) is selected
    assert focus_from_key(Focus("accelerator", name).key).matches("Anyone", model) is selected


@pytest.mark.parametrize("spelling", B300_SPELLINGS)
def test_every_spelling_of_the_b300_is_selected_by_b300(spelling):
    assert Focus("accelerator", "B300").matches(None, spelling)
    assert not Focus("accelerator", "GB300").matches(None, spelling)


def _embedded_texts() -> list[str]:
    with (paths.ROOT / "tests" / "fixtures" / "chip_names.csv").open(newline="", encoding="utf-8") as handle:
        return sorted({r["text"] for r in csv.DictReader(handle) if r["column"] == "accelerator"})


CHIP_NAMES = sorted({name for g in GENERATIONS.items for name, _ in g.chips})


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(CHIP_NAMES), st.sampled_from(_embedded_texts() + list(B300_SPELLINGS) + [RTX, MIXED]))
def test_a_chip_focus_selects_a_text_exactly_when_it_resolves_to_that_chip(chip, text):
    found = GENERATIONS.resolve(text)
    assert Focus("accelerator", chip).matches(None, text) is bool(found and found.name == chip)


def test_check_focus_refuses_a_chip_the_round_lacks_and_lists_its_accelerators():
    rows = [{"submitter": "NVIDIA", "accelerator_model": "NVIDIA GB200"}] * 2
    with pytest.raises(UserError, match=r"no scored result in training-v5.1 on the NVIDIA B200 of "
                                        r"data/accelerators.yaml; accelerators with scored results \(results\): "
                                        r"NVIDIA GB200 \(2\)"):
        check_focus(Focus("accelerator", "B200"), rows, V51)
    with pytest.raises(UserError, match="on an accelerator whose model name contains it"):
        check_focus(Focus("accelerator", "Zeta"), rows, V51)
    check_focus(Focus("accelerator", "GB200"), rows, V51)

"""The story engine, angle by angle, on small synthetic rounds: each claim where the data supports it,
and each case where the claim must not be made (noise, no predecessor, closed against open, a lone
result, a focus that is not the chip's vendor)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from mlperf_report.analysis import story
from mlperf_report.core import accelerators
from mlperf_report.core.config import Focus
from mlperf_report.core.errors import InputError

GENERATIONS = accelerators.load()


def result(submitter, system, benchmark, minutes, accelerators_=8, model="NVIDIA H100-SXM5-80GB",
           division="closed", round_id="training-v4.1", energy=None, **extra):
    """One Training row of a comparable frame (time to train, lower is better)."""
    row = {"round": round_id, "benchmark": benchmark, "scenario": "", "division": division, "availability": "available",
           "submitter": submitter, "system_id": system, "system": system, "accelerator_model": model,
           "accelerators": accelerators_, "value": minutes, "unit": "minutes", "higher_is_better": False,
           "measure": "time", "energy": energy, "energy_unit": "J",
           "result_id": f"{round_id}/{division}/{submitter}/{system}/{benchmark}"}
    return {**row, **extra}


def frame(*rows) -> pd.DataFrame:
    return pd.DataFrame(list(rows), columns=list(story.COLUMNS))


def focus(name="Acme", kind="submitter") -> story.Focus:
    config_focus = Focus(kind, name)
    return story.Focus(kind, name, config_focus.matches)


def claims(df, who=None, previous=None, prices=()):
    return story.find_claims(df, who or focus(), GENERATIONS, previous, prices)


def of(found, angle, kind=None):
    return [c for c in found if c.angle == angle and (kind is None or c.kind == kind)]


# --- leadership ------------------------------------------------------------------------------

def test_leadership_counts_the_benchmarks_led_and_names_the_runner_up():
    df = frame(result("Acme", "a8", "bert", 10.0), result("Other", "o8", "bert", 12.0),
               result("Acme", "a8", "gpt3", 50.0), result("Other", "o8", "gpt3", 40.0),
               result("Acme", "a8", "ssd", 4.0), result("Other", "o8", "ssd", 6.0))
    (claim,) = of(claims(df), "leadership", "first_overall")
    assert claim.facts["of"] == 3 and [w["result"]["benchmark"] for w in claim.facts["leads"]] == ["ssd", "bert"]
    assert claim.facts["leads"][0]["gap"] == pytest.approx(6.0 / 4.0 - 1)
    assert "training-v4.1/closed/Other/o8/bert" in claim.cites and claim.derived


def test_no_leadership_within_noise_or_without_another_submitter():
    close = frame(result("Acme", "a8", "bert", 10.0), result("Other", "o8", "bert", 10.1))  # 1 % ahead: noise
    assert of(claims(close), "leadership") == []
    alone = frame(result("Acme", "a8", "bert", 10.0), result("Acme", "a16", "bert", 6.0, 16))
    assert of(claims(alone), "leadership") == []


def test_leadership_at_an_accelerator_count_needs_a_rival_of_that_size():
    df = frame(result("Acme", "a8", "bert", 10.0), result("Other", "o8", "bert", 11.0),
               result("Other", "o512", "bert", 1.0, 512),          # faster overall, another size
               result("Acme", "a64", "bert", 3.0, 64))              # alone at 64: not a win
    found = claims(df)
    assert of(found, "leadership", "first_overall") == []
    (at,) = of(found, "leadership", "first_at_count")
    assert at.facts["accelerators"] == 8 and at.facts["of"] == 1 and len(at.facts["leads"]) == 1


def test_closed_and_open_results_are_never_compared():
    df = frame(result("Acme", "a8", "bert", 10.0, division="open"), result("Other", "o8", "bert", 20.0))
    found = claims(df)
    assert of(found, "leadership") == [] and of(found, "competition") == []


# --- generation ------------------------------------------------------------------------------

def test_generation_over_its_predecessor_at_the_same_count():
    df = frame(result("Acme", "new8", "bert", 10.0, model="NVIDIA H200-SXM5-141GB"),
               result("Acme", "old8", "bert", 15.0, model="NVIDIA H100-SXM5-80GB"),
               result("Other", "old64", "bert", 2.0, 64, model="NVIDIA H100-SXM5-80GB"))
    (claim,) = of(claims(df), "generation")
    assert (claim.facts["new"], claim.facts["old"]) == ("H200", "H100")
    assert claim.facts["best"]["ratio"] == pytest.approx(1.5) and claim.facts["best"]["accelerators"] == 8


def test_generation_takes_the_predecessor_from_the_previous_round():
    now = frame(result("Acme", "new8", "bert", 10.0, model="TPU-trillium"))
    before = frame(result("Acme", "old8", "bert", 12.0, model="TPU-v5p", round_id="training-v4.0"))
    (claim,) = of(claims(now, previous=before), "generation")
    assert claim.facts["best"]["predecessor"]["round"] == "training-v4.0"
    assert (claim.facts["new"], claim.facts["old"]) == ("TPU Trillium (v6e)", "TPU v5p")


@pytest.mark.parametrize("rows", [
    # the predecessor only at another accelerator count
    [result("Acme", "new8", "bert", 10.0, model="H200"), result("Acme", "old16", "bert", 15.0, 16, model="H100")],
    # the newer accelerator is not faster
    [result("Acme", "new8", "bert", 10.0, model="H200"), result("Acme", "old8", "bert", 10.1, model="H100")],
    # no predecessor in the catalogue (first generation) or an unknown accelerator
    [result("Acme", "v8", "bert", 10.0, model="Tesla V100"), result("Other", "x8", "bert", 20.0, model="Acme X1")],
])
def test_no_generation_claim_without_a_faster_successor_at_the_same_count(rows):
    assert of(claims(frame(*rows)), "generation") == []


def test_the_generations_catalogue_orders_each_family_and_names_its_source():
    h200 = GENERATIONS.of("NVIDIA H200-SXM5-141GB")
    assert GENERATIONS.predecessor(h200).name == "H100"
    assert GENERATIONS.predecessor(GENERATIONS.of("NVIDIA Blackwell GPU (B200-SXM-180GB)")).name == "H200"
    assert GENERATIONS.predecessor(GENERATIONS.of("AMD Instinct MI325X")).name == "Instinct MI300X"
    assert GENERATIONS.of("Graphcore IPU GC200").name == "GC200 IPU" and GENERATIONS.of("Acme X1") is None
    assert all(g.source for g in GENERATIONS.items)
    with pytest.raises(InputError, match="'Bad': models is not a regular expression"):
        accelerators.parse({"families": [{"family": "F", "vendor": "V", "source": "S",
                                          "generations": [{"name": "Bad", "models": "("}]}]})
    with pytest.raises(InputError, match="'Old': needs 'models'.*'match' was split"):
        accelerators.parse({"families": [{"family": "F", "vendor": "V", "source": "S",
                                          "generations": [{"name": "Old", "match": "old"}]}]})


# --- competition -----------------------------------------------------------------------------

@pytest.mark.parametrize("rival_minutes, kind", [(12.0, "ahead"), (10.1, "on_par"), (9.9, "on_par"), (8.0, "behind")])
def test_the_nearest_competitor_at_the_same_count_worded_by_the_real_gap(rival_minutes, kind):
    df = frame(result("Google", "tpu8", "bert", 10.0, model="TPU-v5p"),
               result("NVIDIA", "dgx8", "bert", rival_minutes),
               result("NVIDIA", "far8", "bert", 30.0),                       # not the nearest
               result("NVIDIA", "dgx64", "bert", 1.0, 64))                   # another size
    (claim,) = of(claims(df, focus("Google")), "competition")
    assert claim.kind == kind and claim.facts["rival"]["system"] == "dgx8"
    assert claim.facts["gap"] == pytest.approx(rival_minutes / 10.0 - 1)


def test_a_chip_vendor_competes_with_other_vendors_not_with_its_own_partners():
    df = frame(result("Google", "tpu8", "bert", 10.0, model="TPU-v5p"),
               result("Partner", "tpu8b", "bert", 10.05, model="TPU-v5p"))   # same chip: a partner, not a rival
    assert of(claims(df, focus("Google")), "competition") == []
    oem = frame(result("Dell", "d8", "bert", 10.0), result("Lenovo", "l8", "bert", 11.0))
    (claim,) = of(claims(oem, focus("Dell")), "competition")   # a system builder competes with other builders
    assert claim.kind == "ahead" and claim.facts["rival"]["submitter"] == "Lenovo"


# --- ecosystem -------------------------------------------------------------------------------

def test_the_vendors_partners_and_the_closest_partner_result():
    df = frame(result("NVIDIA", "dgx8", "bert", 10.0), result("Dell", "d8", "bert", 10.5),
               result("Lenovo", "l8", "bert", 12.0), result("Lenovo", "l8", "ssd", 3.0),
               result("Google", "t8", "bert", 9.0, model="TPU-v5p"))
    (claim,) = of(claims(df, focus("NVIDIA")), "ecosystem")
    assert claim.facts["partners"] == ["Lenovo", "Dell"] and claim.facts["results"] == 3
    assert claim.facts["closest"]["partner"]["submitter"] == "Dell"
    assert claim.facts["closest"]["ratio"] == pytest.approx(10.0 / 10.5)


def test_no_ecosystem_claim_for_a_system_builder_or_without_partners():
    df = frame(result("Dell", "d8", "bert", 10.0), result("NVIDIA", "dgx8", "bert", 9.0))
    assert of(claims(df, focus("Dell")), "ecosystem") == []
    alone = frame(result("NVIDIA", "dgx8", "bert", 10.0), result("Google", "t8", "bert", 9.0, model="TPU-v5p"))
    assert of(claims(alone, focus("NVIDIA")), "ecosystem") == []


# --- scaling ---------------------------------------------------------------------------------

def test_scaling_from_the_smallest_to_the_largest_system_of_one_accelerator():
    df = frame(result("Google", "t512", "gpt3", 102.0, 512, model="TPU-trillium"),
               result("Google", "t1024", "gpt3", 50.0, 1024, model="TPU-trillium"),
               result("Google", "t3072", "gpt3", 20.4, 3072, model="TPU-trillium"))
    (claim,) = of(claims(df, focus("Google")), "scaling")
    assert claim.facts["growth"] == 6.0 and claim.facts["gain"] == pytest.approx(5.0)
    assert claim.facts["efficiency"] == pytest.approx(5.0 / 6.0) and claim.facts["points"] == 3


def test_no_scaling_claim_for_one_size_a_slower_large_system_or_latency():
    one = frame(result("Acme", "a8", "bert", 10.0), result("Acme", "b8", "bert", 9.0))
    slower = frame(result("Acme", "a8", "bert", 10.0), result("Acme", "a16", "bert", 10.1, 16))
    latency = frame(result("Acme", "a1", "resnet", 1.0, 1, measure="latency", higher_is_better=False),
                    result("Acme", "a8", "resnet", 0.5, 8, measure="latency", higher_is_better=False))
    for df in (one, slower, latency):
        assert of(claims(df), "scaling") == []


# --- progress --------------------------------------------------------------------------------

def test_progress_on_the_same_hardware_and_new_entries():
    now = frame(result("Acme", "a8", "bert", 8.0), result("Acme", "a8", "gpt3", 50.0))
    before = frame(result("Acme", "a8old", "bert", 10.0, round_id="training-v4.0"),
                   result("Acme", "a8x", "ssd", 4.0, round_id="training-v4.0"))
    found = claims(now, previous=before)
    (same,) = of(found, "progress", "same_hardware")
    assert same.facts["ratio"] == pytest.approx(1.25) and same.facts["before"]["round"] == "training-v4.0"
    (new,) = of(found, "progress", "new_benchmarks")
    assert new.facts == {"benchmarks": ["gpt3"], "previous": "training-v4.0"}


def test_no_progress_claim_for_a_decline_or_without_the_previous_round():
    now = frame(result("Acme", "a8", "bert", 10.0))
    before = frame(result("Acme", "a8", "bert", 9.0, round_id="training-v4.0"))
    assert of(claims(now, previous=before), "progress") == []
    assert of(claims(now), "progress") == []


# --- price and energy ------------------------------------------------------------------------

def _priced(ratio):
    mine, base = result("Acme", "a16", "resnet", 37.1, 16), result("NVIDIA", "dgx", "resnet", 28.8)
    return {"benchmark": "resnet", "division": "closed", "ratio": ratio, "system": mine, "baseline": base,
            "price": {"amount": 149995, "currency": "USD", "source": "list"},
            "baseline_price": {"amount": 300000, "currency": "USD", "source": "list"}}


@pytest.mark.parametrize("ratio, kind", [(1.55, "ahead"), (1.01, "on_par"), (0.7, "behind")])
def test_performance_per_dollar_is_worded_by_its_ratio(ratio, kind):
    (claim,) = of(claims(frame(result("Acme", "a16", "resnet", 37.1, 16)), prices=[_priced(ratio)]), "price")
    assert claim.kind == kind and claim.derived


def test_energy_only_where_results_carry_it():
    assert of(claims(frame(result("Acme", "a8", "bert", 10.0))), "energy") == []
    (claim,) = of(claims(frame(result("Acme", "a8", "bert", 10.0, energy=2.5e7))), "energy")
    assert claim.facts["results"][0]["energy"] == 2.5e7


# --- ranking ---------------------------------------------------------------------------------

def _claim(angle, kind, strength):
    return story.Claim(angle, kind, strength, {}, (f"{angle}-{kind}-{strength}",))


def test_the_strongest_leads_behind_never_leads_and_an_angle_fills_at_most_two_highlights():
    found = [_claim("competition", "behind", 9.0), _claim("scaling", "across_sizes", 4.0),
             _claim("scaling", "across_sizes", 3.9), _claim("scaling", "across_sizes", 3.8),
             _claim("generation", "over_predecessor", 5.0), _claim("energy", "measured", 0.8)]
    told = story.tell(found, focus())
    assert told.headline.angle == "generation"
    assert [c.strength for c in told.highlights] == [4.0, 3.9, 0.8]
    assert {c.strength for c in told.body} == {9.0, 3.8}


def test_report_yaml_orders_and_skips_angles():
    found = [_claim("scaling", "across_sizes", 4.0), _claim("energy", "measured", 0.8), _claim("price", "ahead", 6)]
    told = story.tell(found, focus(), order=["energy"], skip=["price"])
    assert told.headline.angle == "energy" and [c.angle for c in told.highlights] == ["scaling"] and not told.body


def test_a_neutral_story_names_the_round_leaders_and_the_progress_of_the_best():
    df = frame(result("Acme", "a8", "bert", 8.0), result("Other", "o8", "bert", 9.0),
               result("Other", "o8", "gpt3", 40.0))
    before = frame(result("Other", "o8", "bert", 10.0, round_id="training-v4.0"))
    found = story.find_claims(df, focus("", "none"), GENERATIONS, before)
    (lead,) = of(found, "leadership", "round_best")
    assert [b["submitter"] for b in lead.facts["bests"]] == ["Acme", "Other"]
    assert lead.facts["holders"] == [["Acme", 1], ["Other", 1]]
    (best,) = of(found, "progress", "best")
    assert best.facts["ratio"] == pytest.approx(10.0 / 8.0)
    assert of(found, "progress", "new_benchmarks")[0].facts["benchmarks"] == ["gpt3"]


def test_inference_rows_compare_throughput_higher_and_latency_lower():
    rows = [dict(result("Acme", "a8", "llama", 0, 8), scenario="Offline", value=100.0, higher_is_better=True,
                 measure="throughput", unit="Tokens/s"),
            dict(result("Other", "o8", "llama", 0, 8), scenario="Offline", value=90.0, higher_is_better=True,
                 measure="throughput", unit="Tokens/s"),
            dict(result("Acme", "a1", "resnet", 0, 1), scenario="SingleStream", value=0.5, measure="latency",
                 unit="Latency (ms)"),
            dict(result("Other", "o1", "resnet", 0, 1), scenario="SingleStream", value=0.4, measure="latency",
                 unit="Latency (ms)")]
    (lead,) = of(claims(frame(*rows)), "leadership", "first_overall")
    assert [w["result"]["benchmark"] for w in lead.facts["leads"]] == ["llama"]
    assert lead.facts["leads"][0]["gap"] == pytest.approx(100 / 90 - 1) and not math.isnan(lead.strength)


def test_an_accelerator_story_leads_with_the_partners_who_built_on_it():
    df = frame(result("NVIDIA", "dgx8", "bert", 10.0, model="NVIDIA H200"), result("Dell", "d8", "bert", 10.5, model="NVIDIA H200"),
               result("Lenovo", "l8", "bert", 12.0, model="NVIDIA H200"), result("Google", "t8", "bert", 11.0, model="TPU-v5p"))
    told = story.tell(claims(df, focus("H200", "accelerator")), focus("H200", "accelerator"))
    assert told.headline.angle == "ecosystem" and told.headline.facts["own"] == "NVIDIA"
    assert told.headline.facts["partners"] == ["Dell", "Lenovo"]

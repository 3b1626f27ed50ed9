"""The chip angles on small synthetic rounds: the gain over each earlier generation (the largest leads),
only against the focus's own older results or, for a chip vendor, a partner's (said so), CPU-only
results compared on their processors; a debut only where the catalogue says so and no earlier round in
the data has the chip; the host processors' share of the round's systems; open results compared only
within one submitter's model."""

from __future__ import annotations

import pytest

from mlperf_report.analysis import story
from mlperf_report.core import accelerators
from tests.analysis.test_story import GENERATIONS, claims, focus, frame, of, result

MI300X, MI325X, MI355X = "AMD Instinct MI300X-OAM", "AMD Instinct MI325X", "AMD Instinct MI355X"


def _amd_generations(round_id="training-v5.1"):
    return frame(result("AMD", "mi355x", "llama2_70b_lora", 10.2, model=MI355X, round_id=round_id),
                 result("AMD", "mi325x", "llama2_70b_lora", 20.4, model=MI325X, round_id=round_id),
                 result("AMD", "mi300x", "llama2_70b_lora", 28.0, model=MI300X, round_id=round_id))


def test_a_generation_claim_for_each_earlier_generation_and_the_largest_gain_leads():
    """AMD Training v5.1: MI355X 2.0× its MI325X, MI325X 1.4× its MI300X, and 2.7× its MI300X, the one
    AMD published; before, only the gain over the nearest predecessor was found."""
    found = of(claims(_amd_generations(), focus("AMD")), "generation", "over_predecessor")
    pairs = {(c.facts["new"], c.facts["old"]): c.facts["best"]["ratio"] for c in found}
    assert pairs == {("Instinct MI350 Series (MI350X / MI355X)", "Instinct MI300X"): pytest.approx(28.0 / 10.2),
                     ("Instinct MI350 Series (MI350X / MI355X)", "Instinct MI325X"): pytest.approx(2.0),
                     ("Instinct MI325X", "Instinct MI300X"): pytest.approx(28.0 / 20.4)}
    told = story.tell(claims(_amd_generations(), focus("AMD")), focus("AMD"))
    gains = [c for c in (told.headline, *told.highlights) if c.kind == "over_predecessor"]
    assert told.headline.kind == "debut"                 # the MI355X's first Training round leads
    assert (gains[0].facts["old"], gains[0].facts["best"]["by"]) == ("Instinct MI300X", "own")


def test_a_newer_result_is_never_set_against_another_submitter_s_old_system_as_its_own():
    """HPE's H200 against Cisco's H100 read as HPE's generation gain; only HPE's own H100 may be the
    predecessor, and a chip vendor's partner's older result is marked as the partner's."""
    cisco = frame(result("HPE", "h200", "bert", 10.0, model="NVIDIA H200-SXM5-141GB"),
                  result("Cisco", "h100", "bert", 15.0, model="NVIDIA H100-SXM5-80GB"))
    assert of(claims(cisco, focus("HPE")), "generation") == []
    own = frame(*cisco.to_dict("records"), result("HPE", "h100", "bert", 14.0, model="NVIDIA H100-SXM5-80GB"))
    (claim,) = of(claims(own, focus("HPE")), "generation")
    assert claim.facts["best"]["predecessor"]["submitter"] == "HPE" and claim.facts["best"]["by"] == "own"
    vendor = frame(result("NVIDIA", "h200", "bert", 10.0, model="NVIDIA H200-SXM5-141GB"),
                   result("Cisco", "h100", "bert", 15.0, model="NVIDIA H100-SXM5-80GB"))
    (partner,) = of(claims(vendor, focus("NVIDIA")), "generation")
    assert partner.facts["best"]["by"] == "partner" and partner.facts["best"]["predecessor"]["submitter"] == "Cisco"


def test_a_vendor_s_own_older_result_as_fast_leaves_no_slower_partner_result_to_pick():
    df = frame(result("NVIDIA", "h200", "bert", 10.0, model="NVIDIA H200-SXM5-141GB"),
               result("NVIDIA", "h100", "bert", 10.1, model="NVIDIA H100-SXM5-80GB"),   # within noise
               result("Cisco", "h100", "bert", 15.0, model="NVIDIA H100-SXM5-80GB"))
    assert of(claims(df, focus("NVIDIA")), "generation") == []


def test_cpu_only_results_are_a_generation_claim_on_their_processors():
    """Intel Inference: Xeon 6 against 5th Gen Xeon, two processors each, no accelerator."""
    def cpu(system, value, host):
        return dict(result("Intel", system, "resnet", 0, 0, model="N/A"), scenario="Offline", value=value,
                    higher_is_better=True, measure="throughput", unit="Samples/s", host_processor_model=host,
                    host_processors=2)
    df = frame(cpu("gnr", 45617.3, "INTEL(R) XEON(R) 6980P"), cpu("emr", 25204.5, "INTEL(R) XEON(R) PLATINUM 8592+"))
    (claim,) = of(claims(df, focus("Intel")), "generation")
    assert (claim.facts["new"], claim.facts["old"]) == ("Xeon 6", "5th Gen Xeon Scalable")
    assert claim.facts["best"]["unit"] == "processor" and claim.facts["best"]["accelerators"] == 2


def _debut_round(round_id, model="NVIDIA GB300", division="closed"):
    return frame(result("NVIDIA", "gb300x8", "llama2_70b_lora", 1.0, model=model, round_id=round_id, division=division),
                 result("NVIDIA", "gb300x512", "llama31_405b", 20.0, 512, model=model, round_id=round_id,
                        division=division),
                 result("Dell", "b200", "llama2_70b_lora", 3.0, model="NVIDIA B200-SXM-180GB", round_id=round_id))


def _debuts(df, seen=None, who="NVIDIA"):
    return [c for c in story.find_claims(df, focus(who), GENERATIONS, seen=seen) if c.kind == "debut"]


def test_a_debut_where_the_catalogue_says_this_is_the_chip_s_first_round():
    (claim,) = _debuts(_debut_round("training-v5.1"), seen={"training-v5.0": {"NVIDIA B200-SXM-180GB"}})
    assert claim.facts["generation"] == "Blackwell Ultra (B300 / GB300)" and claim.facts["largest_chips"] == 512
    assert claim.facts["results"] == 2 and "MLPerf Training v5.1" in claim.facts["source"]
    assert claim.cites[0] == "training-v5.1/closed/NVIDIA/gb300x512/llama31_405b"
    told = story.tell(story.find_claims(_debut_round("training-v5.1"), focus("NVIDIA"), GENERATIONS), focus("NVIDIA"))
    assert told.headline.kind == "debut"


@pytest.mark.parametrize("round_id, seen", [
    ("training-v6.0", {}),                                       # the catalogue names another first round
    ("training-v5.1", {"training-v5.0": {"NVIDIA GB300"}}),      # the data has the chip earlier: contradiction
])
def test_no_debut_against_the_catalogue_or_the_data(round_id, seen):
    assert _debuts(_debut_round(round_id), seen=seen) == []


def test_a_round_missing_from_the_data_never_makes_a_chip_look_new():
    """MI325X first appeared in Training v5.0 (the catalogue's word): with v5.0 missing from data/ and
    no MI325X in v4.1, a v5.1 report must not call it new."""
    df = frame(result("AMD", "mi325x", "llama2_70b_lora", 20.0, model=MI325X, round_id="training-v5.1"))
    assert _debuts(df, seen={"training-v4.1": {"NVIDIA H100-SXM5-80GB"}}, who="AMD") == []
    unknown = frame(result("Acme", "x1", "bert", 9.0, model="Acme X1", round_id="training-v5.1"))
    assert _debuts(unknown, seen={}, who="Acme") == []   # absent from every round, but no sourced first round


def test_a_debut_needs_its_public_source_in_the_catalogue():
    with pytest.raises(accelerators.InputError, match="a debut needs its public source"):
        accelerators.parse({"families": [{"family": "F", "vendor": "V", "source": "S", "generations": [
            {"name": "G", "models": "g", "debut": {"training": "v5.1"}}]}]})
    assert all(g.debut_source for g in GENERATIONS.items if g.debut)


def test_the_host_processors_share_of_the_round_s_systems():
    df = frame(result("Dell", "d1", "bert", 10.0, host_processor_model="Intel(R) Xeon(R) Platinum 8480C"),
               result("Lenovo", "l1", "bert", 11.0, host_processor_model="INTEL(R) XEON(R) PLATINUM 8592+"),
               result("Lenovo", "l1", "ssd", 3.0, host_processor_model="INTEL(R) XEON(R) PLATINUM 8592+"),
               result("AMD", "m1", "bert", 12.0, host_processor_model="AMD EPYC 9654"))
    (claim,) = of(claims(df, focus("Intel")), "ecosystem", "host_share")
    assert (claim.facts["systems"], claim.facts["of"], claim.facts["most"]) == (2, 3, True)
    assert claim.facts["share"] == pytest.approx(2 / 3) and claim.derived
    (amd,) = of(claims(frame(*df.to_dict("records"), result("Acme", "a1", "bert", 13.0,
                                                            host_processor_model="AMD EPYC 9554")), focus("AMD")),
                "ecosystem", "host_share")
    assert not amd.facts["most"]                        # 2 of 4, Intel's 2 as many
    assert of(claims(df, focus("Dell")), "ecosystem", "host_share") == []   # Dell makes no processors


def test_grace_hosts_written_neoverse_v2_are_nvidia_s_and_other_hosts_count_for_no_vendor():
    """Issue 44: 23 of one Training round's systems wrote their Grace host "Neoverse-V2"."""
    df = frame(result("NVIDIA", "gb1", "bert", 10.0, model="NVIDIA GB200", host_processor_model="Neoverse-V2"),
               result("Lenovo", "gb2", "bert", 11.0, model="NVIDIA GB200", host_processor_model="NVIDIA Grace CPU"),
               result("Dell", "d1", "bert", 12.0, host_processor_model="Intel(R) Xeon(R) Platinum 8480C"),
               result("Edge", "e1", "bert", 13.0, host_processor_model="12-core ARM Cortex-A78AE CPU"),
               result("Arm", "a1", "bert", 14.0, host_processor_model="Ampere Altra Q80-30"))
    (claim,) = of(claims(df, focus("NVIDIA")), "ecosystem", "host_share")
    assert (claim.facts["systems"], claim.facts["of"], claim.facts["most"], claim.facts["brand"]) == (2, 5, True, "Grace")
    assert of(claims(df, focus("Arm")), "ecosystem", "host_share") == []
    assert of(claims(df, focus("Intel")), "ecosystem", "host_share") == []   # one system: no share to claim


def test_open_results_are_compared_only_within_one_submitter_s_model():
    """Training v1.1: Google's open BERT against Samsung's 0.42-minute open result of another model;
    Inference v5.1: AMD's open result against Krai's, both open, both "llama2-70b-99" folders."""
    df = frame(result("Google", "tpu", "bert", 828.2, 1024, model="TPU-v4", division="open"),
               result("Samsung", "dgx", "bert", 0.42, 1024, model="NVIDIA A100", division="open"),
               result("Google", "tpu2", "bert", 500.0, 2048, model="TPU-v4", division="open"))
    found = claims(df, focus("Google"))
    assert of(found, "competition") == [] and of(found, "leadership") == []
    (scaling,) = of(found, "scaling")                   # its own open results still scale
    assert scaling.facts["large"]["system"] == "tpu2"
    mlperf = [dict(result(s, f"{s}8", "llama2-70b-99", 0, 8, model=m, division="open"), scenario="Offline", value=v,
                   higher_is_better=True, measure="throughput", unit="Tokens/s", **{"model": "llama2-70b-99"})
              for s, m, v in (("AMD", MI355X, 100.0), ("Krai", "NVIDIA B200", 90.0))]
    found = claims(frame(*mlperf), focus("AMD"))
    assert of(found, "competition") == [] and of(found, "leadership") == []


def test_each_benchmark_counts_once_however_many_chips_of_a_generation_ran_it():
    """AMD Training v5.1 ran the MI355X and the MI350X (one generation): "ahead of its MI300X on 1 more
    benchmark" would count the same benchmark twice; so would an accelerator focus's submitters."""
    df = frame(*_amd_generations().to_dict("records"),
               result("AMD", "mi350x", "llama2_70b_lora", 11.0, model="AMD Instinct MI350X", round_id="training-v5.1"))
    (claim,) = [c for c in of(claims(df, focus("AMD")), "generation", "over_predecessor")
                if c.facts["old"] == "Instinct MI300X" and c.facts["new"].startswith("Instinct MI350")]
    assert claim.facts["others"] == [] and claim.facts["best"]["result"]["system"] == "mi355x"
    two = frame(result("Dell", "d200", "bert", 10.0, model="NVIDIA H200-SXM5-141GB"),
                result("Dell", "d100", "bert", 14.0, model="NVIDIA H100-SXM5-80GB"),
                result("Lenovo", "l200", "bert", 10.5, model="NVIDIA H200-SXM5-141GB"),
                result("Lenovo", "l100", "bert", 16.0, model="NVIDIA H100-SXM5-80GB"))
    (h200,) = of(claims(two, focus("H200", "accelerator")), "generation")
    assert h200.facts["others"] == [] and h200.facts["best"]["predecessor"]["submitter"] == "Lenovo"  # the larger gain

"""A claim chart's bars are named as the claim names the systems: chips, count and maker
("8 × NVIDIA B200 · Supermicro"), the focus's own without its name said again, two bars that would
read the same told apart by round or a short system name, never a model number alone; a chart of
one bar shows its figure large; a host share is a chart of two bars."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.figure  # noqa: E402
from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mlperf_report.analysis import bar_labels, claim_charts, names  # noqa: E402
from mlperf_report.analysis.label_text import columns  # noqa: E402
from mlperf_report.core import accelerators  # noqa: E402

GENERATIONS = accelerators.load()


def row(submitter="Supermicro", model="NVIDIA B200-SXM-180GB", count=8, system="SMCI355X (AS -4126GS-NMR-LCC)",
        system_id="AS-4126GS-NBR-LCC", round_id="training-v5.0", value=10.0, mine=False, result_id=None) -> dict:
    return {"round": round_id, "benchmark": "bert", "scenario": "", "division": "closed", "submitter": submitter,
            "system_id": system_id, "system": system, "accelerator_model": model, "accelerators": count,
            "host_processor_model": "AMD EPYC 9575F", "host_processors": 2, "unit": "minutes", "measure": "time",
            "higher_is_better": False, "value": value, "energy": None, "mine": mine,
            "result_id": result_id or f"{round_id}/closed/{submitter}/{system_id}/bert"}


def chart_of(*rows: dict, **claim) -> claim_charts.ClaimChart:
    focus = {r["result_id"] for r in rows if r["mine"]}
    found = claim_charts.claim_chart({"facts": {"rows": list(rows)}, **claim},
                                     lambda s, m: any(s == r["submitter"] and m == r["accelerator_model"]
                                                      for r in rows if r["result_id"] in focus))
    return found


def test_a_rival_bar_names_the_chip_its_count_and_the_maker_in_both_languages():
    assert bar_labels.bar_label(row(), "en") == "8 × NVIDIA B200 · Supermicro"
    assert bar_labels.bar_label(row(), "zh-Hant") == "8 顆 NVIDIA B200 · Supermicro"


def test_the_focus_s_own_bar_and_a_maker_on_its_own_chips_do_not_say_the_maker_again():
    amd = row(submitter="AMD", model="AMD Instinct MI355X")
    assert bar_labels.bar_label(amd, "en") == "8 × AMD Instinct MI355X"
    assert bar_labels.bar_label(row(submitter="MangoBoost", model="AMD MI355X"), "en", own=True) == "8 × AMD Instinct MI355X"


def test_an_unknown_chip_is_named_as_written_and_a_cpu_only_result_by_its_processors():
    odd = row(model="Acme_Zeta_9000")
    assert bar_labels.bar_label(odd, "en") == f"8 × {names.chip('Acme_Zeta_9000', GENERATIONS)} · Supermicro"
    cpu = row(model="", count=None)
    assert bar_labels.bar_label(cpu, "en").startswith("2 × ") and "EPYC" in bar_labels.bar_label(cpu, "en")


def test_the_same_system_in_two_rounds_is_told_apart_by_its_round():
    chart = chart_of(row(round_id="training-v4.0", value=12.0), row(round_id="training-v4.1", value=10.0))
    labels = [r["label"] for r in bar_labels.labelled(chart, "en").rows]
    assert labels == ["8 × NVIDIA B200 · Supermicro (v4.0)", "8 × NVIDIA B200 · Supermicro (v4.1)"]
    zh = [r["label"] for r in bar_labels.labelled(chart, "zh-Hant").rows]
    assert zh == ["8 顆 NVIDIA B200 · Supermicro（v4.0）", "8 顆 NVIDIA B200 · Supermicro（v4.1）"]


def test_two_systems_of_one_maker_on_the_same_chips_are_told_apart_by_a_short_name():
    chart = chart_of(row(system="Supermicro SYS-821GE-TNHR", system_id="sys-821ge"),
                     row(system="Supermicro AS-8125GS-TNHR", system_id="as-8125gs", value=11.0))
    labels = [r["label"] for r in bar_labels.labelled(chart, "en").rows]
    assert len(set(labels)) == 2 and all(label.startswith("8 × NVIDIA B200 · Supermicro (") for label in labels)


_CHIPS = st.sampled_from(["NVIDIA H100-SXM5-80GB", "NVIDIA B200-SXM-180GB", "AMD Instinct MI300X", "TPU-v5p",
                          "Intel Gaudi 2", "GC200 IPU", "Acme_Zeta_9000", "NVIDIA A100-SXM4-40GB"])
_SUBMITTERS = st.sampled_from(["Supermicro", "NVIDIA", "Quanta_Cloud_Technology", "Dell", "AMD", "Google",
                               "Hewlett_Packard_Enterprise", "Lenovo"])
_SYSTEMS = st.sampled_from(["AS-4126GS-NBR-LCC", "SMCI355X (AS -4126GS-NMR-LCC)", "SYS-821GE-TNHR", "ESC N8-E11",
                            "PowerEdge XE9680", "G593-SD1", "dgxh100_n8_ngc24.04", "AS-4126GS-NBR-LCC-2"])


@settings(max_examples=60, deadline=None)
@example(specs=[("Supermicro", "AMD Instinct MI300X", 8, "AS-4126GS-NBR-LCC", "training-v4.1", False),
                ("Supermicro", "AMD Instinct MI300X", 8, "SMCI355X (AS -4126GS-NMR-LCC)", "training-v4.1", False)],
         lang="zh-Hant")  # a cut chip name, found by hypothesis in a fresh clone
@given(st.lists(st.tuples(_SUBMITTERS, _CHIPS, st.sampled_from([1, 8, 16, 64]), _SYSTEMS,
                          st.sampled_from(["training-v4.0", "training-v4.1"]), st.booleans()),
                min_size=2, max_size=6, unique_by=lambda t: (t[0], t[3], t[4])),
       st.sampled_from(["en", "zh-Hant"]))
def test_every_bar_holds_its_chip_and_count_and_no_two_bars_read_the_same(specs, lang):
    rows = [row(submitter=s, model=m, count=n, system=name, system_id=name.strip() or "x", round_id=r, mine=mine,
                value=float(i + 1), result_id=f"{r}/closed/{s}/{name}/{i}")
            for i, (s, m, n, name, r, mine) in enumerate(specs)]
    chart = bar_labels.labelled(chart_of(*rows), lang, own_unnamed=True)
    labels = [r["label"] for r in chart.rows]
    times = " × " if lang == "en" else " 顆 "
    for bar in chart.rows:
        assert f"{bar['accelerators']}{times}{names.chip(bar['accelerator_model'], GENERATIONS)}" in bar["label"]
        assert bar["label"] not in (bar["system"], bar["system_id"])
        assert columns(bar["label"]) <= bar_labels.COLUMNS
    assert len(set(labels)) == len(labels), labels


def test_a_chart_of_one_bar_shows_its_figure_large_with_what_it_measures_and_its_label():
    debut = {"kind": "debut", "facts": {"largest": row(submitter="AMD", model="AMD Instinct MI355X", value=10.25)}}
    chart = bar_labels.labelled(claim_charts.claim_chart(debut, lambda s, m: s == "AMD"), "en", own_unnamed=True)
    assert len(chart.rows) == 1
    ax = matplotlib.figure.Figure().subplots()
    data = claim_charts.frame(chart, lambda r: r["label"])
    claim_charts.draw(data, measure="time", xlabel="Time to train (minutes)", lang="en", ax=ax)
    texts = {t.get_text(): t.get_fontsize() for t in ax.texts}
    assert not ax.patches and not ax.axison  # no bar, no axis: the figure
    assert texts["10.25"] > 2 * texts["8 × AMD Instinct MI355X"] and "Time to train (minutes)" in texts


def test_a_host_share_is_a_chart_of_the_focus_s_systems_against_the_others():
    share = {"kind": "host_share", "angle": "ecosystem",
             "facts": {"vendor": "Intel", "brand": "Xeon", "systems": 45, "of": 120, "share": 0.375}}
    chart = claim_charts.claim_chart(share, lambda s, m: False)
    for lang, mine in (("en", "Systems with Intel Xeon hosts"), ("zh-Hant", "採用 Intel Xeon 主機處理器的系統")):
        rows = bar_labels.labelled(chart, lang).rows
        assert [(r["label"], r["value"], r["mine"]) for r in rows][0] == (mine, 45.0, True)
        assert rows[1]["value"] == 75.0 and not rows[1]["mine"]
        assert bar_labels.notes_line(bar_labels.labelled(chart, lang), lang) == ""  # its bars are no systems
    assert claim_charts.value_format("systems", [45.0], "en")(45.0) == "45"

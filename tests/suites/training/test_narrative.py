"""The press-release narrative, checked against the official MLPerf Training v1.0 figures.

Fixtures under tests/fixtures/figures/ are figures.json files written by hand from the contract in
ARCHITECTURE.md with the real v1.0 scores (Graphcore as focus, and NVIDIA as a second submitter).
"""

import copy
import re
from pathlib import Path

import pytest
import yaml

from mlperf_report.suites.training import narrative
from mlperf_report.narrative import rendering
from mlperf_report.core import paths
from mlperf_report.core.errors import InputError, UserError

FIXTURES = Path(__file__).parents[2] / "fixtures" / "figures"
LANGS = ("en", "zh-Hant")
LEFTOVERS = re.compile(r"\{\{|\}\}|\{%|%\}|\bNone\b|\bnan\b|\bNaN\b|\bUndefined\b|\binf\b")


@pytest.fixture(scope="module")
def config():
    return yaml.safe_load((paths.DATA / "report.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def catalogue():
    from mlperf_report.core.prices import load_prices

    return load_prices()


@pytest.fixture()
def graphcore():
    return rendering.load_figures(FIXTURES / "graphcore")[0]


@pytest.fixture()
def nvidia():
    return rendering.load_figures(FIXTURES / "nvidia")[0]


def text_of(figures, config, lang, **kw):
    return narrative.render(figures, None, config, lang, "text", **kw)


def paragraph(text, *needles):
    """The one paragraph that contains every needle (fails when there is none)."""
    found = [p for p in text.split("\n\n") if all(n in p for n in needles)]
    assert found, f"no paragraph holds all of {needles}:\n{text}"
    return found[0]


# ----------------------------------------------------------------------------- acceptance: English


def test_english_headlines_state_resnet_and_bert_on_the_largest_system(graphcore, config, catalogue):
    text = text_of(graphcore, config, "en", catalogue=catalogue).narrative
    assert re.search(r"Closed Image Classification \(ResNet-50 v1\.5\) benchmark, the Graphcore IPU-POD64 "
                     r"trained ResNet-50 v1\.5 in 14\.5 minutes\[\d+\]\.", text)
    assert re.search(r"Open Natural Language Processing \(BERT\) benchmark, the Graphcore IPU-POD64 trained BERT "
                     r"in 9\.4 minutes\[\d+\]; in the closed division it took 11\.1 minutes\[\d+\]\.", text)
    lead = paragraph(text, "largest system")
    assert "the Graphcore IPU-POD64" in lead and "9.4 minutes" in lead and "14.5 minutes" in lead


def test_english_perf_per_dollar_gives_both_prices_their_sources_and_the_ratios(graphcore, config, catalogue):
    text = text_of(graphcore, config, "en", catalogue=catalogue).narrative
    prices = paragraph(text, "$149,995", "$300,000")
    assert "Graphcore list price of IPU-POD16" in prices
    assert "market intelligence and published reseller pricing" in prices
    assert "at half the price of the NVIDIA DGX A100 640GB" in prices
    resnet = paragraph(text, "Image Classification (ResNet-50 v1.5), closed division:")
    assert "37.12 minutes" in resnet and "28.77 minutes" in resnet
    assert re.search(r"Graphcore IPU-POD16 delivers 1\.6× the performance of the NVIDIA DGX A100 640GB\[\d+\]", resnet)
    bert = paragraph(text, "Natural Language Processing (BERT), closed division:")
    assert "34.49 minutes" in bert and "21.69 minutes" in bert
    assert re.search(r"delivers 1\.3× the performance", bert)


def test_english_systems_section_counts_host_servers_from_the_systems_description(graphcore, config, catalogue):
    text = text_of(graphcore, config, "en", catalogue=catalogue).narrative
    pod64 = paragraph(text, "Graphcore IPU-POD64: 64 × Graphcore IPU GC200.")
    assert re.search(r"1 host server\[\d+\] \(2 × AMD EPYC 7742\) for BERT", pod64)
    assert re.search(r"4 host servers\[\d+\] \(8 × AMD EPYC 7742\) for ResNet-50 v1\.5", pod64)
    pod16 = paragraph(text, "Graphcore IPU-POD16: 16 × Graphcore IPU GC200.")
    assert re.search(r"1 host server\[\d+\] \(2 × AMD EPYC 7742\) for BERT and ResNet-50 v1\.5", pod16)


def test_closed_and_open_are_compared_only_with_the_difference_spelled_out(graphcore, config):
    text = text_of(graphcore, config, "en").narrative
    pair = paragraph(text, "entered both divisions")
    assert "11.1 minutes" in pair and "9.4 minutes" in pair
    assert "would not qualify for the closed division" in pair
    headline = paragraph(text, "Open Natural Language Processing (BERT) benchmark")
    assert "own model implementation" in headline and "quality target is the same" in headline


def test_perf_per_dollar_across_divisions_is_never_claimed(graphcore, config):
    figures = copy.deepcopy(graphcore)
    open_pod16 = figures["bert"]["focus"]["open"][1]
    entry = copy.deepcopy(figures["bert"]["perf_per_dollar"][0])
    figures["bert"]["perf_per_dollar"] = [{**entry, "system": open_pod16, "division": "open"}]
    text = text_of(figures, config, "en").narrative
    assert "Natural Language Processing (BERT), closed division:" not in text
    assert "Natural Language Processing (BERT), open division:" not in text
    assert "27.75 minutes" not in text


# ------------------------------------------------------------------------- acceptance: Chinese


def test_traditional_chinese_states_the_same_figures(graphcore, config, catalogue):
    text = text_of(graphcore, config, "zh-Hant", catalogue=catalogue).narrative
    assert re.search(r"封閉組影像分類（ResNet-50 v1\.5）基準測試中，Graphcore IPU-POD64 以 14\.5 分鐘\[\d+\] 完成", text)
    assert re.search(r"開放組自然語言處理（BERT）基準測試中，Graphcore IPU-POD64 以 9\.4 分鐘\[\d+\] 完成 BERT 訓練；"
                     r"在封閉組的訓練時間則為 11\.1 分鐘", text)
    prices = paragraph(text, "149,995 美元", "300,000 美元")
    assert "一半" in prices and "market intelligence" in prices
    assert re.search(r"Graphcore IPU-POD16 的每美元效能是 NVIDIA DGX A100 640GB 的 1\.6×\[\d+\]",
                     paragraph(text, "影像分類（ResNet-50 v1.5），封閉組："))
    assert re.search(r"的 1\.3×\[\d+\]", paragraph(text, "自然語言處理（BERT），封閉組："))
    pod64 = paragraph(text, "Graphcore IPU-POD64：配備 64 顆")
    assert re.search(r"執行 BERT 時使用 1 台主機伺服器\[\d+\]（2 顆 AMD EPYC 7742）", pod64)
    assert re.search(r"執行 ResNet-50 v1\.5 時使用 4 台主機伺服器\[\d+\]（8 顆 AMD EPYC 7742）", pod64)


def test_chinese_text_has_no_stray_spaces_between_characters(graphcore, config):
    rendered = narrative.render(graphcore, None, config, "zh-Hant", "html")
    for html in (rendered.narrative, rendered.notes):
        assert not re.search(r"[\u4e00-\u9fff]\s+[\u4e00-\u9fff]", html)
        assert not re.search(r"[，。；：、]\s", html)


@pytest.mark.parametrize("lang", LANGS)
def test_the_mark_is_never_translated_and_always_names_the_benchmarks(graphcore, config, lang):
    rendered = text_of(graphcore, config, lang)
    for text in (rendered.narrative, rendered.notes.replace(narrative.TRADEMARK_LEGEND, "")):
        text = text.replace("MLPerf 名稱", "")   # the Chinese gloss of the legend names the mark itself
        assert "MLPerf® Training v1.0" in text
        assert not re.search(r"MLPerf(?!® Training)", text), "MLPerf® is followed by the suite, never a bare noun"


# ------------------------------------------------------------------------------------ citations


@pytest.mark.parametrize("lang", LANGS)
def test_every_marker_has_its_footnote_and_numbers_run_in_order(graphcore, config, lang):
    rendered = text_of(graphcore, config, lang)
    markers = [int(n) for n in re.findall(r"\[(\d+)\]", rendered.narrative)]
    notes = [int(n) for n in re.findall(r"^\[(\d+)\]", rendered.notes, flags=re.M)]
    assert notes == list(range(1, len(notes) + 1))
    assert set(markers) == set(notes)
    first_seen = list(dict.fromkeys(markers))
    assert first_seen == sorted(first_seen), "footnotes are numbered in order of first mention"
    assert narrative.TRADEMARK_LEGEND in rendered.notes


def test_result_footnotes_carry_suite_division_benchmark_source_and_date(graphcore, config):
    notes = text_of(graphcore, config, "en").notes
    pod64 = paragraph(notes, "ipu-pod64-TF1")
    for part in ("MLPerf® Training v1.0", "Closed", "Image Classification (ResNet-50 v1.5)", "Graphcore IPU-POD64",
                 "https://github.com/mlcommons/training_results_v1.0", "30 June 2021"):
        assert part in pod64
    assert "entry" not in pod64, "a pipeline key is not an MLPerf result ID"


def test_perf_per_dollar_footnote_is_labelled_unverified_and_shows_its_basis(graphcore, config):
    notes = text_of(graphcore, config, "en").notes
    resnet = paragraph(notes, "Performance per dollar", "ResNet-50")
    assert "not verified by MLCommons Association" in resnet
    assert "(28.77 × 300,000) / (37.12 × 149,995) = 1.55" in resnet
    assert "16 × Graphcore IPU GC200 against 8 × NVIDIA A100-SXM4-80GB (400W)" in resnet
    bert = paragraph(notes, "Performance per dollar", "on BERT")
    assert "(21.69 × 300,000) / (34.49 × 149,995) = 1.26" in bert


def test_server_count_footnote_states_its_basis(graphcore, config):
    notes = text_of(graphcore, config, "en").notes
    servers = paragraph(notes, "Host servers are counted")
    assert "2 CPUs per server" in servers and "default for dual-socket host servers" in servers


def test_a_catalogue_can_set_cpus_per_server_for_its_systems(graphcore, config, catalogue):
    from mlperf_report.core.prices import parse_prices

    four = parse_prices({"systems": [{"system_id": "ipu-pod64-TF1", "cpus_per_server": 4}]})
    rendered = text_of(graphcore, config, "en", catalogue=four)
    assert re.search(r"2 host servers\[\d+\] \(8 × AMD EPYC 7742\) for ResNet-50 v1\.5", rendered.narrative)
    assert "4 CPUs per server, as the price catalogue states" in rendered.notes
    shipped = text_of(graphcore, config, "en", catalogue=catalogue).notes  # data/prices.yaml states 2 for IPU-PODs
    assert "2 CPUs per server, as the price catalogue states" in paragraph(shipped, "Host servers are counted")


def test_configured_result_ids_are_cited(graphcore, config):
    cfg = copy.deepcopy(config)
    cfg["source"]["result_ids"] = {"Graphcore/ipu-pod64-TF1": "1.0-1044"}
    notes = text_of(graphcore, cfg, "en").notes
    assert "on 30 June 2021, result ID 1.0-1044." in paragraph(notes, "ipu-pod64-TF1")


def test_unverified_results_say_so_next_to_each_score_and_in_the_footnote(graphcore, config):
    cfg = copy.deepcopy(config)
    cfg["source"]["verified"] = False
    rendered = text_of(graphcore, cfg, "en")
    assert "14.5 minutes (unverified)" in rendered.narrative
    assert "Result not verified by MLCommons Association." in rendered.notes


def test_html_markers_link_to_note_anchors(graphcore, config):
    rendered = narrative.render(graphcore, None, config, "en", "html")
    links = set(re.findall(r'href="#(mlperf-en-note-\d+)"', rendered.narrative))
    anchors = set(re.findall(r'id="(mlperf-en-note-\d+)"', rendered.notes))
    assert links and links == anchors


# ----------------------------------------------------------------------------- missing data


def test_a_missing_price_drops_that_perf_per_dollar_claim_only(graphcore, config):
    figures = copy.deepcopy(graphcore)
    figures["bert"]["perf_per_dollar"][0]["price"] = None
    text = text_of(figures, config, "en").narrative
    assert "Natural Language Processing (BERT), closed division:" not in text
    assert "1.3×" not in text
    assert "1.6×" in text and "half the price" in text


def test_a_price_without_a_source_makes_no_claim(graphcore, config):
    figures = copy.deepcopy(graphcore)
    for fig in figures.values():
        for entry in fig["perf_per_dollar"]:
            entry["baseline_price"] = {**entry["baseline_price"], "source": ""}
    rendered = text_of(figures, config, "en")
    assert "Performance per dollar" not in rendered.narrative
    assert "half the price" not in rendered.narrative and "×" not in rendered.narrative.replace(" × ", "")
    assert "Performance per dollar" not in rendered.notes


def test_a_benchmark_without_a_focus_result_gets_no_headline(graphcore, config):
    text = text_of(graphcore, config, "en").narrative
    assert "trained SSD" not in text
    assert "Object Detection (light weight) (SSD)" in paragraph(text, "no scored result on the other benchmarks")


def test_figures_with_no_focus_result_at_all_still_read_sensibly(graphcore, config):
    figures = {"ssd": graphcore["ssd"]}
    for lang in LANGS:
        rendered = text_of(figures, config, lang)
        assert not LEFTOVERS.search(rendered.narrative + rendered.notes)
    assert "These figures hold no scored MLPerf® Training v1.0 result of Graphcore." in text_of(figures, config, "en").narrative


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scenario", ["graphcore", "nvidia"])
@pytest.mark.parametrize("fmt", ["html", "text"])
def test_no_template_tokens_or_missing_values_are_left(request, config, lang, scenario, fmt):
    figures = request.getfixturevalue(scenario)
    cfg = {**config, "focus_submitter": figures["resnet"]["focus_submitter"]}
    rendered = narrative.render(figures, None, cfg, lang, fmt)
    for text in (rendered.narrative, rendered.notes):
        assert text.strip()
        assert not LEFTOVERS.search(text), LEFTOVERS.search(text)


# ----------------------------------------------------------------------------------- escaping


def test_html_in_a_system_name_comes_out_escaped(graphcore, config):
    figures = copy.deepcopy(graphcore)
    evil = '<script>alert("x")</script> POD & Co'
    figures["resnet"]["focus"]["closed"][0]["display_name"] = evil
    for lang in LANGS:
        rendered = narrative.render(figures, None, config, lang, "html")
        for html in (rendered.narrative, rendered.notes):
            assert "<script>" not in html
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; POD &amp; Co" in rendered.narrative
    assert evil in text_of(figures, config, "en").narrative


# ----------------------------------------------------------------------------- other submitter


@pytest.mark.parametrize("lang", LANGS)
def test_a_second_submitter_gets_its_own_story_with_nothing_of_graphcore_left(nvidia, config, lang):
    cfg = {**config, "focus_submitter": "NVIDIA"}
    rendered = text_of(nvidia, cfg, lang)
    everything = rendered.narrative + rendered.notes + "\n".join(narrative.headline_summary(nvidia, cfg, lang))
    assert not re.search(r"Graphcore|IPU", everything)
    assert "NVIDIA DGX A100 × 8" in rendered.narrative
    assert "3.4 " in rendered.narrative and "4.9 " in rendered.narrative
    assert "Performance per dollar" not in rendered.narrative   # no priced rival in these figures


def test_templates_hold_no_submitter_specific_words_or_numbers():
    for lang in LANGS:
        source = (paths.TEMPLATES / narrative.template_name(lang)).read_text(encoding="utf-8")
        assert not re.search(r"Graphcore|IPU|NVIDIA|DGX", source)
        # the words a reader sees: no comments, Jinja logic or HTML tags
        words = re.sub(r"\{#.*?#\}|\{\{.*?\}\}|\{%.*?%\}|<[^>]*>", "", source, flags=re.S)
        # model and data-set names (ResNet-50, v1.5, 3D U-Net, KiTS19) are names, not figures
        # and the 1 of the perf/$ definition, (1 / time to train) / price, is a formula, not a figure
        words = re.sub(r"ResNet-\d+|v1\.5|3D|KiTS19|Top-1|\(1 / |（1／", "", words)
        assert not re.search(r"\d", words), re.search(r".{20}\d.{20}", words)


def test_figures_made_for_another_submitter_are_refused_with_the_fix(graphcore, config):
    with pytest.raises(UserError, match="re-run the notebooks"):
        narrative.render(graphcore, None, {**config, "focus_submitter": "NVIDIA"}, "en")


def test_figures_that_do_not_follow_the_contract_are_refused(config):
    with pytest.raises(InputError, match="contract"):
        narrative.render({"resnet": {"round": "training-v1.0"}}, None, config, "en")
    with pytest.raises(InputError, match="run the notebooks"):
        narrative.render({}, None, config, "en")


def test_unknown_language_or_format_is_refused(graphcore, config):
    with pytest.raises(ValueError, match="zh-Hant"):
        narrative.render(graphcore, None, config, "fr")
    with pytest.raises(ValueError, match="html"):
        narrative.render(graphcore, None, config, "en", "pdf")


def test_the_validated_report_config_works_as_well_as_the_raw_mapping(graphcore, config):
    from mlperf_report.core.config import load_config

    assert (narrative.render(graphcore, None, load_config(), "en").narrative
            == narrative.render(graphcore, None, config, "en").narrative)


# -------------------------------------------------------------------------------------- email


@pytest.mark.parametrize("lang", LANGS)
def test_headline_summary_is_short_plain_text_with_its_own_notes(graphcore, config, lang):
    lines = narrative.headline_summary(graphcore, config, lang)
    notes = narrative.headline_notes(graphcore, config, lang)
    assert lines and all("<" not in line and "\n" not in line for line in lines)
    assert any("14.5" in line for line in lines) and any("1.6×" in line for line in lines)
    markers = {int(n) for line in lines for n in re.findall(r"\[(\d+)\]", line)}
    numbered = {int(m.group(1)) for m in (re.match(r"\[(\d+)\]", n) for n in notes) if m}
    assert markers == numbered
    assert notes[-1 if lang == "en" else -2] == narrative.TRADEMARK_LEGEND


def test_a_comparison_across_availability_categories_says_so(graphcore, config):
    figures = copy.deepcopy(graphcore)
    figures["resnet"]["perf_per_dollar"][0]["system"]["availability"] = "preview"
    claim = paragraph(text_of(figures, config, "en").narrative, "Image Classification (ResNet-50 v1.5), closed division:")
    assert "different availability categories (Graphcore IPU-POD16: preview; NVIDIA DGX A100 640GB: available)" in claim
    zh = paragraph(text_of(figures, config, "zh-Hant").narrative, "影像分類（ResNet-50 v1.5），封閉組：")
    assert "不同的供貨類別（Graphcore IPU-POD16：預覽；NVIDIA DGX A100 640GB：已上市）" in zh


# ----------------------------------------------------------------------------- progress


def test_round_over_round_speedup_is_a_labelled_derived_claim(graphcore, config):
    figures = copy.deepcopy(graphcore)
    before = {**figures["resnet"]["focus"]["closed"][0], "minutes": 29.0, "system_id": "ipu-pod64-old"}
    now = figures["resnet"]["focus"]["closed"][0]
    figures["resnet"]["previous_round"] = {"round": "training-v0.7", "division": "closed", "focus_best": before,
                                           "this_best": now, "speedup": 29.0 / 14.48}
    rendered = text_of(figures, config, "en")
    progress = paragraph(rendered.narrative, "in MLPerf® Training v0.7")
    assert "14.5 minutes" in progress and "29.0 minutes" in progress and "2.0× faster" in progress
    note = paragraph(rendered.notes, "speed-up")
    assert "not verified by MLCommons Association" in note and "29.00 / 14.48 = 2.00" in note
    earlier = paragraph(rendered.notes, "ipu-pod64-old")
    assert "MLPerf® Training v0.7 Closed" in earlier
    assert "https://github.com/mlcommons/training_results_v0.7" in earlier, "cited from its own round's repository"
    assert "30 June 2021" not in earlier, "the retrieval date configured is that of this round's results"
    html = narrative.render(figures, None, config, "en").notes
    assert 'href="https://github.com/mlcommons/training_results_v0.7"' in html



def test_a_tree_main_source_keeps_its_suffix_for_its_round_and_drops_it_for_an_earlier_one(graphcore, config):
    """The narrative and the story's notes ask ``citations.source_of`` alone: the training narrative's
    own copy used to carry ``/tree/main`` over to v0.7's repository, whose branch is not ``main``."""
    figures = copy.deepcopy(graphcore)
    before = {**figures["resnet"]["focus"]["closed"][0], "minutes": 29.0, "system_id": "ipu-pod64-old"}
    figures["resnet"]["previous_round"] = {"round": "training-v0.7", "division": "closed", "focus_best": before,
                                           "this_best": figures["resnet"]["focus"]["closed"][0], "speedup": 2.0}
    tree = "https://github.com/mlcommons/training_results_v1.0/tree/main"
    given = {**config, "source": {**config["source"], "url": tree}}
    notes = text_of(figures, given, "en").notes
    assert tree in paragraph(notes, "ipu-pod64-TF1")
    earlier = paragraph(notes, "ipu-pod64-old")
    assert "https://github.com/mlcommons/training_results_v0.7" in earlier and "/tree/main" not in earlier

# ------------------------------------------------------------------- the real pipeline output


def _real_figures(focus):
    """The pipeline's figures, made in memory from the embedded data/ tables (never from an earlier
    build's output/, which may be stale or of another focus)."""
    if not (paths.DATA / "training-v1.0" / "results.csv").exists():
        pytest.skip("no data/training-v1.0 tables: run `python build.py ingest`")
    from mlperf_report.suites.training import context
    from mlperf_report.suites.training import rounds

    return {b: context.load_benchmark(round_id="training-v1.0", benchmark=b, focus_submitter=focus,
                                       data_dir=paths.DATA, prices_file=paths.PRICES,
                                       config_file=paths.REPORT_CONFIG).figures()
            for b in rounds.parse_round("training-v1.0").benchmarks}


def test_the_pipeline_figures_give_the_press_release_numbers(config, catalogue):
    figures = _real_figures("Graphcore")
    for lang in LANGS:
        rendered = narrative.render(figures, None, config, lang, "text", catalogue=catalogue)
        assert not LEFTOVERS.search(rendered.narrative + rendered.notes)
    text = narrative.render(figures, None, config, "en", "text", catalogue=catalogue).narrative
    assert "trained ResNet-50 v1.5 in 14.5 minutes" in text
    assert re.search(r"trained BERT in 9\.4 minutes\[\d+\]; in the closed division it took 11\.1 minutes", text)
    assert re.search(r"1\.6× the performance", paragraph(text, "Image Classification (ResNet-50 v1.5), closed division:"))
    assert re.search(r"1\.3× the performance", paragraph(text, "Natural Language Processing (BERT), closed division:"))
    assert "half the price" in paragraph(text, "$149,995", "$300,000")
    pod64 = paragraph(text, "Graphcore IPU-POD64: 64 ×")
    assert re.search(r"1 host server\[\d+\] \(2 × AMD EPYC 7742\) for BERT", pod64)
    assert re.search(r"4 host servers\[\d+\] \(8 × AMD EPYC 7742\) for ResNet-50 v1\.5", pod64)
    zh = narrative.render(figures, None, config, "zh-Hant", "text", catalogue=catalogue).narrative
    for figure in ("14.5 分鐘", "9.4 分鐘", "11.1 分鐘", "1.6×", "1.3×", "149,995 美元", "300,000 美元", "一半",
                   "1 台主機伺服器", "4 台主機伺服器"):
        assert figure in zh


def test_the_pipeline_figures_for_nvidia_tell_nvidia_s_story(config, catalogue):
    figures = _real_figures("NVIDIA")
    cfg = {**config, "focus_submitter": "NVIDIA"}
    for lang in LANGS:
        rendered = narrative.render(figures, None, cfg, lang, "text", catalogue=catalogue)
        assert not re.search(r"Graphcore|IPU", rendered.narrative + rendered.notes)
        assert not LEFTOVERS.search(rendered.narrative + rendered.notes)


def test_chinese_report_quotes_price_sources_in_chinese(graphcore, config, catalogue):
    import copy

    figures = copy.deepcopy(graphcore)
    for fig in figures.values():
        for claim in fig.get("perf_per_dollar") or []:
            for key in ("price", "baseline_price"):
                claim[key]["source_by_lang"] = {"zh-Hant": f"中文來源 {claim[key]['amount']}"}
    zh = narrative.render(figures, None, config, "zh-Hant", "html", catalogue=catalogue)
    en = narrative.render(figures, None, config, "en", "html", catalogue=catalogue)
    zh_html, en_html = zh.narrative + zh.notes, en.narrative + en.notes
    assert "中文來源 149995" in zh_html and "中文來源 300000" in zh_html
    assert "list price" not in zh_html and "reseller" not in zh_html
    assert "中文來源" not in en_html and "list price" in en_html


def test_power_results_of_the_focus_are_stated_as_mlperf_training_power_results(graphcore, config, catalogue):
    import copy

    figures = copy.deepcopy(graphcore)
    result = figures["resnet"]["focus"]["closed"][0]
    result["energy_j"] = 16_384_567.0
    en = narrative.render(figures, None, config, "en", "text", catalogue=catalogue).narrative
    zh = narrative.render(figures, None, config, "zh-Hant", "text", catalogue=catalogue).narrative
    assert re.search(r"used 16\.38 megajoules to train in [\d.]+ minutes\[\d+\] \(MLPerf® Training v1\.0 Power result\)", en)
    assert "訓練耗能 16.38 百萬焦耳" in zh and "Power 成績" in zh
    plain = narrative.render(graphcore, None, config, "en", "text", catalogue=catalogue).narrative
    assert "megajoules" not in plain and "Energy to train" not in plain  # no power result, no section

"""The benchmark catalogue (data/benchmarks.yaml) against what mlperf-logging says each round has."""

from __future__ import annotations

import re
import textwrap

import pytest
from mlperf_logging import benchmark_meta
from mlperf_logging.result_summarizer import result_summarizer

from mlperf_report.core.errors import InputError
from mlperf_report.core.languages import available
from mlperf_report.suites.training import catalogue, rounds

LANGS = ("en", "zh-Hant")
HAN = re.compile(r"[\u4e00-\u9fff]")


def training_rounds() -> list[str]:
    """Every Training ruleset the installed mlperf-logging knows, as round ids (training-v1.0)."""
    rulesets = benchmark_meta._ALL_ALLOWED_BENCHMARKS["training"]
    return [f"training-v{r}" for r in sorted(rulesets, key=lambda v: tuple(map(int, v.split("."))))]


def allowed(round_id: str) -> list[str]:
    return sorted(set(rounds.parse_round(round_id).benchmarks))


def test_mlperf_logging_knows_the_rounds_this_test_walks():
    found = training_rounds()
    assert "training-v1.0" in found and len(found) >= 10, found


@pytest.mark.parametrize("round_id", training_rounds())
def test_every_allowed_benchmark_has_an_entry_in_every_language(round_id):
    for benchmark in allowed(round_id):
        found = catalogue.entry(round_id, benchmark)
        assert found, f"data/benchmarks.yaml has no entry for {benchmark!r} in {round_id}"
        for field in catalogue.TEXT_FIELDS:
            for lang in LANGS:
                assert str(found[field].get(lang) or "").strip(), f"{benchmark} {round_id}: no {field} in {lang}"
        assert found["source"].startswith("https://github.com/mlcommons/"), found["source"]
        assert str(found["framework"]).strip()


@pytest.mark.parametrize("round_id", training_rounds())
def test_no_allowed_benchmark_is_shown_by_its_id(round_id):
    for benchmark in allowed(round_id):
        for lang in LANGS:
            assert catalogue.title(round_id, benchmark, lang) != benchmark
            assert catalogue.note(round_id, benchmark, lang) is None
            assert rounds.benchmark_title(benchmark, round_id, lang) == catalogue.title(round_id, benchmark, lang)


@pytest.mark.parametrize("round_id", training_rounds())
def test_zh_hant_titles_are_chinese(round_id):
    for benchmark in allowed(round_id):
        title = catalogue.title(round_id, benchmark, "zh-Hant")
        assert HAN.search(title), title
        assert "（" in title and title.endswith("）"), title
        assert HAN.search(catalogue.description(round_id, benchmark, "zh-Hant"))


def test_descriptions_are_two_sentences():
    for benchmark, entries in catalogue.load()["benchmarks"].items():
        for found in entries:
            en, zh = found["description"]["en"], found["description"]["zh-Hant"]
            assert len(re.findall(r"[.!?](?:\s|$)", en)) == 2, (benchmark, en)
            assert zh.count("。") == 2 and zh.endswith("。"), (benchmark, zh)


def test_every_entry_cites_a_source_and_ranges_do_not_overlap():
    for benchmark, entries in catalogue.load()["benchmarks"].items():
        spans = sorted((e["from"], e["to"] or (99, 99)) for e in entries)
        for (_, end), (start, _) in zip(spans, spans[1:]):
            assert end < start, f"{benchmark}: round ranges overlap"
        for found in entries:
            assert re.match(r"https://github\.com/mlcommons/(training|training_policies)/", found["source"])


def test_ssd_is_round_aware():
    assert rounds.benchmark_title("ssd", "training-v1.0") == "Object Detection (light weight) (SSD)"
    assert rounds.benchmark_model("ssd", "training-v1.1") == "SSD"
    assert rounds.benchmark_model("ssd", "training-v4.1") == "RetinaNet"
    assert "ResNet-34" in catalogue.description("training-v1.0", "ssd")
    assert "ResNeXt-50" in catalogue.description("training-v4.1", "ssd")
    assert catalogue.fact("training-v1.0", "ssd", "dataset") == "COCO 2017"
    assert catalogue.fact("training-v4.1", "ssd", "dataset").startswith("OpenImages")


def test_the_v1_0_names_of_the_reference_report_stay():
    v10 = {"bert": ("Natural Language Processing", "BERT"), "dlrm": ("Recommendation", "DLRM"),
           "maskrcnn": ("Object Detection (heavy weight)", "Mask R-CNN"), "minigo": ("Reinforcement Learning", "MiniGo"),
           "resnet": ("Image Classification", "ResNet-50 v1.5"), "rnnt": ("Speech Recognition", "RNN-T"),
           "ssd": ("Object Detection (light weight)", "SSD"), "unet3d": ("Image Segmentation (medical)", "3D U-Net")}
    for benchmark, (area, model) in v10.items():
        assert rounds.benchmark_title(benchmark, "training-v1.0") == f"{area} ({model})"
        assert rounds.benchmark_model(benchmark, "training-v1.0") == model


def test_renamed_ids_are_told_apart():
    assert catalogue.model("training-v2.1", "dlrm") == "DLRM"
    assert catalogue.model("training-v3.0", "dlrm_dcnv2") == "DLRM-dcnv2"
    assert catalogue.known("training-v3.0", "dlrm") is False
    assert catalogue.model("training-v4.1", "gnn") == catalogue.model("training-v5.0", "rgat") == "R-GAT"
    assert catalogue.title("training-v6.0", "llama31_405b") == "LLM Pretraining (Llama 3.1 405B)"


def test_an_unknown_id_or_round_falls_back_to_the_id_with_a_note():
    for round_id in ("training-v6.1", "training-v9.9"):
        assert catalogue.entry(round_id, "xyz") is None
        assert catalogue.title(round_id, "xyz") == "xyz"
        assert catalogue.model(round_id, "xyz", "zh-Hant") == "xyz"
        assert catalogue.description(round_id, "xyz") is None
        assert catalogue.note(round_id, "xyz") == f"no catalogue entry for 'xyz' in {round_id}; shown by its id"
        assert "xyz" in catalogue.note(round_id, "xyz", "zh-Hant") and HAN.search(catalogue.note(round_id, "xyz", "zh-Hant"))
    assert catalogue.title("not-a-round", "resnet") == "resnet"
    assert rounds.benchmark_title("xyz", "training-v6.1", "zh-Hant") == "xyz"


def test_a_language_without_texts_reads_english():
    assert catalogue.title("training-v1.0", "resnet", "fr") == "Image Classification (ResNet-50 v1.5)"


def test_aliases_follow_mlcommons_summarizer():
    for folder in ("mask", "maskrcnn", "resnet", "ssd"):
        assert catalogue.canonical(folder) == result_summarizer._benchmark_alias(folder)
        assert rounds.canonical_benchmark(folder) == catalogue.canonical(folder)
    assert catalogue.title("training-v1.0", "mask") == catalogue.title("training-v1.0", "maskrcnn")


def test_the_report_languages_all_have_texts():
    for lang in available():
        for round_id in training_rounds():
            for benchmark in allowed(round_id):
                assert catalogue.entry(round_id, benchmark)["area"].get(lang), (lang, round_id, benchmark)


def test_entries_are_copies():
    found = catalogue.entry("training-v1.0", "resnet")
    found["area"]["en"] = "changed"
    assert catalogue.area("training-v1.0", "resnet") == "Image Classification"


def test_a_broken_catalogue_names_the_file_and_the_entry(tmp_path):
    path = tmp_path / "benchmarks.yaml"
    path.write_text(textwrap.dedent("""\
        benchmarks:
          resnet:
            - from: "1.0"
              area: {en: "Image Classification"}
        """), encoding="utf-8")
    with pytest.raises(InputError, match=r"benchmarks\.yaml: benchmarks\.resnet\[0\]: missing model"):
        catalogue.load(path)
    path.write_text("benchmarks: [1, 2]\n", encoding="utf-8")
    with pytest.raises(InputError, match="benchmarks.yaml"):
        catalogue.load(path)


def test_without_a_round_the_newest_meaning_is_used():
    assert rounds.benchmark_model("ssd") == "RetinaNet"
    assert rounds.benchmark_title("resnet") == "Image Classification (ResNet-50 v1.5)"
    assert rounds.benchmark_title("xyz") == "xyz"


def test_a_report_section_of_an_unknown_benchmark_is_titled_by_its_id_with_the_note():
    import nbformat

    from mlperf_report.assemble import sections

    def notebook(benchmark, round_id):
        nb = nbformat.v4.new_notebook()
        nb.metadata["papermill"] = {"parameters": {"benchmark": benchmark, "round_id": round_id}}
        return nb

    unknown = notebook("xyz", "training-v6.1")
    assert sections.section_title(unknown, "xyz", "en", None) == "xyz"
    assert "no catalogue entry for &#x27;xyz&#x27; in training-v6.1" in sections.catalogue_note(unknown, "en")
    assert sections.catalogue_note(notebook("flux1", "training-v6.1"), "en") == ""
    assert sections.section_title(notebook("flux1", "training-v6.1"), "flux1", "zh-Hant", None) == "文字生成影像（Flux.1）"
    assert sections.section_title(notebook("ssd", "training-v4.1"), "ssd", "en", None) == \
        "Object Detection (light weight) (RetinaNet)"

"""report.yaml: the shipped file loads; mistakes are named by file and key; build.py options override."""

import pytest

from mlperf_report.core import paths
from mlperf_report.core.config import load_config, parse_config
from mlperf_report.core.errors import InputError


def test_shipped_configuration_loads_with_the_press_release_baselines():
    config = load_config(paths.REPORT_CONFIG)
    assert config.round == "training-v1.0"
    assert config.focus_submitter == "Graphcore"
    assert config.languages == ("en", "zh-Hant")
    assert config.baseline.competitor == "NVIDIA" and config.baseline.division == "closed"
    assert config.baseline.system_for("resnet", "training-v1.0") == "NVIDIA/dgxa100_ngc21.05_mxnet"
    assert config.baseline.system_for("bert", "training-v1.0") == "NVIDIA/dgxa100_ngc21.05_pytorch"
    assert config.baseline.system_for("ssd", "training-v1.0") is None and config.baseline.accelerators is None
    assert config.baseline.system_for("resnet", "training-v4.1") is None   # pins are per round
    assert config.focus.kind == "submitter" and config.focus.name == "Graphcore"


@pytest.mark.parametrize("submitter, accelerator, kind, key", [
    ("Graphcore", None, "submitter", "Graphcore"),
    ("none", None, "none", "none"),
    ("NONE", "", "none", "none"),
    ("Graphcore", "MI300X", "accelerator", "accelerator:MI300X"),
])
def test_the_three_kinds_of_focus(submitter, accelerator, kind, key):
    from mlperf_report.core.config import focus_of

    focus = focus_of(submitter, accelerator)
    assert (focus.kind, focus.key) == (kind, key)
    assert focus.matches("graphcore", "GC200 IPU") == (kind == "submitter")
    assert focus.matches("AMD", "AMD Instinct MI300X") == (kind == "accelerator")


def test_unknown_key_names_the_file_and_the_key(tmp_path):
    path = tmp_path / "report.yaml"
    path.write_text("title: x\nfocus_submiter: Graphcore\n")
    with pytest.raises(InputError, match=r"report\.yaml: unknown key\(s\) focus_submiter"):
        load_config(path)


@pytest.mark.parametrize("raw, message", [
    ({"languages": ["en", "fr"]}, r"languages: language\(s\) 'fr' not supported"),
    ({"round": "v1"}, r"round: round 'v1' is not of the form"),
    ({"baseline": {"default": {"accelerators": 0}}}, r"baseline\.default\.accelerators must be a positive"),
    ({"baseline": {"default": {"division": "closd"}}}, r"baseline\.default\.division must be one of"),
    ({"baseline": {"systems": {"resnet": 3}}}, r"baseline\.systems must map benchmark to system id"),
    ({"baseline": {"pins": {"training-v1.0": ["resnet"]}}}, r"baseline\.pins must map a round"),
    ({"baseline": {"pins": {"v9": {"resnet": "x"}}}}, r"baseline\.pins: round"),
    ({"baseline": {"competitor": ""}}, r"baseline\.competitor must be"),
    ({"title": ""}, r"title must be a non-empty text"),
])
def test_invalid_values_say_what_is_accepted(raw, message):
    with pytest.raises(InputError, match=message):
        parse_config(raw, where="cfg.yaml")


def test_missing_file_says_how_to_fix(tmp_path):
    with pytest.raises(InputError, match="report configuration not found"):
        load_config(tmp_path / "nope.yaml")


def test_command_line_overrides_win_and_none_means_not_given():
    config = parse_config({"focus_submitter": "Graphcore", "round": "1.0"})
    assert config.round == "training-v1.0"
    changed = config.with_overrides(focus_submitter="NVIDIA", round=None, languages="en")
    assert (changed.focus_submitter, changed.round, changed.languages) == ("NVIDIA", "training-v1.0", ("en",))
    with pytest.raises(InputError, match="not supported"):
        config.with_overrides(languages=["de"])


def test_title_may_be_given_per_language():
    from mlperf_report.core.config import parse_config

    config = parse_config({"title": {"en": "Results", "zh-Hant": "結果"}, "languages": ["zh-Hant", "en"]})
    assert (config.title, config.title_for("en"), config.title_for("zh-Hant")) == ("結果", "Results", "結果")
    plain = parse_config({"title": "One title"})
    assert plain.title_for("zh-Hant") == "One title"
    with pytest.raises(InputError, match="unknown language"):
        parse_config({"title": {"fr": "Résultats"}})


def test_titles_per_suite():
    config = parse_config({"title": {"training": {"en": "T", "zh-Hant": "訓"}, "inference": "Inference!"}})
    assert config.title_for("zh-Hant", "training") == "訓" and config.title_for("en", "inference") == "Inference!"
    from mlperf_report import suites

    def suite_default(lang, name):
        return suites.get(name).default_title(lang)

    default = parse_config({})  # no title: each suite's own
    assert default.title_for("en", "inference", suite_default("en", "inference")) == "MLPerf Inference results"
    assert default.title_for("zh-Hant", "training", suite_default("zh-Hant", "training")) == "MLPerf Training 測試結果"
    one = parse_config({"title": "Our round"})  # one text: the user's title for every suite
    assert one.title_for("en", "inference", suite_default("en", "inference")) == "Our round"
    assert config.title_for("en", "toy", "Toy results") == "Toy results"  # a suite report.yaml does not title
    shipped = load_config()
    assert "Inference" in shipped.title_for("en", "inference") and "Training" in shipped.title_for("en", "training")


def test_story_angles_are_ordered_or_skipped_by_name():
    config = parse_config({"story": {"order": ["scaling", "price"], "skip": ["energy"]}})
    assert config.story.order == ("scaling", "price") and config.story.skip == ("energy",)
    assert load_config().story.order == () and load_config().story.skip == ()
    with pytest.raises(InputError, match=r"story.order must be a list of angles from leadership, generation"):
        parse_config({"story": {"order": ["headline"]}})
    with pytest.raises(InputError, match="story must be a mapping with 'order' and/or 'skip'"):
        parse_config({"story": {"off": ["price"]}})


def test_the_story_s_scaling_efficiency_threshold_is_a_number_from_0_to_1():
    """A scaling claim leads only from this efficiency on (issue 36: 70 % by default, in report.yaml)."""
    assert load_config().story.scaling_efficiency == 0.70 and parse_config({}).story.scaling_efficiency == 0.70
    assert parse_config({"story": {"scaling_efficiency": 0.5}}).story.scaling_efficiency == 0.5
    for wrong in (1.5, -0.1, "70%", True):
        with pytest.raises(InputError, match=r"story.scaling_efficiency must be a number from 0 to 1"):
            parse_config({"story": {"scaling_efficiency": wrong}})

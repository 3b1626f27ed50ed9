"""The CJK font is installed by the project's own setup and really draws Traditional Chinese."""

import io
import warnings

import matplotlib

matplotlib.use("svg")

import matplotlib.pyplot as plt  # noqa: E402
from fontTools.ttLib import TTFont  # noqa: E402

from mlperf_report.i18n import fonts  # noqa: E402

CHINESE = "訓練時間（分鐘）"


def test_the_pinned_package_provides_the_traditional_chinese_face():
    path = fonts.cjk_font_path()
    assert path is not None and path.is_file(), "run `make venv`: noto-cjk-sans-otc is pinned in requirements.txt"
    assert fonts.cjk_face_index(path) == 3


def test_matplotlib_draws_chinese_labels_without_missing_glyphs():
    assert fonts.register_matplotlib_cjk() == fonts.CJK_FAMILY
    fig, ax = plt.subplots()
    ax.set_title(CHINESE + " ResNet-50")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns "Glyph ... missing from font(s)"
        fig.savefig(io.StringIO(), format="svg")
    plt.close(fig)


def test_subset_keeps_the_characters_asked_for_and_is_small(tmp_path):
    data = fonts.subset_font(CHINESE, cache_dir=tmp_path)
    assert len(data) < 200_000
    font = TTFont(io.BytesIO(data))
    cmap = font.getBestCmap()
    assert all(ord(char) in cmap for char in CHINESE + "ResNet 0123456789")
    assert font["name"].getDebugName(1) == fonts.CJK_FAMILY
    assert fonts.subset_font(CHINESE, cache_dir=tmp_path) == data
    assert len([p for p in tmp_path.iterdir() if not p.name.startswith("base-")]) == 1


def test_a_subset_cut_from_the_cached_base_copy_is_the_same_font_byte_for_byte(tmp_path):
    """Reports' subsets are cut from a base copy kept in the cache folder (speed only): the bytes are
    those of a subset of the full font, for the CJK face and for DejaVu Sans; a character beyond the
    base (a rare ideograph in a submitter's name) is still there, cut from the full font."""
    text = CHINESE + " 效能 Llama 2 70B · Dell PowerEdge XE9680 ×8 — NVIDIA H100-SXM5-80GB"
    assert set(text) <= set(fonts.base_characters())
    latin = fonts.latin_font_paths()[400]
    for path, face in ((None, None), (latin, None)):
        direct = fonts.subset_font(text, path=path, face_index=face)  # no cache folder: the full font
        from_base = fonts.subset_font(text, path=path, face_index=face, cache_dir=tmp_path / "a")
        assert from_base == direct
    assert [p.name.startswith("base-") for p in sorted((tmp_path / "a").iterdir())].count(True) == 2

    rare = "齉"  # not in any catalogue
    assert rare not in fonts.base_characters()
    data = fonts.subset_font(CHINESE + rare, cache_dir=tmp_path / "b")
    assert ord(rare) in TTFont(io.BytesIO(data)).getBestCmap()
    assert not any(p.name.startswith("base-") for p in (tmp_path / "b").iterdir())


def test_a_subset_with_its_name_table_set_aside_is_the_subsetters_own_byte_for_byte(tmp_path):
    """The name table is taken out while a font is subset (the subsetter's walk of every table for
    the name IDs they use is a third of its time): the bytes are those the subsetter makes with the
    table in place, for the CJK face and DejaVu Sans; a font naming IDs from 256 keeps its table in."""
    from fontTools import subset

    text = CHINESE + " 效能 Llama 2 70B · Dell PowerEdge XE9680 ×8 — NVIDIA H100-SXM5-80GB"
    chars = "".join(sorted(set(text) | set(fonts._ALWAYS)))
    for path, face in ((None, None), (fonts.latin_font_paths()[400], None)):
        path, index, drop = fonts._face(path, face)
        source = fonts._base_copy(path, index or 0, drop, tmp_path).read_bytes()
        ours = fonts._subset(fonts._open(io.BytesIO(source)), chars, "woff", drop)
        options = subset.Options(flavor="woff", notdef_outline=True, name_IDs=["*"])
        options.drop_tables += drop
        theirs = subset.Subsetter(options)
        theirs.populate(text=chars)
        font = fonts._open(io.BytesIO(source))
        theirs.subset(font)
        buffer = io.BytesIO()
        font.flavor = "woff"
        font.save(buffer)
        assert ours == buffer.getvalue()
    font = TTFont(str(fonts.latin_font_paths()[400]))
    font["name"].setName("Extra", 256, 3, 1, 0x409)
    assert fonts._names_aside(font) is None and "name" in font


def test_the_base_copies_made_at_install_are_the_ones_reports_cut_from(tmp_path):
    """`make venv` makes the base copies (``python -m mlperf_report.i18n.fonts``); a report's subsets
    then come from them: no new copy is made, and the bytes are those of the full font's subset."""
    made = fonts.prepare_base_copies(tmp_path / "base")
    assert len(made) == 4 and all(p.is_file() for p in made)  # CJK; DejaVu regular, bold, bold oblique
    stamps = {p: p.stat().st_mtime_ns for p in made}
    latin = fonts.latin_font_paths()[700]
    for path in (None, latin):
        data = fonts.subset_font(CHINESE + " ResNet", path=path, cache_dir=tmp_path / "reports",
                                 base_dir=tmp_path / "base")
        assert data == fonts.subset_font(CHINESE + " ResNet", path=path)
    assert sorted((tmp_path / "base").glob("base-*")) == sorted(made)
    assert len(list((tmp_path / "base").glob("drawable-*.txt"))) == 1  # what charts can draw, read once
    assert {p: p.stat().st_mtime_ns for p in made} == stamps
    assert not any(p.name.startswith("base-") for p in (tmp_path / "reports").iterdir())


def test_what_charts_can_draw_read_back_from_the_cache_is_the_fonts_character_map(tmp_path):
    """The code points kept as ranges are exactly the fonts' own: Latin, CJK, and not a private-use
    character or a gap between ranges."""
    from fontTools.ttLib import TTFont

    first = fonts.chart_code_points(tmp_path)
    assert len(list(tmp_path.glob("drawable-*.txt"))) == 1
    again = fonts.chart_code_points(tmp_path)  # from the file
    expected = set(TTFont(str(fonts.latin_font_paths()[400]), lazy=True).getBestCmap())
    cjk = fonts.cjk_font_path()
    expected |= set(TTFont(str(cjk), fontNumber=fonts.cjk_face_index(cjk), lazy=True).getBestCmap())
    assert set(first) == set(again) == expected and len(again) == len(expected)
    assert all(code in again for code in (ord("A"), ord("訓"), ord("é"))) and 0xE000 not in again
    assert all((code in again) == (code in expected) for code in range(0, 0x30000, 7))  # the search, gaps too


def test_a_system_copy_of_the_cjk_family_never_draws_the_charts(monkeypatch):
    """A matplotlib font list built after Debian's fonts-noto-cjk was installed (any new machine) holds
    the same family name with a Bold face of its own; matplotlib picked it for bold labels, whose
    glyphs the chart writers know only as outlines. Registered, the family is the one pinned file."""
    import dataclasses
    from pathlib import Path

    from matplotlib import font_manager

    manager = font_manager.fontManager
    ours = fonts.cjk_font_path()
    stranger = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans-Bold.ttf"
    template = next(e for e in manager.ttflist if Path(e.fname).name == "DejaVuSans-Bold.ttf")
    foreign = dataclasses.replace(template, name=fonts.CJK_FAMILY, fname=str(stranger), weight=700)
    monkeypatch.setattr(manager, "ttflist", [foreign] + [e for e in manager.ttflist if Path(e.fname) != ours])
    manager._findfont_cached.cache_clear()
    try:
        fonts.register_matplotlib_cjk()
        for weight in ("normal", "bold"):
            found = manager.findfont(font_manager.FontProperties(family=fonts.CJK_FAMILY, weight=weight),
                                     fallback_to_default=False)
            assert Path(found) == ours, weight
    finally:
        monkeypatch.undo()
        manager._findfont_cached.cache_clear()
        fonts.register_matplotlib_cjk()

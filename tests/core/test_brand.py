"""A brand file is read item by item: each bad item (missing logo, unknown colour name, malformed
colour, a typeface that is not installed, a file that is not YAML) is one line naming the item and
today's default used for it, the rest of the brand still applies; a build never fails on it. Where
the file is found: ``--brand``, else ``brand:`` (relative to the configuration), else ``_brand.yml``
beside it, else none (today's look)."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from mlperf_report.core import brand as brand_mod
from mlperf_report.core.brand import NO_BRAND, brand_file, load_brand
from mlperf_report.core.config import load_config

GREEN = "#0a7d2c"


def _png(rgb) -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (20, 10), rgb).save(buffer, format="PNG")
    return buffer.getvalue()


def _write(folder, text: str, name: str = "_brand.yml"):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_brand_resolves_palette_names_logo_and_installed_fonts(tmp_path):
    (tmp_path / "logo.png").write_bytes(_png((10, 125, 44)))
    path = _write(tmp_path, f"""meta: {{name: Acme}}
logo: logo.png
color:
  palette: {{acme-green: "{GREEN}"}}
  primary: acme-green
  secondary: navy
  foreground: "#123"
  background: white
typography:
  base: DejaVu Serif
  headings: {{family: DejaVu Sans}}
""")
    brand = load_brand(path)
    assert (brand.primary, brand.secondary, brand.foreground, brand.background) == (GREEN, "#000080", "#112233", "#ffffff")
    assert brand.logo == tmp_path / "logo.png" and brand.logo_type == "image/png" and brand.name == "Acme"
    assert (brand.base_font, brand.headings_font) == ("DejaVu Serif", "DejaVu Sans")
    assert brand.files[:2] == (path.resolve(), tmp_path / "logo.png")
    assert {f.name for f in brand.files[2:]} == {"DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSans.ttf",
                                                 "DejaVuSans-Bold.ttf"}  # the faces' files: the stamp's too


def test_logo_sizes_take_the_largest_present(tmp_path):
    (tmp_path / "mark.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    path = _write(tmp_path, "logo:\n  images: {mark: mark.svg, wide: wide.png}\n  small: mark\n  large: wide\n")
    brand = load_brand(path)
    assert brand.logo == tmp_path / "mark.svg" and brand.logo_type == "image/svg+xml"


@pytest.mark.parametrize("text, item, default", [
    ("logo: missing.png\n", "logo missing.png: no such file", "no logo (today's default)"),
    ("color: {primary: brandblue}\n", "color.primary: 'brandblue' is neither a colour nor a name in color.palette",
     "today's #d1495b"),
    ("color: {primary: '#12345'}\n", "color.primary: '#12345' is not a colour", "today's #d1495b"),
    ("color: {foreground: '#ggg'}\n", "color.foreground: '#ggg' is not a colour", "today's #1d232b"),
    ("typography: {base: No Such Face 3000}\n", "typography.base: font 'No Such Face 3000' is not installed",
     "today's DejaVu Sans, Noto Sans CJK TC for Chinese"),
    ("color: [1\n", "not a brand.yml file", "today's look"),
])
def test_each_bad_item_is_one_line_naming_it_and_todays_default(tmp_path, capsys, text, item, default):
    path = _write(tmp_path, text + "meta: {name: Acme}\n" if not text.startswith("color: [") else text)
    brand = load_brand(path)
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and str(path.resolve()) in lines[0] and item in lines[0] and lines[0].endswith(default)
    assert brand.primary is None and brand.logo is None and brand.base_font is None
    assert brand.file == path.resolve()  # still stamped: fixing the file rebuilds


def test_a_bad_item_leaves_the_rest_of_the_brand(tmp_path, capsys):
    path = _write(tmp_path, f"logo: gone.svg\ncolor: {{primary: '{GREEN}', secondary: nope}}\ntypography: {{base: Nope}}\n")
    brand = load_brand(path)
    assert brand.primary == GREEN and brand.logo is None and brand.base_font is None and brand.secondary is None
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 3 and "color.secondary: 'nope'" in said[0] and said[0].endswith("using today's accent")


def test_a_brand_file_that_is_not_there_is_todays_look(tmp_path, capsys):
    assert load_brand(tmp_path / "nope.yml") == NO_BRAND
    assert "nope.yml: no such file; using today's look" in capsys.readouterr().err
    assert load_brand(None) == NO_BRAND


def test_where_the_brand_file_is_found(tmp_path):
    config = tmp_path / "report.yaml"
    config.write_text(yaml.safe_dump({"round": "training-v1.0"}), encoding="utf-8")
    assert load_config(config).brand is None  # none shipped: today's look
    beside = _write(tmp_path, "meta: {name: A}\n")
    assert load_config(config).brand == beside
    config.write_text(yaml.safe_dump({"round": "training-v1.0", "brand": "brands/b.yml"}), encoding="utf-8")
    assert load_config(config).brand == tmp_path / "brands" / "b.yml"  # relative to the configuration
    given = tmp_path / "other.yml"
    assert load_config(config).with_overrides(brand=str(given)).brand == given
    assert brand_file(None) is None and brand_file(config, None, given) == given


def test_fonts_are_what_fontconfig_lists():
    families = brand_mod.installed_families()
    assert "dejavu sans" in families and "no such face 3000" not in families


def test_the_stamp_s_files_come_from_the_cache_and_see_a_logo_that_appears(tmp_path, capsys):
    """What the build's stamp reads of a brand: its files, as ``Brand.files`` gives them, read from
    the cache its first reading left (the cache holds the logos it names: one added since counts)."""
    path = _write(tmp_path, "logo: logo.png\ntypography: {base: DejaVu Serif}\n")
    cache = tmp_path / "cache"
    first = brand_mod.stamp_files(path, cache)
    assert first == load_brand(path).files and first[0] == path.resolve()
    assert {f.name for f in first[1:]} == {"DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"}  # no logo yet
    assert len(list(cache.glob("*.json"))) == 1
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert brand_mod.stamp_files(path, cache) == (path.resolve(), tmp_path / "logo.png", *first[1:])
    path.write_text("typography: {base: DejaVu Sans}\n", encoding="utf-8")  # new bytes: read again
    assert {f.name for f in brand_mod.stamp_files(path, cache)[1:]} == {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf"}
    assert brand_mod.stamp_files(None, cache) == () and brand_mod.stamp_files(tmp_path / "gone.yml", cache) == ()
    assert "gone.yml: no such file" in capsys.readouterr().err


def test_the_font_files_and_the_logo_are_read_once_by_the_build(tmp_path):
    """The parent resolves the typefaces' files and reads the logo; a process given the brand takes them."""
    first, second = _png((10, 125, 44)), _png((200, 0, 0))
    (tmp_path / "logo.png").write_bytes(first)
    brand = load_brand(_write(tmp_path, "logo: logo.png\ntypography: {base: DejaVu Serif}\n"))
    (tmp_path / "logo.png").write_bytes(second)
    assert brand.logo_bytes() == first  # what every format of this build shows
    assert {(family, bold) for family, bold, _, _ in brand.font_files} == {("DejaVu Serif", False), ("DejaVu Serif", True)}
    elsewhere = brand_mod.Brand(font_files=(("Acme Sans", False, str(tmp_path / "acme.ttf"), 0),))
    assert brand_mod.font_file("Acme Sans") != (tmp_path / "acme.ttf", 0)  # fontconfig's nearest, whatever it is
    brand_mod.use_fonts(elsewhere)
    try:
        assert brand_mod.font_file("Acme Sans") == (tmp_path / "acme.ttf", 0)
    finally:
        brand_mod._RESOLVED.clear()


@pytest.mark.parametrize("data", [b"not a png", b"\x89PNG\r\n\x1a\ntruncated"])
def test_a_logo_that_is_not_the_picture_it_says_is_one_line_and_no_logo(tmp_path, capsys, data):
    (tmp_path / "logo.png").write_bytes(data)
    brand = load_brand(_write(tmp_path, f"logo: logo.png\ncolor: {{primary: '{GREEN}'}}\n"))
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and "logo.png" in said[0] and "no logo (today's default)" in said[0]
    assert brand.logo is None and brand.logo_bytes() == b"" and brand.primary == GREEN  # the rest kept


_HEX6 = st.tuples(*[st.integers(0, 255)] * 3).map(lambda rgb: "#%02x%02x%02x" % rgb)


@settings(max_examples=200, deadline=None)
@given(_HEX6, st.one_of(st.none(), _HEX6))
def test_words_in_the_brand_s_accent_read_on_its_page_or_are_in_the_text_s_colour(primary, background):
    from mlperf_report.core import contrast
    from mlperf_report.core.brand import DEFAULT_BACKGROUND, DEFAULT_FOREGROUND, Brand

    brand = Brand(primary=primary, background=background)
    paper = contrast.rgb(background or DEFAULT_BACKGROUND)
    readable = contrast.ratio(contrast.rgb(primary), paper) >= contrast.TEXT
    assert brand.text_accent == (primary if readable else DEFAULT_FOREGROUND)


def test_a_light_primary_is_the_charts_colour_and_never_a_word_s():
    from mlperf_report.assemble.formats import brief
    from mlperf_report.assemble.page import brand_style
    from mlperf_report.core.brand import Brand

    yellow = Brand(primary="#ffd60a", foreground="#222222")
    assert yellow.text_accent == "#222222" and ".round { color: #222222; }" in brief.brand_css(yellow)
    assert "--accent: #ffd60a;" in brand_style(yellow) and "a, .cover-round { color: #222222; }" in brand_style(yellow)
    navy = Brand(primary="#1a237e")
    assert navy.text_accent == "#1a237e" and ".round { color: #1a237e; }" in brief.brand_css(navy)
    assert "cover-round" not in brand_style(navy)  # the accent itself reads: report.css's rule holds
    assert Brand().text_accent is None

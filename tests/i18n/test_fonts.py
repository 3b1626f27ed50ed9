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
    assert len(list(tmp_path.iterdir())) == 1

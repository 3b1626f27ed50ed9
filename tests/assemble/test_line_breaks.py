"""The cards' and the deck's line breaking (``text_fit.wrap``): no line starts with closing punctuation
or ends with opening punctuation, as Chinese typesetting has it ("：AMD以其提交…" began a card's line),
and breaking never loses or adds a character."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from mlperf_report.assemble import text_fit

_PIECES = st.sampled_from(["於", "本", "輪", "首", "次", "參", "與", "MLPerf", " Inference", " 8", "，", "。", "：",
                           "（", "）", "「", "」", " AMD", "99.9%", "、"])


@settings(max_examples=60, deadline=None)
@given(pieces=st.lists(_PIECES, min_size=1, max_size=40), width=st.floats(min_value=60, max_value=400))
@example(pieces=["MLPerf", " Inference", "：", "AMD", "以", "其"], width=95.0)
def test_no_line_starts_with_closing_or_ends_with_opening_punctuation(pieces, width):
    text = "".join(pieces).strip()
    lines = text_fit.wrap(text, 12, width, cjk=True)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    if any(text_fit.width(t.strip(), 12, cjk=True) > width * text_fit.SAFETY for t in text_fit._tokens(text)):
        return  # a word wider than the box is cut where it must be (checked above: nothing lost)
    for number, line in enumerate(lines):
        if number:
            assert line[0] not in text_fit.NO_LINE_START, lines
        if number < len(lines) - 1:
            assert line[-1] not in text_fit.NO_LINE_END, lines


def test_a_colon_stays_with_the_word_before_it():
    text = "AMD Instinct MI300X 於本輪首次參與 MLPerf Inference：AMD以其提交 6 項"
    for width in range(150, 420, 10):
        assert not any(line.startswith("：") for line in text_fit.wrap(text, 20, width, cjk=True))
